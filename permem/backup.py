"""Backups with crypto-shredding: one encrypted file per tenant, one block per subject.

A backup is `<directory>/<tenant>/<backup id>.pmbk` (odd names encoded, see
`permem.export.safe_name`), mode 0600, written atomically, in JSON Lines:

    {"format": "permem-backup/1", "backup_id": ..., "tenant": ..., "created_at": ..., ...}
    {"key_id": ..., "nonce": <base64>, "ciphertext": <base64>}      one line per subject
    {"end": true, "blocks": N}

Nothing else is in plaintext: no subject name, no record. A block is the subject's rows of
`memories` (every status but blocked/erased), the `sources` they cite, their `memory_events`
and `gate_decisions`, and the subject's `subject_settings` and `grants`, as zlib-compressed
JSON sealed with AES-256-GCM under the subject's data key (`backup_keys`); the associated data
binds the format, tenant, backup id and key id, so a block cannot be moved to another file.
Blocks are ordered by key id, which says nothing about the subjects.

Erasure never trusts a backup to forget by itself. Whatever is in the erasure ledger (any
state but `held`) is left out of a new backup, left out by a restore, and removed from the
existing backups by `purge_subjects`: the subject's blocks are re-sealed under a new key
without the erased rows, and then every older key of the subject is deleted, which makes the
old blocks unreadable wherever a copy of the file went. A rewritten file is
`<backup id>.r<N>.pmbk`, beside the old one, which goes once its `backups` row names the new
one. `erase_backups` purges what the ledger still finds in a backup, drops backups past
retention (and the keys only they needed) and proves the result by decrypting every block that
still has a key.

The keys live in PostgreSQL, apart from the files: a file alone is unreadable, and a database
lost with its keys takes every backup with it, so `backup_keys` needs protection of its own
(a replica, point-in-time recovery) rather than a copy in the files. Operations on one
tenant's backups are serialized by an advisory lock, so a backup never races a purge.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import re
import time
import uuid
import zlib
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, BinaryIO, cast

import sqlalchemy as sa
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from sqlalchemy.engine import Connection, Engine, RowMapping

from lineage import Node, NodeKind, Relation
from permem.erasure.ledger import Clock, ErasureLedger, erasing
from permem.errors import BadInput, CheckFailed, NotFound
from permem.export import safe_name
from permem.files import atomic_file
from permem.indexing import enqueue
from permem.records import Status
from permem.stores.bulk import copy_insert
from permem.stores.database import (
    Database,
    check_tenant,
    list_tenants,
    tenant_transaction,
)
from permem.stores.lineage_store import EdgeRow, add_edges
from permem.stores.memories import record_from_row
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

FORMAT = "permem-backup/1"
SUFFIX = ".pmbk"
CIPHER = "AES-256-GCM"
ENCODING = "json+zlib"

# The tables of a block, in the order a restore inserts them (a claim cites its source).
BLOCK_TABLES: tuple[sa.Table, ...] = (
    sources,
    memories,
    memory_events,
    gate_decisions,
    subject_settings,
    grants,
)
_TABLES = {t.name: t for t in BLOCK_TABLES}
# What identifies a row across blocks and databases (sources: one row per message).
_IDENTITY = {"sources": "message_id", "subject_settings": "subject"}
_GONE = (Status.BLOCKED.value, Status.ERASED.value)
_NONCE_BYTES = 12
_SUBJECTS_PER_QUERY = 200
_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
_FILE_NAME = re.compile(rf"^(?P<id>{_UUID})(?:\.r(?P<generation>\d+))?\.pmbk$")
_TEMP_NAME = re.compile(rf"^\.{_UUID}(?:\.r\d+)?\.pmbk\..+\.tmp$")


# ---------------------------------------------------------------- results


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


@dataclass(frozen=True, slots=True)
class SubjectBlock:
    """One subject's rows, as sealed in a block (table name -> rows)."""

    key_id: uuid.UUID
    subject: str
    tables: Mapping[str, list[dict[str, Any]]]

    @property
    def records(self) -> int:
        return len(self.tables.get("memories", []))

    @property
    def rows(self) -> int:
        return sum(len(rows) for rows in self.tables.values())


