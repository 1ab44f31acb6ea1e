"""The lifecycle evaluation as a flow, its report published for the UI.

Entrypoint: `flows/evaluate.py:evaluate` (deployments `evaluate/on-demand` and
`evaluate/weekly`). Runs `permem eval lifecycle` over the datasets (scenario folders, dev
evaluation sets) in stores of its own, checks the release gate (`permem/eval/gate.toml`) and
publishes: `evaluate-variants` (a table: every variant's figures per dataset),
`evaluate-strata` (a table: wrong personalizations per stratum and variant),
`evaluate-chart` (markdown with the PNG chart of lift against wrong personalization, with the
strata, inline as a data URI), `evaluate-chart-image` (the same PNG as an image artifact) and
`evaluate-gate` (the violations). A violated gate fails the run unless told otherwise.
"""

from __future__ import annotations

import base64
import os
from typing import Any

from prefect import flow
from prefect.artifacts import (
    create_image_artifact,
    create_markdown_artifact,
    create_table_artifact,
)
from pydantic import BaseModel, Field

from permem.errors import CheckFailed
from permem.eval.gate import check, load_gate
from permem.settings import load_settings
from tasks.evaluate import chart_task, lifecycle_task


def default_datasets() -> list[str]:
    """`PERMEM_EVAL_DATASETS` (paths separated by the OS path separator), else none."""
    value = os.environ.get("PERMEM_EVAL_DATASETS", "")
    return [p for p in value.split(os.pathsep) if p]


class EvaluateParams(BaseModel):
    """Parameters of an evaluation run (the UI renders them as a form)."""

    datasets: list[str] = Field(
        default_factory=default_datasets,
        description="Scenario folders, dev evaluation sets, or folders holding them.",
    )
    k: int | None = Field(
        default=None, ge=1, le=50, description="Records per query (default: each query's k)."
    )
    fail_on_gate: bool = Field(
        default=True, description="Fail the run when the release gate is violated."
    )


def _variant_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for dataset, figures in report["datasets"].items():
        for name, v in figures["variants"].items():
            rows.append({
                "dataset": dataset, "variant": name, "queries": v["queries"],
                "hit rate": v["hit_rate"], "lift": v["lift"],
                "lift 95% CI": f"[{v['lift_ci'][0]}, {v['lift_ci'][1]}]",
                "wrong rate": v["wrong_rate"],
                **{f"wrong: {c}": n for c, n in v["wrong_by_cause"].items()},
                "severe": v["severe"], "p50 ms": v["p50_ms"], "p99 ms": v["p99_ms"],
                "leaks": figures["leaks"],
            })  # fmt: skip
    return rows


def _strata_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for name, v in report["variants"].items():
        for stratum, values in v["strata"].items():
            for value, counts in values.items():
                rows.append({"variant": name, "stratum": stratum, "value": value, **counts})
    return rows


def _publish(report: dict[str, Any], png: bytes, violations: list[dict[str, Any]]) -> None:
    create_table_artifact(
        key="evaluate-variants",
        table=_variant_rows(report),
        description="Lifecycle evaluation: every memory variant per dataset",
    )
    create_table_artifact(
        key="evaluate-strata",
        table=_strata_rows(report),
        description="Supplied, hits, wrong and severe per stratum (all datasets together)",
    )
    uri = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
    create_markdown_artifact(
        key="evaluate-chart",
        description="Lift against wrong-personalization rate per variant, with the strata",
        markdown=f"# Lift vs wrong personalization\n\n![lift vs wrong personalization]({uri})\n",
    )
    create_image_artifact(
        image_url=uri, key="evaluate-chart-image", description="The same chart, as an image"
    )
    lines = [
        f"| {v['dataset']} | {v['check']} | {v['value']:g} | {v['limit']:g} |" for v in violations
    ]
    create_markdown_artifact(
        key="evaluate-gate",
        description="Release-gate violations",
        markdown="# Release gate\n\n"
        + (
            "| dataset | check | value | limit |\n|---|---|---|---|\n" + "\n".join(lines)
            if lines
            else "passed: no threshold violated"
        ),
    )


@flow(name="evaluate", log_prints=False)
def evaluate(params: EvaluateParams | None = None) -> dict[str, Any]:
    """Lifecycle evaluation of every memory variant, published as artifacts; release gate."""
    params = params or EvaluateParams()
    if not params.datasets:
        raise CheckFailed("no dataset to evaluate: set PERMEM_EVAL_DATASETS or `datasets`")
    report = lifecycle_task(load_settings(), params.datasets, params.k)
    gate = load_gate()
    violations = [v.as_json() for v in check(gate, report)]
    png = chart_task(report["variants"], f"permem lifecycle: {', '.join(report['datasets'])}")
    _publish(report, png, violations)
    if violations and params.fail_on_gate:
        raise CheckFailed(f"release gate v{gate.version}: {len(violations)} threshold(s) violated")
    return {"report": report, "gate_version": gate.version, "violations": violations}
