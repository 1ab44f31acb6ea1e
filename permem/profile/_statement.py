"""A claim as one normalised profile statement: "allergic to peanuts", not "I'm allergic to
peanuts, please remember that for recipes".

Deterministic rules over the claim's text, applied in this order:

1. **Requests to remember** go, with what follows them: ", please remember that for recipes",
   "- keep that in mind", "don't forget that".
2. **Openers** go: discourse markers ("actually", "well", "so", "oh", "btw", "by the way",
   "just so you know", "fyi", "for the record", "honestly") and framing ("please remember
   that", "remember that", "note that", "keep in mind that", "please"), repeated while one
   leads.
3. **The first-person frame** becomes the subject's predicate: "I'm" / "I am" go ("allergic
   to peanuts"); "I've" / "I have" become "has"; "I don't" / "I do not" become "doesn't" /
   "does not"; "I'd" becomes "would", "I'll" "will", "I was" "was"; a modal stays ("I can't
   stand mushrooms": "can't stand mushrooms"); any other verb takes the third person ("I
   prefer mornings": "prefers mornings", "I only book morning flights": "only books morning
   flights").
4. **Trailing "please"** and end punctuation go, spaces collapse, and the claim's own first
   word is lowercased when it is a common opener ("My", "Always", "Never", "Email", ...); any
   other capitalised first word (a name, an acronym, a placeholder such as `<PERSON>`) keeps
   its case, as does a word the rules reached mid-sentence.

What is left unchanged is the claim itself: a statement that matches no rule is its claim with
punctuation trimmed. Never empty: a claim that the rules would reduce to nothing stays whole.
"""

from __future__ import annotations

import re

__all__ = ["statement_of"]

_REMEMBER = (
    r"(?:please\s+)?(?:remember|note|keep\s+(?:that|this|it)\s+in\s+mind|keep\s+in\s+mind|"
    r"don'?t\s+forget|do\s+not\s+forget|bear\s+(?:that|this|it)\s+in\s+mind)"
)
# ", please remember that for recipes" / " - remember this" / "; don't forget": the request
# and everything after it.
_REMEMBER_TAIL = re.compile(
    rf"\s*(?:[,;:.!\-–—]+\s*|\s+and\s+|\s+so\s+)(?:{_REMEMBER})\b(?:\s+(?:that|this|it))?\b.*$",
    re.IGNORECASE,
)
_OPENER = re.compile(
    r"^(?:actually|well|so|oh|ok(?:ay)?|btw|by\s+the\s+way|just\s+so\s+you\s+know|fyi|"
    r"for\s+the\s+record|honestly|also|and|but|"
    rf"{_REMEMBER}\s+that|{_REMEMBER}(?=\s*[,:])|please)(?:\s*[,:;–—]\s*|\s+)",
    re.IGNORECASE,
)
_MODALS = frozenset(
    "can can't cannot could couldn't will won't would wouldn't should shouldn't must mustn't "
    "might may shall".split()
)
# An adverb between "I" and the verb: the verb after it takes the third person ("I only book
# morning flights": "only books morning flights").
_ADVERBS = frozenset(
    "usually always never often sometimes really also still just only generally mostly "
    "rarely totally absolutely definitely normally typically".split()
)
_IRREGULAR = {"have": "has", "do": "does", "go": "goes", "am": "is", "was": "was", "were": "was"}
# The first-person frame: (pattern at the start, replacement).
_FRAMES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), replacement)
    for pattern, replacement in (
        (r"^i(?:'|’)m\s+|^i\s+am\s+|^im\s+(?=\w)", ""),
        (r"^i(?:'|’)ve\s+", "has "),
        (r"^i\s+don(?:'|’)t\s+", "doesn't "),
        (r"^i\s+do\s+not\s+", "does not "),
        (r"^i(?:'|’)d\s+", "would "),
        (r"^i(?:'|’)ll\s+", "will "),
    )
)
_FIRST_PERSON_VERB = re.compile(
    rf"^i\s+(?P<adverb>(?:{'|'.join(sorted(_ADVERBS))})\s+)?(?P<verb>[a-z][a-z'’]*)\b",
    re.IGNORECASE,
)
# Words that begin a sentence in lower case once the sentence start no longer capitalises them.
_OPENERS = frozenset(
    "a an the my our your his her their this that these those no not never always only "
    "please don't do does call email text message phone keep use avoid reply respond answer "
    "write send remind show give make book order cook suggest recommend skip stop start "
    "allergic vegetarian vegan pescatarian gluten lactose".split()
)
_TRAILING_PLEASE = re.compile(r"[\s,]+please$", re.IGNORECASE)
_END = re.compile(r"[\s.,;:!?…\-–—]+$")


def _third_person(verb: str) -> str:
    """`verb` for he/she/they-singular: "prefer" -> "prefers", "watch" -> "watches"."""
    lower = verb.lower()
    if lower in _MODALS or "'" in lower or "’" in lower:
        return verb
    if lower in _IRREGULAR:
        return _IRREGULAR[lower]
    if re.search(r"(?:s|sh|ch|x|z|o)$", lower):
        return verb + "es"
    if re.search(r"[^aeiou]y$", lower):
        return verb[:-1] + "ies"
    return verb + "s"


def _frame(text: str) -> str:
    for pattern, replacement in _FRAMES:
        if pattern.search(text):
            return pattern.sub(replacement, text, count=1)
    found = _FIRST_PERSON_VERB.match(text)
    if found is not None:
        adverb = found.group("adverb") or ""
        return adverb + _third_person(found.group("verb")) + text[found.end() :]
    return text


def _lowercase_first(text: str) -> str:
    """`text` with its first letter lowercased when it is a common sentence opener."""
    first = re.match(r"[A-Z][a-z'’]*\b", text)
    if first is None or first.group().lower() not in _OPENERS:
        return text
    return text[0].lower() + text[1:]


def statement_of(claim: str) -> str:
    """The normalised statement of `claim` (module doc); never empty."""
    said = " ".join(claim.split())
    text = _REMEMBER_TAIL.sub("", said)
    while (stripped := _OPENER.sub("", text, count=1)) != text and stripped:
        text = stripped
    text = _frame(text)
    text = _TRAILING_PLEASE.sub("", _END.sub("", text))
    text = _END.sub("", text).strip()
    if not text:
        return _END.sub("", said) or claim
    # A first word the rules reached mid-sentence keeps its case; the claim's own first word
    # was capitalised by the sentence start only if it is a common opener.
    return _lowercase_first(text) if said.startswith(text[:1]) else text
