"""The objects the stages of `permem.pipeline` pass along a batch: what `prepare` found
(`Prepared`, with each tenant's `TenantState`), one candidate on its way through the stages
(`Proposal`), what `load` wrote (`LoadResult`), and the ids derived from the source
(`stable_id`), so that a re-run produces the same rows.
"""

from __future__ import annotations

import uuid
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from permem.classify import Classification
from permem.extraction import Candidate
from permem.logs import Quarantined
from permem.policy import GateOutcome
from permem.records import Message, Status, UserMemory

_NAMESPACE = uuid.UUID("6f1c8a52-3b0e-4c4f-9d55-1f1f5e0d7a11")


def stable_id(*parts: str) -> uuid.UUID:
    """A deterministic id from its parts: the same source always yields the same row."""
    return uuid.uuid5(_NAMESPACE, "\x1f".join(parts))


@dataclass
class TenantState:
    """What the gate needs to know of one tenant's stored state."""

    salt: bytes
    paused: set[str] = field(default_factory=set)
    erased_sources: set[str] = field(default_factory=set)
    erased_hashes: set[str] = field(default_factory=set)
    # (subject, topic, scope) of the usable, open-ended claims on exclusive topics stored for
    # the batch's people (`permem.arrivals.read_known`).
    usable_topics: set[tuple[str, str, str]] = field(default_factory=set)


@dataclass
class Prepared:
    """Messages of a batch that are new and may be processed, and everything set aside."""

    batch: int
    messages: list[Message]
    record_only: list[Message]  # new, recorded as processed, but not read for claims
    quarantined: list[Quarantined]
    tenants: dict[str, TenantState]
    counts: Counter[str]


@dataclass
class Proposal:
    """One candidate with its classification, redacted claim and gate outcome."""

    candidate: Candidate
    classification: Classification
    claim: str = ""
    entity_types: tuple[str, ...] = ()
    # The candidate's context, redacted like the claim (stored as the record's `evidence`).
    evidence: str | None = None
    outcome: GateOutcome | None = None
    record: UserMemory | None = None


@dataclass
class LoadResult:
    memories: int
    decisions: int
    sources: int
    quarantined: int
    superseded: list[str]
    # Claims a return brought back into use (superseded -> active, `permem.reinstatement`).
    reinstated: list[str] = field(default_factory=list)

    def status_changes(self) -> list[tuple[str, str]]:
        """(claim id, new status) for the index: supersessions, then reinstatements (a claim
        superseded and brought back in one load ends active)."""
        return [(i, Status.SUPERSEDED.value) for i in self.superseded] + [
            (i, Status.ACTIVE.value) for i in self.reinstated
        ]


def _by_tenant(messages: Iterable[Message]) -> dict[str, list[Message]]:
    grouped: dict[str, list[Message]] = defaultdict(list)
    for message in messages:
        grouped[message.tenant].append(message)
    return grouped


def _claim_id(candidate: Candidate) -> uuid.UUID:
    m = candidate.message
    return stable_id(
        "claim", m.tenant, m.message_id, str(candidate.claim_start), str(candidate.claim_end)
    )
