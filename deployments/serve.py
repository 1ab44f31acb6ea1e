"""Serve every permem flow with its schedule from one long-running process.

    PREFECT_API_URL=http://127.0.0.1:4200/api .venv/bin/python deployments/serve.py

| deployment | schedule (UTC) |
|---|---|
| `nightly_extract/nightly` | 02:00 daily, over `PERMEM_NIGHTLY_LOGS` (default `<home>/logs`) |
| `verify_erasure/nightly` | 04:00 daily, after extraction |
| `backup/nightly` | 04:30 daily |
| `expire_memories/hourly` | every hour at :05 |
| `erase_backups/weekly` | Sundays 05:00 |
| `evaluate/weekly` | Mondays 06:00, over `PERMEM_EVAL_DATASETS` |
| `forget/on-demand`, `rebuild_index/on-demand` | none: `permem`, `prefect deployment run`, UI |
| `evaluate/on-demand` | none: over `PERMEM_EVAL_DATASETS` or the datasets given |

Parameters are pydantic models, so the UI renders them as forms. Stopping this process pauses
the schedules (Prefect's `serve`). `deployments/prefect.yaml` declares the same deployments for
a process work pool instead.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root: flows/, tasks/

from permem.settings import load_settings  # noqa: E402

SCHEDULES: dict[tuple[str, str], str | None] = {
    # (flow name, deployment name) -> cron, or None for on demand
    ("nightly_extract", "nightly"): "0 2 * * *",
    ("verify_erasure", "nightly"): "0 4 * * *",
    ("backup", "nightly"): "30 4 * * *",
    ("expire_memories", "hourly"): "5 * * * *",
    ("erase_backups", "weekly"): "0 5 * * 0",
    ("forget", "on-demand"): None,
    ("rebuild_index", "on-demand"): None,
    ("evaluate", "weekly"): "0 6 * * 1",
    ("evaluate", "on-demand"): None,
}


def nightly_logs() -> str:
    """Where the scheduled nightly run reads its logs."""
    return os.environ.get("PERMEM_NIGHTLY_LOGS") or str(load_settings().home / "logs")


def deployments() -> list[Any]:
    """Every permem flow as a `RunnerDeployment` with its schedule and default parameters."""
    from flows.backup import BackupParams, EraseBackupsParams, backup, erase_backups
    from flows.evaluate import EvaluateParams, evaluate
    from flows.expire import ExpireParams, expire_memories
    from flows.forget import forget
    from flows.nightly import NightlyParams, nightly_extract
    from flows.rebuild_index import rebuild_index
    from flows.verify_erasure import VerifyErasureParams, verify_erasure

    defaults: dict[str, tuple[Any, dict[str, Any]]] = {
        "nightly_extract": (
            nightly_extract, {"params": NightlyParams(logs=nightly_logs()).model_dump()},
        ),
        "verify_erasure": (verify_erasure, {"params": VerifyErasureParams().model_dump()}),
        "backup": (backup, {"params": BackupParams().model_dump()}),
        "expire_memories": (expire_memories, {"params": ExpireParams().model_dump()}),
        "erase_backups": (erase_backups, {"params": EraseBackupsParams().model_dump()}),
        "forget": (forget, {}),
        "rebuild_index": (rebuild_index, {}),
        "evaluate": (evaluate, {"params": EvaluateParams().model_dump()}),
    }  # fmt: skip
    built = []
    for (flow_name, name), cron in SCHEDULES.items():
        flow, parameters = defaults[flow_name]
        built.append(
            flow.to_deployment(
                name=name,
                cron=cron,
                parameters=parameters,
                tags=["permem"],
                description=(flow.__doc__ or flow.fn.__doc__ or "").strip().splitlines()[0]
                if (flow.__doc__ or flow.fn.__doc__)
                else None,
            )
        )
    return built


def main() -> None:
    from prefect import serve

    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    serve(*deployments())


if __name__ == "__main__":
    main()
