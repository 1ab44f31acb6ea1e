from collections.abc import Iterable, Mapping

from lineage import Node, NodeKind, descendants, reached_from
from permem.stores.database import Database, register_tenant, tenant_transaction
from permem.stores.lineage_store import derivatives, parents_of
from permem.stores.memories import append_memories
from permem.stores.sources import append_sources
from tests.conftest import memory, message

SRC, MEM, EMB, ROW, EXP = (
    NodeKind.SOURCE, NodeKind.MEMORY, NodeKind.EMBEDDING, NodeKind.INDEX_ROW, NodeKind.EXPORT
)  # fmt: skip


def _graph(edges: dict[Node, list[Node]]) -> tuple[list[frozenset[Node]], object]:
    calls: list[frozenset[Node]] = []

    def children_of(frontier: frozenset[Node]) -> Mapping[Node, Iterable[Node]]:
        calls.append(frontier)
        return {n: edges.get(n, []) for n in frontier}

    return calls, children_of


def test_descendants_follow_every_path_once_per_level() -> None:
    m1, c1, c2 = Node(SRC, "m1"), Node(MEM, "c1"), Node(MEM, "c2")
    e1, r1, x = Node(EMB, "e1"), Node(ROW, "r1"), Node(EXP, "x")
    calls, children_of = _graph({m1: [c1, c2], c1: [e1, x], c2: [x], e1: [r1]})
    assert descendants([m1], children_of) == {c1, c2, e1, r1, x}  # type: ignore[arg-type]
    assert len(calls) == 4  # one call per level, shared child `x` expanded once


def test_descendants_tolerate_cycles_and_unrelated_nodes() -> None:
    a, b, other = Node(MEM, "a"), Node(MEM, "b"), Node(MEM, "z")
    _, children_of = _graph({a: [b], b: [a], other: [a]})
    assert descendants([a], children_of) == {a, b}  # type: ignore[arg-type]


def test_reached_from_labels_each_node_with_the_root_that_reached_it_first() -> None:
    """A request of many subjects: each derivative belongs to the target whose root reached
    it first (a shared child to the earlier root), one call per level as `descendants`."""
    m1, m2, c1, c2 = Node(SRC, "m1"), Node(SRC, "m2"), Node(MEM, "c1"), Node(MEM, "c2")
    e1, r1, x = Node(EMB, "e1"), Node(ROW, "r1"), Node(EXP, "x")
    calls, children_of = _graph({m1: [c1], m2: [c2], c1: [e1, x], c2: [x], e1: [r1], x: [m1]})
    labels = reached_from({m1: "ana", m2: "ben"}, children_of)  # type: ignore[arg-type]
    assert labels == {m1: "ana", m2: "ben", c1: "ana", c2: "ben", e1: "ana", r1: "ana",
                      x: "ana"}  # fmt: skip
    assert len(calls) == 4


def test_appending_a_claim_records_its_source_edge(db: Database) -> None:
    record = memory("acme")
    with tenant_transaction(db.app, "acme") as conn:
        register_tenant(conn, "acme")
        append_sources(conn, [message("acme")])
        append_memories(conn, [record])
        assert derivatives(conn, [Node(SRC, "m1")]) == {Node(MEM, str(record.id))}
        parents = parents_of(conn, Node(MEM, str(record.id)))
    assert [(p, r.value) for p, r in parents] == [(Node(SRC, "m1"), "extracted")]