@dataclass(frozen=True, slots=True)
class BackupContents:
    """A backup file opened with the keys that still exist."""

    backup_id: uuid.UUID
    tenant: str
    created_at: datetime
    blocks: list[SubjectBlock]
    shredded: list[uuid.UUID]  # key ids of the blocks that cannot be read any more


# ---------------------------------------------------------------- the erasure ledger

# The clock that stamped each subject-level row a subject request is compared with
# (`permem.erasure.ledger`): PostgreSQL stamps gate decisions, the caller settings and grants.
_STAMPS = {
    "gate_decisions": ("decided_at", Clock.DATABASE),
    "subject_settings": ("updated_at", Clock.CALLER),
    "grants": ("granted_at", Clock.CALLER),
}


def _marks(ledger: ErasureLedger, table: str, row: Mapping[str, Any]) -> list[str]:
    """The ledgered ids and hashes that `row` of `table` holds (empty: it may be kept).

    `ledger` is the `erasing` view (every state but `held`). A subject-level erasure covers
    the settings, grants and rejected candidates of the subject and of its third parties
    stamped at or before it; its records are ledgered one by one.
    """
    found: list[str] = []

    def check(kind: str, value: Any, ledgered: frozenset[str]) -> None:
        if value is not None and str(value) in ledgered:
            found.append(f"{kind}:{value}")

    if table == "memories":
        check("memory", row["id"], ledger.memories)
        check("source", row["source_message_id"], ledger.sources)
        check("hash", row["claim_hash"], ledger.hashes)
    elif table == "sources":
        check("source", row["message_id"], ledger.sources)
        check("hash", row["content_hash"], ledger.hashes)
    elif table == "memory_events":
        check("memory", row["memory_id"], ledger.memories)
    elif table == "gate_decisions":
        check("memory", row["memory_id"], ledger.memories)
        check("source", row["source_message_id"], ledger.sources)
        check("hash", row["candidate_hash"], ledger.hashes)
    if table in _STAMPS and (table != "gate_decisions" or row["memory_id"] is None):
        column, clock = _STAMPS[table]
        subject = row["subject"]
        if subject is not None and ledger.subject_request(subject, row[column], clock):
            found.append(f"subject:{subject}")
    return found


def _keep(block: SubjectBlock, ledger: ErasureLedger) -> tuple[SubjectBlock, int]:
    """`block` without what the ledger forbids, nor what depends on it; and how many rows
    were left out. Sources stay only while a kept claim cites them."""
    tables = block.tables
    claims = [
        r
        for r in tables.get("memories", [])
        if r["status"] not in _GONE and not _marks(ledger, "memories", r)
    ]
    kept_ids = {r["id"] for r in claims}
    cited = {r["source_message_id"] for r in claims if r["source_message_id"] is not None}
    kept: dict[str, list[dict[str, Any]]] = {
        "sources": [
            r
            for r in tables.get("sources", [])
            if r["message_id"] in cited and not _marks(ledger, "sources", r)
        ],
        "memories": claims,
        "memory_events": [
            r
            for r in tables.get("memory_events", [])
            if r["memory_id"] in kept_ids and not _marks(ledger, "memory_events", r)
        ],
        "gate_decisions": [
            r
            for r in tables.get("gate_decisions", [])
            if (r["memory_id"] is None or r["memory_id"] in kept_ids)
            and not _marks(ledger, "gate_decisions", r)
        ],
        "subject_settings": [
            r
            for r in tables.get("subject_settings", [])
            if not _marks(ledger, "subject_settings", r)
        ],
        "grants": [r for r in tables.get("grants", []) if not _marks(ledger, "grants", r)],
    }
    result = SubjectBlock(block.key_id, block.subject, kept)
    return result, block.rows - result.rows


def _residue_marks(block: SubjectBlock, ledger: ErasureLedger) -> list[str]:
    return sorted(
        {
            mark
            for name, rows in block.tables.items()
            for r in rows
            for mark in _marks(ledger, name, r)
        }
    )


# ---------------------------------------------------------------- keys, sealing, files


@dataclass(frozen=True, slots=True)
class _Key:
    id: uuid.UUID
    subject: str
    secret: bytes


def _new_key(subject: str) -> _Key:
    return _Key(uuid.uuid4(), subject, AESGCM.generate_key(bit_length=256))


