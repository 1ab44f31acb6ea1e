"""Grants: an actor may use a subject's memory for one purpose, in a scope, until a time.

A grant's purpose must be a declared purpose (policy.PURPOSES); the subject themself (and the
account holder, for a third party they told us about) needs no grant, so such a grant is
refused. What a grant lets its holder see, by its `scope`:

- `global` (the default): only the subject's global claims, whatever the request's scope;
- `workspace:<name>` / `project:<name>`: claims of that scope and global claims;
- `*` (given as `all`): claims of every scope; only when the grantor says so explicitly.

A request still sees only claims of its own scope and global ones; the grant narrows that,
never widens it, and never widens what its purpose may use (policy.may_serve). Several valid
grants of one actor for one subject and purpose add up.

Every grant change is audited in `grant_events`; a grant's terms never change (a new grant is
made instead), and revocation is recorded, not deleted.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa

from permem.errors import BadInput, NotFound
from permem.policy import PURPOSES
from permem.records import DEFAULT_SCOPE
from permem.stores.database import Database, register_tenant, tenant_transaction
from permem.stores.schema import grant_events, grants

# The stored scope of a grant over every scope of the subject.
ALL_SCOPES = "*"
_ALL_SCOPE_NAMES = frozenset({ALL_SCOPES, "all"})
# The claim scopes of FORMATS.md (as the log and the recall query spell them).
_CLAIM_SCOPE = re.compile(r"^(global|(workspace|project):\S.*)$")


def grant_scope(value: str) -> str:
    """The stored form of a grant's scope (`all` and `*` are `*`); BadInput for anything else
    than `global`, `workspace:<name>`, `project:<name>` or all."""
    if value in _ALL_SCOPE_NAMES:
        return ALL_SCOPES
    if not _CLAIM_SCOPE.match(value):
        raise BadInput(
            f"unknown grant scope {value!r}: use global, workspace:<name>, project:<name> or all"
        )
    return value


def owns_memory(actor: str, subject: str) -> bool:
    """Whether `actor` uses and controls `subject`'s memory without a grant: the subject
    themself, or the account holder for a person they told us about (`<actor>:<relation>`)."""
    return actor == subject or subject.startswith(f"{actor}:")


def covers(scopes: Iterable[str], claim_scope: str) -> bool:
    """Whether grants of these scopes cover a claim of `claim_scope` (see the module)."""
    return any(scope == ALL_SCOPES or claim_scope in (scope, DEFAULT_SCOPE) for scope in scopes)


@dataclass(frozen=True, slots=True)
class Grant:
    id: uuid.UUID
    actor: str
    subject: str
    purpose: str
    scope: str
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
    scope: str = DEFAULT_SCOPE,
) -> Grant:
    """Let `actor` use `subject`'s memory for `purpose` in `scope` from `now` until
    `expires_at`; BadInput for a self-grant, an undeclared purpose, an unknown scope or a
    past expiry."""
    for name, value in (("actor", actor), ("subject", subject), ("by", granted_by)):
        if not value or value != value.strip():
            raise BadInput(f"a grant's {name} must be a non-empty name without padding")
    if owns_memory(actor, subject):
        raise BadInput(
            f"{actor} needs no grant to use the memory of {subject}: a subject uses their own "
            "memory, and an account holder that of the people they told us about"
        )
    if purpose not in PURPOSES:
        raise BadInput(
            f"unknown purpose {purpose!r}: a grant's purpose must be a declared purpose "
            f"({', '.join(sorted(PURPOSES))})"
        )
    scope = grant_scope(scope)
    if expires_at.tzinfo is None or expires_at <= now:
        raise BadInput("a grant must expire at a timezone-aware time in the future")
    grant_id = uuid.uuid4()
    with tenant_transaction(db.app, tenant) as conn:
        register_tenant(conn, tenant)
        conn.execute(
            sa.insert(grants).values(
                id=grant_id, tenant=tenant, actor=actor, subject=subject, purpose=purpose,
                scope=scope, expires_at=expires_at, granted_by=granted_by, granted_at=now,
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
        scope=row["scope"], expires_at=row["expires_at"], granted_by=row["granted_by"],
        granted_at=row["granted_at"], revoked_at=row["revoked_at"],
        revoked_by=row["revoked_by"],
    )  # fmt: skip
