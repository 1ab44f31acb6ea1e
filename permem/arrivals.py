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
   at or after the time the message was written (`ts` at or before `requested_at`). It is
   never stored; the run records it as a quarantine entry holding the request id and a
   salted hash only. A message written after the request is new data and is processed.
4. `paused_subject`: its subject, or the account holder, is paused: recorded as processed,
   never read for claims.
5. `new`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.engine import Connection

from permem.erasure.ledger import ErasureLedger, ForgetRequest, TargetKind, blocking
from permem.policy import EXCLUSIVE_TOPICS
from permem.records import Confirmation, Message, Status
from permem.stores.schema import memories, sources, subject_settings

__all__ = ["Arrival", "ForgetRequest", "Known", "arrival_of", "covering_request", "read_known"]


class Arrival(StrEnum):
    """What the nightly run does with an arriving message; the values are its counters."""

    NEW = "new"
    ALREADY_PROCESSED = "already_processed"
    CHANGED_CONTENT = "changed_content"
    ERASED_SOURCE = "erased_source"
    ERASED_ON_ARRIVAL = "erased_on_arrival"
    PAUSED = "paused_subject"


@dataclass
class Known:
    """What one tenant's stores say about a batch's messages (see `read_known`)."""

    processed: dict[str, str] = field(default_factory=dict)  # message id -> salted hash
    erased_sources: set[str] = field(default_factory=set)
    erased_hashes: set[str] = field(default_factory=set)  # subject-scoped claim fingerprints
    requests: list[ForgetRequest] = field(default_factory=list)
    paused: set[str] = field(default_factory=set)
    usable_topics: set[tuple[str, str, str]] = field(default_factory=set)


def _any(values: Iterable[str]) -> sa.ColumnElement[Any]:
    """`= ANY(:array)`: one bound array, one statement text whatever the number of values."""
    return sa.func.any(sa.literal(sorted(set(values)), ARRAY(sa.Text)))


def read_known(conn: Connection, messages: Sequence[Message]) -> Known:
    """Four queries in the bound tenant's transaction: processed sources, the erasure ledger
    (claim fingerprints, and the batch's erased sources and covering requests), the claims in
    use on exclusive topics, paused subjects. Writes nothing."""
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
    # Every memory node's hash (a claim re-extracted gets a new id), the batch's sources.
    ledger = blocking(conn, memories=None, sources=ids, subjects=people)
    known.erased_sources = set(ledger.sources)
    known.erased_hashes = set(ledger.claim_hashes)
    known.requests = [r for r in ledger.requests if r.kind != TargetKind.CLAIM]
    # The claims in use on an exclusive topic: an update on one of them replaces it.
    known.usable_topics = {
        (subject, topic, scope)
        for subject, topic, scope in conn.execute(
            sa.select(memories.c.subject, memories.c.topic, memories.c.scope)
            .where(
                memories.c.subject == _any(people),
                memories.c.status == Status.ACTIVE.value,
                memories.c.topic == _any(EXCLUSIVE_TOPICS),
                memories.c.confirmation.not_in(
                    [Confirmation.PENDING.value, Confirmation.REJECTED.value]
                ),
                memories.c.valid_until.is_(None),
            )
            .distinct()
        ).all()
    }
    # Few subjects are ever paused: the tenant's whole list is one small read.
    known.paused = set(
        conn.execute(
            sa.select(subject_settings.c.subject).where(subject_settings.c.paused.is_(True))
        ).scalars()
    )
    return known


def covering_request(message: Message, requests: Iterable[ForgetRequest]) -> ForgetRequest | None:
    """The forget request that covers a message arriving now, if any: a source request for its
    id, or the latest subject request for its subject (or the account holder's) made at or
    after the time it was written (`permem.erasure.ledger`)."""
    return ErasureLedger(requests=tuple(requests)).message_request(
        message.message_id, message.subject, message.ts
    )


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
