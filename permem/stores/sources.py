"""Source messages in the system of record: metadata and a salted hash, never the text."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from permem.hashing import content_hash
from permem.records import Message
from permem.stores.bulk import copy_insert
from permem.stores.database import tenant_salt
from permem.stores.schema import sources

_NAMESPACE = uuid.UUID("9b7d3c2e-58a4-4f0e-8a8e-2c6f5d1b0e44")


def source_id(tenant: str, message_id: str) -> uuid.UUID:
    """The row id of a message: derived from it, so re-runs produce the same row."""
    return uuid.uuid5(_NAMESPACE, f"{tenant}\x1f{message_id}")


def append_sources(
    conn: Connection, messages: Sequence[Message], batch_id: uuid.UUID | None = None
) -> set[str]:
    """Record messages not seen before; return the message ids that were new.

    A message id already stored for the tenant is left untouched (idempotent re-runs).
    """
    if not messages:
        return set()
    salt = tenant_salt(conn)
    rows = [
        {
            "id": source_id(m.tenant, m.message_id),
            "tenant": m.tenant,
            "message_id": m.message_id,
            "account": m.account,
            "conversation_id": m.conversation_id,
            "turn": m.turn,
            "role": m.role.value,
            "ts": m.ts,
            "scope": m.scope,
            "purpose": m.purpose,
            "session": m.session,
            "incognito": m.incognito,
            "content_hash": content_hash(salt, m.text),
            "batch_id": batch_id,
            "subject": m.subject if m.subject != m.account else None,
        }
        for m in messages
    ]
    return set(copy_insert(conn, sources, rows, skip_conflicts=True, returning="message_id"))


def known_message_ids(conn: Connection, message_ids: Sequence[str]) -> set[str]:
    """Which of `message_ids` the bound tenant has already recorded."""
    if not message_ids:
        return set()
    found = conn.execute(
        sa.select(sources.c.message_id).where(sources.c.message_id.in_(message_ids))
    )
    return set(found.scalars())
