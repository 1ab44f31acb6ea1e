"""The batch jobs, each a Prefect flow run in this process: nightly, expire, rebuild-index."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from interfaces.cli._common import JsonFlag, guarded, parse_time
from interfaces.cli._prefect import quiet_prefect, run_flow, server_error
from permem.settings import load_settings

__all__ = ["expire", "nightly", "rebuild_index_command"]


@guarded
def nightly(
    logs: Annotated[Path, typer.Option("--logs", help="A log file or a folder of *.jsonl.")],
    batch_size: Annotated[
        int | None, typer.Option("--batch-size", min=1, help="Log lines per batch.")
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            min=1,
            max=64,
            help="Worker processes for extract, classify, redact and gate (a local Dask "
            "cluster); default PERMEM_WORKERS, 1 runs every stage in this process.",
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Run the nightly extraction flow over a log file or folder (incremental)."""
    from permem.logs import log_files
    from permem.nightly import PROGRESS

    settings = load_settings()
    files = log_files(logs)
    total = sum(_count_lines(f) for f in files)
    quiet_prefect()
    # The flow is imported here so that every command that does not start one runs without
    # importing Prefect.
    from flows.nightly import NightlyParams, nightly_extract

    params = NightlyParams(
        logs=str(logs),
        batch_size=batch_size or settings.batch_size,
        workers=workers or settings.workers,
    )
    with Progress(
        TextColumn("nightly"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        disable=as_json or not sys.stderr.isatty(),
    ) as bar:
        job = bar.add_task("lines", total=total)
        token = PROGRESS.set(lambda n: bar.advance(job, n))
        try:
            report = nightly_extract(params)
        except RuntimeError as exc:
            error = server_error(exc)
            if error is None:
                raise
            raise error from exc
        finally:
            PROGRESS.reset(token)
    if as_json:
        sys.stdout.write(json.dumps(report, ensure_ascii=False) + "\n")
        return
    if "skipped" in report:
        typer.echo(f"permem: {report['skipped']}", err=True)
        return
    _print_summary(report)


def _count_lines(path: Path) -> int:
    with path.open("rb") as fh:
        return sum(1 for line in fh if line.strip())


def _print_summary(report: dict[str, Any]) -> None:
    table = Table("measure", "value", title=f"nightly: {report['logs']}")
    counts = report["counts"]
    for name in ("read", "new", "already_processed", "quarantined", "incognito", "paused_subject",
                 "erased_on_arrival", "changed_content", "candidates", "stored", "set_aside",
                 "load_refused", "superseded", "indexed"):  # fmt: skip
        table.add_row(name, str(counts.get(name, 0)))
    for name, value in sorted(report["decisions"].items()):
        table.add_row(f"decision {name}", str(value))
    table.add_row("messages/s", str(report["messages_per_second"]))
    Console().print(table)
    for item in report["quarantined"][:20]:
        typer.echo(f"quarantined {item['file']}:{item['line']}: {item['reason']}", err=True)


@guarded
def rebuild_index_command(as_json: JsonFlag = False) -> None:
    """Rebuild the vector index from PostgreSQL, skipping blocked and erased records."""
    from flows.rebuild_index import rebuild_index

    report = run_flow(rebuild_index)
    typer.echo(
        json.dumps(report)
        if as_json
        else f"rebuilt: {report['indexed']} claims indexed, "
        f"{report['skipped_in_ledger']} skipped (erasure ledger)"
    )


@guarded
def expire(
    at: Annotated[
        str | None, typer.Option("--at", help="Expire as of this time (RFC 3339; default now).")
    ] = None,
    ended_session: Annotated[
        list[str] | None, typer.Option("--ended-session", help="A session that ended (repeat).")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """The expiry flow: validity ended, sessions ended, retention limits."""
    from flows.expire import ExpireParams, expire_memories

    when = None if at is None else parse_time(at, "--at")
    report = run_flow(expire_memories, ExpireParams(at=when, ended_sessions=ended_session or []))
    if as_json:
        typer.echo(json.dumps(report))
        return
    reasons = ", ".join(f"{n} {r}" for r, n in sorted(report["by_reason"].items())) or "none"
    typer.echo(f"expired {report['expired']} claims as of {report['at']} ({reasons})")
