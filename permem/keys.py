"""API keys: who an HTTP request acts as, proven by a random key of which only a hash is kept.

A key reads `pmk.<tenant, base64url>.<key id, hex>.<secret>`: the tenant lets the lookup run
in that tenant's row-level-secured transaction, the id finds the row, and the secret (from
`secrets.token_urlsafe`, 256 bits) is checked against its HMAC-SHA256 under the tenant's salt.
The key itself is shown once, at creation, and stored nowhere.

A `user` key acts as its actor: the subject themself, or a grantee under the grant rules
(permem/grants.py). A `service` key belongs to an assistant backend that authenticated its own
end user: it names that user per request and may recall only for its declared purposes.
Creation, every use and revocation are rows of the append-only `api_key_events`.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

import sqlalchemy as sa

from permem.errors import BadInput, NotFound, Unauthenticated
from permem.policy import PURPOSES
from permem.stores.database import Database, register_tenant, tenant_salt, tenant_transaction
from permem.stores.schema import api_key_events, api_keys

__all__ = ["KEY_PREFIX", "ApiKey", "KeyRole", "create", "list_keys", "revoke", "verify"]

KEY_PREFIX = "pmk"
_SECRET_BYTES = 32
_BAD_KEY = "missing, malformed, unknown, revoked or expired credential"


class KeyRole(StrEnum):
    USER = "user"
    SERVICE = "service"


@dataclass(frozen=True, slots=True)
class ApiKey:
    """A key's stored terms (never the key)."""

    id: uuid.UUID
    tenant: str
    actor: str
    role: KeyRole
    purposes: tuple[str, ...]
    expires_at: datetime | None
    created_at: datetime
    revoked_at: datetime | None

    def as_json(self) -> dict[str, object]:
        return {
            "id": str(self.id),
            "tenant": self.tenant,
            "actor": self.actor,
            "role": self.role.value,
            "purposes": list(self.purposes),
            "expires_at": self.expires_at.isoformat() if self.expires_at else None,
            "created_at": self.created_at.isoformat(),
            "revoked_at": self.revoked_at.isoformat() if self.revoked_at else None,
        }


def _digest(salt: bytes, secret: str) -> str:
    return hmac.new(salt, secret.encode(), hashlib.sha256).hexdigest()


def _encode_tenant(tenant: str) -> str:
    return base64.urlsafe_b64encode(tenant.encode()).decode().rstrip("=")


def _parse(key: str) -> tuple[str, uuid.UUID, str]:
    """The tenant, key id and secret of a presented key; Unauthenticated when malformed."""
    parts = key.split(".")
    if len(parts) != 4 or parts[0] != KEY_PREFIX or not parts[3]:
        raise Unauthenticated(_BAD_KEY)
    try:
        padded = parts[1] + "=" * (-len(parts[1]) % 4)
        tenant = base64.urlsafe_b64decode(padded.encode("ascii")).decode()
        key_id = uuid.UUID(hex=parts[2])
    except (ValueError, binascii.Error, UnicodeError):
        raise Unauthenticated(_BAD_KEY) from None
    if not tenant or tenant != tenant.strip():
        raise Unauthenticated(_BAD_KEY)
    return tenant, key_id, parts[3]


