"""What each backup operation reports: its fields as JSON, ids and paths as strings."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, cast


def _jsonable(value: Any) -> Any:
    if isinstance(value, _Report):
        return value.as_json()
    if isinstance(value, uuid.UUID | Path):
        return str(value)
    if isinstance(value, float):
        return round(value, 3)
    if isinstance(value, Mapping):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


class _Report:
    """A result that prints as JSON: its fields, ids and paths as strings."""

    __slots__ = ()

    def as_json(self) -> dict[str, Any]:
        return {f.name: _jsonable(getattr(self, f.name)) for f in fields(cast(Any, self))}


@dataclass(frozen=True, slots=True)
class BackupResult(_Report):
    """One tenant's backup file, as recorded in `backups`."""

    id: uuid.UUID
    tenant: str
    path: Path
    sha256: str
    subjects: int
    records: int  # memories
    rows: int  # rows of every table
    keys_created: int
    bytes: int
    seconds: float


@dataclass(frozen=True, slots=True)
class RestoreResult(_Report):
    """What a restore inserted, found already there, left out as erased, or could not read."""

    backup_id: uuid.UUID
    tenant: str
    path: Path
    restored_by: str
    verified: bool  # the file matched the sha256 of its `backups` row
    blocks: int
    shredded_blocks: int  # blocks whose key is gone: unreadable, skipped
    restored: int
    already_present: int
    skipped_erased: int
    restored_by_table: Mapping[str, int]


@dataclass(slots=True)
class PurgeResult(_Report):
    """What re-sealing some subjects' blocks without their erased rows did."""

    tenant: str
    subjects: list[str] = field(default_factory=list)
    backups_rewritten: int = 0
    blocks_resealed: int = 0
    blocks_dropped: int = 0
    rows_omitted: int = 0
    keys_created: int = 0
    keys_destroyed: int = 0
    missing_files: int = 0
    files_removed: int = 0  # leftovers of an interrupted run

    def as_json(self) -> dict[str, Any]:
        # A count: reports and artifacts name no subject.
        return {**_Report.as_json(self), "subjects": len(self.subjects)}


@dataclass(slots=True)
class DropResult(_Report):
    """Backups dropped past retention, and the keys that only they needed."""

    tenant: str
    dropped: list[uuid.UUID] = field(default_factory=list)
    keys_destroyed: int = 0
    files_removed: int = 0


@dataclass(slots=True)
class BackupProof(_Report):
    """The proof step: every block with a key decrypted and checked against the ledger."""

    tenant: str
    live_backups: int = 0
    blocks_checked: int = 0
    blocks_shredded: int = 0
    missing_files: list[str] = field(default_factory=list)  # backup ids
    residue: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class TenantErasure(_Report):
    """What `erase_backups` did for one tenant, step by step."""

    purge: PurgeResult
    drop: DropResult
    proof: BackupProof


@dataclass(frozen=True, slots=True)
class EraseBackupsReport(_Report):
    tenants: list[TenantErasure]

    @property
    def residue(self) -> list[dict[str, Any]]:
        return [r for t in self.tenants for r in t.proof.residue]

    @property
    def clean(self) -> bool:
        return not self.residue

    def as_json(self) -> dict[str, Any]:
        return {"clean": self.clean, "residue": self.residue, **_Report.as_json(self)}
