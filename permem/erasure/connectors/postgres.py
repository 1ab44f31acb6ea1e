"""The system of record: the rows of every table that refers to an erased node, then `VACUUM`.

Erased: `memories`, `memory_events`, `gate_decisions`, `sources`, `lineage_edges`,
`index_queue`, the `recall_influence` reports naming an erased claim, and for a subject
request the `recall_log` and `recall_influence` rows about the subject; export rows
are kept (they say a file was handed out) with `erased_at` set. Residue: a row that still
carries an erased id, or a claim whose subject holds the same text again (its subject-scoped
fingerprint, `memories.subject_hash`, is in the ledger); another subject's identical claim is
not residue.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.engine import Connection

from lineage import NodeKind
from permem.erasure.connectors import Erased, Stores
from permem.erasure.plan import ErasurePlan
from permem.stores.bulk import any_of
from permem.stores.database import Database, tenant_transaction
from permem.stores.schema import (
    exports,
    gate_decisions,
    index_queue,
    lineage_edges,
    memories,
    memory_events,
    recall_influence,
    recall_log,
    sources,
)

__all__ = ["ERASED_TABLES", "PostgresConnector", "connector", "pg_residue", "vacuum_tables"]

# Tables whose rows erasure deletes; each is vacuumed afterwards so the dead tuples go too.
ERASED_TABLES: tuple[str, ...] = (
    "memories",
    "memory_events",
    "gate_decisions",
    "sources",
    "lineage_edges",
    "index_queue",
    "recall_log",
    "recall_influence",
)


def touches(node_keys: Sequence[tuple[str, str]]) -> sa.ColumnElement[bool]:
    """Lineage edges from or to any of the nodes: `kind = k AND id = ANY(ids)` per kind, so
    each arm is an index scan (a row-value IN list over thousands of pairs is a slow scan)."""
    by_kind: dict[str, list[str]] = {}
    for kind, node_id in node_keys:
        by_kind.setdefault(kind, []).append(node_id)
    arms: list[sa.ColumnElement[bool]] = []
    for kind, ids in by_kind.items():
        wanted = sa.func.any(sa.literal(ids, ARRAY(sa.Text)))
        arms.append(
            sa.and_(lineage_edges.c.parent_kind == kind, lineage_edges.c.parent_id == wanted)
        )
        arms.append(sa.and_(lineage_edges.c.child_kind == kind, lineage_edges.c.child_id == wanted))
    return sa.or_(*arms) if arms else sa.false()


def _names_any(column: sa.Column[Any], ids: Sequence[uuid.UUID]) -> sa.ColumnElement[bool]:
    """Rows whose uuid array `column` shares an id with `ids`."""
    return column.op("&&")(sa.literal(list(ids), ARRAY(sa.Uuid)))


def vacuum_tables(db: Database, tables: Iterable[str]) -> None:
    """`VACUUM` each table as its owner, so deleted rows leave the table's pages for reuse."""
    engine = db.owner_engine().execution_options(isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            for table in tables:
                conn.execute(sa.text(f"VACUUM {table}"))
    finally:
        engine.dispose()


def pg_residue(conn: Connection, rows: Sequence[sa.RowMapping]) -> list[dict[str, Any]]:
    """Where in PostgreSQL the ledger node rows' ids or subject-bound claim fingerprints
    (`memories.subject_hash`, migration 0014) still appear."""
    memory_rows = [r for r in rows if r["node_kind"] == NodeKind.MEMORY.value]
    memory_ids = [uuid.UUID(r["node_id"]) for r in memory_rows]
    fingerprints = [r["content_hash"] for r in memory_rows if r["content_hash"]]
    source_ids = [r["node_id"] for r in rows if r["node_kind"] == NodeKind.SOURCE.value]
    export_ids = [uuid.UUID(r["node_id"]) for r in rows if r["node_kind"] == NodeKind.EXPORT.value]
    found: list[dict[str, Any]] = []
    checks: list[tuple[str, sa.Select[Any]]] = [
        ("memories", sa.select(sa.cast(memories.c.id, sa.Text)).where(sa.or_(
            memories.c.id == any_of(memory_ids, sa.Uuid),
            memories.c.subject_hash == any_of(fingerprints)))),
        ("memory_events", sa.select(sa.cast(memory_events.c.memory_id, sa.Text)).where(
            memory_events.c.memory_id == any_of(memory_ids, sa.Uuid))),
        ("gate_decisions", sa.select(sa.cast(gate_decisions.c.id, sa.Text)).where(sa.or_(
            gate_decisions.c.memory_id == any_of(memory_ids, sa.Uuid),
            gate_decisions.c.source_message_id == any_of(source_ids)))),
        ("index_queue", sa.select(sa.cast(index_queue.c.memory_id, sa.Text)).where(
            index_queue.c.memory_id == any_of(memory_ids, sa.Uuid))),
        ("sources", sa.select(sources.c.message_id).where(
            sources.c.message_id == any_of(source_ids))),
        ("lineage_edges", sa.select(lineage_edges.c.child_id).where(
            touches([(r["node_kind"], r["node_id"]) for r in rows]))),
        ("recall_influence", sa.select(sa.cast(recall_influence.c.id, sa.Text)).where(
            _names_any(recall_influence.c.used_ids, memory_ids))),
        ("exports", sa.select(sa.cast(exports.c.id, sa.Text)).where(
            exports.c.id == any_of(export_ids, sa.Uuid), exports.c.erased_at.is_(None))),
    ]  # fmt: skip
    for table, query in checks:
        for value in conn.execute(query.limit(20)).scalars():
            found.append({"store": "postgresql", "table": table, "id": value})
    return found


class PostgresConnector:
    """The system of record (module doc)."""

    name = "postgresql"

    def __init__(self, stores: Stores) -> None:
        self._stores = stores

    def erase(self, plan: ErasurePlan) -> Erased:
        stores, out = self._stores, Erased()
        claims, messages = plan.memory_ids, plan.ids(NodeKind.SOURCE)
        with tenant_transaction(stores.db.app, plan.tenant) as conn:
            deletions: list[tuple[str, sa.Delete]] = [
                ("memory_events", sa.delete(memory_events).where(
                    memory_events.c.memory_id == any_of(claims, sa.Uuid))),
                ("gate_decisions", sa.delete(gate_decisions).where(sa.or_(
                    gate_decisions.c.memory_id == any_of(claims, sa.Uuid),
                    gate_decisions.c.source_message_id == any_of(messages)))),
                ("index_queue", sa.delete(index_queue).where(
                    index_queue.c.memory_id == any_of(claims, sa.Uuid))),
                ("lineage_edges", sa.delete(lineage_edges).where(touches(plan.node_keys))),
                ("memories", sa.delete(memories).where(memories.c.id == any_of(claims, sa.Uuid))),
                ("sources", sa.delete(sources).where(sources.c.message_id == any_of(messages))),
                ("recall_influence", sa.delete(recall_influence).where(
                    _names_any(recall_influence.c.used_ids, claims))),
            ]  # fmt: skip
            if plan.subject_targets:
                subjects = list(plan.subject_targets)
                deletions += [
                    ("recall_log", sa.delete(recall_log).where(
                        recall_log.c.subject == any_of(subjects))),
                    ("recall_influence", sa.delete(recall_influence).where(
                        recall_influence.c.subject == any_of(subjects))),
                ]  # fmt: skip
            for table, statement in deletions:
                out.rows[table] += conn.execute(statement).rowcount
            export_ids = [uuid.UUID(i) for i in plan.ids(NodeKind.EXPORT)]
            if export_ids:
                conn.execute(
                    sa.update(exports)
                    .where(exports.c.id == any_of(export_ids, sa.Uuid))
                    .values(erased_at=stores.now)
                )
        if stores.vacuum:  # the dead tuples: VACUUM needs the tables' owner
            vacuum_tables(stores.db, ERASED_TABLES)
        return out

    def residue(self, plan: ErasurePlan) -> list[dict[str, Any]]:
        with tenant_transaction(self._stores.db.app, plan.tenant) as conn:
            return pg_residue(conn, plan.rows)


def connector(stores: Stores) -> PostgresConnector:
    return PostgresConnector(stores)
