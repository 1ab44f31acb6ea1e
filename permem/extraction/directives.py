"""Standing directives: what the user tells the assistant to do, or how to treat them, for good.

"Keep it formal with me", "metric units for everything", "explain things with an analogy",
"keep my afternoons as free as you can", "send the weekly summary to …, keep it under one
page", "pay the rent on the 1st and warn me two days before": none of them says "always" or
"from now on", yet each lasts. A one-time task ("write me a poem", "push the team lunch to
Friday", "clear my Wednesday night", "translate this") does not.

The class, by form rather than by wording:

- **a directive**: the sentence (after a leading time adverbial such as "until then,") opens
  with an imperative (an optional "please", "so", "don't", "never", "always" first), or it is
  verbless and names how things should be for the user ("metric units for everything",
  "savoury breakfasts only for me"), or it rates options for the user ("for work calls,
  mornings are best");
- **standing**: it governs a period named before ("until then, ..."), it speaks of things
  in general (every, any, all, things, whenever, as ... as you can, by default, first ...
  then), of a recurrence (daily, weekly, every Sunday, on the 1st), of the user as the one
  being served (with me, to me, for me, like a friend), or of the form of answers (tone,
  length, units, format, language);
- **not one-time**: no one-off object right after the verb (this, that, these, a/an/one/two
  … <thing>, the following) and no single day or moment (tonight, today, tomorrow, a weekday
  without "every", this morning, next week).
"""

from __future__ import annotations

import re

from permem.extraction import lexicon as lx
from permem.extraction.modality import RETRACTION
from permem.extraction.sent_rules import scheduled_delivery
from permem.prefilter import guard_patterns
from permem.temporal import GOVERNED

