"""Erasure in backups: re-sealing without what the ledger names, dropping past retention, and
the proof that no block with a key still holds erased data."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import RowMapping

from permem.backup._format import (
    _FILE_NAME,
    _TEMP_NAME,
    _next_path,
    _open,
    _read_file,
    _same_file,
    _seal,
    _write_backup,
    tenant_folder,
)
from permem.backup._keys import (
    _check_time,
    _destroy_keys,
    _exclusive,
    _Key,
    _keys,
    _live_backups,
    _new_key,
)
from permem.backup._ledger import _keep, _residue_marks
from permem.backup._results import (
    BackupProof,
    DropResult,
    EraseBackupsReport,
    PurgeResult,
    TenantErasure,
)
from permem.erasure.ledger import ErasureLedger, erasing
from permem.errors import BadInput, CheckFailed
from permem.stores.database import (
    Database,
    check_tenant,
    list_tenants,
    tenant_transaction,
)
from permem.stores.schema import backup_keys, backups


def purge_subjects(
    db: Database, tenant: str, subjects: Iterable[str], directory: Path, *, now: datetime
) -> PurgeResult:
    """Re-seal `subjects`' blocks in every live backup under a new key, without what the
    erasure ledger names (any state but `held`), then destroy their older keys.

    Called by `forget` after it erased the records. A block with nothing left is dropped; a
    subject with no block left in any live backup ends with no key at all. Crash-safe and
    idempotent: the new keys are committed first; each rewritten file is written atomically
    beside the old one (`<id>.r<N>.pmbk`) and its `backups` row updated before the old file
    goes; the old keys are deleted last, which also makes every other copy of the old blocks
    unreadable. A re-run finishes an interrupted one.
    """
    check_tenant(tenant)
    _check_time(now)
    wanted = sorted(set(subjects))
    with _exclusive(db, tenant):
        return _purge(db, tenant, wanted, directory, now)


def _purge(
    db: Database, tenant: str, subjects: Sequence[str], directory: Path, now: datetime
) -> PurgeResult:
    result = PurgeResult(tenant, list(subjects))
    wanted = set(subjects)
    with tenant_transaction(db.app, tenant) as conn:
        old = {k.id: k for k in _keys(conn) if k.subject in wanted}
        fresh = {s: _new_key(s) for s in sorted({k.subject for k in old.values()})}
        if fresh:
            conn.execute(
                sa.insert(backup_keys),
                [{"id": k.id, "tenant": tenant, "subject": k.subject, "key": k.secret}
                 for k in fresh.values()],
            )  # fmt: skip
        result.keys_created = len(fresh)
    if old:
        with tenant_transaction(db.app, tenant) as conn:
            ledger = erasing(conn)
            rows = [r for r in _live_backups(conn) if set(r["key_ids"]) & old.keys()]
        for row in rows:
            _reseal(db, tenant, row, old, fresh, ledger, now, result)
        with tenant_transaction(db.app, tenant) as conn:
            in_use = {k for r in _live_backups(conn) for k in r["key_ids"]}
            doomed = list(old) + [k.id for k in fresh.values() if k.id not in in_use]
            result.keys_destroyed = _destroy_keys(conn, doomed)
    result.files_removed = _sweep(db, tenant, directory)
    return result


def _reseal(
    db: Database,
    tenant: str,
    row: RowMapping,
    old: Mapping[uuid.UUID, _Key],
    fresh: Mapping[str, _Key],
    ledger: ErasureLedger,
    now: datetime,
    result: PurgeResult,
) -> None:
    """Rewrite one backup file with the old keys' blocks re-sealed, then record it."""
    path = Path(row["path"])
    if not path.is_file():
        result.missing_files += 1
        return
    header, sealed = _read_file(path)
    records = row["records"]
    out: list[Mapping[str, str]] = []
    for block_line in sealed:
        key = old.get(block_line.key_id)
        if key is None:
            out.append(block_line.line)
            continue
        try:
            block = _open(header, block_line, key)
        except CheckFailed:
            result.blocks_dropped += 1  # unreadable already; its key is destroyed below
            continue
        kept, omitted = _keep(block, ledger)
        result.rows_omitted += omitted
        records -= block.records - kept.records
        if kept.rows == 0:
            result.blocks_dropped += 1
            continue
        new_key = fresh[key.subject]
        out.append(_seal(tenant, header.backup_id, new_key, kept))
        result.blocks_resealed += 1
    out.sort(key=lambda b: b["key_id"])
    new_path = _next_path(path)
    fields = {**header.fields, "rewritten_at": now.isoformat()}
    sha256, _ = _write_backup(new_path, fields, out)
    try:
        with tenant_transaction(db.app, tenant) as conn:
            conn.execute(
                sa.update(backups)
                .where(backups.c.id == row["id"])
                .values(
                    path=str(new_path),
                    sha256=sha256,
                    key_ids=[uuid.UUID(b["key_id"]) for b in out],
                    records=max(records, 0),
                )
            )
    except BaseException:
        new_path.unlink(missing_ok=True)
        raise
    path.unlink(missing_ok=True)
    result.backups_rewritten += 1


