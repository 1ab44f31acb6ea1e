"""`permem status`: what needs attention, at a glance.

From the system of record, per tenant: claims waiting for the user's confirmation, quarantined
log lines, open legal holds, and erasure-ledger entries not yet verified (by state). Reads only.
The last run of each flow comes from the Prefect server, read above the core
(`interfaces.cli.status`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import sqlalchemy as sa

from permem.stores.database import Database, list_tenants, tenant_transaction, unbound_transaction
from permem.stores.schema import erasure_ledger, legal_holds, memories, quarantine

__all__ = ["UNVERIFIED", "store_status"]

UNVERIFIED = ("blocked", "held", "erased", "failed")


def store_status(db: Database) -> dict[str, Any]:
    """Counts that need attention, per tenant, and the quarantine lines without a tenant."""
    tenants = list_tenants(db)
    with unbound_transaction(db.app) as conn:
        unattributed = conn.execute(sa.select(sa.func.count()).select_from(quarantine)).scalar()
    found: dict[str, Any] = {}
    for tenant in tenants:
        with tenant_transaction(db.app, tenant) as conn:
            pending = conn.execute(
                sa.select(sa.func.count()).where(
                    memories.c.confirmation == "pending",
                    memories.c.status.in_(("active", "session_only", "paused")),
                )
            ).scalar_one()
            quarantined = conn.execute(
                sa.select(sa.func.count()).select_from(quarantine)
            ).scalar_one()
            holds = conn.execute(
                sa.select(sa.func.count()).where(legal_holds.c.released_at.is_(None))
            ).scalar_one()
            states: Counter[str] = Counter(
                dict(
                    conn.execute(
                        sa.select(erasure_ledger.c.state, sa.func.count())
                        .where(
                            erasure_ledger.c.node_kind != "request",
                            erasure_ledger.c.state.in_(UNVERIFIED),
                        )
                        .group_by(erasure_ledger.c.state)
                    ).all()
                )
            )
        found[tenant] = {
            "pending_confirmations": pending,
            "quarantined_lines": quarantined,
            "open_legal_holds": holds,
            "unverified_erasures": dict(states),
        }
    return {"tenants": found, "quarantined_without_tenant": unattributed}