# A leading time adverbial that governs the directive after it: "until then, ...".
_LEADING_BOUND = re.compile(
    r"^\s*(?:so\s+|and\s+|also\s+)?(?:until|till|til|before|after|from|starting|as of|while|"
    r"during|for the next|for now|in the meantime|meanwhile)\b[^,;:]{0,40}[,;:]\s*",
    re.IGNORECASE,
)
_VERB = (
    r"(?:be|keep|stay|use|answer|reply|respond|write|talk|speak|address|call|text|email|"
    r"remind|show|send|give|make|assume|suggest|recommend|plan|book|schedule|put|format|"
    r"spell|mention|remember|note|save|let|skip|include|exclude|report|explain|describe|"
    r"decline|refuse|reject|accept|warn|flag|alert|notify|ask|check|pay|tell|treat|stick|"
    r"limit|cap|default|stop|avoid|leave|hold|go|cut|double-check|round|convert|list|sort|"
    r"order|pick|choose|prefer|lead|start|end|finish|open|close|block|clear|move|push|cancel|"
    r"quote|cite|link|translate|summari[sz]e|label|mark|tag|add|drop|ignore|focus|prioriti[sz]e|"
    r"steer|point|bring|file|submit|transfer|ping|renew|water|feed|buy|get|set|run|turn|track|"
    r"log|record|update|wake|top\s+up|back\s+up|compose|draft|prepare|rewrite|redo|edit|"
    r"proofread|polish)"
)
_OPENERS = r"(?:please|pls|plz|kindly|just|so|and|also|now|actually|ok|okay|oh|sorry|no|then)"
_IMPERATIVE = re.compile(
    rf"^\s*(?:{_OPENERS}[\s,]+)*"
    rf"(?:(?:don't|do not|never|always|only|ever)\s+)?{_VERB}\b",
    re.IGNORECASE,
)
# Verbless: "<what> for everything / for me / with me / only for me / please".
_VERBLESS = re.compile(
    r"^\s*(?!(?:i|i'm|we|my|it|this|that|there|here)\b)[\w' -]{2,60}?\s+"
    r"(?:(?:only|just|always)\s+)?(?:for|with|to)\s+(?:me|us|everything|anything|all)\b|"
    # "Nothing sweet for breakfast, please", "no onions in anything, please".
    r"^\s*(?:no|nothing|only|never|always|zero)\b[^.!?]{2,60}?\bplease\b",
    re.IGNORECASE,
)
# "For work calls, mornings are best"; "evenings work best for me".
_RATING = re.compile(
    r"\b(?:is|are|work|works)\s+(?:best|ideal|preferred|better)\b|\b(?:best|ideal)\s+for\s+me\b",
    re.IGNORECASE,
)
_GENERAL = re.compile(
    r"\b(?:every(?:thing|one|where|\s+\w+)?|any(?:thing|one|where|\s+\w+)?|all|things|"
    r"whenever|each|always|never|by default|in general|generally|as\s+\w+\s+as\s+"
    r"(?:you\s+can|possible|you\s+could)|first\b.{0,40}\bthen|daily|weekly|monthly|yearly|"
    r"nightly|fortnightly|each\s+\w+|on\s+the\s+\d{1,2}(?:st|nd|rd|th)|"
    r"\w+s\s+only|only\b|no\s+\w+|nothing\s+\w+|at most|max(?:imum)?|under\s+\w+|over\s+\w+)\b",
    re.IGNORECASE,
)
_SERVED = re.compile(
    r"\b(?:with|to|for)\s+me\b|\bme\s+like\b|\bmy\s+(?:\w+\s+)?\w+s\b|"
    # A kind of thing rather than one thing: "for local recommendations", "for restaurants".
    r"\bfor\s+(?:\w+\s+)?\w{3,}(?<!ss)s\b",
    re.IGNORECASE,
)
_ANSWER_FORM = re.compile(
    r"\b(?:answers?|repl(?:y|ies)|responses?|explanations?|version|summar(?:y|ies)|details|"
    r"analog(?:y|ies)|examples?|bullet(?:s| points?)?|units|tone|formal|casual|emoji|"
    r"sentences|paragraphs?|words|jargon|language|spelling|format|style|short|brief|long|"
    r"concise|detailed|simple|plain)\b",
    re.IGNORECASE,
)
_ONE_OFF_OBJECT = re.compile(
    rf"^\s*(?:{_OPENERS}[\s,]+)*{_VERB}\s+(?:me\s+|us\s+)?"
    r"(?:this|that|these|those|the following|a|an|one|two|three|four|five|some|another)\b"
    r"(?!\s+(?:\w+\s+)?(?:way|kind|style|tone|version|analogy|analogies)\b)",
    re.IGNORECASE,
)
# "the" names one thing to make now ("write the complaint to the airline as harsh as you
# can"), not a kind of thing ("write the emails in British English") nor a state to keep
# ("keep the heating at 19": `_MAINTAIN` is read before this).
_ONE_DEFINITE_OBJECT = re.compile(
    # Verbs that make or fetch a thing; "pay the rent", "water the plants" keep a duty.
    rf"^\s*(?:{_OPENERS}[\s,]+)*(?:write|draft|compose|make|create|design|prepare|book|find|"
    r"pick|choose|order|buy|get|send|edit|proofread|rewrite|translate|summari[sz]e|fix|plan|do|redo|"
    r"polish|organi[sz]e|arrange|reply\s+to|answer)\s+(?:me\s+|us\s+)?the\b"
    r"(?=(?:\s+[\w'-]+){1,3}?\s+(?:to|for|about|on|in|as|with|from|so|and)\b|"
    r"(?:\s+[\w'-]+){1,3}\s*[.!,]?\s*$)"
    r"(?!(?:\s+[\w'-]+){0,2}?\s+[a-z]{3,}(?<!ss)s\b)"
    r"(?!\s+(?:\w+\s+)?(?:way|kind|style|tone|version|format|language|spelling)\b)",
    re.IGNORECASE,
)
_ONE_THING = re.compile(
    r"^\s*(?:just\s+)?(?:a|an|one|two|three|four|some|another|the|this|that)\s+", re.IGNORECASE
)
_ONE_MOMENT = re.compile(
    r"\b(?:tonight|today|tomorrow|right now|this (?:morning|afternoon|evening|weekend|week)|"
    r"next (?:week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
    r"(?<!every )(?<!on )(?:mon|tues|wednes|thurs|fri|satur|sun)day\b(?!s))",
    re.IGNORECASE,
)


# "Until then keep my calendar clear": a pointing bound needs no comma.
_LEADING_POINTER = re.compile(
    r"^\s*(?:so\s+|and\s+)?(?:until|till|til|before)\s+(?:then|that(?:\s+(?:date|day|time))?|"
    r"i'm\s+back|i\s+get\s+back|i\s+return)\b[,\s]*",
    re.IGNORECASE,
)


