"""Who is typing: a change of speaker on an account, carried through the rest of the conversation.

An account is often used for a while by someone other than its holder: a child on a parent's
tablet, a partner borrowing a phone. What they say about themselves is not the holder's, and
recalled for the holder it would personalise wrongly ("I hate broccoli" from the child planning
the parent's dinners). The log says nothing about it unless the line carries a `subject` (the
shared-account profiles of FORMATS.md); the text does, in a few structural ways:

- a self-introduction naming someone other than the holder: "this is N", "it's N", "N here",
  "my name is N", "I'm N" (a proper name, not the holder's);
- a disclaimer that the holder is not typing: "not <holder>", "this isn't <holder>";
- a device or account that is someone else's: "borrowing the/his/my sister's phone", "using my
  dad's account", "on mum's ipad", "my mother said I can use the ipad";
- an age that marks a child ("I'm 8", "im 10 years old", "I am twelve", "I'm in 4th grade"):
  an adult's age ("I'm 30") is no change, the holder may say it.

From the sentence that shows the change on, for the rest of that conversation (its later
messages, by time then turn) until a hand-back ("it's <holder> again", "back to me", an
introduction of the holder), the user's claims are the other speaker's: attributed to the
subject `<account>:<name>` (lower-cased; `<account>:guest` when no name is given) and held for
confirmation by the gate (`other_speaker`), so they are never served to the holder, nor to
anyone until confirmed. The fragments that only show the change ("hi its N", "im 10 years old",
"borrowing the phone") are no claim about anyone and are dropped. A message that carries an
explicit `subject` keeps it and does not take part.

The holder's names are the parts of the account id ("k.nakashima": "nakashima", initial "k")
and the names a disclaimer gave ("not Kai": Kai is who the account expects). A name whose
initial is the holder's counts as the holder's only when nothing else in the message says
someone else is typing.

What one message says is read by `permem.extraction.speaker_markers`, whose word lists are
small and closed (devices, relations, number words, greetings, calendar words and common
adjectives that can follow "I'm"/"it's" capitalised); the rest is structure: which fragment of
a message, in which position, says what. This module follows the change through a conversation.
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from permem.extraction import Candidate
from permem.extraction.labels import said_of
from permem.extraction.speaker_markers import _read, holder_names
from permem.logs import identifier_problem
from permem.nlp import load_pipeline
from permem.prefilter import guard_patterns
from permem.records import Message, Role

GUEST = "guest"
_SENTENCE_END = re.compile(r"[.!?\n]")

__all__ = [
    "GUEST", "Turn", "attribute", "attribute_candidates", "english_words", "helped_holders",
    "holder_names",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Turn:
    """Who speaks where in one user message.

    `changes` are (offset, speaker) pairs in order: from `offset` on, the text is `speaker`'s
    (a subject id), or the holder's when `speaker` is None. `markers` are the spans of the
    fragments that only show a change of speaker.
    """

    changes: tuple[tuple[int, str | None], ...]
    markers: tuple[tuple[int, int], ...] = ()
    # The holder's names known by then (the account's, and those a disclaimer gave: "not
    # Kai typing"): a sentence about the holder by name is the holder's, whoever types it.
    holder: frozenset[str] = frozenset()

    def speaker_at(self, offset: int) -> str | None:
        speaker: str | None = None
        for start, who in self.changes:
            if start <= offset:
                speaker = who
        return speaker


def _subject(account: str, name: str | None) -> str:
    """`<account>:<name>`, lower-cased, or `<account>:guest` when the name cannot be an id."""
    person = re.sub(r"\s+", "-", name.strip()).casefold() if name else GUEST
    subject = f"{account}:{person}"
    return subject if identifier_problem(subject) is None else f"{account}:{GUEST}"


def _sentence_start(text: str, offset: int) -> int:
    """Where the sentence holding `offset` starts: a change of speaker covers its sentence."""
    ends = [m.end() for m in _SENTENCE_END.finditer(text, 0, offset)]
    return ends[-1] if ends else 0


def _conversations(messages: Sequence[Message]) -> Mapping[tuple[str, str, str], list[Message]]:
    grouped: dict[tuple[str, str, str], list[Message]] = defaultdict(list)
    for message in messages:
        if message.role is Role.USER and message.subject == message.account:
            grouped[(message.tenant, message.account, message.conversation_id)].append(message)
    for group in grouped.values():
        group.sort(key=lambda m: (m.ts, m.turn, m.message_id))
    return grouped


@functools.cache
def english_words() -> frozenset[str]:
    """The lemmas the spaCy model's lemmatizer knows (WordNet's nouns, verbs, adjectives and
    adverbs, about 90,000): a capitalised word among them may be no name ("Omnivore here")."""
    lemmatizer: Any = load_pipeline().get_pipe("lemmatizer")
    index = lemmatizer.lookups.get_table("lemma_index")
    return frozenset(word for words in index.values() for word in words)


def attribute(
    messages: Sequence[Message], words: Container[str] | None = None
) -> dict[tuple[str, str], Turn]:
    """For each user message (keyed by tenant and message id) that someone other than the
    account holder typed, in whole or from some sentence on, who typed what; messages absent
    from the answer are the holder's. Messages with an explicit `subject` keep it (absent).
    `words` are the English words (default `english_words()`)."""
    turns: dict[tuple[str, str], Turn] = {}
    conversations = _conversations(messages)
    if not conversations:
        return turns
    known = english_words() if words is None else words
    for (_, account, _), conversation in conversations.items():
        current: str | None = None
        known_holder: set[str] = set()
        account_names, _ = holder_names(account)
        for message in conversation:
            seen = _read(message, known_holder, known)
            changes: list[tuple[int, str | None]] = [(0, current)]
            if seen.other_at is not None:
                known_holder.update(seen.disclaimed)
                if seen.intro is None and current is not None:
                    new = current  # the same visitor says more about themselves
                else:
                    new = _subject(account, seen.intro)
                changes.append((_sentence_start(message.text, seen.other_at), new))
                current = new
            back = seen.holder_at
            if (
                back is not None
                and current is not None
                and (seen.other_at is None or back > seen.other_at)
            ):
                changes.append((_sentence_start(message.text, back), None))
                current = None
            if any(who is not None for _, who in changes):
                turns[(message.tenant, message.message_id)] = Turn(
                    tuple(changes), tuple(sorted(seen.markers)), account_names | known_holder
                )
    return turns


def helped_holders(turns: Mapping[tuple[str, str], Turn]) -> dict[tuple[str, str], frozenset[str]]:
    """For each user message (by tenant and message id) that someone other than the holder
    typed in whole or in part (`turns`, from `attribute`), the holder's names known by then:
    what that someone says of the holder by name ("Kai goes to bed early") is a claim of the
    holder's (`permem.extraction.labels.said_of`)."""
    return {
        key: turn.holder
        for key, turn in turns.items()
        if turn.holder and any(who is not None for _, who in turn.changes)
    }