def create(
    db: Database,
    tenant: str,
    *,
    actor: str,
    role: str,
    purposes: tuple[str, ...] = (),
    expires_at: datetime | None = None,
    now: datetime,
) -> tuple[ApiKey, str]:
    """A new key for `actor` in `tenant`: its stored terms and the key, which is never stored.

    BadInput for an unknown role or purpose, a service key without purposes, a padded or
    empty actor, or an expiry that is naive or not in the future.
    """
    if not actor or actor != actor.strip():
        raise BadInput("a key's actor must be a non-empty name without padding")
    try:
        key_role = KeyRole(role)
    except ValueError:
        raise BadInput(f"a key's role is user or service, got {role!r}") from None
    unknown = sorted(set(purposes) - set(PURPOSES))
    if unknown:
        raise BadInput(
            f"unknown purpose {unknown[0]!r}: use declared purposes ({', '.join(sorted(PURPOSES))})"
        )
    if key_role is KeyRole.SERVICE and not purposes:
        raise BadInput("a service key needs its declared purposes (--purposes)")
    if expires_at is not None and (expires_at.tzinfo is None or expires_at <= now):
        raise BadInput("a key must expire at a timezone-aware time in the future")
    key_id = uuid.uuid4()
    secret = secrets.token_urlsafe(_SECRET_BYTES)
    with tenant_transaction(db.app, tenant) as conn:
        register_tenant(conn, tenant)
        conn.execute(
            sa.insert(api_keys).values(
                id=key_id, tenant=tenant, actor=actor, role=key_role.value,
                purposes=list(dict.fromkeys(purposes)), expires_at=expires_at,
                key_hash=_digest(tenant_salt(conn), secret), created_at=now,
            )
        )  # fmt: skip
        _audit(conn, tenant, key_id, "created", actor, None, now)
        stored = _get(conn, key_id)
    return stored, f"{KEY_PREFIX}.{_encode_tenant(tenant)}.{key_id.hex}.{secret}"


def verify(db: Database, key: str, *, now: datetime, detail: str | None = None) -> ApiKey:
    """The live key `key` proves, its use audited; Unauthenticated otherwise, with the same
    message whether it is malformed, unknown, wrong, revoked or expired."""
    tenant, key_id, secret = _parse(key)
    with tenant_transaction(db.app, tenant) as conn:
        row = conn.execute(sa.select(api_keys).where(api_keys.c.id == key_id)).mappings().first()
        if row is None:
            raise Unauthenticated(_BAD_KEY)
        if not hmac.compare_digest(row["key_hash"], _digest(tenant_salt(conn), secret)):
            raise Unauthenticated(_BAD_KEY)
        found = _from_row(row)
        if found.revoked_at is not None or (found.expires_at and found.expires_at <= now):
            raise Unauthenticated(_BAD_KEY)
        _audit(conn, tenant, key_id, "used", found.actor, detail, now)
    return found


def list_keys(db: Database, tenant: str) -> list[ApiKey]:
    """Every key of `tenant`, revoked and expired ones too, oldest first."""
    with tenant_transaction(db.app, tenant) as conn:
        rows = conn.execute(sa.select(api_keys).order_by(api_keys.c.created_at, api_keys.c.id))
        return [_from_row(r) for r in rows.mappings()]


def revoke(db: Database, tenant: str, key_id: uuid.UUID, *, by: str, now: datetime) -> ApiKey:
    """End a key now: every later request with it is refused. NotFound for an id the tenant
    does not hold; BadInput for a key already revoked."""
    with tenant_transaction(db.app, tenant) as conn:
        current = _get(conn, key_id)
        if current.revoked_at is not None:
            raise BadInput(f"key {key_id} was already revoked at {current.revoked_at}")
        conn.execute(sa.update(api_keys).where(api_keys.c.id == key_id).values(revoked_at=now))
        _audit(conn, tenant, key_id, "revoked", by, None, now)
        return _get(conn, key_id)


def _audit(
    conn: sa.Connection,
    tenant: str,
    key_id: uuid.UUID,
    event: str,
    by: str,
    detail: str | None,
    now: datetime,
) -> None:
    conn.execute(
        sa.insert(api_key_events).values(
            tenant=tenant, key_id=key_id, event=event, by=by, at=now, detail=detail
        )
    )


def _get(conn: sa.Connection, key_id: uuid.UUID) -> ApiKey:
    row = conn.execute(sa.select(api_keys).where(api_keys.c.id == key_id)).mappings().first()
    if row is None:
        raise NotFound(f"no key {key_id} in this tenant")
    return _from_row(row)


def _from_row(row: sa.RowMapping) -> ApiKey:
    return ApiKey(
        id=row["id"], tenant=row["tenant"], actor=row["actor"], role=KeyRole(row["role"]),
        purposes=tuple(row["purposes"]), expires_at=row["expires_at"],
        created_at=row["created_at"], revoked_at=row["revoked_at"],
    )  # fmt: skip
