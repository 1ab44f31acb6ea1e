"""Administration and evaluation: `db upgrade`, `db downgrade`, `eval scenarios`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from interfaces.cli._common import JsonFlag, database, guarded
from permem.errors import CheckFailed
from permem.settings import load_settings
from permem.stores import migrate

__all__ = ["db_downgrade", "db_upgrade", "eval_scenarios"]


@guarded
def db_upgrade(revision: str = typer.Argument("head", help="Target revision.")) -> None:
    """Migrate the schema to the latest revision (creates the application role if missing)."""
    with database() as db:
        migrate.upgrade(db, revision)
        typer.echo(f"schema at revision {migrate.current_revision(db)}")


@guarded
def db_downgrade(
    revision: str = typer.Argument(..., help="Target revision; `base` drops all."),
) -> None:
    """Migrate the schema back to an earlier revision."""
    with database() as db:
        migrate.downgrade(db, revision)
        typer.echo(f"schema at revision {migrate.current_revision(db)}")


@guarded
def eval_scenarios(
    folders: Annotated[
        list[Path], typer.Argument(help="Scenario folders, or folders holding them.")
    ],
    as_json: JsonFlag = False,
) -> None:
    """Run scenarios against fresh stores and score them per family; exit 1 on any wrong
    personalization or leaked substring."""
    from permem.scenario_report import ScenarioReport
    from permem.scenarios import run_scenarios

    def progress(report: ScenarioReport) -> None:
        o = report.outcome
        line = (
            f"{report.name}: {o.hits} hits, {o.misses} misses, {o.wrong} wrong, "
            f"{o.denied_mismatches + o.empty_mismatches} denied/empty mismatches, {o.leaks} leaks"
        )
        typer.echo(line + (f" ({report.not_run})" if report.not_run else ""), err=True)

    report = run_scenarios(folders, load_settings(), progress=progress)
    if as_json:
        typer.echo(json.dumps(report.as_json(), ensure_ascii=False))
    else:
        table = Table("family", "queries", "hits", "misses", "wrong", "denied≠", "empty≠", "leaks")
        rows = [*report.families.items(), ("total", report.total)]
        for name, o in rows:
            table.add_row(
                name, *(str(v) for v in (o.queries, o.hits, o.misses, o.wrong,
                                         o.denied_mismatches, o.empty_mismatches, o.leaks)),
            )  # fmt: skip
        Console(width=120).print(table)
        for scenario in report.scenarios:
            if scenario.not_run:
                typer.echo(f"{scenario.name}: {scenario.not_run}")
    if report.failed:
        total = report.total
        raise CheckFailed(
            f"{total.wrong} wrong personalization(s) and {total.leaks} leaked substring(s)"
        )
