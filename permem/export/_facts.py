"""What an export and an explanation say of a record: its provenance, source, gate decision
and the grants over its subject."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, RowMapping

from permem.records import Origin, UserMemory
from permem.stores.schema import (
    gate_decisions,
    grants,
    sources,
)

# The portability distinction: what the person provided, what was observed of them, what
# permem concluded, and what came from elsewhere.
PROVENANCE: Mapping[Origin, str] = {
    Origin.EXPLICIT_INSTRUCTION: "provided",
    Origin.USER_FACT: "provided",
    Origin.OBSERVED_BEHAVIOR: "observed",
    Origin.INFERRED_PROFILE: "inferred",
    Origin.IMPORTED: "imported",
}


def provenance(origin: Origin) -> str:
    """`provided`, `observed`, `inferred` or `imported`: the portability class of an origin."""
    return PROVENANCE[origin]


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def source_metadata(conn: Connection, message_ids: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Metadata of the named source messages (no text exists), by message id."""
    wanted = sorted(set(message_ids))
    if not wanted:
        return {}
    rows = conn.execute(
        sa.select(
            sources.c.message_id,
            sources.c.account,
            sources.c.conversation_id,
            sources.c.turn,
            sources.c.role,
            sources.c.ts,
            sources.c.scope,
            sources.c.purpose,
        ).where(sources.c.message_id.in_(wanted))
    ).mappings()
    return {
        row["message_id"]: {
            "role": row["role"],
            "account": row["account"],
            "conversation_id": row["conversation_id"],
            "turn": row["turn"],
            "ts": _iso(row["ts"]),
            "scope": row["scope"],
            "purpose": row["purpose"],
        }
        for row in rows
    }


def describe_source(record: UserMemory, found: Mapping[str, dict[str, Any]]) -> dict[str, Any]:
    """A record's source: message id and span, plus the message's metadata when stored."""
    described = record.source.as_json()
    message_id = record.source.message_id
    if message_id is None:
        described["entered_through"] = "a control request (a correction), not a message"
        return described
    meta = found.get(message_id)
    described.update(meta if meta is not None else {"role": None, "missing": True})
    return described


def gate_of(conn: Connection, memory_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, dict[str, Any]]:
    """The write gate's latest decision for each memory that passed through it."""
    if not memory_ids:
        return {}
    rows = conn.execute(
        sa.select(
            gate_decisions.c.memory_id,
            gate_decisions.c.decision,
            gate_decisions.c.reasons,
            gate_decisions.c.policy_version,
            gate_decisions.c.decided_at,
        )
        .where(gate_decisions.c.memory_id.in_(list(memory_ids)))
        .order_by(gate_decisions.c.decided_at, gate_decisions.c.id)
    ).mappings()
    return {
        row["memory_id"]: {
            "decision": row["decision"],
            "reasons": list(row["reasons"]),
            "policy_version": row["policy_version"],
            "decided_at": _iso(row["decided_at"]),
        }
        for row in rows  # later rows overwrite earlier ones: the latest decision wins
    }


def grant_state(row: RowMapping, now: datetime) -> str:
    """`active`, `revoked`, `expired` or `not_yet_granted` at `now` (recall's rule)."""
    if row["granted_at"] > now:
        return "not_yet_granted"
    if row["revoked_at"] is not None and row["revoked_at"] <= now:
        return "revoked"
    if row["expires_at"] <= now:
        return "expired"
    return "active"


def grants_over(conn: Connection, subject: str, now: datetime) -> list[dict[str, Any]]:
    """The grants that let someone use `subject`'s memory, with their state at `now`."""
    rows = conn.execute(
        sa.select(grants).where(grants.c.subject == subject).order_by(grants.c.granted_at)
    ).mappings()
    return [
        {
            "id": str(row["id"]),
            "actor": row["actor"],
            "purpose": row["purpose"],
            "scope": row["scope"],
            "granted_by": row["granted_by"],
            "granted_at": _iso(row["granted_at"]),
            "expires_at": _iso(row["expires_at"]),
            "revoked": row["revoked_at"] is not None and row["revoked_at"] <= now,
            "revoked_at": _iso(row["revoked_at"]),
            "state": grant_state(row, now),
        }
        for row in rows
    ]
