"""The erasure ledger, read one way: what is blocked, and what must be absent.

The ledger (`erasure_ledger`) holds ids and salted hashes, never text. A forget request first
commits one **request row** (`node_kind = 'request'`, its target a subject, a source message or
a claim; a request of many subjects commits one per subject, all under its one request id);
then its expansion adds one **node row** per lineage node the request covers (memory, source,
embedding, index row, export), with the node's content hash and the target that covers it. A
node under an open legal hold is `held`; the others go `blocked` -> `erased` -> `verified` (or
`failed`).

Every reader asks one of two questions, answered here and nowhere else:

* **Is it blocked?** (`blocking`): may it be used, indexed, exported or re-created? Every row
  counts, in every state, `held` included: a record under a legal hold is kept, never used.
  Readers: recall, the nightly run (arrivals and the write gate), rebuild-index, export.
* **Must it be absent?** (`erasing`): may a store still hold a copy? Every row but `held`
  counts: a hold keeps the record, so its copies in backups stay and a restore may bring it
  back (blocked still, by the first question). Readers: backup, restore, the backup purge and
  the backup proof.

What a row covers:

* a memory node row: that claim; its content hash (the claim text fingerprinted with its
  subject) stops the same subject's same claim from being created again;
* a source node row: that message, and every claim extracted from it;
* a claim or source request row: that claim or message, from the moment it commits (before
  its node rows exist);
* a subject request row: everything of the subject and of their third parties
  (`<subject>:<relation>`) stamped **at or before** the request; what is stamped later is new
  data. A stamp is compared on its own clock: what PostgreSQL stamps (`memories.created_at`,
  `gate_decisions.decided_at`) against the request's `blocked_at`, the database time at which
  the request row committed; what the caller stamps (a message's `ts`, `grants.granted_at`,
  `subject_settings.updated_at`) against its `requested_at`, the caller's time of the request.

A request is known by any of its rows (each names the target and `requested_at`; only the
request row has `blocked_at`, which otherwise falls back to `requested_at`). A request row
stands for its nodes until they exist. The blocking readers apply it to claims
and messages at once. The erasing readers act on node rows, which carry the legal hold (so a
held record is never purged from a backup), and apply subject requests only to what has no
node row: the subject's settings, grants and rejected candidates.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.engine import Connection

from lineage import NodeKind
from permem.stores.schema import erasure_ledger, memories

__all__ = [
    "REQUEST",
    "Clock",
    "ErasureLedger",
    "ForgetRequest",
    "LedgerState",
    "TargetKind",
    "blocking",
    "covers_subject",
    "erasing",
    "memory_blocked",
]

# The node kind of a request's own ledger row: what recall checks from the first commit on.
REQUEST = "request"


class LedgerState(StrEnum):
    BLOCKED = "blocked"  # unusable, not yet erased
    HELD = "held"  # unusable, kept under a legal hold
    ERASED = "erased"  # physically removed, not yet verified
    VERIFIED = "verified"  # verified absent from every store
    FAILED = "failed"  # verification found residue (see `detail`)


class TargetKind(StrEnum):
    SUBJECT = "subject"
    SOURCE = "source"
    CLAIM = "claim"


class Clock(StrEnum):
    """Who stamped a time: it decides which of a request's two times it is compared with."""

    DATABASE = "database"  # PostgreSQL's now(): compared with `blocked_at`
    CALLER = "caller"  # the caller's `now` or a message's own time: with `requested_at`


def covers_subject(target: str, subject: str) -> bool:
    """Whether a subject request for `target` reaches `subject`: the person, or one of their
    third parties (`<target>:<relation>`)."""
    return subject == target or subject.split(":", 1)[0] == target


@dataclass(frozen=True, slots=True)
class ForgetRequest:
    """A request row of the ledger (ids and times only)."""

    request_id: str
    kind: str  # a TargetKind value
    target: str
    requested_at: datetime  # the caller's time of the request
    blocked_at: datetime | None = None  # the database time it committed (None: not recorded)

    def cutoff(self, clock: Clock) -> datetime:
        if clock is Clock.DATABASE and self.blocked_at is not None:
            return self.blocked_at
        return self.requested_at

    def covers(self, subject: str, at: datetime | None, clock: Clock) -> bool:
        """Whether this is a subject request reaching `subject` stamped `at` on `clock`
        (at or before the request; `None`: not stamped yet, so covered)."""
        return (
            self.kind == TargetKind.SUBJECT
            and covers_subject(self.target, subject)
            and (at is None or at <= self.cutoff(clock))
        )


