"""`permem status`: what needs attention, at a glance.

From the system of record, per tenant: claims waiting for the user's confirmation, quarantined
log lines, open legal holds, and erasure-ledger entries not yet verified (by state). From the
Prefect server named by `PREFECT_API_URL` (when set): the last run of each of permem's flows.
Reads only.
"""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from typing import Any

import sqlalchemy as sa

from permem.stores.database import Database, list_tenants, tenant_transaction, unbound_transaction
from permem.stores.schema import erasure_ledger, legal_holds, memories, quarantine

FLOWS: tuple[str, ...] = (
    "nightly_extract",
    "expire_memories",
    "verify_erasure",
    "backup",
    "erase_backups",
    "forget",
    "rebuild_index",
)
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


def flow_status() -> dict[str, Any]:
    """The last run of each permem flow on the Prefect server of `PREFECT_API_URL`."""
    if not os.environ.get("PREFECT_API_URL"):
        return {"server": None, "note": "PREFECT_API_URL is not set: no run history to read"}
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import FlowFilter, FlowFilterName
    from prefect.client.schemas.sorting import FlowRunSort

    async def read() -> dict[str, Any]:
        runs: dict[str, Any] = {}
        async with get_client() as client:
            for name in FLOWS:
                found = await client.read_flow_runs(
                    flow_filter=FlowFilter(name=FlowFilterName(any_=[name])),
                    sort=FlowRunSort.EXPECTED_START_TIME_DESC,
                    limit=1,
                )
                run = found[0] if found else None
                runs[name] = (
                    None
                    if run is None
                    else {
                        "run": run.name,
                        "state": run.state.name if run.state else None,
                        "message": (run.state.message or "")[:200] if run.state else "",
                        "started": run.start_time.isoformat() if run.start_time else None,
                        "ended": run.end_time.isoformat() if run.end_time else None,
                    }
                )
        return runs

    return {"server": os.environ["PREFECT_API_URL"], "last_runs": asyncio.run(read())}
