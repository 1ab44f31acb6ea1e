"""What the stores say about a supplied item: the evidence rows the metrics read.

`StoreView` is read once per recall step (no control runs while its queries are answered):
every stored claim of every tenant (any status; erased claims are gone), by id and by source
message, each tenant's erasure ledger, which subjects are paused, and the raw messages the
scenario's logs held so far. `claim_evidence` describes a stored claim (a recalled record, a
profile line's cited claim); `message_evidence` a raw message, speaking with the fields of the
most usable claim extracted from it (when one is stored; otherwise the reasons the write gate
gave for rejecting its candidates) and the message's own metadata.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from permem.controls import subject_paused
from permem.erasure.ledger import ErasureLedger, blocking
from permem.eval.metrics import Evidence
from permem.extraction.sensitive import sensitivity_of
from permem.records import GateDecision, Message, Sensitivity, Status, UserMemory
from permem.stores.database import Database, list_tenants, tenant_transaction
from permem.stores.memories import list_memories
from permem.stores.schema import gate_decisions

__all__ = ["StoreView", "claim_evidence", "message_evidence", "subject_of"]

_SENSITIVITY_ORDER = [s.value for s in Sensitivity]  # none, personal, special
# Which of a message's claims speaks for it: the most usable one first.
_STATUS_ORDER = [s.value for s in (Status.ACTIVE, Status.SESSION_ONLY)]
_CONFIRMATION_ORDER = ["confirmed", "unconfirmed", "pending", "rejected"]


def subject_of(message: Message) -> str:
    """Who a message is about: its subject, by default its account."""
    return message.subject or message.account


@dataclass
class StoreView:
    """The stores as they stand at one recall step (module docstring)."""

    claims: dict[uuid.UUID, UserMemory] = field(default_factory=dict)
    by_source: dict[tuple[str, str], list[UserMemory]] = field(default_factory=dict)
    ledgers: dict[str, ErasureLedger] = field(default_factory=dict)
    paused: set[tuple[str, str]] = field(default_factory=set)
    rejected: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict)
    messages: Mapping[tuple[str, str], Message] = field(default_factory=dict)
    _by_subject: dict[tuple[str, str], list[Message]] | None = None

    @classmethod
    def read(cls, db: Database, messages: Mapping[tuple[str, str], Message]) -> StoreView:
        view = cls(messages=messages)
        subjects: dict[str, set[str]] = {}
        for tenant, _ in messages:
            subjects.setdefault(tenant, set())
        for m in messages.values():
            subjects[m.tenant].add(subject_of(m))
        for tenant in sorted(set(list_tenants(db)) | set(subjects)):
            with tenant_transaction(db.app, tenant) as conn:
                records = list_memories(conn, None)
                view.ledgers[tenant] = blocking(conn)
                wanted = subjects.get(tenant, set()) | {r.subject for r in records}
                view.paused |= {(tenant, s) for s in wanted if subject_paused(conn, s)}
                view.rejected.update(_rejections(conn, tenant))
            for r in records:
                view.claims[r.id] = r
                if r.source.message_id:
                    view.by_source.setdefault((tenant, r.source.message_id), []).append(r)
        return view

    def ledger(self, tenant: str) -> ErasureLedger:
        return self.ledgers.get(tenant, ErasureLedger())

    def history(self, tenant: str, subject: str) -> list[Message]:
        """The raw messages of `subject` in `tenant`, in the order they were read."""
        if self._by_subject is None:
            self._by_subject = {}
            for m in self.messages.values():
                self._by_subject.setdefault((m.tenant, subject_of(m)), []).append(m)
        return self._by_subject.get((tenant, subject), [])


def _rejections(conn: Connection, tenant: str) -> dict[tuple[str, str], frozenset[str]]:
    """(tenant, message id) -> every reason the gate gave for rejecting its candidates."""
    g = gate_decisions.c
    found: dict[tuple[str, str], set[str]] = {}
    rows = conn.execute(
        sa.select(g.source_message_id, g.reasons).where(
            g.decision == GateDecision.REJECT.value, g.source_message_id.is_not(None)
        )
    )
    for message_id, reasons in rows:
        found.setdefault((tenant, message_id), set()).update(reasons)
    return {key: frozenset(reasons) for key, reasons in found.items()}


def _strictest(values: Iterable[str]) -> str:
    return max(values, key=_SENSITIVITY_ORDER.index, default=Sensitivity.NONE.value)


def claim_evidence(view: StoreView, r: UserMemory) -> Evidence:
    """A stored claim as evidence: its own fields, and the controls that reach it."""
    message_id = r.source.message_id or f"claim:{r.id}"
    message = view.messages.get((r.tenant, message_id))
    ledger = view.ledger(r.tenant)
    return Evidence(
        message_id=message_id,
        tenant=r.tenant,
        subject=r.subject,
        origin=r.origin.value,
        sensitivity=r.sensitivity.value,
        scope=r.scope,
        purpose=r.purpose,
        observed_at=r.observed_at,
        categories=sensitivity_of(r.claim)[1],
        kind=r.kind.value,
        status=r.status.value,
        confirmation=r.confirmation.value,
        confidence=r.confidence,
        valid_from=r.valid_from,
        valid_until=r.valid_until,
        session=r.session,
        incognito=bool(message and message.incognito),
        forgotten=ledger.blocks_memory(str(r.id), r.subject, r.source.message_id, r.created_at),
        paused=(r.tenant, r.subject) in view.paused,
    )


def _speaker(claims: list[UserMemory]) -> UserMemory | None:
    """The most usable of a message's claims (active before one-off before the rest;
    confirmed before unconfirmed before pending before rejected)."""

    def rank(r: UserMemory) -> tuple[int, int]:
        status = r.status.value
        return (
            _STATUS_ORDER.index(status) if status in _STATUS_ORDER else len(_STATUS_ORDER),
            _CONFIRMATION_ORDER.index(r.confirmation.value),
        )

    return min(claims, key=lambda r: (*rank(r), str(r.id)), default=None)


def message_evidence(view: StoreView, m: Message) -> Evidence:
    """A raw message as evidence: its metadata (origin `message:<role>`, its scope, purpose,
    subject, time, incognito), the sensitivity of its text or its claims (the strictest), the
    state of its most usable stored claim, and the controls that reach it."""
    subject = subject_of(m)
    claims = view.by_source.get((m.tenant, m.message_id), [])
    best = _speaker(claims)
    text_sensitivity, categories = sensitivity_of(m.text)
    ledger = view.ledger(m.tenant)
    forgotten = (
        m.message_id in ledger.sources
        or ledger.message_request(m.message_id, subject, m.ts) is not None
    )
    return Evidence(
        message_id=m.message_id,
        tenant=m.tenant,
        subject=subject,
        origin=f"message:{m.role.value}",
        sensitivity=_strictest([text_sensitivity.value, *(r.sensitivity.value for r in claims)]),
        scope=m.scope,
        purpose=m.purpose,
        observed_at=m.ts,
        categories=categories,
        kind=best.kind.value if best else None,
        status=best.status.value if best else None,
        confirmation=best.confirmation.value if best else None,
        confidence=best.confidence if best else None,
        valid_from=best.valid_from if best else None,
        valid_until=best.valid_until if best else None,
        session=m.session,
        incognito=m.incognito,
        forgotten=forgotten,
        paused=(m.tenant, subject) in view.paused,
        gate_reasons=frozenset()
        if claims
        else view.rejected.get((m.tenant, m.message_id), frozenset()),
    )
