"""The user controls as state transitions over the system of record.

Each function takes the database and the tenant, opens one tenant-bound transaction, and either
completes entirely or changes nothing.
"""

from __future__ import annotations

from permem.records import UserMemory
from permem.stores.database import Database, tenant_transaction
from permem.stores.memories import list_memories


def inspect(db: Database, tenant: str, subject: str | None = None) -> list[UserMemory]:
    """Every record of `subject` (or of the whole tenant), history included, oldest first.

    Changes nothing. Superseded, paused, expired, retracted and blocked records are listed
    with their status; erased records are gone and are not listed.
    """
    with tenant_transaction(db.app, tenant) as conn:
        return list_memories(conn, subject)
