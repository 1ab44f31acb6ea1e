"""Grants: an actor may use a subject's memory for one purpose until a time, and no longer.

Every grant change is audited in `grant_events`; a grant's terms never change (a new grant is
made instead), and revocation is recorded, not deleted.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa

from permem.errors import BadInput, NotFound
from permem.stores.database import Database, register_tenant, tenant_transaction
from permem.stores.schema import grant_events, grants


@dataclass(frozen=True, slots=True)
class Grant:
    id: uuid.UUID
    actor: str
    subject: str
    purpose: str
    expires_at: datetime
    granted_by: str
    granted_at: datetime
    revoked_at: datetime | None
    revoked_by: str | None

    def valid_at(self, when: datetime) -> bool:
        revoked = self.revoked_at is not None and self.revoked_at <= when
        return self.granted_at <= when < self.expires_at and not revoked


def grant(
    db: Database,
    tenant: str,
    *,
    actor: str,
    subject: str,
    purpose: str,
    expires_at: datetime,
    granted_by: str,
    now: datetime,
) -> Grant:
    """Let `actor` use `subject`'s memory for `purpose` from `now` until `expires_at`."""
    if actor == subject:
        raise BadInput("a subject needs no grant to use their own memory")
    if expires_at.tzinfo is None or expires_at <= now:
        raise BadInput("a grant must expire at a timezone-aware time in the future")
    grant_id = uuid.uuid4()
    with tenant_transaction(db.app, tenant) as conn:
        register_tenant(conn, tenant)
        conn.execute(
            sa.insert(grants).values(
                id=grant_id, tenant=tenant, actor=actor, subject=subject, purpose=purpose,
                expires_at=expires_at, granted_by=granted_by, granted_at=now,
            )
        )  # fmt: skip
        conn.execute(
            sa.insert(grant_events).values(
                tenant=tenant, grant_id=grant_id, event="granted", by=granted_by, at=now
            )
        )
        return _get(conn, grant_id)


def revoke(
    db: Database, tenant: str, grant_id: uuid.UUID, *, revoked_by: str, now: datetime
) -> Grant:
    """End a grant now; recall stops honouring it for any request at or after `now`."""
    with tenant_transaction(db.app, tenant) as conn:
        current = _get(conn, grant_id)
        if current.revoked_at is not None:
            raise BadInput(f"grant {grant_id} was already revoked at {current.revoked_at}")
        conn.execute(
            sa.update(grants)
            .where(grants.c.id == grant_id)
            .values(revoked_at=now, revoked_by=revoked_by)
        )
        conn.execute(
            sa.insert(grant_events).values(
                tenant=tenant, grant_id=grant_id, event="revoked", by=revoked_by, at=now
            )
        )
        return _get(conn, grant_id)


def list_grants(db: Database, tenant: str, subject: str | None = None) -> list[Grant]:
    with tenant_transaction(db.app, tenant) as conn:
        query = sa.select(grants).order_by(grants.c.granted_at)
        if subject is not None:
            query = query.where(grants.c.subject == subject)
        return [_from_row(r) for r in conn.execute(query).mappings()]


def _get(conn: sa.Connection, grant_id: uuid.UUID) -> Grant:
    row = conn.execute(sa.select(grants).where(grants.c.id == grant_id)).mappings().first()
    if row is None:
        raise NotFound(f"no grant {grant_id} in this tenant")
    return _from_row(row)


def _from_row(row: sa.RowMapping) -> Grant:
    return Grant(
        id=row["id"], actor=row["actor"], subject=row["subject"], purpose=row["purpose"],
        expires_at=row["expires_at"], granted_by=row["granted_by"],
        granted_at=row["granted_at"], revoked_at=row["revoked_at"],
        revoked_by=row["revoked_by"],
    )  # fmt: skip
