"""`permem status`: the stores' counts (`permem.status`) and, from the Prefect server named by
`PREFECT_API_URL` (when set), the last run of each of permem's flows. The Prefect client is read
here, above the flows, so that the core never imports it."""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from interfaces.cli._common import JsonFlag, database, guarded

__all__ = ["FLOWS", "flow_status", "status"]

FLOWS: tuple[str, ...] = (
    "nightly_extract",
    "expire_memories",
    "verify_erasure",
    "backup",
    "erase_backups",
    "forget",
    "rebuild_index",
)


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


@guarded
def status(as_json: JsonFlag = False) -> None:
    """Last run of each flow (PREFECT_API_URL), pending confirmations, quarantine size, open
    legal holds and unverified erasures."""
    from permem.status import store_status

    with database() as db:
        stores = store_status(db)
    flows = flow_status()
    if as_json:
        typer.echo(json.dumps({"flows": flows, **stores}, default=str))
        return
    console = Console(width=140)
    runs = Table("flow", "last run", "state", "started", "why", title="flows")
    if flows.get("last_runs") is None:
        runs.add_row("-", "-", "-", "-", flows["note"])
    else:
        for name, run in flows["last_runs"].items():
            if run is None:
                runs.add_row(name, "never", "", "", "")
            else:
                runs.add_row(name, run["run"], run["state"], run["started"] or "", run["message"])
    console.print(runs)
    table = Table("tenant", "pending confirmations", "quarantined", "open holds", "unverified")
    for tenant, counts in stores["tenants"].items():
        unverified = ", ".join(f"{n} {s}" for s, n in counts["unverified_erasures"].items())
        table.add_row(
            tenant, str(counts["pending_confirmations"]), str(counts["quarantined_lines"]),
            str(counts["open_legal_holds"]), unverified or "0",
        )  # fmt: skip
    console.print(table)
    typer.echo(f"quarantined lines without a tenant: {stores['quarantined_without_tenant']}")