def _keys(conn: Connection) -> list[_Key]:
    """Every data key of the bound tenant, newest first (a subject's live key comes first)."""
    rows = conn.execute(
        sa.select(backup_keys.c.id, backup_keys.c.subject, backup_keys.c.key).order_by(
            backup_keys.c.created_at.desc(), backup_keys.c.id
        )
    ).all()
    return [_Key(r.id, r.subject, bytes(r.key)) for r in rows]


def _live_keys(keys: Iterable[_Key]) -> dict[str, _Key]:
    live: dict[str, _Key] = {}
    for key in keys:
        live.setdefault(key.subject, key)
    return live


def associated_data(tenant: str, backup_id: uuid.UUID, key_id: uuid.UUID) -> bytes:
    """What a block's AES-GCM tag binds besides the ciphertext: format, tenant, backup, key."""
    return json.dumps([FORMAT, tenant, str(backup_id), str(key_id)]).encode("utf-8")


def _encode(value: Any) -> Any:
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, datetime):
        return value.isoformat()
    return value


def _decoder(column: sa.Column[Any]) -> Any:
    if isinstance(column.type, sa.DateTime):
        return datetime.fromisoformat
    if isinstance(column.type, sa.Uuid):
        return uuid.UUID
    return None


def _seal(tenant: str, backup_id: uuid.UUID, key: _Key, block: SubjectBlock) -> dict[str, str]:
    tables = {}
    for name, rows in block.tables.items():
        columns = [c.name for c in _TABLES[name].columns]
        tables[name] = {
            "columns": columns,
            "rows": [[_encode(row[c]) for c in columns] for row in rows],
        }
    plain = json.dumps(
        {"subject": block.subject, "tables": tables}, ensure_ascii=False, separators=(",", ":")
    ).encode("utf-8")
    nonce = os.urandom(_NONCE_BYTES)
    sealed = AESGCM(key.secret).encrypt(
        nonce, zlib.compress(plain), associated_data(tenant, backup_id, key.id)
    )
    return {
        "key_id": str(key.id),
        "nonce": base64.b64encode(nonce).decode("ascii"),
        "ciphertext": base64.b64encode(sealed).decode("ascii"),
    }


@dataclass(frozen=True, slots=True)
class _Header:
    backup_id: uuid.UUID
    tenant: str
    created_at: datetime
    fields: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class _Sealed:
    key_id: uuid.UUID
    line: Mapping[str, str]


def _open(header: _Header, sealed: _Sealed, key: _Key) -> SubjectBlock:
    """Decrypt one block; a block that fails authentication or names another subject than
    its key is a damaged or altered file (`CheckFailed`)."""
    where = f"backup {header.backup_id}, block of key {sealed.key_id}"
    try:
        nonce = base64.b64decode(sealed.line["nonce"], validate=True)
        ciphertext = base64.b64decode(sealed.line["ciphertext"], validate=True)
        plain = AESGCM(key.secret).decrypt(
            nonce, ciphertext, associated_data(header.tenant, header.backup_id, key.id)
        )
        payload = json.loads(zlib.decompress(plain))
    except (InvalidTag, KeyError, ValueError, binascii.Error, zlib.error) as exc:
        raise CheckFailed(
            f"{where} fails authentication: the file is damaged or was altered"
        ) from exc
    if payload.get("subject") != key.subject:
        raise CheckFailed(f"{where} does not belong to its key's subject: the file was altered")
    tables: dict[str, list[dict[str, Any]]] = {}
    for name, content in payload["tables"].items():
        table = _TABLES.get(name)
        columns = content["columns"]
        if table is None or not set(columns) <= set(table.c.keys()):
            raise CheckFailed(f"{where} holds a table this permem does not know: {name}")
        decoders = [_decoder(table.c[c]) for c in columns]
        tables[name] = [
            {
                c: (d(v) if d is not None and v is not None else v)
                for c, d, v in zip(columns, decoders, values, strict=True)
            }
            for values in content["rows"]
        ]
    return SubjectBlock(sealed.key_id, key.subject, tables)


