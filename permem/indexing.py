"""Keeping the vector index in step with the system of record.

A claim that becomes indexable is queued (`index_queue`) in the same transaction that stores
or confirms it. `index_pending` embeds and indexes the queued claims, then records the lineage
memory -> embedding -> index row and removes them from the queue in one transaction. It reads
only committed rows, so nothing uncommitted is ever indexed, and it is idempotent (upsert on
the claim id, edges inserted once), so a run that died after the commit is completed by the
next one, and its cost follows the backlog, not the size of the table.
"""

from __future__ import annotations

import time
import uuid
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import Connection

from lineage import Node, NodeKind, Relation
from permem.embedding import Embedder, TextVectors, embed_unique
from permem.erasure.ledger import memory_blocked
from permem.records import Confirmation, Status, UserMemory
from permem.stores.bulk import copy_insert
from permem.stores.database import Database, bind_tenant, list_tenants, tenant_transaction
from permem.stores.lineage_store import EdgeRow, add_edges
from permem.stores.memories import record_from_row
from permem.stores.schema import index_queue, memories
from permem.stores.vectors import IndexRow, IndexWriter, VectorIndex

# Where the index step writes: the table itself, or the nightly's writer (a child process).
IndexWrites = VectorIndex | IndexWriter

# Claims that may be recalled are indexed; recall filters status again before ranking. A claim
# awaiting the user's confirmation is not embedded until it is confirmed (the next index run
# picks it up then): sensitive claims the user has not accepted stay out of every derivative.
INDEXED_STATUSES = (Status.ACTIVE.value, Status.SESSION_ONLY.value, Status.PAUSED.value)
INDEXED_CONFIRMATIONS = (Confirmation.UNCONFIRMED.value, Confirmation.CONFIRMED.value)


@dataclass
class IndexResult:
    indexed: int = 0
    embedded_texts: int = 0
    status_synced: int = 0
    seconds: float = 0.0
    # Of `seconds`, those spent getting the claims' vectors (the embedder, or the cache).
    embed_seconds: float = 0.0


def embedding_node(embedder: Embedder, memory_id: str) -> Node:
    return Node(NodeKind.EMBEDDING, f"{embedder.name}:{memory_id}")


def index_row_node(index: IndexWrites, memory_id: str) -> Node:
    return Node(NodeKind.INDEX_ROW, f"{index.table_name}:{memory_id}")


def enqueue(conn: Connection, records: Sequence[UserMemory]) -> int:
    """Queue the indexable ones of `records` for indexing, in the caller's transaction."""
    rows = [
        {"tenant": r.tenant, "memory_id": r.id}
        for r in records
        if r.status.value in INDEXED_STATUSES and r.confirmation.value in INDEXED_CONFIRMATIONS
    ]
    copy_insert(conn, index_queue, rows, skip_conflicts=True)
    return len(rows)


def index_pending(
    db: Database,
    index: IndexWrites,
    embedder: Embedder,
    *,
    tenants: Iterable[str] | None = None,
    chunk: int = 2000,
    vectors: TextVectors | None = None,
) -> IndexResult:
    """Index every queued claim (see module docstring); returns what was done.

    The tenants' queues are read together, in one transaction that binds each tenant in turn,
    and their claims are embedded and appended to LanceDB in one write, then leave their
    queues in one more transaction: per round two transactions and one LanceDB version
    whatever the number of tenants (py-spy: one write per tenant spent more time opening
    transactions, pinging pooled connections and scanning the table for present ids than
    writing). A tenant with `chunk` claims queued takes part in another round. With `vectors`
    (the process's cache, `Runtime.vectors`) a claim text embedded already (by the load's
    meaning check, or for another subject) is not embedded again.
    """
    result = IndexResult()
    pending = list(dict.fromkeys(list_tenants(db) if tenants is None else tenants))
    while pending:
        queued, records = _read_queues(db, pending, chunk)
        if not any(queued.values()):
            break
        if records:
            texts = [r.claim for r in records]
            started = time.perf_counter()
            rows = (
                embed_unique(embedder, texts) if vectors is None else vectors.rows(embedder, texts)
            )
            result.embed_seconds += time.perf_counter() - started
            result.embedded_texts += len({(r.tenant, r.claim) for r in records})
            index.upsert([IndexRow.of(r, v) for r, v in zip(records, rows, strict=True)])
        edges: dict[str, list[EdgeRow]] = defaultdict(list)
        for record in records:
            memory = Node(NodeKind.MEMORY, str(record.id))
            embedding = embedding_node(embedder, str(record.id))
            row = index_row_node(index, str(record.id))
            edges[record.tenant].append(
                EdgeRow(record.tenant, memory, embedding, Relation.EMBEDDED)
            )
            edges[record.tenant].append(EdgeRow(record.tenant, embedding, row, Relation.INDEXED))
        with db.app.begin() as conn:
            for tenant, ids in queued.items():
                if not ids:
                    continue
                bind_tenant(conn, tenant)
                add_edges(conn, edges[tenant])
                # Claims no longer indexable (blocked meanwhile) simply leave the queue.
                conn.execute(sa.delete(index_queue).where(index_queue.c.memory_id.in_(ids)))
        result.indexed += len(records)
        pending = [tenant for tenant, ids in queued.items() if len(ids) >= chunk]
    return result


