"""The backup file format: JSON Lines, one AES-256-GCM block per subject (see the package)."""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import re
import uuid
import zlib
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, BinaryIO

import sqlalchemy as sa
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from permem.backup._keys import _Key
from permem.errors import CheckFailed
from permem.export import safe_name
from permem.files import atomic_file
from permem.records import Status
from permem.stores.schema import (
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
