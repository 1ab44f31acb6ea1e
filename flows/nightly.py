"""Nightly extraction: conversation logs -> candidate claims -> classification -> redaction ->
write gate -> validation -> PostgreSQL + LanceDB, with lineage.

Runs the stages of `permem.nightly` as tasks, one per stage per batch, and publishes what it
did as artifacts: a summary table, decisions by reason, and the quarantined lines.
With workers (`workers` or PERMEM_WORKERS above 1), extract, classify, redact and gate run on a
local Dask cluster through prefect-dask's task runner, one task per partition of each batch
(with PERMEM_DASK_ADDRESS: on that existing cluster, one partition per worker thread);
prepare, validate, load and index stay in the flow's process (one transaction per batch, one
LanceDB writer), and the stored state is the same as with one worker.
Entrypoint: `flows/nightly.py:nightly_extract`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prefect import flow
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from pydantic import BaseModel, Field

from permem.settings import load_settings

# Nightly runs against one database serialise on this advisory lock; a second one exits at once.
NIGHTLY_LOCK = "permem.nightly"


class NightlyParams(BaseModel):
    """Parameters of a nightly run (the UI renders them as a form)."""

    logs: str = Field(description="A conversation log file (JSON Lines) or a folder of *.jsonl.")
    batch_size: int | None = Field(
        default=None, ge=1, le=100_000, description="Log lines per batch (default: settings)."
    )
    workers: int | None = Field(
        default=None,
        ge=1,
        le=64,
        description="Worker processes for extract, classify, redact and gate (a local Dask "
        "cluster); 1 runs every stage in the flow's process (default: settings). Does not "
        "apply when PERMEM_DASK_ADDRESS names a cluster.",
    )


@flow(name="nightly_extract", log_prints=False)
def nightly_extract(params: NightlyParams) -> dict[str, Any]:
    # Imported here, not with the module: Prefect sends this flow and its parameters with
    # every task run to the Dask workers (the flow run context), so each worker imports this
    # module, and it must not bring the stages that stay in this process (the database,
    # LanceDB, Great Expectations, pandas) into processes that only parse.
    from permem import nightly
    from permem.runtime import runtime
    from permem.stores.database import exclusive_run
    from tasks.nightly import TASK_STAGES, on_dask

    settings = load_settings()
    if params.batch_size is not None:
        settings = settings.model_copy(update={"batch_size": params.batch_size})
    if params.workers is not None:
        settings = settings.model_copy(update={"workers": params.workers})
    with exclusive_run(runtime(settings).db, NIGHTLY_LOCK) as held:
        if not held:
            # Another run is working through the logs; this one would only repeat its work.
            message = "another nightly run holds the lock on this database; nothing done"
            create_markdown_artifact(key="nightly-summary", markdown=f"# Skipped\n\n{message}")
            return {"logs": params.logs, "skipped": message}
        if settings.dask_address or settings.workers > 1:
            with on_dask(settings) as dask:
                stages = {**TASK_STAGES, "analyze": dask.analyze}
                summary = nightly.run(
                    settings, Path(params.logs), stages=stages, partitions=dask.partitions
                )
        else:
            summary = nightly.run(settings, Path(params.logs), stages=TASK_STAGES)
    report = summary.as_json()
    _publish(report)
    return report


def _publish(report: dict[str, Any]) -> None:
    counts = report["counts"]
    rows = [
        {"measure": "lines read", "value": report["lines"]},
        {"measure": "messages new", "value": counts.get("new", 0)},
        {"measure": "already processed", "value": counts.get("already_processed", 0)},
        {"measure": "quarantined", "value": counts.get("quarantined", 0)},
        {"measure": "incognito skipped", "value": counts.get("incognito", 0)},
        {"measure": "paused subject skipped", "value": counts.get("paused_subject", 0)},
        {"measure": "candidates", "value": counts.get("candidates", 0)},
        {"measure": "claims stored", "value": counts.get("stored", 0)},
        {"measure": "claims set aside by validation", "value": counts.get("set_aside", 0)},
        {"measure": "messages refused by the database", "value": counts.get("load_refused", 0)},
        {"measure": "claims superseded", "value": counts.get("superseded", 0)},
        {"measure": "claims indexed", "value": counts.get("indexed", 0)},
        {"measure": "messages/s", "value": report["messages_per_second"]},
    ]
    rows += [
        {"measure": f"decision {k}", "value": v} for k, v in sorted(report["decisions"].items())
    ]
    rows += [
        {"measure": f"origin {k}", "value": v}
        for k, v in sorted(report["claims_by_origin"].items())
    ]
    rows += [
        {"measure": f"sensitivity {k}", "value": v}
        for k, v in sorted(report["claims_by_sensitivity"].items())
    ]
    rows += [{"measure": f"seconds {k}", "value": v} for k, v in report["stage_seconds"].items()]
    rows += [
        {"measure": f"worker seconds {k}", "value": v}
        for k, v in report.get("worker_stage_seconds", {}).items()
    ]
    create_table_artifact(key="nightly-summary", table=rows, description="What the nightly run did")
    reasons = sorted(report["reasons"].items(), key=lambda kv: -kv[1])
    create_table_artifact(
        key="nightly-gate-reasons",
        table=[{"reason": r, "count": n} for r, n in reasons]
        + [
            {"reason": f"[kind:decision] {k}", "count": n}
            for k, n in sorted(report["decisions_by_kind"].items())
        ],
        description="Write-gate decisions by reason and by kind",
    )
    quarantined = report["quarantined"]
    create_markdown_artifact(
        key="nightly-quarantine",
        description="Lines set aside with their reason (first 100)",
        markdown="# Quarantined lines\n\n"
        + (
            "\n".join(f"- `{q['file']}` line {q['line']}: {q['reason']}" for q in quarantined)
            or "none"
        ),
    )