def _sweep(db: Database, tenant: str, directory: Path) -> int:
    """Remove backup files of this tenant's folder that no live backup names: leftovers of
    an interrupted write, rewrite or drop (the caller holds the tenant's lock)."""
    folder = tenant_folder(directory, tenant)
    if not folder.is_dir():
        return 0
    with tenant_transaction(db.app, tenant) as conn:
        live = [r["path"] for r in _live_backups(conn)]
    removed = 0
    for entry in folder.iterdir():
        named = _FILE_NAME.match(entry.name) or _TEMP_NAME.match(entry.name)
        if named and entry.is_file() and not any(_same_file(entry, p) for p in live):
            entry.unlink(missing_ok=True)
            removed += 1
    return removed


def prove_backups(db: Database, tenant: str) -> BackupProof:
    """Decrypt every block of every live backup whose key exists and report each one that
    still holds a record id, source message id or content hash of the erasure ledger (any
    state but `held`): backup id, key id and what was found, ids and hashes only."""
    check_tenant(tenant)
    with _exclusive(db, tenant):
        return _prove(db, tenant)[0]


def _prove(db: Database, tenant: str) -> tuple[BackupProof, set[str]]:
    """The proof, and the subjects whose blocks hold residue."""
    proof = BackupProof(tenant)
    subjects: set[str] = set()
    with tenant_transaction(db.app, tenant) as conn:
        ledger = erasing(conn)
        keys = {k.id: k for k in _keys(conn)}
        rows = _live_backups(conn)
    proof.live_backups = len(rows)
    for row in rows:
        path = Path(row["path"])
        if not path.is_file():
            proof.missing_files.append(str(row["id"]))
            continue
        header, sealed = _read_file(path)
        for block_line in sealed:
            key = keys.get(block_line.key_id)
            if key is None:
                proof.blocks_shredded += 1
                continue
            proof.blocks_checked += 1
            found = _residue_marks(_open(header, block_line, key), ledger)
            if found:
                proof.residue.append(
                    {
                        "tenant": tenant,
                        "backup_id": str(row["id"]),
                        "key_id": str(key.id),
                        "path": str(path),
                        "found": found,
                    }
                )
                subjects.add(key.subject)
    return proof, subjects


def backup_residue(db: Database, tenant: str) -> list[dict[str, Any]]:
    """The proof step alone (for verify-erasure): each live backup block that still holds
    erased data, as {tenant, backup_id, key_id, path, found}; empty when clean."""
    return prove_backups(db, tenant).residue


def purge_erased(db: Database, tenant: str, directory: Path, *, now: datetime) -> PurgeResult:
    """Step 1 of `erase_backups`: purge every subject whose blocks in a live backup still
    hold something the erasure ledger names."""
    check_tenant(tenant)
    _check_time(now)
    with _exclusive(db, tenant):
        subjects = sorted(_prove(db, tenant)[1])
        if not subjects:
            result = PurgeResult(tenant)
            result.files_removed = _sweep(db, tenant, directory)
            return result
        return _purge(db, tenant, subjects, directory, now)


def drop_expired(
    db: Database, tenant: str, directory: Path, *, now: datetime, retention: timedelta
) -> DropResult:
    """Step 2 of `erase_backups`: delete the files of backups created before
    `now - retention` and mark them dropped (file first, so a crash leaves the row live and
    the next run finishes it); then destroy the keys that no live backup needs any more,
    which makes every other copy of the dropped files unreadable."""
    check_tenant(tenant)
    _check_time(now)
    if retention <= timedelta(0):
        raise BadInput("the backup retention must be positive")
    result = DropResult(tenant)
    with _exclusive(db, tenant):
        with tenant_transaction(db.app, tenant) as conn:
            expired = [r for r in _live_backups(conn) if r["created_at"] < now - retention]
        for row in expired:
            Path(row["path"]).unlink(missing_ok=True)
            with tenant_transaction(db.app, tenant) as conn:
                conn.execute(
                    sa.update(backups).where(backups.c.id == row["id"]).values(dropped_at=now)
                )
            result.dropped.append(row["id"])
        with tenant_transaction(db.app, tenant) as conn:
            in_use = {k for r in _live_backups(conn) for k in r["key_ids"]}
            unused = [k.id for k in _keys(conn) if k.id not in in_use]
            result.keys_destroyed = _destroy_keys(conn, unused)
        result.files_removed = _sweep(db, tenant, directory)
    return result


def erase_tenant_backups(
    db: Database, tenant: str, directory: Path, *, now: datetime, retention: timedelta
) -> TenantErasure:
    """Purge what the ledger still finds, drop what is past retention, then prove it."""
    purge = purge_erased(db, tenant, directory, now=now)
    drop = drop_expired(db, tenant, directory, now=now, retention=retention)
    return TenantErasure(purge, drop, prove_backups(db, tenant))


def erase_backups(
    db: Database, directory: Path, *, now: datetime, retention: timedelta
) -> EraseBackupsReport:
    """`erase_tenant_backups` for every registered tenant; `clean` is False when any block
    still holds erased data (the caller must fail loudly)."""
    tenants = list_tenants(db)
    return EraseBackupsReport(
        [erase_tenant_backups(db, t, directory, now=now, retention=retention) for t in tenants]
    )
