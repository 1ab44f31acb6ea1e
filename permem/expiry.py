"""Expiry: claims whose time is over become `expired`, never recalled again.

A claim expires, at the time `at` the run is given (never the wall clock inside the rule):

- **validity ended**: its `valid_until` is at or before `at` ("until the 14th" is over);
- **session ended**: it is `session_only` and its session was reported ended, or it was
  observed at least `session_hours` before `at`;
- **retention**: it was observed longer ago than the policy's retention for its purpose and
  sensitivity (`permem.policy.retention`).

Only statuses that may become `expired` are touched (active, session-only, paused, superseded);
each change is one `memory_events` row with the reason, made set-based in one transaction per
tenant, in which the synthesized profiles of the subjects concerned are regenerated. The vector
index's status column follows (advisory: recall decides from PostgreSQL).
Expired claims stay as history until forgotten.
"""

from __future__ import annotations

import time
import uuid
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa

from permem import policy
from permem.errors import BadInput
from permem.profile import refresh_profiles
from permem.records import Confirmation, Sensitivity, Status
from permem.states import STATUS_TRANSITIONS
from permem.stores.database import Database, list_tenants, tenant_transaction
from permem.stores.schema import memories, memory_events
from permem.stores.vectors import VectorIndex

EXPIRABLE: tuple[str, ...] = tuple(
    s.value for s, allowed in STATUS_TRANSITIONS.items() if Status.EXPIRED in allowed
)
# No retention is shorter than this, so older rows are the only retention candidates.
_SHORTEST_RETENTION = min(
    [*policy.RETENTION_BY_PURPOSE.values(), *policy.RETENTION_BY_SENSITIVITY.values(),
     policy.UNDECLARED_PURPOSE_RETENTION]
)  # fmt: skip


@dataclass
class ExpireResult:
    at: datetime
    tenants: int = 0
    expired: Counter[str] = field(default_factory=Counter)  # by reason
    index_rows: int = 0
    seconds: float = 0.0

    def as_json(self) -> dict[str, Any]:
        return {
            "at": self.at.isoformat(),
            "tenants": self.tenants,
            "expired": sum(self.expired.values()),
            "by_reason": dict(self.expired),
            "index_rows": self.index_rows,
            "seconds": round(self.seconds, 3),
        }


def expiry_reason(
    *,
    status: str,
    purpose: str,
    sensitivity: Sensitivity,
    confirmation: Confirmation,
    observed_at: datetime,
    valid_until: datetime | None,
    session: str | None,
    at: datetime,
    session_hours: float,
    ended_sessions: Collection[str] = (),
) -> str | None:
    """Why a claim is expired at `at` (`validity_ended`, `session_ended`, `retention`), or
    None. Pure: the expiry rules in one place."""
    if status not in EXPIRABLE:
        return None
    if valid_until is not None and valid_until <= at:
        return "validity_ended"
    if status == Status.SESSION_ONLY.value and (
        (session is not None and session in ended_sessions)
        or observed_at + timedelta(hours=session_hours) <= at
    ):
        return "session_ended"
    kept_for = policy.retention(
        purpose, sensitivity, confirmed=confirmation is Confirmation.CONFIRMED
    )
    if observed_at + kept_for <= at:
        return "retention"
    return None


def expire(
    db: Database,
    index: VectorIndex | None,
    *,
    at: datetime,
    session_hours: float = policy.SESSION_TTL.total_seconds() / 3600,
    ended_sessions: Collection[str] = (),
    tenants: Collection[str] | None = None,
) -> ExpireResult:
    """Expire, in every tenant (or `tenants`), what is over at `at` (see the module doc)."""
    if at.tzinfo is None:
        raise BadInput("the expiry time must carry a timezone")
    if session_hours <= 0:
        raise BadInput("session hours must be positive")
    started = time.perf_counter()
    result = ExpireResult(at)
    if tenants is None:
        tenants = list_tenants(db)
    sessions = list(ended_sessions)
    for tenant in tenants:
        result.tenants += 1
        expired_ids: list[str] = []
        with tenant_transaction(db.app, tenant) as conn:
            candidates = conn.execute(
                sa.select(
                    memories.c.id, memories.c.status, memories.c.purpose, memories.c.sensitivity,
                    memories.c.confirmation, memories.c.observed_at, memories.c.valid_until,
                    memories.c.session, memories.c.subject,
                ).where(
                    memories.c.status.in_(EXPIRABLE),
                    sa.or_(
                        memories.c.valid_until <= at,
                        sa.and_(
                            memories.c.status == Status.SESSION_ONLY.value,
                            sa.or_(
                                memories.c.observed_at <= at - timedelta(hours=session_hours),
                                memories.c.session.in_(sessions),
                            ),
                        ),
                        memories.c.observed_at <= at - _SHORTEST_RETENTION,
                    ),
                )
            ).all()  # fmt: skip
            changes: list[tuple[uuid.UUID, str, str]] = []
            subject_of = {row.id: row.subject for row in candidates}
            for row in candidates:
                reason = expiry_reason(
                    status=row.status, purpose=row.purpose,
                    sensitivity=Sensitivity(row.sensitivity),
                    confirmation=Confirmation(row.confirmation), observed_at=row.observed_at,
                    valid_until=row.valid_until, session=row.session, at=at,
                    session_hours=session_hours, ended_sessions=sessions,
                )  # fmt: skip
                if reason is not None:
                    changes.append((row.id, row.status, reason))
            if changes:
                updated = conn.execute(
                    sa.update(memories)
                    .where(
                        memories.c.id.in_([c[0] for c in changes]),
                        memories.c.status.in_(EXPIRABLE),
                    )
                    .values(status=Status.EXPIRED.value)
                    .returning(memories.c.id)
                ).scalars()
                done = set(updated)
                conn.execute(
                    sa.insert(memory_events),
                    [
                        {
                            "tenant": tenant, "memory_id": memory_id, "field": "status",
                            "old_value": old, "new_value": Status.EXPIRED.value,
                            "actor": "permem-expiry", "reason": f"{reason} at {at.isoformat()}",
                        }
                        for memory_id, old, reason in changes
                        if memory_id in done
                    ],
                )  # fmt: skip
                for memory_id, _old, reason in changes:
                    if memory_id in done:
                        result.expired[reason] += 1
                        expired_ids.append(str(memory_id))
                for subject in sorted({subject_of[memory_id] for memory_id in done}):
                    refresh_profiles(conn, tenant, subject, now=at)
        if index is not None and expired_ids:
            index.set_status(expired_ids, Status.EXPIRED.value)
            result.index_rows += len(expired_ids)
    result.seconds = time.perf_counter() - started
    return result