def _read_queues(
    db: Database, tenants: Sequence[str], chunk: int
) -> tuple[dict[str, list[uuid.UUID]], list[UserMemory]]:
    """Up to `chunk` queued claim ids of each tenant, oldest first, and the committed claims
    among them that are still indexable, in one transaction bound to each tenant in turn."""
    queued: dict[str, list[uuid.UUID]] = {}
    records: list[UserMemory] = []
    with db.app.begin() as conn:
        for tenant in tenants:
            bind_tenant(conn, tenant)
            ids = list(
                conn.execute(
                    sa.select(index_queue.c.memory_id)
                    .order_by(index_queue.c.enqueued_at, index_queue.c.memory_id)
                    .limit(chunk)
                ).scalars()
            )
            queued[tenant] = ids
            if not ids:
                continue
            rows = conn.execute(
                sa.select(memories).where(
                    memories.c.id.in_(ids),
                    memories.c.status.in_(INDEXED_STATUSES),
                    memories.c.confirmation.in_(INDEXED_CONFIRMATIONS),
                )
            ).mappings()
            records.extend(record_from_row(row) for row in rows)
    return queued, records


def sync_status(index: IndexWrites, changes: Sequence[tuple[str, str]]) -> int:
    """Carry status changes of indexed claims (id, new status) into the index."""
    by_status: dict[str, list[str]] = {}
    for memory_id, status in changes:
        by_status.setdefault(status, []).append(memory_id)
    for status, ids in by_status.items():
        index.set_status(ids, status)
    return len(changes)


@dataclass
class RebuildResult:
    tenants: int = 0
    queued: int = 0
    skipped_in_ledger: int = 0
    indexed: int = 0
    seconds: float = 0.0


def rebuild_index(db: Database, index: VectorIndex, embedder: Embedder) -> RebuildResult:
    """Rebuild the vector index from the system of record alone.

    Drops the LanceDB table (every version and file), then queues every indexable claim of
    every tenant that the erasure ledger does not block (`permem.erasure.ledger.memory_blocked`:
    node rows, and requests not yet expanded) and indexes the queue. Blocked claims are not
    indexable and erased ones no longer exist; the ledger check makes the rule explicit (a
    claim under a legal hold is blocked, so it is not indexed either).
    """
    started = time.perf_counter()
    result = RebuildResult()
    index.drop()
    tenants = list_tenants(db)
    indexable = (
        memories.c.status.in_(INDEXED_STATUSES),
        memories.c.confirmation.in_(INDEXED_CONFIRMATIONS),
    )
    for tenant in tenants:
        result.tenants += 1
        with tenant_transaction(db.app, tenant) as conn:
            result.skipped_in_ledger += conn.execute(
                sa.select(sa.func.count()).where(*indexable, memory_blocked(memories))
            ).scalar_one()
            queued = conn.execute(
                pg_insert(index_queue)
                .from_select(
                    ["tenant", "memory_id"],
                    sa.select(memories.c.tenant, memories.c.id).where(
                        *indexable, ~memory_blocked(memories)
                    ),
                )
                .on_conflict_do_nothing()
            )
            result.queued += queued.rowcount
    indexed = index_pending(db, index, embedder, tenants=tenants)
    if indexed.indexed:
        index.ensure_scalar_indexes()
    result.indexed = indexed.indexed
    result.seconds = time.perf_counter() - started
    return result