def _body(text: str) -> str:
    lead = _LEADING_BOUND.match(text) or _LEADING_POINTER.match(text)
    return text[lead.end() :] if lead else text


# A labelled rule: "work calls: mornings only, nothing after 4pm".
_LABELLED = re.compile(
    r"^\s*(?!(?:note|ps|p\.s|update|edit|q|a|question|answer)\b)[^\W\d_][\w' -]{1,40}:\s+"
    r"(?=[^:]*\b(?:only|never|always|no|nothing|every|any|max|min|at most|at least)\b)",
    re.IGNORECASE,
)


def is_directive(text: str) -> bool:
    """The sentence tells the assistant what to do or how things should be for the user."""
    body = _body(text)
    if body.rstrip().endswith("?"):
        return False
    return bool(
        _IMPERATIVE.match(body)
        or _VERBLESS.match(body)
        or _RATING.search(body)
        or _LABELLED.match(body)
    )


_CLAUSES = re.compile(r"\s*(?:[,;:—]|\s-\s|\bso\b|\band then\b)\s*", re.IGNORECASE)


def standing_directive(text: str) -> bool:
    """A directive that lasts (see the module docstring), in the sentence or in one of its
    clauses ("I'm saving hard, warn me about any purchase over 50"), or when what the assistant
    sends arrives (`scheduled_delivery`); pure, no parse."""
    if _standing(text) or scheduled_delivery(text):
        return True
    clauses = [c for c in _CLAUSES.split(text) if c and c.strip()]
    return len(clauses) > 1 and any(_standing(c) for c in clauses[1:])


# Keeping a state is standing by itself ("keep work stuff off my calendar", "avoid …"), and
# so is acting on a kind of thing ("decline work meetings", "flag purchases over 50").
_MAINTAIN = re.compile(
    rf"^\s*(?:{_OPENERS}[\s,]+)*(?:(?:don't|do not|never|always)\s+\w+|keep|avoid|stay|stick|"
    rf"limit|stop)\b",
    re.IGNORECASE,
)
_BARE_PLURAL = re.compile(
    rf"^\s*(?:{_OPENERS}[\s,]+)*(?:decline|reject|refuse|accept|flag|skip|block|mute|hide|"
    rf"cancel|ignore|filter|warn\s+me\s+about|forward|route|label|mark|tag|archive|sort|"
    rf"convert|translate|round|send|cc|bcc|screen|hold)\s+(?:all\s+|any\s+)?(?:my\s+)?"
    rf"(?:[a-z]+\s+)?[a-z]{{3,}}(?<!ss)s\b",
    re.IGNORECASE,
)


_RECURS = re.compile(
    r"\b(?:every|each\s+time|whenever|always|from\s+now\s+on|going\s+forward|in\s+future|"
    r"daily|weekly|fortnightly|monthly|quarterly|yearly|annual|annually|nightly|"
    r"in\s+the\s+future|by\s+default|all\s+my|any\s+time)\b",
    re.IGNORECASE,
)


def _standing(text: str) -> bool:
    if not is_directive(text):
        return False
    body = _body(text)
    if (_MAINTAIN.match(body) or _BARE_PLURAL.match(body)) and not _ONE_MOMENT.search(body):
        if not _ONE_OFF_OBJECT.match(body):
            return True
    # "A latte for me, please": one thing, now; "oat lattes for me" is a standing taste.
    if not _IMPERATIVE.match(body) and _ONE_THING.match(body):
        return False
    # "make that 500 max" corrects what was said (modality.RETRACTION); "make this" a task.
    correcting = RETRACTION.search(body) is not None
    # One object made now, unless the sentence says it recurs ("add a summary to every reply").
    one_object = (
        _ONE_OFF_OBJECT.match(body) is not None or _ONE_DEFINITE_OBJECT.match(body) is not None
    ) and _RECURS.search(body) is None
    if (one_object and not correcting) or _ONE_MOMENT.search(body):
        return False
    return bool(
        _GENERAL.search(body)
        or _SERVED.search(body)
        or _ANSWER_FORM.search(body)
        or lx.LANGUAGE.search(body)
        or lx.STANDING_INSTRUCTION.search(body)
        # "until then, …", "while I'm there, …": it lasts for the period it names.
        or GOVERNED.search(text)
    )


# Last, so that what imports these names gets them guarded (permem.prefilter).
guard_patterns(globals())
