"""Backups: backup and erase-backups (Prefect flows), restore (direct)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from interfaces.cli._common import JsonFlag, control, guarded
from interfaces.cli._prefect import report_flow
from permem.errors import BadInput

__all__ = ["backup", "erase_backups_command", "restore"]


@guarded
def backup(
    tenant: Annotated[
        list[str] | None, typer.Option("--tenant", help="Only this tenant (repeatable).")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Back up the system of record: one file per tenant, each subject under its own key."""
    from flows.backup import BackupParams
    from flows.backup import backup as backup_flow

    report_flow(
        backup_flow, BackupParams(tenants=tenant or None), as_json=as_json,
        lines=lambda report: [
            f"{made['tenant']}: {made['records']} records of {made['subjects']} subjects -> "
            f"{made['path']}"
            for made in report.get("backups", [])
        ],
    )  # fmt: skip


@guarded
def erase_backups_command(
    retention_days: Annotated[
        float, typer.Option("--retention-days", help="Drop backups older than this.")
    ] = 30,
    as_json: JsonFlag = False,
) -> None:
    """Re-key backups without erased data, drop expired ones, prove nothing erased is
    readable; exit 1 on residue."""
    from flows.backup import EraseBackupsParams
    from flows.backup import erase_backups as erase_flow

    report_flow(
        erase_flow, EraseBackupsParams(retention_days=retention_days), as_json=as_json,
        lines=lambda report: ["backups: nothing erased is readable"],
    )  # fmt: skip


@guarded
def restore(
    path: Annotated[Path, typer.Argument(help="A backup file (.pmbk).")],
    actor: Annotated[str, typer.Option("--by", help="Who restores (reported).")] = "permem",
    as_json: JsonFlag = False,
) -> None:
    """Insert the rows of a backup the database lacks; erased and shredded data stay gone."""
    from permem.backup import restore_backup

    if not path.is_file():
        raise BadInput(f"backup file does not exist: {path}")
    control(
        lambda db: restore_backup(db, path, actor=actor),
        as_json,
        lambda result: (
            result.as_json(),
            f"restored {result.restored} rows ({result.already_present} present, "
            f"{result.skipped_erased} erased skipped, {result.shredded_blocks} blocks shredded)",
        ),
    )
