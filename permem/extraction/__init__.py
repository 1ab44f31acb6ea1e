"""Extraction: candidate claims, each tied to the exact span of the message that supports it.

`Extractor` is the contract every extractor meets (the rule extractor here; an LLM-backed one
can plug in behind it): given messages, return candidates whose claim text is a verbatim span
of the message text, so provenance is exact by construction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from spacy.tokens import Doc

from permem.extraction.cues import Cue
from permem.records import Kind, Message


@dataclass(frozen=True, slots=True)
class Candidate:
    """A claim the extractor proposes, before classification, redaction and the gate.

    `start`/`end` delimit the supporting sentence in `message.text`; `claim_start`/
    `claim_end` the claim inside it (shorter when filler or a question was cut off).
    `about` is None for the account holder, or the relation of a third party ("wife").
    `speaker` is None when the account holder typed it, or the subject of someone else typing
    on the account (`permem.extraction.speakers`: "hi it's Luna, I'm 9"), under whom the claim
    is filed and held for confirmation.
    `doc` is a parse of exactly the claim text, when the extractor has one (redaction reuses
    it instead of parsing again).
    """

    message: Message
    start: int
    end: int
    claim_start: int
    claim_end: int
    kind: Kind
    about: str | None
    cues: frozenset[Cue]
    topic: str | None
    negated: bool = False
    speaker: str | None = None
    doc: Doc | None = field(default=None, compare=False, repr=False)
    # What the claim leans on (permem.extraction.context): the sentence it was cut from and
    # what its "it"/"then" points back to; `context_source` names another message it came from.
    context: str | None = None
    context_source: str | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.start <= self.claim_start < self.claim_end <= self.end:
            raise ValueError("candidate spans must nest: start <= claim_start < claim_end <= end")
        if self.end > len(self.message.text):
            raise ValueError("candidate span runs past the message text")

    @property
    def claim_text(self) -> str:
        return self.message.text[self.claim_start : self.claim_end]

    @property
    def support_text(self) -> str:
        return self.message.text[self.start : self.end]

    @property
    def shortened(self) -> bool:
        """Words of the supporting sentence were left out (punctuation does not count)."""
        text = self.message.text
        cut = text[self.start : self.claim_start] + text[self.claim_end : self.end]
        return any(ch.isalnum() for ch in cut)


class Extractor(Protocol):
    """Turns messages into candidate claims.

    Contract: every candidate's `claim_start:claim_end` is a span of its message's text (no
    paraphrase: the claim is the user's own words, which redaction may then mask); candidates
    from non-user roles carry the cues that let the gate reject them; incognito messages
    yield nothing.
    """

    name: str

    def extract(
        self,
        messages: Sequence[Message],
        holders: Mapping[tuple[str, str], frozenset[str]] | None = None,
    ) -> list[Candidate]: ...


__all__ = ["Candidate", "Cue", "Extractor"]
