"""Answer 7: the derivatives that follow a correction or deletion (embeddings, index rows, the
synthesized profiles that cite the claim, export files), and what holds them."""

from __future__ import annotations

import uuid
from collections import Counter
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from lineage import Node, NodeKind
from permem.explain._selection import _returned
from permem.records import UserMemory
from permem.stores.lineage_store import derivatives, parents_of
from permem.stores.schema import (
    erasure_ledger,
    exports,
    index_queue,
    legal_holds,
    memory_events,
    profiles,
    recall_log,
)


def _derivatives(conn: Connection, record: UserMemory, now: datetime) -> dict[str, Any]:
    node = Node(NodeKind.MEMORY, str(record.id))
    derived = sorted(derivatives(conn, [node]) - {node})
    export_ids = [uuid.UUID(n.id) for n in derived if n.kind is NodeKind.EXPORT]
    files = {
        str(row["id"]): row
        for row in conn.execute(sa.select(exports).where(exports.c.id.in_(export_ids))).mappings()
    }
    profile_ids = [uuid.UUID(n.id) for n in derived if n.kind is NodeKind.PROFILE]
    versions = {
        str(row["id"]): row
        for row in conn.execute(
            sa.select(
                profiles.c.id, profiles.c.purpose, profiles.c.scope, profiles.c.version,
                profiles.c.built_at,
            ).where(profiles.c.id.in_(profile_ids))
        ).mappings()
    }  # fmt: skip
    listed: list[dict[str, Any]] = []
    for n in derived:
        item: dict[str, Any] = {"kind": n.kind.value, "id": n.id}
        version = versions.get(n.id) if n.kind is NodeKind.PROFILE else None
        if version is not None:
            item.update(
                purpose=version["purpose"],
                scope=version["scope"],
                version=version["version"],
                built_at=version["built_at"].isoformat(),
            )
        row = files.get(n.id) if n.kind is NodeKind.EXPORT else None
        if row is not None:
            item.update(
                path=row["path"],
                format=row["format"],
                created_at=row["created_at"].isoformat(),
                erased_at=row["erased_at"].isoformat() if row["erased_at"] else None,
            )
        listed.append(item)
    sources = [
        {"kind": p.kind.value, "id": p.id, "relation": r.value} for p, r in parents_of(conn, node)
    ]
    holds = _legal_holds(conn, record, now)
    queued = conn.execute(
        sa.select(index_queue.c.memory_id).where(index_queue.c.memory_id == record.id)
    ).first()
    references = {
        "memory_events": _count(conn, memory_events, memory_events.c.memory_id == record.id),
        "recall_log": _count(conn, recall_log, _returned(record.id)),
    }
    ledger = [
        {"state": r["state"], "requested_at": r["requested_at"].isoformat()}
        for r in conn.execute(
            sa.select(erasure_ledger.c.state, erasure_ledger.c.requested_at).where(
                erasure_ledger.c.node_kind == NodeKind.MEMORY.value,
                erasure_ledger.c.node_id == str(record.id),
            )
        ).mappings()
    ]
    kinds = Counter(n.kind.value for n in derived)
    counted = ", ".join(f"{v} {k}" for k, v in sorted(kinds.items())) or "none"
    origin = ", ".join(f"{s['kind']} {s['id']}" for s in sources) or "no source message"
    held = f"{len(holds)} open legal hold(s)" if holds else "no legal hold"
    return {
        "derivatives": listed,
        "derived_from": sources,
        "index_queued": queued is not None,
        "references": references,
        "erasure_ledger": ledger,
        "legal_holds": holds,
        "under_legal_hold": bool(holds),
        "summary": f"Derivatives that follow a deletion: {counted}; derived from {origin}; {held}.",
    }


def _count(conn: Connection, table: sa.Table, condition: sa.ColumnElement[bool]) -> int:
    return int(
        conn.execute(sa.select(sa.func.count()).select_from(table).where(condition)).scalar_one()
    )


def _legal_holds(conn: Connection, record: UserMemory, now: datetime) -> list[dict[str, Any]]:
    targets = [legal_holds.c.memory_id == record.id, legal_holds.c.subject == record.subject]
    if record.source.message_id is not None:
        targets.append(legal_holds.c.source_message_id == record.source.message_id)
    rows = conn.execute(
        sa.select(legal_holds)
        .where(
            sa.or_(*targets),
            legal_holds.c.placed_at <= now,
            sa.or_(legal_holds.c.released_at.is_(None), legal_holds.c.released_at > now),
        )
        .order_by(legal_holds.c.placed_at)
    ).mappings()
    held = []
    for r in rows:
        if r["memory_id"] is not None:
            covers = "claim"
        elif r["subject"] is not None:
            covers = "subject"
        else:
            covers = "source"
        held.append(
            {
                "id": str(r["id"]),
                "covers": covers,
                "reason": r["reason"],
                "placed_by": r["placed_by"],
                "placed_at": r["placed_at"].isoformat(),
            }
        )
    return held
