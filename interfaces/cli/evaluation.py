"""The lifecycle evaluation and its release gate: `eval lifecycle`, `eval gate`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from interfaces.cli._common import JsonFlag, guarded
from permem.errors import BadInput, CheckFailed
from permem.settings import load_settings

__all__ = ["eval_gate", "eval_lifecycle", "variant_table"]

Datasets = Annotated[
    list[Path] | None,
    typer.Argument(help="Scenario folders, dev evaluation sets, or folders holding them."),
]
KOpt = Annotated[
    int | None,
    typer.Option("--k", help="Records per query for every variant (default: each query's k)."),
]


def _ci(low: float | None, high: float | None) -> str:
    return f"[{low:+.3f}, {high:+.3f}]" if low is not None and high is not None else "-"


def variant_table(variants: dict[str, Any], title: str | None = None) -> Table:
    """The variants' figures as a table for people."""
    table = Table(
        "variant", "queries", "hit rate", "lift", "95% CI", "wrong", "by cause", "severe",
        "p50 ms", "p99 ms", title=title,
    )  # fmt: skip
    for name, v in variants.items():
        causes = ", ".join(f"{c} {n}" for c, n in v["wrong_by_cause"].items() if n) or "-"
        hit = "-" if v["hit_rate"] is None else f"{v['hit_rate']:.3f}"
        table.add_row(
            name, str(v["queries"]), hit, f"{v['lift']:+.3f}", _ci(*v["lift_ci"]),
            f"{v['wrong_rate']:.3f}", causes, str(v["severe"]), f"{v['p50_ms']:.1f}",
            f"{v['p99_ms']:.1f}",
        )  # fmt: skip
    return table


def _run(datasets: list[Path], k: int | None) -> dict[str, Any]:
    from permem.eval.lifecycle import run_lifecycle
    from permem.scenario_report import ScenarioReport

    def progress(dataset: str, report: ScenarioReport) -> None:
        o = report.outcome
        line = (
            f"{dataset}/{report.name}: {o.queries} queries, "
            f"permem {o.hits} hits, {o.wrong} wrong, {o.leaks} leaks"
        )
        typer.echo(line + (f" ({report.not_run})" if report.not_run else ""), err=True)

    return run_lifecycle(datasets, load_settings(), k=k, progress=progress).as_json()


@guarded
def eval_lifecycle(datasets: Datasets = None, as_json: JsonFlag = False, k: KOpt = None) -> None:
    """Run every memory variant (none, explicit_profile, history, profile, permem) on the same
    queries; print hit rate, lift over none, wrong personalizations by cause, latency."""
    if not datasets:
        raise BadInput("name at least one dataset")
    report = _run(datasets, k)
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False))
        return
    console = Console(width=160)
    for name, figures in report["datasets"].items():
        console.print(
            variant_table(figures["variants"], title=f"{name} (leaks {figures['leaks']})")
        )
    if len(report["datasets"]) > 1:
        console.print(variant_table(report["variants"], title="all datasets"))


@guarded
def eval_gate(
    datasets: Datasets = None,
    report_file: Annotated[
        Path | None, typer.Option("--report", help="A saved `eval lifecycle --json` report.")
    ] = None,
    gate_file: Annotated[
        Path | None, typer.Option("--gate", help="The gate file (default: permem/eval/gate.toml).")
    ] = None,
    as_json: JsonFlag = False,
    k: KOpt = None,
) -> None:
    """Check a lifecycle report (saved, or run now on DATASET…) against the release gate;
    exit 1 with a table of the violations."""
    from permem.eval.gate import DEFAULT_GATE, check, load_gate

    if (report_file is None) == (not datasets):
        raise BadInput("give either --report FILE or datasets to evaluate, not both")
    gate = load_gate(gate_file or DEFAULT_GATE)
    if report_file is not None:
        try:
            report = json.loads(report_file.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise BadInput(f"cannot read the report {report_file}: {exc}") from None
    else:
        report = _run(datasets or [], k)
    violations = check(gate, report)
    if as_json:
        typer.echo(
            json.dumps(
                {"gate_version": gate.version, "violations": [v.as_json() for v in violations]}
            )
        )
    elif violations:
        table = Table(
            "dataset", "check", "value", "limit", title=f"release gate v{gate.version}: violated"
        )
        for v in violations:
            table.add_row(v.dataset, v.check, f"{v.value:g}", f"{v.limit:g}")
        Console(width=120).print(table)
    else:
        datasets_checked = ", ".join(report.get("datasets") or ["all"])
        typer.echo(f"release gate v{gate.version}: passed ({datasets_checked})")
    if violations:
        raise CheckFailed(f"{len(violations)} release-gate threshold(s) violated")
