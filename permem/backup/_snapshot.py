"""Writing a backup: each subject's rows read from one snapshot, sealed under its live key."""

from __future__ import annotations

import time
import uuid
from collections import defaultdict
from collections.abc import Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from permem.backup._format import (
    BLOCK_TABLES,
    CIPHER,
    ENCODING,
    FORMAT,
    SUFFIX,
    SubjectBlock,
    _seal,
    _write_backup,
    tenant_folder,
)
from permem.backup._keys import _check_time, _chunks, _exclusive, _Key, _keys, _live_keys, _new_key
from permem.backup._ledger import _GONE, _keep
from permem.backup._results import BackupResult
from permem.erasure.ledger import erasing
from permem.errors import BadInput
from permem.stores.database import (
    Database,
    check_tenant,
    list_tenants,
    tenant_transaction,
)
from permem.stores.schema import (
    backup_keys,
    backups,
    gate_decisions,
    grants,
    memories,
    memory_events,
    sources,
    subject_settings,
)

_SUBJECTS_PER_QUERY = 200


def _snapshot(db: Database) -> Engine:
    """The application engine with one snapshot per transaction: a backup is consistent."""
    return db.app.execution_options(isolation_level="REPEATABLE READ")


def _subjects(conn: Connection) -> list[str]:
    """Every subject that has something to back up in the bound tenant."""
    query = sa.union(
        sa.select(memories.c.subject).where(memories.c.status.not_in(_GONE)),
        sa.select(subject_settings.c.subject),
        sa.select(grants.c.subject),
        sa.select(gate_decisions.c.subject).where(
            gate_decisions.c.memory_id.is_(None), gate_decisions.c.subject.is_not(None)
        ),
    )
    return sorted(conn.execute(query).scalars())


def _collect(
    conn: Connection, subjects: Sequence[str]
) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """The rows of `subjects`, by subject and table, before the ledger is applied."""
    wanted = list(subjects)
    theirs = sa.select(memories.c.id).where(memories.c.subject.in_(wanted))
    found: dict[str, dict[str, list[dict[str, Any]]]] = {
        s: {t.name: [] for t in BLOCK_TABLES} for s in wanted
    }
    owner: dict[uuid.UUID, str] = {}
    cites: dict[str, set[str]] = defaultdict(set)

    def rows(query: sa.Select[Any]) -> Iterator[dict[str, Any]]:
        return (dict(r) for r in conn.execute(query).mappings())

    for row in rows(
        sa.select(memories)
        .where(memories.c.subject.in_(wanted), memories.c.status.not_in(_GONE))
        .order_by(memories.c.observed_at, memories.c.created_at, memories.c.id)
    ):
        found[row["subject"]]["memories"].append(row)
        owner[row["id"]] = row["subject"]
        if row["source_message_id"] is not None:
            cites[row["source_message_id"]].add(row["subject"])
    for row in rows(
        sa.select(sources).where(
            sources.c.message_id.in_(
                sa.select(memories.c.source_message_id).where(memories.c.subject.in_(wanted))
            )
        )
    ):
        for subject in sorted(cites.get(row["message_id"], ())):
            found[subject]["sources"].append(row)
    for row in rows(
        sa.select(memory_events)
        .where(memory_events.c.memory_id.in_(theirs))
        .order_by(memory_events.c.at, memory_events.c.id)
    ):
        if row["memory_id"] in owner:
            found[owner[row["memory_id"]]]["memory_events"].append(row)
    for row in rows(
        sa.select(gate_decisions)
        .where(
            sa.or_(
                gate_decisions.c.memory_id.in_(theirs),
                sa.and_(gate_decisions.c.memory_id.is_(None), gate_decisions.c.subject.in_(wanted)),
            )
        )
        .order_by(gate_decisions.c.decided_at, gate_decisions.c.id)
    ):
        decided = owner.get(row["memory_id"]) if row["memory_id"] is not None else row["subject"]
        if decided in found:
            found[decided]["gate_decisions"].append(row)
    for row in rows(sa.select(subject_settings).where(subject_settings.c.subject.in_(wanted))):
        found[row["subject"]]["subject_settings"].append(row)
    for row in rows(
        sa.select(grants).where(grants.c.subject.in_(wanted)).order_by(grants.c.granted_at)
    ):
        found[row["subject"]]["grants"].append(row)
    return found