def _read_file(path: Path) -> tuple[_Header, list[_Sealed]]:
    """The header and the sealed blocks of a backup file (`CheckFailed` if it is not one,
    or was cut short)."""
    try:
        lines = path.read_bytes().splitlines()
        first = json.loads(lines[0]) if lines else {}
        if first.get("format") != FORMAT:
            raise CheckFailed(f"{path} is not a {FORMAT} file")
        header = _Header(
            backup_id=uuid.UUID(first["backup_id"]),
            tenant=first["tenant"],
            created_at=datetime.fromisoformat(first["created_at"]),
            fields=first,
        )
        blocks = [json.loads(line) for line in lines[1:-1]]
        trailer = json.loads(lines[-1])
        sealed = [_Sealed(uuid.UUID(b["key_id"]), b) for b in blocks]
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise CheckFailed(f"{path} is not a readable {FORMAT} file: {exc}") from exc
    if trailer != {"end": True, "blocks": len(sealed)}:
        raise CheckFailed(f"{path} is incomplete: its last line is not the end marker")
    return header, sealed


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


class _Lines:
    """Writes JSON lines to a file and hashes them on the way."""

    def __init__(self, fh: BinaryIO) -> None:
        self._fh = fh
        self.sha256 = hashlib.sha256()
        self.bytes = 0

    def write(self, obj: Mapping[str, Any]) -> None:
        data = (json.dumps(obj, separators=(",", ":")) + "\n").encode("ascii")
        self._fh.write(data)
        self.sha256.update(data)
        self.bytes += len(data)


@contextmanager
def _atomic_file(path: Path) -> Iterator[_Lines]:
    """Write `path` (mode 0600) so that it is either absent or complete."""
    with atomic_file(path) as fh:
        yield _Lines(fh)


def _write_backup(
    path: Path, header: Mapping[str, Any], blocks: Iterable[Mapping[str, str]]
) -> tuple[str, int]:
    with _atomic_file(path) as out:
        out.write(header)
        count = 0
        for block in blocks:
            out.write(block)
            count += 1
        out.write({"end": True, "blocks": count})
    return out.sha256.hexdigest(), out.bytes


def tenant_folder(directory: Path, tenant: str) -> Path:
    """Where a tenant's backup files live: `<directory>/<tenant>` (see `safe_name`)."""
    return Path(os.path.abspath(directory)) / safe_name(tenant)


def _next_path(path: Path) -> Path:
    """The name of a rewritten backup file: `<id>.r<N+1>.pmbk` beside `<id>[.r<N>].pmbk`."""
    match = _FILE_NAME.match(path.name)
    if match is None:
        raise CheckFailed(f"{path} is not named like a backup file")
    generation = int(match["generation"] or 0) + 1
    return path.with_name(f"{match['id']}.r{generation}{SUFFIX}")


def _same_file(a: str | Path, b: str | Path) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


# ---------------------------------------------------------------- database helpers


@contextmanager
def _exclusive(db: Database, tenant: str) -> Iterator[None]:
    """Hold the tenant's backup lock (a transaction-level advisory lock on its own
    connection, released however the block ends)."""
    with db.app.begin() as conn:
        conn.execute(
            sa.select(
                sa.func.pg_advisory_xact_lock(
                    sa.func.hashtextextended(f"permem.backup:{tenant}", 0)
                )
            )
        )
        yield


def _snapshot(db: Database) -> Engine:
    """The application engine with one snapshot per transaction: a backup is consistent."""
    return db.app.execution_options(isolation_level="REPEATABLE READ")


def _live_backups(conn: Connection) -> list[RowMapping]:
    return list(
        conn.execute(
            sa.select(backups)
            .where(backups.c.dropped_at.is_(None))
            .order_by(backups.c.created_at, backups.c.id)
        ).mappings()
    )


def _check_time(now: datetime) -> None:
    if now.tzinfo is None:
        raise BadInput("the time must carry a timezone")


def _chunks(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


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


# ---------------------------------------------------------------- backup


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


# ---------------------------------------------------------------- reading and restoring


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


# ---------------------------------------------------------------- erasure


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


def _destroy_keys(conn: Connection, key_ids: Sequence[uuid.UUID]) -> int:
    if not key_ids:
        return 0
    deleted = conn.execute(
        sa.delete(backup_keys)
        .where(backup_keys.c.id.in_(list(key_ids)))
        .returning(backup_keys.c.id)
    )
    return len(deleted.all())


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
