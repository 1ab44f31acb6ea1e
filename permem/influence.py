"""Influence: which of a recall's records the caller's response actually used (lifecycle
step 6, attribution), reported by the caller and stored beside the recall log.

A report names a `recall_log` row of the tenant and a subset of the ids that recall returned;
only the actor the recall answered (or the service that asked for them) may report on it.
Explain reads the reports back (permem/explain/_selection.py). Reports are append-only; an
erasure of the subject or of a claim they name removes them (permem/erasure/connectors).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa

from permem.errors import BadInput, Forbidden, NotFound
from permem.stores.database import Database, tenant_transaction
from permem.stores.schema import recall_influence, recall_log

__all__ = ["MAX_NOTE", "Influence", "report_influence"]

MAX_NOTE = 500


@dataclass(frozen=True, slots=True)
class Influence:
    id: uuid.UUID
    recall_id: uuid.UUID
    used_ids: tuple[uuid.UUID, ...]
    note: str | None
    reported_by: str
    reported_at: datetime

    def as_json(self) -> dict[str, object]:
        return {
            "id": str(self.id),
            "recall_id": str(self.recall_id),
            "used_ids": [str(i) for i in self.used_ids],
            "note": self.note,
            "reported_by": self.reported_by,
            "reported_at": self.reported_at.isoformat(),
        }


def report_influence(
    db: Database,
    tenant: str,
    recall_id: uuid.UUID,
    used_ids: list[uuid.UUID],
    *,
    actor: str,
    via: str | None = None,
    note: str | None = None,
    now: datetime,
) -> Influence:
    """Store that the response to `recall_id` used `used_ids` (possibly none).

    NotFound for a recall the tenant never logged; Forbidden when `actor` (through `via`) is
    not who that recall answered; BadInput for an id the recall did not return or a note
    longer than `MAX_NOTE` characters.
    """
    if note is not None and len(note) > MAX_NOTE:
        raise BadInput(f"an influence note holds at most {MAX_NOTE} characters")
    wanted = list(dict.fromkeys(used_ids))
    with tenant_transaction(db.app, tenant) as conn:
        logged = conn.execute(
            sa.select(
                recall_log.c.actor, recall_log.c.via, recall_log.c.subject,
                recall_log.c.returned_ids,
            ).where(recall_log.c.id == recall_id)
        ).first()  # fmt: skip
        if logged is None:
            raise NotFound(f"no recall {recall_id} in this tenant")
        if (logged.actor, logged.via) != (actor, via):
            raise Forbidden("only the actor a recall answered may report what it influenced")
        stray = [i for i in wanted if i not in set(logged.returned_ids)]
        if stray:
            raise BadInput(f"recall {recall_id} did not return {stray[0]}")
        reporter = f"{actor} via {via}" if via else actor
        row_id = conn.execute(
            sa.insert(recall_influence)
            .values(
                tenant=tenant, recall_id=recall_id, subject=logged.subject, used_ids=wanted,
                note=note, reported_by=reporter, reported_at=now,
            )
            .returning(recall_influence.c.id)
        ).scalar_one()  # fmt: skip
    return Influence(row_id, recall_id, tuple(wanted), note, reporter, now)
