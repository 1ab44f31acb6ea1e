"""What the stores already say about arriving messages, and what the nightly run does with each.

`read_known` looks up, in a fixed number of queries per tenant whatever the batch size, what
`permem.pipeline.prepare` needs: the salted content hash of each message id processed before,
the erased source messages and claim fingerprints of the erasure ledger, the forget requests
that could cover the batch, and the paused subjects. `arrival_of` is the pure decision for
one message, in this order:

1. `already_processed`: its id was processed before with the same content (incremental runs);
   `changed_content`: its id was processed before with other content: quarantined, never
   processed twice, and its text is never shown.
2. `erased_source`: the message was stored once and erased since (a re-read of an old log).
3. `erased_on_arrival`: a forget request covers it although it arrives after the request: a
   source request naming its id, or a subject request for its subject or its account made
   after the message was written (`ts` before `requested_at`). It is never stored; the run
   records it as a quarantine entry holding the request id and a salted hash only. A message
   written after the request is new data and is processed normally.
4. `paused_subject`: its subject, or the account holder, is paused: recorded as processed,
   never read for claims.
5. `new`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.engine import Connection

from lineage import NodeKind
from permem.records import Message
from permem.stores.schema import erasure_ledger, sources, subject_settings

# `node_kind` of a forget request's own ledger row (permem.forget.REQUEST).
_REQUEST = "request"


class Arrival(StrEnum):
    """What the nightly run does with an arriving message; the values are its counters."""

    NEW = "new"
    ALREADY_PROCESSED = "already_processed"
    CHANGED_CONTENT = "changed_content"
    ERASED_SOURCE = "erased_source"
    ERASED_ON_ARRIVAL = "erased_on_arrival"
    PAUSED = "paused_subject"


@dataclass(frozen=True, slots=True)
class ForgetRequest:
    """A subject or source forget request of the erasure ledger."""

    request_id: str
    kind: str  # "subject" or "source" (permem.forget.TargetKind)
    target: str
    requested_at: datetime


@dataclass
class Known:
    """What one tenant's stores say about a batch's messages (see `read_known`)."""

    processed: dict[str, str] = field(default_factory=dict)  # message id -> salted hash
    erased_sources: set[str] = field(default_factory=set)
    erased_hashes: set[str] = field(default_factory=set)  # subject-scoped claim fingerprints
    requests: list[ForgetRequest] = field(default_factory=list)
    paused: set[str] = field(default_factory=set)


def _any(values: Iterable[str]) -> sa.ColumnElement[Any]:
    """`= ANY(:array)`: one bound array, one statement text whatever the number of values."""
    return sa.func.any(sa.literal(sorted(set(values)), ARRAY(sa.Text)))


def read_known(conn: Connection, messages: Sequence[Message]) -> Known:
    """Three queries in the bound tenant's transaction: processed sources, the erasure ledger
    (claim fingerprints, and the batch's erased sources and covering requests), paused
    subjects. Writes nothing."""
    known = Known()
    if not messages:
        return known
    ids = [m.message_id for m in messages]
    people = {m.subject for m in messages} | {m.account for m in messages}
    known.processed = {
        message_id: digest
        for message_id, digest in conn.execute(
            sa.select(sources.c.message_id, sources.c.content_hash).where(
                sources.c.message_id == _any(ids)
            )
        ).all()
    }
    ledger = erasure_ledger.c
    rows = conn.execute(
        sa.select(ledger.node_kind, ledger.node_id, ledger.content_hash, ledger.request_id,
                  ledger.target_kind, ledger.target_id, ledger.requested_at).where(sa.or_(
            sa.and_(ledger.node_kind == NodeKind.MEMORY.value, ledger.content_hash.is_not(None)),
            sa.and_(ledger.node_kind == NodeKind.SOURCE.value, ledger.node_id == _any(ids)),
            sa.and_(ledger.node_kind == _REQUEST, sa.or_(
                sa.and_(ledger.target_kind == "source", ledger.target_id == _any(ids)),
                sa.and_(ledger.target_kind == "subject", ledger.target_id == _any(people)),
            )),
        ))
    ).all()  # fmt: skip
    for node_kind, node_id, digest, request_id, kind, target, requested_at in rows:
        if node_kind == NodeKind.SOURCE.value:
            known.erased_sources.add(node_id)
        elif node_kind == NodeKind.MEMORY.value:
            known.erased_hashes.add(digest)
        else:
            known.requests.append(ForgetRequest(str(request_id), kind, target, requested_at))
    # Few subjects are ever paused: the tenant's whole list is one small read.
    known.paused = set(
        conn.execute(
            sa.select(subject_settings.c.subject).where(subject_settings.c.paused.is_(True))
        ).scalars()
    )
    return known


def covering_request(message: Message, requests: Iterable[ForgetRequest]) -> ForgetRequest | None:
    """The forget request that covers a message arriving now, if any: a source request for its
    id, or the latest subject request for its subject or account made after it was written."""
    found: ForgetRequest | None = None
    for request in requests:
        if request.kind == "source" and request.target == message.message_id:
            return request
        if (
            request.kind == "subject"
            and request.target in (message.subject, message.account)
            and message.ts < request.requested_at
            and (found is None or request.requested_at > found.requested_at)
        ):
            found = request
    return found


def arrival_of(message: Message, digest: str, known: Known) -> tuple[Arrival, str | None]:
    """What to do with `message` whose salted content hash is `digest` (see the module), and
    for the two that are set aside (`changed_content`, `erased_on_arrival`) the quarantine
    reason: ids only, never the text."""
    processed = known.processed.get(message.message_id)
    if processed is not None:
        if processed == digest:
            return Arrival.ALREADY_PROCESSED, None
        return (
            Arrival.CHANGED_CONTENT,
            f"message_id {message.message_id} was processed before with other content",
        )
    if message.message_id in known.erased_sources:
        return Arrival.ERASED_SOURCE, None
    request = covering_request(message, known.requests)
    if request is not None:
        return (
            Arrival.ERASED_ON_ARRIVAL,
            f"message_id {message.message_id} erased on arrival: "
            f"forget request {request.request_id}",
        )
    if message.subject in known.paused or message.account in known.paused:
        return Arrival.PAUSED, None
    return Arrival.NEW, None
