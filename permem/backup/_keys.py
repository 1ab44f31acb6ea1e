"""Per-subject data keys (`backup_keys`), the tenant's backup lock and its live backups."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from sqlalchemy.engine import Connection, RowMapping

from permem.errors import BadInput
from permem.stores.database import Database
from permem.stores.schema import backup_keys, backups


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


def _destroy_keys(conn: Connection, key_ids: Sequence[uuid.UUID]) -> int:
    if not key_ids:
        return 0
    deleted = conn.execute(
        sa.delete(backup_keys)
        .where(backup_keys.c.id.in_(list(key_ids)))
        .returning(backup_keys.c.id)
    )
    return len(deleted.all())


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