_FILLER = re.compile(
    r"\b(?:hi+|hey+|hello|hiya|heya|yo|ok(?:ay)?|oh|um+|uh+|so|well|sorry|lol|haha+|btw|"
    r"and|but|just|also|now|here|there|again|the|a|an)\b",
    re.IGNORECASE,
)


def _only_markers(candidate: Candidate, markers: Sequence[tuple[int, int]]) -> bool:
    """The claim says nothing but who is typing: outside the marker fragments only filler."""
    text = candidate.message.text
    rest = list(text[candidate.claim_start : candidate.claim_end])
    touched = False
    for start, end in markers:
        a, b = max(start, candidate.claim_start), min(end, candidate.claim_end)
        if a < b:
            touched = True
            for i in range(a - candidate.claim_start, b - candidate.claim_start):
                rest[i] = " "
    if not touched:
        return False
    left = _FILLER.sub(" ", "".join(rest))
    return not re.search(r"[^\W\d_]{2,}", left)


def attribute_candidates(
    messages: Sequence[Message],
    candidates: Sequence[Candidate],
    turns: Mapping[tuple[str, str], Turn] | None = None,
) -> list[Candidate]:
    """The candidates with the speaker of their sentence: the holder's unchanged, another
    speaker's with `speaker` set (classify files them under it; the gate holds them), and the
    candidates that only say who is typing dropped. `turns`: `attribute(messages)`, when the
    caller has it already."""
    turns = attribute(messages) if turns is None else turns
    if not turns:
        return list(candidates)
    result: list[Candidate] = []
    for candidate in candidates:
        message = candidate.message
        turn = turns.get((message.tenant, message.message_id))
        if turn is None or message.role is not Role.USER:
            result.append(candidate)
            continue
        if _only_markers(candidate, turn.markers):
            continue
        speaker = turn.speaker_at(candidate.claim_start)
        if speaker is not None and said_of(message.text[candidate.claim_start :], turn.holder):
            # "not Kai typing, it's Amara ... Kai's English is basic": said for the holder, of
            # the holder, by someone helping on the holder's account.
            speaker = None
        result.append(candidate if speaker is None else replace(candidate, speaker=speaker))
    return result


# Last, so that what imports these names gets them guarded (permem.prefilter).
guard_patterns(globals())
