"""Lineage edges in PostgreSQL: recording derivations and walking them for deletion."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.engine import Connection

from lineage import Node, NodeKind, Relation, descendants
from permem.stores.bulk import copy_insert
from permem.stores.schema import lineage_edges


@dataclass(frozen=True, slots=True)
class EdgeRow:
    tenant: str
    parent: Node
    child: Node
    relation: Relation


def add_edges(conn: Connection, edges: Sequence[EdgeRow]) -> None:
    """Record derivations; an edge already recorded is left as it is."""
    if not edges:
        return
    copy_insert(
        conn,
        lineage_edges,
        [
            {
                "tenant": e.tenant,
                "parent_kind": e.parent.kind.value,
                "parent_id": e.parent.id,
                "child_kind": e.child.kind.value,
                "child_id": e.child.id,
                "relation": e.relation.value,
            }
            for e in edges
        ],
        skip_conflicts=True,
    )


def children_of(conn: Connection, nodes: frozenset[Node]) -> Mapping[Node, Iterable[Node]]:
    """The direct children of each node, in one query per node kind (an index range scan per
    id; a row-value IN list over thousands of pairs is planned as a sequential scan)."""
    if not nodes:
        return {}
    by_kind: dict[str, list[str]] = defaultdict(list)
    for node in nodes:
        by_kind[node.kind.value].append(node.id)
    rows: list[Any] = []
    for kind, ids in by_kind.items():
        rows += conn.execute(
            sa.select(
                lineage_edges.c.parent_kind,
                lineage_edges.c.parent_id,
                lineage_edges.c.child_kind,
                lineage_edges.c.child_id,
            ).where(
                lineage_edges.c.parent_kind == kind,
                lineage_edges.c.parent_id == sa.func.any(sa.literal(ids, ARRAY(sa.Text))),
            )
        ).all()
    result: dict[Node, list[Node]] = defaultdict(list)
    for parent_kind, parent_id, child_kind, child_id in rows:
        result[Node(NodeKind(parent_kind), parent_id)].append(Node(NodeKind(child_kind), child_id))
    return result


def parents_of(conn: Connection, node: Node) -> list[tuple[Node, Relation]]:
    """The direct sources of one node."""
    rows = conn.execute(
        sa.select(
            lineage_edges.c.parent_kind, lineage_edges.c.parent_id, lineage_edges.c.relation
        ).where(lineage_edges.c.child_kind == node.kind.value, lineage_edges.c.child_id == node.id)
    ).all()
    return [(Node(NodeKind(k), i), Relation(r)) for k, i, r in rows]


def derivatives(conn: Connection, roots: Iterable[Node]) -> set[Node]:
    """Every node derived, directly or not, from `roots`."""
    return descendants(roots, lambda frontier: children_of(conn, frontier))
