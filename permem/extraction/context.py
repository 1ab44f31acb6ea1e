"""The context a claim leans on: the sentence or message its "it", "that", "there" or "until
then" points back to.

A claim is a verbatim span, often one clause of a longer sentence ("I work night shifts, so I
sleep during the day"), or a sentence whose referent is in the sentence or message before it
("had the mango lassi again yesterday. Honestly it's sickly, take it off my list"; "I'm off
work for the next nine weeks" … "so please don't book any work calls before that"). Stored
alone, "it" and "then" lose what they pointed to. So every candidate carries its **context**:

- the whole sentence it was cut from, when the claim is one clause of it;
- plus, when the claim leans on something said before (`leans_back`: a pronoun or a pointing
  time phrase with nothing in the claim for it to point to), the sentence before it in the
  same message, or, for the first sentence of a message, the user's previous message in the
  same conversation (`Antecedent.message_id` then names that message).

The classifier reads the context for the claim's time bounds, topic and sensitivity, the
loader for corrections by reference, and the store keeps it (redacted) as the claim's
`evidence`, with a lineage edge from the antecedent message, so that forgetting that message
forgets the claim too.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from permem.extraction.lexicon import FIRST_PERSON, PLEASANTRY
from permem.extraction.modality import CORRECTS_PREVIOUS
from permem.prefilter import guard_patterns
from permem.records import Message, Role
from permem.temporal import GOVERNED, has_bound
from permem.temporal_phrases import _BACK_ON

# A word that points back ("it", "that", "there") or a time phrase that governs by reference
# ("until then", "before that", "while I'm there", "from then on").
_POINTS_BACK = re.compile(
    r"\b(?:it|its|it's|that|this|these|those|them|they|there|then|same|such|so)\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?]+(?:\s+|$)|\n+")
# Where a sentence, or a clause after a semicolon, stops: what is cut off a claim is read back
# to here ("In case it rains tomorrow, I'll take the bus").
CLAUSE_STOP = re.compile(r"[.!?;\n]")
# Runs from which `_SENTENCE_END` matches at every position (see `Sentences`).
_END_AHEAD = re.compile(r"[.!?]+(?=\s|$)|\n")
# Or says what follows from it: "Thunderstorm tomorrow. So I'll take the bus."
_OPENS_BACK = re.compile(
    r"^\W*(?:that|this|then|there|it|it's|same|so|hence|which\s+means|that['’]s\s+why)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Antecedent:
    """What a claim leans on: text (verbatim, unredacted until the redact stage) and, when it
    comes from another message, that message's id."""

    text: str
    message_id: str | None = None


def leans_back(claim: str) -> bool:
    """The claim points back at something said before it: a pronoun, or a time phrase that
    governs by reference ("while I'm in Toronto", "until then": permem.temporal.GOVERNED)."""
    return (
        _POINTS_BACK.search(claim) is not None
        or GOVERNED.search(claim) is not None
        or CORRECTS_PREVIOUS.search(claim) is not None
    )


def meaning(claim: str, context: str | None) -> str:
    """What the claim says, for what classifies its content (sensitivity, beliefs): the claim
    with its context when it points back into it ("I never miss it": the prayer), the claim
    alone otherwise (a taste said in a sentence about income is not about money)."""
    if context and leans_back(claim):
        return f"{context} {claim}"
    return claim


def sentence_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence of `text` that holds the span start:end (sentence ends: . ! ? or a line
    break): from the end of the last sentence end before `start` (as a scan of text[:start]
    finds it) to the start of the first one a search from the span's last character finds (a
    span that ends with its own full stop ends there), and never before `end`."""
    return _sentences(text).around(start, end)


@functools.lru_cache(maxsize=256)
def _sentences(text: str) -> Sentences:
    # The cue pass and the context ask for the sentence of every clause of a message in turn.
    return Sentences(text)


class Sentences:
    """The sentence ends of one text, found once: `around` and `start_of` answer for a span in
    time independent of the text's length (scanning from the text's start for every clause was
    quadratic over the clauses of a long sentence)."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._ends = [m.end() for m in _SENTENCE_END.finditer(text)]
        # Where a sentence end can start when the search starts right there: every character
        # of a run of . ! ? followed by a space or the end, and every line break (a search
        # from inside a run finds the run's rest; `finditer` from the start only its head).
        self._starts = [i for m in _END_AHEAD.finditer(text) for i in range(m.start(), m.end())]

    def start_of(self, position: int) -> int:
        """Where the sentence holding `position` starts: the last sentence end before it, as
        a scan of text[:position] finds it. The ends of the whole text up to `position` are
        the same; then one may close at `position` itself ("ok.|", or a run of spaces cut
        short), made only of end characters: those are rescanned."""
        text = self._text
        k = bisect.bisect_right(self._ends, position)
        a = self._ends[k - 1] if k else 0
        tail = position
        while tail > a and (text[tail - 1] in ".!?" or text[tail - 1].isspace()):
            tail -= 1
        for match in _SENTENCE_END.finditer(text, tail, position):
            a = match.end()
        return a

    def around(self, start: int, end: int) -> tuple[int, int]:
        k = bisect.bisect_left(self._starts, max(start, end - 1))
        b = self._starts[k] if k < len(self._starts) else len(self._text)
        return self.start_of(start), max(b, end)


