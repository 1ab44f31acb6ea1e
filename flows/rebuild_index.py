"""On-demand: rebuild the vector index from the system of record, never resurrecting what
the erasure ledger names. Entrypoint: `flows/rebuild_index.py:rebuild_index`."""

from __future__ import annotations

from typing import Any

from prefect import flow
from prefect.artifacts import create_table_artifact

from permem.settings import load_settings
from tasks.erasure import rebuild_task


@flow(name="rebuild_index", log_prints=False)
def rebuild_index() -> dict[str, Any]:
    report = rebuild_task(load_settings())
    create_table_artifact(
        key="rebuild-index-summary",
        table=[{"measure": k, "value": v} for k, v in report.items()],
        description="What the index rebuild did",
    )
    return report