@dataclass(frozen=True, slots=True)
class ErasureLedger:
    """One tenant's ledger as read by `blocking` or `erasing` (module doc): its node ids,
    content hashes and requests, and the rule of what they cover."""

    memories: frozenset[str] = frozenset()
    sources: frozenset[str] = frozenset()
    claim_hashes: frozenset[str] = frozenset()  # subject fingerprints of memory node rows
    other_hashes: frozenset[str] = frozenset()  # content hashes of every other node row
    requests: tuple[ForgetRequest, ...] = field(default=())

    @property
    def hashes(self) -> frozenset[str]:
        return self.claim_hashes | self.other_hashes

    def subject_request(
        self, subject: str, at: datetime | None, clock: Clock
    ) -> ForgetRequest | None:
        """The latest subject request that covers `subject` stamped `at` on `clock`."""
        found = [r for r in self.requests if r.covers(subject, at, clock)]
        return max(found, key=lambda r: r.cutoff(clock)) if found else None

    def request_for(self, kind: TargetKind, target: str | None) -> ForgetRequest | None:
        """A claim or source request naming `target`, whenever it was made."""
        if target is None:
            return None
        return next((r for r in self.requests if r.kind == kind and r.target == target), None)

    def blocks_memory(
        self, memory_id: str, subject: str, source: str | None, created_at: datetime | None
    ) -> bool:
        """Whether the claim `memory_id` (of `subject`, extracted from `source`, stored at
        `created_at` by the database) is blocked: the rule `memory_blocked` states in SQL."""
        return (
            memory_id in self.memories
            or (source is not None and source in self.sources)
            or self.request_for(TargetKind.CLAIM, memory_id) is not None
            or self.request_for(TargetKind.SOURCE, source) is not None
            or self.subject_request(subject, created_at, Clock.DATABASE) is not None
        )

    def message_request(self, message_id: str, subject: str, ts: datetime) -> ForgetRequest | None:
        """The request that covers a message arriving now: a source request for its id, else
        the latest subject request made at or after its time `ts` (the caller's clock)."""
        return self.request_for(TargetKind.SOURCE, message_id) or self.subject_request(
            subject, ts, Clock.CALLER
        )


def _any(values: Iterable[str]) -> sa.ColumnElement[Any]:
    """`= ANY(:array)`: one bound array, one statement text whatever the number of values."""
    return sa.func.any(sa.literal(sorted(set(values)), ARRAY(sa.Text)))


