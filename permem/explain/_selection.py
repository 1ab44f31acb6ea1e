"""Answer 5: when the claim was supplied to a request, from the recall log."""

from __future__ import annotations

import uuid
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from permem.records import UserMemory
from permem.stores.schema import recall_log

_RECENT_RETURNS = 10


def _returned(claim_id: uuid.UUID) -> sa.ColumnElement[bool]:
    """Recall log rows that supplied `claim_id` to a request."""
    return sa.literal(claim_id, sa.Uuid()) == sa.any_(recall_log.c.returned_ids)


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
    if recent:
        last = recent[0]
        summary = (
            f"Returned {count} time(s); last at {last['at']} to {last['actor']} for "
            f"{last['purpose']} in {last['scope']}."
        )
    else:
        summary = "Never returned to a request."
    return {
        "times_returned": count,
        "recent": recent,
        "how_selected": "recall keeps only live claims the actor may use for the subject, "
        "scope, purpose and time, then ranks them by similarity to the request",
        "effect": "the recall log records which claims were supplied to a request (ids only; "
        "no query text exists), not how the response used them; the recall answer marks a "
        "claim the current request overrides (conflicts_with_request)",
        "summary": summary,
    }
