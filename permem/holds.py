"""Legal holds: a documented exception to erasure.

A hold covers a subject, a source message or one claim. While it is open, a forget request
still blocks the covered records (they are never used again) but does not erase them: their
ledger rows say `held`, the forget flow reports them, and the erasure completes on the first
erase run after the hold is released. Placing and releasing are recorded (who, when, why).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from permem.errors import BadInput, NotFound
from permem.stores.database import Database, check_tenant, register_tenant, tenant_transaction
from permem.stores.schema import legal_holds


@dataclass(frozen=True, slots=True)
class Hold:
    id: uuid.UUID
    tenant: str
    subject: str | None
    memory_id: uuid.UUID | None
    source_message_id: str | None
    reason: str
    placed_by: str
    placed_at: datetime
    released_at: datetime | None
    released_by: str | None

    def as_json(self) -> dict[str, Any]:
        return {
            "hold": str(self.id),
            "tenant": self.tenant,
            "subject": self.subject,
            "claim": str(self.memory_id) if self.memory_id else None,
            "source": self.source_message_id,
            "reason": self.reason,
            "placed_by": self.placed_by,
            "placed_at": self.placed_at.isoformat(),
            "released_at": self.released_at.isoformat() if self.released_at else None,
            "released_by": self.released_by,
        }


def _hold(row: sa.RowMapping) -> Hold:
    return Hold(**{name: row[name] for name in Hold.__dataclass_fields__})


def place(
    db: Database,
    tenant: str,
    *,
    subject: str | None = None,
    claim: uuid.UUID | None = None,
    source: str | None = None,
    reason: str,
    by: str,
    now: datetime,
) -> Hold:
    """Open a hold on exactly one of a subject, a claim or a source message."""
    check_tenant(tenant)
    if sum(v is not None for v in (subject, claim, source)) != 1:
        raise BadInput("a legal hold covers exactly one of --subject, --claim or --source")
    if not reason.strip():
        raise BadInput("a legal hold needs a reason")
    if not by.strip():
        raise BadInput("a legal hold needs the person who placed it (--by)")
    with tenant_transaction(db.app, tenant) as conn:
        register_tenant(conn, tenant)
        row = conn.execute(
            sa.insert(legal_holds)
            .values(
                tenant=tenant, subject=subject, memory_id=claim, source_message_id=source,
                reason=reason, placed_by=by, placed_at=now,
            )  # fmt: skip
            .returning(*legal_holds.c)
        ).mappings().one()  # fmt: skip
    return _hold(row)


def release(db: Database, tenant: str, hold_id: uuid.UUID, *, by: str, now: datetime) -> Hold:
    """Close a hold; the next erase run erases what it kept (if a forget asked for it)."""
    if not by.strip():
        raise BadInput("releasing a legal hold needs the person who releases it (--by)")
    with tenant_transaction(db.app, tenant) as conn:
        row = conn.execute(
            sa.update(legal_holds)
            .where(legal_holds.c.id == hold_id, legal_holds.c.released_at.is_(None))
            .values(released_at=now, released_by=by)
            .returning(*legal_holds.c)
        ).mappings().first()  # fmt: skip
        if row is None:
            exists = conn.execute(
                sa.select(legal_holds.c.id).where(legal_holds.c.id == hold_id)
            ).first()
            raise (BadInput if exists else NotFound)(
                f"legal hold {hold_id} is already released"
                if exists
                else f"no legal hold {hold_id}"
            )
    return _hold(row)


def list_holds(db: Database, tenant: str, *, open_only: bool = False) -> list[Hold]:
    with tenant_transaction(db.app, tenant) as conn:
        query = sa.select(legal_holds).order_by(legal_holds.c.placed_at)
        if open_only:
            query = query.where(legal_holds.c.released_at.is_(None))
        return [_hold(r) for r in conn.execute(query).mappings()]
