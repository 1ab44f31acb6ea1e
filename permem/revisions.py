"""Revisions at load: a sentence that takes something back supersedes what it names.

`permem.extraction.modality` tells a retraction ("not Windows anymore", "the move is off",
"sorry, I meant 1200"); the pipeline turns each such candidate into a `Retraction` (what it
names is read from its whole context in memory, never stored); `apply_retractions` then marks
the subject's older active claims that share a content word with it (`policy.reference_words`)
as `superseded`, one event each, in the load transaction. History is kept.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from permem import policy
from permem.records import Status
from permem.stores.bulk import copy_insert
from permem.stores.schema import memories, memory_events


@dataclass(frozen=True, slots=True)
class Retraction:
    """A sentence that takes something back: who, where, when, and what it names."""

    id: uuid.UUID
    subject: str
    scope: str
    observed_at: Any
    message_id: str
    span_start: int
    named: frozenset[str]


def apply_retractions(
    conn: Connection, tenant: str, retractions: Sequence[Retraction], superseded: list[str]
) -> None:
    """Supersede, for each retraction, the subject's older active claims in its scope (or
    global) that it names: a content word shared between the retraction with its context and
    the old claim with its own ("take it off my list" after "had the mango lassi again"
    names the mango lassi claim). The old rows stay as history; one event each."""
    if not retractions:
        return
    subjects = sorted({r.subject for r in retractions})
    rows = conn.execute(
        sa.select(memories.c.id, memories.c.subject, memories.c.scope, memories.c.claim,
                  memories.c.evidence, memories.c.observed_at, memories.c.source_message_id,
                  memories.c.span_end)
        .where(memories.c.status == Status.ACTIVE.value, memories.c.subject.in_(subjects))
    ).all()  # fmt: skip
    events: list[dict[str, Any]] = []
    for retraction in sorted(retractions, key=lambda r: (r.observed_at, str(r.id))):
        for memory_id, subject, scope, claim, evidence, observed_at, source, end in rows:
            said_before = observed_at < retraction.observed_at or (
                source == retraction.message_id and (end or 0) <= retraction.span_start
            )
            if (
                memory_id == retraction.id
                or subject != retraction.subject
                or scope not in (retraction.scope, "global")
                or not said_before
                or str(memory_id) in superseded
                or not retraction.named & policy.reference_words(f"{evidence or ''} {claim}")
            ):
                continue
            superseded.append(str(memory_id))
            events.append(
                {
                    "tenant": tenant,
                    "memory_id": memory_id,
                    "field": "status",
                    "old_value": Status.ACTIVE.value,
                    "new_value": Status.SUPERSEDED.value,
                    "actor": "nightly",
                    "reason": f"retracted by {retraction.id}",
                }
            )
    if events:
        conn.execute(
            sa.update(memories)
            .where(
                memories.c.id.in_([e["memory_id"] for e in events]),
                memories.c.status == Status.ACTIVE.value,
            )
            .values(status=Status.SUPERSEDED.value)
        )
        copy_insert(conn, memory_events, events)