def backup_tenant(
    db: Database, tenant: str, directory: Path, *, actor: str, now: datetime
) -> BackupResult:
    """Write one backup of `tenant` and record it in `backups`.

    One block per subject, sealed under the subject's live key (created on the subject's
    first backup). Records in the erasure ledger (any state but `held`) and blocked or erased
    records are left out, with what depends on them. The rows are read from one snapshot. The
    file is `<directory>/<tenant>/<backup id>.pmbk`, mode 0600, written atomically; the new
    keys and the `backups` row are committed only after it is in place, and if that fails the
    file is removed and the error raised.
    """
    check_tenant(tenant)
    _check_time(now)
    if not actor:
        raise BadInput("a backup needs the actor who ran it")
    started = time.perf_counter()
    backup_id = uuid.uuid4()
    path = tenant_folder(directory, tenant) / f"{backup_id}{SUFFIX}"
    header = {
        "format": FORMAT,
        "backup_id": str(backup_id),
        "tenant": tenant,
        "created_at": now.isoformat(),
        "cipher": CIPHER,
        "encoding": ENCODING,
    }
    written = False
    with _exclusive(db, tenant):
        try:
            with tenant_transaction(_snapshot(db), tenant) as conn:
                ledger = erasing(conn)
                live = _live_keys(_keys(conn))
                keyed = sorted(
                    (live.get(s) or _new_key(s) for s in _subjects(conn)),
                    key=lambda k: str(k.id),
                )
                used: list[_Key] = []
                counts = {"records": 0, "rows": 0}

                def blocks() -> Iterator[dict[str, str]]:
                    for chunk in _chunks(keyed, _SUBJECTS_PER_QUERY):
                        found = _collect(conn, [k.subject for k in chunk])
                        for key in chunk:
                            block, _ = _keep(
                                SubjectBlock(key.id, key.subject, found[key.subject]), ledger
                            )
                            if block.rows == 0:
                                continue
                            used.append(key)
                            counts["records"] += block.records
                            counts["rows"] += block.rows
                            yield _seal(tenant, backup_id, key, block)

                sha256, size = _write_backup(path, header, blocks())
                written = True
                created = [k for k in used if live.get(k.subject) is not k]
                if created:
                    conn.execute(
                        sa.insert(backup_keys),
                        [{"id": k.id, "tenant": tenant, "subject": k.subject, "key": k.secret}
                         for k in created],
                    )  # fmt: skip
                conn.execute(
                    sa.insert(backups).values(
                        id=backup_id,
                        tenant=tenant,
                        path=str(path),
                        sha256=sha256,
                        subjects=len(used),
                        records=counts["records"],
                        key_ids=[k.id for k in used],
                        created_by=actor,
                        created_at=now,
                    )
                )
        except BaseException:
            if written:
                path.unlink(missing_ok=True)
            raise
    return BackupResult(
        id=backup_id,
        tenant=tenant,
        path=path,
        sha256=sha256,
        subjects=len(used),
        records=counts["records"],
        rows=counts["rows"],
        keys_created=len(created),
        bytes=size,
        seconds=time.perf_counter() - started,
    )


def backup_all(db: Database, directory: Path, *, actor: str, now: datetime) -> list[BackupResult]:
    """`backup_tenant` for every registered tenant, in name order."""
    tenants = list_tenants(db)
    return [backup_tenant(db, t, directory, actor=actor, now=now) for t in tenants]
