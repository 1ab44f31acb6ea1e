"""The cheap first pass: split messages into sentences and keep the few worth parsing.

Parsing is the whole cost of the nightly run (DESIGN.md: ~400 sentences/s for the full spaCy
pipeline here, against ~160,000 messages/s for reading and loading), so only sentences that
carry a cue of durable, personal content reach the parser: first person with a durable verb,
standing instructions, remember requests, third parties, choices among offered options,
corrections on a known topic, and project facts inside a project scope. Assistant and system
messages never yield claims; documents, tools and imports only yield their instruction-like
lines, so that the write gate can reject them visibly.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum

from permem.extraction import lexicon as lx
from permem.records import Message, Role


class Cue(StrEnum):
    FIRST_PERSON = "first_person"
    DURABLE = "durable"
    INSTRUCTION = "instruction"
    REMEMBER_REQUEST = "remember_request"
    LANGUAGE = "language"
    CORRECTION = "correction"
    ONE_OFF = "one_off"
    HEDGE = "hedge"
    PLAN = "plan"
    PAST = "past"
    THIRD_PARTY = "third_party"
    CHOICE = "choice"
    BELIEF = "belief"
    PLANTED = "planted_instruction"
    IMPORT_FIELD = "import_field"
    SCOPE_FACT = "scope_fact"
    ELLIPTICAL = "elliptical"


@dataclass(frozen=True, slots=True)
class SentenceCue:
    """A sentence (or clause) of a message that is worth parsing, with what was seen in it."""

    message: Message
    start: int
    end: int
    cues: frozenset[Cue]
    topic: str | None
    relation: str | None

    @property
    def text(self) -> str:
        return self.message.text[self.start : self.end]


# A sentence ends at . ! ? followed by space or end, or at a line break.
_SENTENCE = re.compile(r"(?:[^.!?\n]|[.!?]+(?=\S))+[.!?]*")
# A new clause starts where the speaker restarts with themselves as subject.
_CLAUSE_BREAK = re.compile(
    r"(?:,\s*|;\s*|\s+-+\s+|\s+—\s+|\s+(?:and|but|so|plus)\s+)"
    r"(?=(?:i|i'm|im|i've|i'd|i am|i was|my)\b)",
    re.IGNORECASE,
)
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_ELLIPTICAL_OPENER = re.compile(
    r"^\s*(?:(?:also|and|but|so|now)[\s:,]+)?(?:doing|eating|paid|working|living|staying|"
    r"trying|following|taking|on|off|no|not|only|still|back|currently|always|never|mostly|"
    r"thinking|planning|considering|hoping|might|maybe|probably|"
    r"usually)\b",
    re.IGNORECASE,
)


_PAST_OPENER = re.compile(
    r"^\s*(?:just\s+|finally\s+|also\s+)?(?:started|took|went|joined|finished|got|had|bought|"
    r"moved|quit|been|tried|visited|ran|won|lost|made|adopted|signed up)\b",
    re.IGNORECASE,
)


def sentences(text: str) -> Iterator[tuple[int, int]]:
    """Character spans of the clauses of `text`, whitespace trimmed."""
    for match in _SENTENCE.finditer(text):
        start, end = match.span()
        pieces = [start]
        pieces.extend(start + m.start() for m in _CLAUSE_BREAK.finditer(match.group()))
        pieces.append(end)
        for a, b in zip(pieces, pieces[1:], strict=False):
            piece = text[a:b]
            stripped = piece.strip(" \t,;:-—")
            if not stripped:
                continue
            lead = piece.index(stripped[0])
            yield a + lead, a + lead + len(stripped)


def _is_request(text: str, cues: set[Cue]) -> bool:
    """A question or a request for help now, rather than a statement that lasts."""
    opener = lx.REQUEST_OPENERS.match(text) is not None
    if text.rstrip().endswith("?"):
        return opener or not (Cue.FIRST_PERSON in cues and Cue.DURABLE in cues)
    return opener and Cue.INSTRUCTION not in cues


def _first_person_statement(text: str) -> bool:
    """A sentence in which the speaker says something lasting about themselves."""
    if lx.IDENTITY.match(text) or lx.PERFECT_OR_HAVE.match(text):
        return True
    present = lx.PRESENT_STATEMENT.match(text)
    if present and present.group("verb").lower() not in lx.NOT_PRESENT_VERBS:
        return not present.group("verb").lower().endswith("ed")
    return False


def _user_cues(message: Message, text: str, remember: bool) -> tuple[set[Cue], str | None]:
    cues: set[Cue] = set()
    first_person = lx.FIRST_PERSON.search(text) is not None
    if first_person:
        cues.add(Cue.FIRST_PERSON)
    if (
        lx.STRONG_TASTE.search(text)
        or lx.HABIT.search(text)
        or lx.MY_DURABLE.search(text)
        or (first_person and _first_person_statement(text))
    ):
        cues.add(Cue.DURABLE)
    if lx.STANDING_INSTRUCTION.search(text) or lx.FORMAT_INSTRUCTION.search(text):
        cues.add(Cue.INSTRUCTION)
    if remember:
        cues.add(Cue.REMEMBER_REQUEST)
    for pattern, cue in (
        (lx.LANGUAGE, Cue.LANGUAGE),
        (lx.CORRECTION, Cue.CORRECTION),
        (lx.ONE_OFF, Cue.ONE_OFF),
        (lx.HEDGE, Cue.HEDGE),
        (lx.PLAN, Cue.PLAN),
        (lx.PAST_EVENT, Cue.PAST),
        (lx.CHOICE, Cue.CHOICE),
        (lx.BELIEF, Cue.BELIEF),
    ):
        if pattern.search(text):
            cues.add(cue)
    if lx.THIRD_PARTY_SUBJECT.search(text):
        cues.add(Cue.THIRD_PARTY)
    if message.scope != "global":
        cues.add(Cue.SCOPE_FACT)
    if _ELLIPTICAL_OPENER.match(text):
        cues.add(Cue.ELLIPTICAL)
    topic = next((name for name, p in lx.TOPICS.items() if p.search(text)), None)
    return cues, topic


def _worth_parsing(text: str, cues: set[Cue], topic: str | None) -> bool:
    if len(_WORD.findall(text)) < 2 or lx.PLEASANTRY.match(text):
        return False
    if _is_request(text, cues):
        return False
    if lx.TASK_OPENER.match(text) and not lx.STANDING_INSTRUCTION.search(text):
        return False
    if Cue.FIRST_PERSON in cues and (Cue.DURABLE in cues or Cue.CHOICE in cues):
        return True
    # A first-person past event with a time word ("I ran my first marathon yesterday",
    # "took a short trip last week").
    if Cue.PAST in cues and (Cue.FIRST_PERSON in cues or _PAST_OPENER.match(text)):
        return True
    if Cue.FIRST_PERSON in cues and (Cue.PLAN in cues or Cue.BELIEF in cues):
        return True
    if Cue.INSTRUCTION in cues or Cue.THIRD_PARTY in cues or Cue.CHOICE in cues:
        return True
    # A polite constraint without a subject: "no peanuts in anything please".
    polite = re.search(r"\b(?:please|pls|plz|stp)\b", text, re.I) is not None
    if polite and (lx.STRONG_TASTE.search(text) or re.match(r"^\s*no\s+\w", text, re.I)):
        return True
    # A one-off exception is kept for its session, so it must be seen to be kept apart.
    if Cue.ONE_OFF in cues:
        return True
    if Cue.LANGUAGE in cues and re.search(r"\b(?:please|pls|plz|stp|for me|only)\b", text, re.I):
        return True
    if topic is not None and (
        Cue.CORRECTION in cues
        or Cue.ELLIPTICAL in cues
        or lx.CONSTRAINT.search(text)
        or lx.PREFERENCE.search(text)
    ):
        return True
    if Cue.ELLIPTICAL in cues and Cue.PLAN in cues:
        return True
    # Inside a project or workspace, plain statements describe that project.
    return Cue.SCOPE_FACT in cues and len(_WORD.findall(text)) >= 4 and "?" not in text


def _plainly_not_a_claim(text: str) -> bool:
    """Cheap checks first: most sentences are questions, tasks or pleasantries."""
    if len(_WORD.findall(text)) < 2 or lx.PLEASANTRY.match(text):
        return True
    if text.rstrip().endswith("?") and lx.REQUEST_OPENERS.match(text):
        return True
    return lx.TASK_OPENER.match(text) is not None and not lx.STANDING_INSTRUCTION.search(text)


def _remember_only(text: str) -> bool:
    """ "Please remember that." carries no claim of its own."""
    rest = lx.REMEMBER_REQUEST.sub(" ", text)
    rest = re.sub(
        r"\b(?:please|pls|that|this|it|and|so|for|me|ok|okay|thanks)\b", " ", rest, flags=re.I
    )
    return len(_WORD.findall(rest)) == 0


def select(message: Message) -> list[SentenceCue]:
    """The sentences of one message that the rules should look at (empty for most)."""
    if message.incognito or message.role in (Role.ASSISTANT, Role.SYSTEM):
        return []
    spans = list(sentences(message.text))
    selected: list[SentenceCue] = []
    if message.role is not Role.USER:
        # Untrusted content: only its instruction-like lines become (rejected) candidates,
        # and every field of an imported profile is a candidate of origin `imported`.
        for start, end in spans:
            text = message.text[start:end]
            cues: set[Cue] = set()
            if lx.PLANTED_INSTRUCTION.search(text):
                cues.add(Cue.PLANTED)
            if message.role is Role.IMPORT and lx.IMPORT_FIELD.match(text):
                cues.add(Cue.IMPORT_FIELD)
            if cues:
                selected.append(SentenceCue(message, start, end, frozenset(cues), None, None))
        return selected
    belief = lx.BELIEF.search(message.text) is not None
    for start, end in spans:
        text = message.text[start:end]
        prefix = lx.DISCOURSE_PREFIX.match(text)
        core = text[prefix.end() :] if prefix and prefix.end() < len(text) else text
        # A remember request covers its own sentence; "Please remember that." on its own
        # covers the sentence before it, and nothing else of the message.
        remember = lx.REMEMBER_REQUEST.search(core) is not None
        if remember and _remember_only(core):
            if selected and selected[-1].end <= start:
                last = selected[-1]
                selected[-1] = SentenceCue(
                    message, last.start, last.end, last.cues | {Cue.REMEMBER_REQUEST},
                    last.topic, last.relation,
                )  # fmt: skip
            continue
        if _plainly_not_a_claim(core):
            continue
        cues, topic = _user_cues(message, core, remember)
        if belief:
            # "oh here's mine: the Great Wall is ... I've always believed that": the belief
            # cue of one sentence covers the message.
            cues.add(Cue.BELIEF)
        if not _worth_parsing(core, cues, topic):
            continue
        relation_match = lx.THIRD_PARTY_SUBJECT.search(text)
        relation = relation_match.group("relation").lower() if relation_match else None
        selected.append(SentenceCue(message, start, end, frozenset(cues), topic, relation))
    return selected


def select_many(messages: Sequence[Message]) -> list[SentenceCue]:
    return [cue for message in messages for cue in select(message)]
