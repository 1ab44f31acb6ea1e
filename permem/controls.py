"""The user controls as state transitions over the system of record.

Each function takes the database and the tenant, opens one tenant-bound transaction, and either
completes entirely or changes nothing.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from permem.records import UserMemory
from permem.stores.database import (
    Database,
    list_tenants,
    tenant_transaction,
    unbound_transaction,
)
from permem.stores.memories import list_memories
from permem.stores.schema import quarantine


def inspect(db: Database, tenant: str, subject: str | None = None) -> list[UserMemory]:
    """Every record of `subject` (or of the whole tenant), history included, oldest first.

    Changes nothing. Superseded, paused, expired, retracted and blocked records are listed
    with their status; erased records are gone and are not listed.
    """
    with tenant_transaction(db.app, tenant) as conn:
        return list_memories(conn, subject)


def quarantined(db: Database, tenant: str | None = None) -> list[dict[str, Any]]:
    """Log lines set aside by the nightly flow: where they were and why (no content).

    With `tenant`, that tenant's lines; without, every tenant's and the lines too broken to
    name a tenant. Changes nothing.
    """
    columns = (
        quarantine.c.tenant,
        quarantine.c.file,
        quarantine.c.line_no,
        quarantine.c.reason,
        quarantine.c.quarantined_at,
    )
    query = sa.select(*columns).order_by(quarantine.c.file, quarantine.c.line_no)
    found: list[dict[str, Any]] = []
    if tenant is None:
        with unbound_transaction(db.app) as conn:
            found.extend(dict(r) for r in conn.execute(query).mappings())
            tenants = list_tenants(conn)
    else:
        tenants = [tenant]
    for name in tenants:
        with tenant_transaction(db.app, name) as conn:
            found.extend(dict(r) for r in conn.execute(query).mappings())
    return found
