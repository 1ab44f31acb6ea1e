"""Memories in the system of record: append, read, and lifecycle transitions.

Every function takes a connection already bound to one tenant (`tenant_transaction`); row-level
security makes other tenants' rows invisible, the `tenant` argument of a record must match the
binding or PostgreSQL refuses the insert. Claims are appended, never rewritten: the only columns
that change after insert are `status` and `confirmation`, and only along `permem.states`.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, RowMapping

from lineage import Node, NodeKind, Relation
from permem.errors import BadInput, NotFound
from permem.hashing import content_hash, subject_fingerprint
from permem.records import (
    Confirmation,
    Kind,
    Origin,
    Sensitivity,
    SourceRef,
    Status,
    UserMemory,
)
from permem.states import check_confirmation, check_status
from permem.stores.bulk import copy_insert
from permem.stores.database import tenant_salt
from permem.stores.lineage_store import EdgeRow, add_edges
from permem.stores.schema import memories, memory_events


def _row(record: UserMemory, salt: bytes, batch_id: uuid.UUID | None = None) -> dict[str, Any]:
    span = record.source.span
    message_id = record.source.message_id
    return {
        "id": record.id,
        "tenant": record.tenant,
        "subject": record.subject,
        "account": record.account,
        "origin": record.origin.value,
        "kind": record.kind.value,
        "claim": record.claim,
        "evidence": record.evidence,
        "source_message_id": message_id,
        "span_start": span[0] if span else None,
        "span_end": span[1] if span else None,
        "scope": record.scope,
        "purpose": record.purpose,
        "observed_at": record.observed_at,
        "valid_from": record.valid_from,
        "valid_until": record.valid_until,
        "confidence": record.confidence,
        "sensitivity": record.sensitivity.value,
        "confirmation": record.confirmation.value,
        "status": record.status.value,
        "supersedes": record.supersedes,
        "session": record.session,
        "topic": record.topic,
        "claim_hash": content_hash(salt, record.claim),
        "subject_hash": subject_fingerprint(salt, record.subject, record.claim),
        "policy_version": record.policy_version,
        "batch_id": batch_id,
    }


def memory_rows(
    records: Sequence[UserMemory], salt: bytes, batch_id: uuid.UUID | None = None
) -> list[dict[str, Any]]:
    """The `memories` rows of `records` as they will be inserted (for validation and load)."""
    return [_row(r, salt, batch_id) for r in records]


def record_from_row(row: RowMapping) -> UserMemory:
    """Rebuild the domain record from a `memories` row."""
    span = (row["span_start"], row["span_end"]) if row["span_start"] is not None else None
    return UserMemory(
        id=row["id"],
        tenant=row["tenant"],
        subject=row["subject"],
        account=row["account"],
        origin=Origin(row["origin"]),
        kind=Kind(row["kind"]),
        claim=row["claim"],
        evidence=row["evidence"],
        source=SourceRef(message_id=row["source_message_id"], span=span),
        scope=row["scope"],
        purpose=row["purpose"],
        observed_at=row["observed_at"],
        valid_from=row["valid_from"],
        valid_until=row["valid_until"],
        confidence=row["confidence"],
        sensitivity=Sensitivity(row["sensitivity"]),
        confirmation=Confirmation(row["confirmation"]),
        status=Status(row["status"]),
        supersedes=row["supersedes"],
        session=row["session"],
        topic=row["topic"],
        policy_version=row["policy_version"],
        created_at=row["created_at"],
    )


def append_memories(
    conn: Connection, records: Sequence[UserMemory], *, batch_id: uuid.UUID | None = None
) -> None:
    """Insert `records` in one statement, with a lineage edge from each source message.

    A record whose `message_id` names a message that is not in `sources` is refused (a
    foreign key): every stored claim must point at evidence permem has seen.
    """
    if not records:
        return
    salt = tenant_salt(conn)
    try:
        copy_insert(conn, memories, memory_rows(records, salt, batch_id))
    except sa.exc.IntegrityError as exc:
        if "fk_memories_source" not in str(exc.orig):
            raise
        raise BadInput("claims cite a message that is not stored for this tenant") from exc
    add_edges(
        conn,
        [
            EdgeRow(
                tenant=r.tenant,
                parent=Node(NodeKind.SOURCE, r.source.message_id),
                child=Node(NodeKind.MEMORY, str(r.id)),
                relation=Relation.EXTRACTED,
            )
            for r in records
            if r.source.message_id
        ],
    )


def get_memory(conn: Connection, memory_id: uuid.UUID, *, for_update: bool = False) -> UserMemory:
    query = sa.select(memories).where(memories.c.id == memory_id)
    if for_update:
        query = query.with_for_update()
    row = conn.execute(query).mappings().first()
    if row is None:
        raise NotFound(f"no memory {memory_id} in this tenant")
    return record_from_row(row)


def list_memories(conn: Connection, subject: str | None = None) -> list[UserMemory]:
    """Every memory of the bound tenant (or of one subject), history included, oldest first."""
    query = sa.select(memories).order_by(
        memories.c.observed_at, memories.c.created_at, memories.c.id
    )
    if subject is not None:
        query = query.where(memories.c.subject == subject)
    return [record_from_row(row) for row in conn.execute(query).mappings()]


def _log_events(
    conn: Connection,
    tenant: str,
    field: str,
    changes: Iterable[tuple[uuid.UUID, str, str]],
    actor: str,
    reason: str,
) -> None:
    rows = [
        {
            "tenant": tenant,
            "memory_id": memory_id,
            "field": field,
            "old_value": old,
            "new_value": new,
            "actor": actor,
            "reason": reason,
        }
        for memory_id, old, new in changes
    ]
    if rows:
        conn.execute(sa.insert(memory_events), rows)


def set_status(
    conn: Connection, memory_id: uuid.UUID, new: Status, *, actor: str, reason: str
) -> UserMemory:
    """Move one memory to `new` along the transition table, logging the change."""
    current = get_memory(conn, memory_id, for_update=True)
    check_status(current.status, new)
    conn.execute(sa.update(memories).where(memories.c.id == memory_id).values(status=new.value))
    _log_events(
        conn,
        current.tenant,
        "status",
        [(memory_id, current.status.value, new.value)],
        actor,
        reason,
    )
    return get_memory(conn, memory_id)


def set_confirmation(
    conn: Connection, memory_id: uuid.UUID, new: Confirmation, *, actor: str, reason: str
) -> UserMemory:
    """Record the user's confirmation decision along the transition table, logging it."""
    current = get_memory(conn, memory_id, for_update=True)
    check_confirmation(current.confirmation, new)
    conn.execute(
        sa.update(memories).where(memories.c.id == memory_id).values(confirmation=new.value)
    )
    _log_events(
        conn,
        current.tenant,
        "confirmation",
        [(memory_id, current.confirmation.value, new.value)],
        actor,
        reason,
    )
    return get_memory(conn, memory_id)


def append_correction(conn: Connection, correction: UserMemory, *, actor: str) -> UserMemory:
    """Append `correction` and mark the record it supersedes `superseded`, in one transaction.

    The corrected record stays as history; the correction must concern the same subject.
    """
    if correction.supersedes is None:
        raise BadInput("a correction must name the record it supersedes")
    old = get_memory(conn, correction.supersedes, for_update=True)
    if old.subject != correction.subject:
        raise BadInput(
            f"a correction must concern the same subject ({old.subject!r}), "
            f"not {correction.subject!r}"
        )
    check_status(old.status, Status.SUPERSEDED)
    append_memories(conn, [correction])
    set_status(
        conn, old.id, Status.SUPERSEDED, actor=actor, reason=f"superseded by {correction.id}"
    )
    conn.execute(  # when it stopped being current (`permem.recall_asof`)
        sa.update(memories)
        .where(memories.c.id == old.id)
        .values(superseded_from=correction.observed_at)
    )
    return get_memory(conn, correction.id)
