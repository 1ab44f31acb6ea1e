"""Reading a backup with the keys that still exist, and restoring what the database lacks."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from lineage import Node, NodeKind, Relation
from permem.backup._format import (
    BLOCK_TABLES,
    BackupContents,
    _open,
    _read_file,
    _sha256_file,
)
from permem.backup._keys import _chunks, _exclusive, _keys
from permem.backup._ledger import _keep
from permem.backup._results import RestoreResult
from permem.erasure.ledger import erasing
from permem.errors import BadInput, CheckFailed, NotFound
from permem.indexing import enqueue
from permem.stores.bulk import copy_insert
from permem.stores.database import Database, tenant_transaction
from permem.stores.lineage_store import EdgeRow, add_edges
from permem.stores.memories import record_from_row
from permem.stores.schema import backups, memories

# What identifies a row across blocks and databases (sources: one row per message).
_IDENTITY = {"sources": "message_id", "subject_settings": "subject"}


def read_backup(db: Database, path: Path) -> BackupContents:
    """Open a backup file with the keys that still exist (a block whose key was destroyed
    is listed in `shredded`). Reads only; the file's tenant must be registered."""
    header, sealed = _read_file(Path(path))
    with tenant_transaction(db.app, header.tenant) as conn:
        keys = {k.id: k for k in _keys(conn)}
    blocks = [_open(header, s, keys[s.key_id]) for s in sealed if s.key_id in keys]
    shredded = [s.key_id for s in sealed if s.key_id not in keys]
    return BackupContents(header.backup_id, header.tenant, header.created_at, blocks, shredded)


def restore_backup(db: Database, path: Path, *, actor: str) -> RestoreResult:
    """Insert the rows of a backup file that the database lacks, in one transaction.

    The file must match the sha256 of its `backups` row when that row exists (`CheckFailed`
    otherwise). A block whose key was destroyed is counted as shredded and skipped. Rows in
    the erasure ledger as it stands now (any state but `held`) and what depends on them are
    never inserted: a restore does not resurrect an erased claim. Ids, statuses and
    timestamps are kept as they were; a row already present is left as it is. Restored
    claims get their lineage edge from their source and are queued for the vector index.
    """
    if not actor:
        raise BadInput("a restore needs the actor who ran it")
    path = Path(path)
    if not path.is_file():
        raise NotFound(f"no backup file at {path}")
    header, sealed = _read_file(path)
    digest = _sha256_file(path)
    with _exclusive(db, header.tenant), tenant_transaction(db.app, header.tenant) as conn:
        recorded = conn.execute(
            sa.select(backups.c.sha256).where(backups.c.id == header.backup_id)
        ).scalar()
        if recorded is not None and recorded != digest:
            raise CheckFailed(
                f"{path} does not match the sha256 recorded for backup {header.backup_id}: "
                "it was altered, or it is an older copy of a backup rewritten since"
            )
        keys = {k.id: k for k in _keys(conn)}
        ledger = erasing(conn)
        merged: dict[str, dict[Any, dict[str, Any]]] = {t.name: {} for t in BLOCK_TABLES}
        shredded = skipped = 0
        for block_line in sealed:
            key = keys.get(block_line.key_id)
            if key is None:
                shredded += 1
                continue
            block, omitted = _keep(_open(header, block_line, key), ledger)
            skipped += omitted
            for name, rows in block.tables.items():
                identity = _IDENTITY.get(name, "id")
                for row in rows:
                    merged[name].setdefault(row[identity], row)
        restored_by_table: dict[str, int] = {}
        present = 0
        restored_ids: list[Any] = []
        for table in BLOCK_TABLES:
            rows = list(merged[table.name].values())
            identity = _IDENTITY.get(table.name, "id")
            inserted = copy_insert(conn, table, rows, skip_conflicts=True, returning=identity)
            restored_by_table[table.name] = len(inserted)
            present += len(rows) - len(inserted)
            if table is memories:
                restored_ids = inserted
        _relink(conn, header.tenant, restored_ids)
    return RestoreResult(
        backup_id=header.backup_id,
        tenant=header.tenant,
        path=path,
        restored_by=actor,
        verified=recorded is not None,
        blocks=len(sealed),
        shredded_blocks=shredded,
        restored=sum(restored_by_table.values()),
        already_present=present,
        skipped_erased=skipped,
        restored_by_table=restored_by_table,
    )


def _relink(conn: Connection, tenant: str, memory_ids: Sequence[Any]) -> None:
    """Lineage source -> claim and the index queue for restored claims."""
    for chunk in _chunks(list(memory_ids), 5000):
        records = [
            record_from_row(r)
            for r in conn.execute(sa.select(memories).where(memories.c.id.in_(chunk))).mappings()
        ]
        add_edges(
            conn,
            [
                EdgeRow(
                    tenant,
                    Node(NodeKind.SOURCE, r.source.message_id),
                    Node(NodeKind.MEMORY, str(r.id)),
                    Relation.EXTRACTED,
                )
                for r in records
                if r.source.message_id
            ],
        )
        enqueue(conn, records)
