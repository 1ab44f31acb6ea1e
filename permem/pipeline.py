"""The nightly batch pipeline, stage by stage, without Prefect.

    read -> prepare -> extract -> classify -> redact -> gate -> validate -> load -> index

Each stage is a function of the runtime and the previous stage's output, so the flow can run
one Prefect task per stage per batch and tests can run and interrupt the stages directly.
Nothing is written before `load`, which writes the whole batch (sources, claims, decisions,
supersessions, lineage, quarantine) in one PostgreSQL transaction; `index` then embeds and
indexes every committed claim the vector index lacks, so a crash anywhere is repaired by
running again. Identifiers are derived from the source (tenant, message, span), so a re-run
produces the same rows and adds none. The objects passed between the stages are in
`permem.pipeline_batch`, the stages that read no store (extract, classify, redact, gate) in
`permem.analysis` and the `load` stage in `permem.pipeline_load`, re-exported here.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from sqlalchemy.engine import Connection

from permem.analysis import classify_all, extract, gate, redact
from permem.arrivals import Arrival, Known, arrival_of, read_known
from permem.hashing import content_hash
from permem.logs import LogBatch, Quarantined
from permem.pipeline_batch import (
    LoadResult,
    Prepared,
    Proposal,
    TenantState,
    _by_tenant,
    stable_id,
)
from permem.pipeline_load import load
from permem.quality import BatchValidation, validate_batch
from permem.records import Message, UserMemory
from permem.stores.database import Database, bind_tenant, register_tenant, tenant_salt
from permem.stores.memories import memory_rows


def prepare(db: Database, batch: LogBatch) -> Prepared:
    """Sort the batch's messages (see `permem.arrivals`): new ones go on; those already
    processed, erased or incognito are dropped; changed content under a processed message_id,
    a duplicate id with other content and a message a forget request covers on arrival are
    quarantined (a salted hash, never the text); a paused subject's messages are only recorded.
    Looks the tenants' state up in a fixed number of queries per tenant, registers new tenants
    (idempotent) and writes nothing else."""
    counts: Counter[str] = Counter(read=len(batch.messages), quarantined=len(batch.quarantined))
    quarantined = list(batch.quarantined)
    seen: dict[tuple[str, str], str] = {}
    unique: list[Message] = []
    clashes: list[Message] = []
    for message in batch.messages:
        key = (message.tenant, message.message_id)
        digest = content_hash(b"", message.text)  # compared in memory only, never stored
        if key in seen:
            if seen[key] != digest:
                clashes.append(message)
            counts["duplicate"] += 1
            continue
        seen[key] = digest
        if message.incognito:
            counts["incognito"] += 1
            continue
        unique.append(message)

    grouped = _by_tenant(unique)
    for message in clashes:
        grouped.setdefault(message.tenant, [])
    tenants: dict[str, TenantState] = {}
    fresh: list[Message] = []
    record_only: list[Message] = []
    with db.app.begin() as conn:
        for tenant, messages in grouped.items():
            bind_tenant(conn, tenant)
            register_tenant(conn, tenant)
            state, known = _tenant_state(conn, messages)
            tenants[tenant] = state
            for message in messages:
                digest = content_hash(state.salt, message.text)
                arrival, reason = arrival_of(message, digest, known)
                if arrival is Arrival.NEW:
                    fresh.append(message)
                    continue
                counts[arrival.value] += 1
                if arrival is Arrival.PAUSED:
                    record_only.append(message)
                elif reason is not None:
                    quarantined.append(_set_aside(message, digest, reason))
            for message in (m for m in clashes if m.tenant == tenant):
                digest = content_hash(state.salt, message.text)
                reason = f"duplicate message_id {message.message_id} with other content"
                quarantined.append(_set_aside(message, digest, reason))
        for tenant in {q.tenant for q in quarantined if q.tenant} - tenants.keys():
            bind_tenant(conn, tenant)
            register_tenant(conn, tenant)
    counts["quarantined"] = len(quarantined)
    counts["new"] = len(fresh)
    return Prepared(batch.number, fresh, record_only, quarantined, tenants, counts)


def _set_aside(message: Message, digest: str, reason: str) -> Quarantined:
    """A quarantine entry for a message that was read but must not be processed: where it was
    read, why, and its salted content hash (never its text)."""
    file, line_no = message.log_line or ("<batch>", 0)
    return Quarantined(file, line_no, reason, digest, message.tenant)


def _tenant_state(conn: Connection, messages: Sequence[Message]) -> tuple[TenantState, Known]:
    """The gate's view of the bound tenant and what its stores know of `messages`."""
    known = read_known(conn, messages)
    state = TenantState(
        salt=tenant_salt(conn),
        paused=known.paused,
        erased_sources=known.erased_sources,
        erased_hashes=known.erased_hashes,
        usable_topics=known.usable_topics,
    )
    return state, known


def stored_records(proposals: Sequence[Proposal]) -> list[UserMemory]:
    return [p.record for p in proposals if p.record is not None]


def validate(prepared: Prepared, proposals: Sequence[Proposal]) -> BatchValidation:
    """Great Expectations over the claims about to be loaded."""
    import pandas as pd  # here, not with the module: a process that only analyzes never needs it

    rows: list[dict[str, Any]] = []
    by_tenant: dict[str, list[UserMemory]] = defaultdict(list)
    for record in stored_records(proposals):
        by_tenant[record.tenant].append(record)
    for tenant, records in by_tenant.items():
        rows.extend(memory_rows(records, prepared.tenants[tenant].salt))
    return validate_batch(pd.DataFrame(rows))


__all__ = [
    "LoadResult",
    "Prepared",
    "Proposal",
    "classify_all",
    "extract",
    "gate",
    "load",
    "prepare",
    "redact",
    "stable_id",
    "validate",
]