def previous_sentence(text: str, start: int) -> tuple[int, int] | None:
    """The sentence before the one starting at or after `start`, or None: it runs to the last
    character before `start` that is not a space, from the sentence end before that."""
    end = min(start, len(text))
    while end and text[end - 1].isspace():
        end -= 1
    if not end:
        return None
    a = _sentences(text).start_of(end - 1)
    return (a, end) if text[a:end].strip() else None


class Conversations:
    """Each user message's predecessor: the user's previous message in the same conversation
    (by turn, then time), among the messages of one batch."""

    def __init__(self, messages: Sequence[Message]) -> None:
        ordered = sorted(
            (m for m in messages if m.role is Role.USER and not m.incognito),
            key=lambda m: (m.tenant, m.conversation_id, m.turn, m.ts, m.message_id),
        )
        self._before: dict[tuple[str, str], Message] = {}
        for earlier, later in zip(ordered, ordered[1:], strict=False):
            if (earlier.tenant, earlier.conversation_id) == (later.tenant, later.conversation_id):
                if earlier.subject == later.subject:
                    self._before[(later.tenant, later.message_id)] = earlier

    def before(self, message: Message) -> Message | None:
        return self._before.get((message.tenant, message.message_id))


def antecedent(
    message: Message, start: int, end: int, conversations: Conversations
) -> Antecedent | None:
    """The context of the claim at message.text[start:end] (see the module docstring), or None
    when the claim is its whole sentence and leans on nothing."""
    text = message.text
    s_start, s_end = sentence_around(text, start, end)
    sentence = text[s_start:s_end].strip()
    claim = text[start:end]
    whole = sentence if sentence and sentence != claim.strip() else None
    # A clause leans back with its sentence when the sentence opens by pointing back ("That
    # day is my sister's wedding, I'm out the whole day").
    if not leans_back(claim) and not (whole and _OPENS_BACK.match(whole)):
        return Antecedent(whole) if whole else None
    before = previous_sentence(text, s_start)
    # A reaction said between ("huh, I didn't know that. ok, scrap that rule then") points at
    # nothing; the claim leans on what came before it.
    while before is not None and PLEASANTRY.match(text[before[0] : before[1]].strip()):
        before = previous_sentence(text, before[0])
    if before is not None:
        prior = text[before[0] : before[1]].strip()
        return Antecedent(f"{prior} {sentence or claim}".strip())
    earlier = conversations.before(message)
    if earlier is not None:
        last = previous_sentence(earlier.text, len(earlier.text))
        prior = earlier.text[last[0] : last[1]].strip() if last else earlier.text.strip()
        body = whole or claim
        return Antecedent(f"{prior} {body}".strip(), earlier.message_id)
    return Antecedent(whole) if whole else None


# A sentence whose subject points back at the one before it and which says only how long
# that lasts: "It runs for ten days.", "That's until June.", "Only until Sunday though."
_POINTS_BACK_BOUND = re.compile(
    r"^\W*(?:(?:and|but|so|oh|well)[\s,]+)?(?:(?:it|that|this|they|these|those|which)"
    r"(?:'s|'re|'ll\s+(?:be|last|run|go\s+on)|\s+(?:is|are|will\s+(?:be|last|run|go\s+on)|runs?|"
    r"lasts?|goes\s+on|go\s+on|ends?|finish(?:es)?|continues?|takes?|should\s+(?:last|run|take|"
    r"end|be)|(?:is|are)\s+(?:running|lasting|going\s+on)))?\s+|(?:just|only|at\s+least|at\s+most)"
    r"\s+(?=(?:until|till|til|through|for|to)\b))",
    re.IGNORECASE,
)
_BOUND_WORDS = 12


# Or when the speaker is back from what the sentence before named: "Back on the 22nd.", "I'll
# be back by Sunday.", "returning the 3rd".
_BACK_BY = re.compile(
    r"^\W*(?:(?:and|but|so)\s+)?(?:(?:i['’]ll\s+be|i\s+will\s+be|i['’]m|we['’]ll\s+be|we\s+will\s+be|"
    r"we['’]re|should\s+be)\s+)?(?:back(?:\s+home)?|home\s+again|returning|flying\s+back|coming\s+back)"
    r"\s+(?:on|by|the|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b",
    re.IGNORECASE,
)


def bound_only(text: str) -> bool:
    """The sentence only says how long the one before it lasts ("It runs for ten days.") or
    when the speaker is back from it ("Back on the 22nd.")."""
    if _BACK_BY.match(text) is not None and len(re.findall(r"[^\W_]+", text)) <= _BOUND_WORDS:
        return _BACK_ON.search(text) is not None
    return (
        _POINTS_BACK_BOUND.match(text) is not None
        and len(re.findall(r"[^\W_]+", text)) <= _BOUND_WORDS
        and has_bound(text)
        and FIRST_PERSON.search(text) is None
    )


# Last, so that what imports these names gets them guarded (permem.prefilter).
guard_patterns(globals())