def _read(
    conn: Connection,
    *,
    held: bool,
    memories: Collection[str] | None,
    sources: Collection[str] | None,
    subjects: Collection[str] | None,
) -> ErasureLedger:
    e = erasure_ledger.c

    def only(column: sa.ColumnElement[Any], wanted: Collection[str] | None) -> Any:
        return sa.true() if wanted is None else column == _any(wanted)

    if subjects is not None:  # a subject's requests reach their third parties
        subjects = set(subjects) | {s.split(":", 1)[0] for s in subjects}
    arms = [
        sa.and_(e.node_kind == NodeKind.MEMORY.value, only(e.node_id, memories)),
        sa.and_(e.node_kind == NodeKind.SOURCE.value, only(e.node_id, sources)),
        sa.and_(e.node_kind == REQUEST, sa.or_(
            sa.and_(e.target_kind == TargetKind.CLAIM.value, only(e.target_id, memories)),
            sa.and_(e.target_kind == TargetKind.SOURCE.value, only(e.target_id, sources)),
            sa.and_(e.target_kind == TargetKind.SUBJECT.value, only(e.target_id, subjects)),
        )),
    ]  # fmt: skip
    if memories is None:  # the hashes of the other node kinds, for whole-tenant readers
        arms.append(sa.and_(
            e.node_kind.not_in([NodeKind.MEMORY.value, NodeKind.SOURCE.value, REQUEST]),
            e.content_hash.is_not(None),
        ))  # fmt: skip
    query = sa.select(
        e.node_kind, e.node_id, e.content_hash, e.request_id, e.target_kind, e.target_id,
        e.requested_at, e.blocked_at,
    ).where(sa.or_(*arms))  # fmt: skip
    if not held:
        query = query.where(e.state != LedgerState.HELD.value)
    ids: dict[str, set[str]] = {NodeKind.MEMORY.value: set(), NodeKind.SOURCE.value: set()}
    claim_hashes: set[str] = set()
    other_hashes: set[str] = set()
    # Every row names its request's target and time; only the request row knows `blocked_at`.
    # A request of many subjects has one request row per subject, all with its id.
    requests: dict[tuple[str, str, str], ForgetRequest] = {}
    for row in conn.execute(query):
        request_id = str(row.request_id)
        key = (request_id, row.target_kind, row.target_id)
        if row.node_kind == REQUEST or key not in requests:
            blocked_at = row.blocked_at if row.node_kind == REQUEST else None
            requests[key] = ForgetRequest(
                request_id, row.target_kind, row.target_id, row.requested_at, blocked_at
            )
        if row.node_kind == REQUEST:
            continue
        ids.setdefault(row.node_kind, set()).add(row.node_id)
        if row.content_hash:
            kind = claim_hashes if row.node_kind == NodeKind.MEMORY.value else other_hashes
            kind.add(row.content_hash)
    return ErasureLedger(
        memories=frozenset(ids[NodeKind.MEMORY.value]),
        sources=frozenset(ids[NodeKind.SOURCE.value]),
        claim_hashes=frozenset(claim_hashes),
        other_hashes=frozenset(other_hashes),
        requests=tuple(requests.values()),
    )


def blocking(
    conn: Connection,
    *,
    memories: Collection[str] | None = None,
    sources: Collection[str] | None = None,
    subjects: Collection[str] | None = None,
) -> ErasureLedger:
    """The ledger of the bound tenant for the question "is it blocked?": every row, held ones
    included. `memories`, `sources` and `subjects` narrow what is read to the rows that can
    cover them (`None`: all); the memory hashes of the whole tenant come with `memories=None`."""
    return _read(conn, held=True, memories=memories, sources=sources, subjects=subjects)


def erasing(conn: Connection) -> ErasureLedger:
    """The whole ledger of the bound tenant for the question "must it be absent?": every row
    but the held ones."""
    return _read(conn, held=False, memories=None, sources=None, subjects=None)


def memory_blocked(m: sa.Table | Any = memories) -> sa.ColumnElement[bool]:
    """`ErasureLedger.blocks_memory` (of the `blocking` ledger) as a SQL condition on a
    `memories` row `m`, for readers that select claims in bulk (rebuild-index). One EXISTS
    per arm, so that its negation plans as anti-joins rather than a probe per claim."""
    memory_id = sa.cast(m.c.id, sa.Text)

    def ledger_row(**match: Any) -> sa.ColumnElement[bool]:
        e = erasure_ledger.alias()
        return sa.exists().where(*(e.c[k] == v for k, v in match.items()))

    e = erasure_ledger.alias()
    subject_request = sa.exists().where(
        e.c.node_kind == REQUEST,
        e.c.target_kind == TargetKind.SUBJECT.value,
        e.c.target_id.in_([m.c.subject, sa.func.split_part(m.c.subject, ":", 1)]),
        m.c.created_at <= sa.func.coalesce(e.c.blocked_at, e.c.requested_at),
    )
    return sa.or_(
        ledger_row(node_kind=NodeKind.MEMORY.value, node_id=memory_id),
        ledger_row(node_kind=NodeKind.SOURCE.value, node_id=m.c.source_message_id),
        ledger_row(node_kind=REQUEST, target_kind=TargetKind.CLAIM.value, target_id=memory_id),
        ledger_row(
            node_kind=REQUEST, target_kind=TargetKind.SOURCE.value, target_id=m.c.source_message_id
        ),
        subject_request,
    )
