"""Engines, built in one place, and the tenant-bound transaction every tenant query runs in.

Two engines: the *owner* engine (the URL's own user) runs migrations and nothing else; the *app*
engine connects as the non-superuser application role, so PostgreSQL's row-level security
applies to everything the application reads or writes.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import Connection, Engine, make_url

from permem.errors import BadInput, ConfigurationError
from permem.settings import Settings
from permem.stores.embedded import start_embedded
from permem.stores.schema import tenants

TENANT_SETTING = "permem.tenant"


@dataclass(frozen=True)
class Database:
    """The system of record: the owner URL and the application engine."""

    owner_url: str
    app_role: str
    app: Engine

    def owner_engine(self) -> Engine:
        """A short-lived engine as the owner, for migrations and administration only."""
        return sa.create_engine(self.owner_url, poolclass=sa.NullPool)

    def dispose(self) -> None:
        self.app.dispose()


def app_url(owner_url: str, role: str, password: str | None) -> str:
    """The owner URL with the application role as its user."""
    url = make_url(owner_url).set(username=role, password=password)
    return url.render_as_string(hide_password=False)


def open_database(settings: Settings) -> Database:
    """Connect to PERMEM_DATABASE_URL, or start the embedded server when it is unset."""
    owner_url = settings.database_url or start_embedded(settings.embedded_pgdata)
    password = settings.app_password.get_secret_value() if settings.app_password else None
    engine = sa.create_engine(
        app_url(owner_url, settings.app_role, password), pool_pre_ping=True, pool_size=4
    )
    return Database(owner_url=owner_url, app_role=settings.app_role, app=engine)


def check_tenant(tenant: str) -> str:
    if not tenant or not tenant.strip() or tenant != tenant.strip():
        raise BadInput(
            f"tenant must be a non-empty name without surrounding spaces, got {tenant!r}"
        )
    return tenant


@contextmanager
def tenant_transaction(engine: Engine, tenant: str) -> Iterator[Connection]:
    """One transaction bound to `tenant`: row-level security shows and accepts its rows only.

    The binding is transaction-local (`set_config(..., true)`), so a pooled connection never
    carries one tenant's binding into another's transaction.
    """
    check_tenant(tenant)
    with engine.begin() as conn:
        conn.execute(sa.select(sa.func.set_config(TENANT_SETTING, tenant, True)))
        yield conn


def bind_tenant(conn: Connection, tenant: str | None) -> None:
    """Re-bind the current transaction to `tenant` (None: to no tenant).

    For batch writes that span tenants in one transaction: every statement after this call
    sees and writes only `tenant`'s rows.
    """
    value = "" if tenant is None else check_tenant(tenant)
    conn.execute(sa.select(sa.func.set_config(TENANT_SETTING, value, True)))


@contextmanager
def unbound_transaction(engine: Engine) -> Iterator[Connection]:
    """A transaction bound to no tenant: sees only the tenant registry and unattributed
    quarantine rows."""
    with engine.begin() as conn:
        yield conn


def register_tenant(conn: Connection, tenant: str) -> None:
    """Make `tenant` known, with a fresh random salt for its hashes; idempotent."""
    check_tenant(tenant)
    conn.execute(
        pg_insert(tenants)
        .values(tenant=tenant, hash_salt=secrets.token_bytes(32))
        .on_conflict_do_nothing(index_elements=["tenant"])
    )


def list_tenants(db: Database) -> list[str]:
    """Every registered tenant, in name order: an operator's view, read as the owner.

    The application role sees only the tenant its transaction is bound to (the registry is
    row-level secured, migration 0007), so jobs that visit every tenant (expiry, backups,
    verification, re-indexing) enumerate them here and then bind each in turn.
    """
    engine = db.owner_engine()
    try:
        with engine.connect() as conn:
            query = sa.select(tenants.c.tenant).order_by(tenants.c.tenant)
            return list(conn.execute(query).scalars())
    finally:
        engine.dispose()


def tenant_salt(conn: Connection) -> bytes:
    """The salt of the tenant this transaction is bound to."""
    salt = conn.execute(sa.select(sa.func.permem_tenant_salt())).scalar()
    if salt is None:
        raise ConfigurationError("tenant is not registered (or the transaction is not bound)")
    return bytes(salt)


def _lock_key(name: str) -> int:
    """A stable signed 64-bit advisory-lock key for `name`."""
    return int.from_bytes(
        hashlib.blake2b(name.encode(), digest_size=8).digest(), "big", signed=True
    )


@contextmanager
def exclusive_run(db: Database, name: str) -> Iterator[bool]:
    """Try to become the only holder of the run lock `name` in this database; yields whether
    it did. The lock is a session-level advisory lock on a connection of its own held in
    autocommit mode (no transaction stays open all night), released on exit or when the
    process dies. Two nightly runs against one database thus never interleave their batches.
    """
    with db.app.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        key = _lock_key(name)
        held = bool(conn.execute(sa.select(sa.func.pg_try_advisory_lock(key))).scalar())
        try:
            yield held
        finally:
            if held:
                conn.execute(sa.select(sa.func.pg_advisory_unlock(key)))
