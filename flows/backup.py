"""Backups with crypto-shredding, and their erasure.

`backup` (nightly) writes one encrypted file per tenant, a block per subject under the
subject's own key (`permem.backup`). `erase_backups` (weekly) re-seals without them the blocks
that still hold something the erasure ledger names and destroys the old keys, drops backups
past retention with the keys only they needed, then decrypts every block that still has a key
to prove that nothing erased is readable: residue fails the run. Each flow runs one task per
step per batch of tenants and publishes what it did as artifacts.
Entrypoints: `flows/backup.py:backup`, `flows/backup.py:erase_backups`.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from prefect import flow
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from pydantic import BaseModel, Field

from permem.errors import CheckFailed
from permem.settings import load_settings
from tasks.backup import backup_task, drop_task, prove_task, purge_task, tenants_task


class BackupParams(BaseModel):
    """Parameters of a backup run (the UI renders them as a form)."""

    directory: str | None = Field(
        default=None, description="Folder of the backup files (default: <PERMEM_HOME>/backups)."
    )
    tenants: list[str] | None = Field(
        default=None, description="Back up only these tenants (default: every tenant)."
    )
    actor: str = Field(
        default="permem-backup", min_length=1, description="Who ran it, recorded per backup."
    )
    tenants_per_task: int = Field(
        default=50, ge=1, le=10_000, description="Tenants per task run (one task per batch)."
    )


class EraseBackupsParams(BaseModel):
    """Parameters of a backup-erasure run."""

    directory: str | None = Field(
        default=None, description="Folder of the backup files (default: <PERMEM_HOME>/backups)."
    )
    retention_days: float = Field(
        default=30, gt=0, le=36_500, description="Backups older than this many days are dropped."
    )
    tenants: list[str] | None = Field(
        default=None, description="Only these tenants (default: every tenant)."
    )
    tenants_per_task: int = Field(
        default=50, ge=1, le=10_000, description="Tenants per task run (one task per batch)."
    )


def _batches(items: list[str], size: int) -> Iterator[list[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


@flow(name="backup", log_prints=False)
def backup(params: BackupParams) -> dict[str, Any]:
    settings = load_settings()
    directory = params.directory or str(settings.backups_dir)
    now = datetime.now(UTC)
    made: list[dict[str, Any]] = []
    for batch in _batches(tenants_task(settings, params.tenants), params.tenants_per_task):
        made += backup_task(settings, batch, directory, params.actor, now)
    report = {
        "directory": directory,
        "created_at": now.isoformat(),
        "tenants": len(made),
        "subjects": sum(b["subjects"] for b in made),
        "records": sum(b["records"] for b in made),
        "bytes": sum(b["bytes"] for b in made),
        "backups": made,
    }
    create_table_artifact(
        key="backup-summary",
        table=[
            {
                k: b[k]
                for k in (
                    "tenant",
                    "id",
                    "subjects",
                    "records",
                    "rows",
                    "keys_created",
                    "bytes",
                    "seconds",
                )
            }
            for b in made
        ],  # fmt: skip
        description=f"Backups written to {directory}: one per tenant",
    )
    return report


@flow(name="erase_backups", log_prints=False)
def erase_backups(params: EraseBackupsParams) -> dict[str, Any]:
    settings = load_settings()
    directory = params.directory or str(settings.backups_dir)
    now = datetime.now(UTC)
    retention = timedelta(days=params.retention_days)
    purged: list[dict[str, Any]] = []
    dropped: list[dict[str, Any]] = []
    proofs: list[dict[str, Any]] = []
    for batch in _batches(tenants_task(settings, params.tenants), params.tenants_per_task):
        purged += purge_task(settings, batch, directory, now)
        dropped += drop_task(settings, batch, directory, now, retention)
        proofs += prove_task(settings, batch)
    residue = [r for p in proofs for r in p["residue"]]
    report = {
        "directory": directory,
        "retention_days": params.retention_days,
        "clean": not residue,
        "residue": residue,
        "tenants": [
            {"tenant": p["tenant"], "purge": p, "drop": d, "proof": v}
            for p, d, v in zip(purged, dropped, proofs, strict=True)
        ],
    }
    _publish_erasure(report)
    if residue:
        raise CheckFailed(
            f"{len(residue)} backup block(s) still hold erased data after the purge; "
            "see the erase-backups-residue artifact"
        )
    return report


def _publish_erasure(report: dict[str, Any]) -> None:
    rows = []
    for t in report["tenants"]:
        purge, drop, proof = t["purge"], t["drop"], t["proof"]
        rows.append(
            {
                "tenant": t["tenant"],
                "subjects purged": purge["subjects"],
                "blocks re-sealed": purge["blocks_resealed"],
                "blocks dropped": purge["blocks_dropped"],
                "rows omitted": purge["rows_omitted"],
                "backups dropped": len(drop["dropped"]),
                "keys destroyed": purge["keys_destroyed"] + drop["keys_destroyed"],
                "live backups": proof["live_backups"],
                "blocks checked": proof["blocks_checked"],
                "blocks shredded": proof["blocks_shredded"],
                "missing files": len(proof["missing_files"]),
                "residue": len(proof["residue"]),
            }
        )
    create_table_artifact(
        key="erase-backups-summary",
        table=rows,
        description="Purged, dropped and proved, per tenant",
    )
    residue = report["residue"]
    lines = [
        f"- tenant `{r['tenant']}`, backup `{r['backup_id']}`, key `{r['key_id']}`: "
        + ", ".join(f"`{f}`" for f in r["found"])
        for r in residue
    ]
    create_markdown_artifact(
        key="erase-backups-residue",
        description="Erased ids and hashes still readable in a backup (ids only)",
        markdown="# Backup residue\n\n"
        + ("\n".join(lines) or "none: every readable block is clean"),
    )
