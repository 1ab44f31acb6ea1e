"""Answer 5: when the claim was supplied to a request, from the recall log, and which
responses its callers reported it influenced."""

from __future__ import annotations

import uuid
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from permem.records import UserMemory
from permem.stores.schema import recall_influence, recall_log

_RECENT_RETURNS = 10


def _returned(claim_id: uuid.UUID) -> sa.ColumnElement[bool]:
    """Recall log rows that supplied `claim_id` to a request."""
    return sa.literal(claim_id, sa.Uuid()) == sa.any_(recall_log.c.returned_ids)


def _influence(conn: Connection, claim_id: uuid.UUID) -> dict[str, Any]:
    """The callers' reports that a response used `claim_id` (permem.influence)."""
    used = sa.literal(claim_id, sa.Uuid()) == sa.any_(recall_influence.c.used_ids)
    count = conn.execute(
        sa.select(sa.func.count()).select_from(recall_influence).where(used)
    ).scalar_one()
    rows = conn.execute(
        sa.select(
            recall_influence.c.reported_at,
            recall_influence.c.recall_id,
            recall_influence.c.reported_by,
            recall_influence.c.note,
        )
        .where(used)
        .order_by(recall_influence.c.reported_at.desc(), recall_influence.c.id)
        .limit(_RECENT_RETURNS)
    ).mappings()
    recent = [
        {
            "at": r["reported_at"].isoformat(),
            "recall_id": str(r["recall_id"]),
            "reported_by": r["reported_by"],
            "note": r["note"],
        }
        for r in rows
    ]
    return {"times_influenced": count, "recent_influence": recent}


def _selection(conn: Connection, record: UserMemory) -> dict[str, Any]:
    returned = _returned(record.id)
    count = conn.execute(
        sa.select(sa.func.count()).select_from(recall_log).where(returned)
    ).scalar_one()
    rows = conn.execute(
        sa.select(
            recall_log.c.at,
            recall_log.c.actor,
            recall_log.c.purpose,
            recall_log.c.scope,
            recall_log.c.query_id,
        )
        .where(returned)
        .order_by(recall_log.c.at.desc(), recall_log.c.id)
        .limit(_RECENT_RETURNS)
    ).mappings()
    recent = [
        {
            "at": r["at"].isoformat(),
            "actor": r["actor"],
            "purpose": r["purpose"],
            "scope": r["scope"],
            "query_id": r["query_id"],
        }
        for r in rows
    ]
    influence = _influence(conn, record.id)
    if recent:
        last = recent[0]
        summary = (
            f"Returned {count} time(s); last at {last['at']} to {last['actor']} for "
            f"{last['purpose']} in {last['scope']}; reported used by "
            f"{influence['times_influenced']} response(s)."
        )
    else:
        summary = "Never returned to a request."
    return {
        "times_returned": count,
        "recent": recent,
        **influence,
        "how_selected": "recall keeps only live claims the actor may use for the subject, "
        "scope, purpose and time, then ranks them by similarity to the request",
        "effect": "the recall log records which claims were supplied to a request (ids only; "
        "no query text exists); which of them a response used is what its caller reported "
        "(POST /v1/recall/{recall_id}/influence: times_influenced, recent_influence); the "
        "recall answer marks a claim the current request overrides (conflicts_with_request)",
        "summary": summary,
    }
