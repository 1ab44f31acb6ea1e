"""Keeping the vector index in step with the system of record.

`index_pending` embeds and indexes every committed claim that has no `embedded` lineage edge
yet, then records the lineage memory -> embedding -> index row. It reads only committed rows,
so nothing uncommitted is ever indexed, and it is idempotent (upsert on the claim id, edges
inserted once), so a run that died after the commit is completed by the next one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import sqlalchemy as sa

from lineage import Node, NodeKind, Relation
from permem.embedding import Embedder, embed_unique
from permem.records import Status
from permem.stores.database import Database, list_tenants, tenant_transaction, unbound_transaction
from permem.stores.lineage_store import EdgeRow, add_edges
from permem.stores.memories import record_from_row
from permem.stores.schema import lineage_edges, memories
from permem.stores.vectors import IndexRow, VectorIndex

# Claims that may ever be recalled are indexed; recall filters status again before ranking.
INDEXED_STATUSES = (Status.ACTIVE.value, Status.SESSION_ONLY.value, Status.PAUSED.value)


@dataclass
class IndexResult:
    indexed: int = 0
    embedded_texts: int = 0
    status_synced: int = 0


def embedding_node(embedder: Embedder, memory_id: str) -> Node:
    return Node(NodeKind.EMBEDDING, f"{embedder.name}:{memory_id}")


def index_row_node(index: VectorIndex, memory_id: str) -> Node:
    return Node(NodeKind.INDEX_ROW, f"{index.table_name}:{memory_id}")


def index_pending(
    db: Database,
    index: VectorIndex,
    embedder: Embedder,
    *,
    tenants: Iterable[str] | None = None,
    chunk: int = 2000,
) -> IndexResult:
    """Index every committed, indexable claim the vector index lacks (see module docstring)."""
    result = IndexResult()
    if tenants is None:
        with unbound_transaction(db.app) as conn:
            tenants = list_tenants(conn)
    embedded = sa.exists().where(
        lineage_edges.c.parent_kind == NodeKind.MEMORY.value,
        lineage_edges.c.parent_id == sa.cast(memories.c.id, sa.Text),
        lineage_edges.c.relation == Relation.EMBEDDED.value,
    )
    for tenant in tenants:
        while True:
            with tenant_transaction(db.app, tenant) as conn:
                rows = (
                    conn.execute(
                        sa.select(memories)
                        .where(memories.c.status.in_(INDEXED_STATUSES), ~embedded)
                        .order_by(memories.c.id)
                        .limit(chunk)
                    )
                    .mappings()
                    .all()
                )
            if not rows:
                break
            records = [record_from_row(row) for row in rows]
            vectors = embed_unique(embedder, [r.claim for r in records])
            result.embedded_texts += len({r.claim for r in records})
            index.upsert([IndexRow.of(r, v) for r, v in zip(records, vectors, strict=True)])
            edges: list[EdgeRow] = []
            for record in records:
                memory = Node(NodeKind.MEMORY, str(record.id))
                embedding = embedding_node(embedder, str(record.id))
                edges.append(EdgeRow(tenant, memory, embedding, Relation.EMBEDDED))
                edges.append(
                    EdgeRow(
                        tenant, embedding, index_row_node(index, str(record.id)), Relation.INDEXED
                    )
                )
            with tenant_transaction(db.app, tenant) as conn:
                add_edges(conn, edges)
            result.indexed += len(records)
    return result


def sync_status(index: VectorIndex, changes: Sequence[tuple[str, str]]) -> int:
    """Carry status changes of indexed claims (id, new status) into the index."""
    by_status: dict[str, list[str]] = {}
    for memory_id, status in changes:
        by_status.setdefault(status, []).append(memory_id)
    for status, ids in by_status.items():
        index.set_status(ids, status)
    return len(changes)
