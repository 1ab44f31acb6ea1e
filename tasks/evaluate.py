"""Prefect tasks of the evaluation flow: the lifecycle run and the chart, each one step.

The lifecycle run creates and drops its own stores (one database and LanceDB folder per
scenario, on the settings' server or an embedded one): it never touches the service's data.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prefect import task
from prefect.cache_policies import NO_CACHE

from permem.eval.chart import lift_wrong_png
from permem.eval.lifecycle import run_lifecycle
from permem.settings import Settings

_OPTIONS: dict[str, Any] = {"cache_policy": NO_CACHE, "persist_result": False}


@task(name="lifecycle", **_OPTIONS)
def lifecycle_task(settings: Settings, datasets: list[str], k: int | None) -> dict[str, Any]:
    """The lifecycle report (`permem eval lifecycle --json`) of `datasets`."""
    return run_lifecycle([Path(d) for d in datasets], settings, k=k).as_json()


@task(name="chart", **_OPTIONS)
def chart_task(variants: dict[str, Any], title: str) -> bytes:
    """The lift-vs-wrong-personalization chart of `variants`, as PNG bytes."""
    return lift_wrong_png(variants, title)
