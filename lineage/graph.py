"""Nodes, edges and traversal of the lineage graph.

An edge points from a parent (what something was made from) to a child (what was made):
message -> claim -> embedding -> index row, claim -> profile, claim -> export file,
claim -> backup. Deletion of a node must reach every descendant; `descendants` finds them level
by level so a store can answer one query per level instead of one per node.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

K = TypeVar("K")


class NodeKind(StrEnum):
    SOURCE = "source"  # a conversation message (by message id)
    MEMORY = "memory"  # a stored claim (by memory id)
    EMBEDDING = "embedding"  # a vector computed from a claim's text
    INDEX_ROW = "index_row"  # a row of the vector index
    PROFILE = "profile"  # a synthesized profile version built from claims
    CACHE = "cache"  # a cached value built from claims
    EXPORT = "export"  # an export file handed to the user
    BACKUP = "backup"  # a backup snapshot file


class Relation(StrEnum):
    EXTRACTED = "extracted"  # source -> memory
    CONTEXT = "context"  # source -> memory whose context (antecedent) it holds
    EMBEDDED = "embedded"  # memory -> embedding
    INDEXED = "indexed"  # embedding -> index row
    SUMMARIZED = "summarized"  # memory -> profile that cites it
    CACHED = "cached"
    EXPORTED = "exported"
    BACKED_UP = "backed_up"


@dataclass(frozen=True, slots=True, order=True)
class Node:
    kind: NodeKind
    id: str

    def __str__(self) -> str:
        return f"{self.kind.value}:{self.id}"


@dataclass(frozen=True, slots=True)
class Edge:
    parent: Node
    child: Node
    relation: Relation


ChildrenOf = Callable[[frozenset[Node]], Mapping[Node, Iterable[Node]]]


def descendants(roots: Iterable[Node], children_of: ChildrenOf) -> set[Node]:
    """Every node reachable from `roots` (roots excluded unless reachable from another root).

    `children_of` receives one frontier at a time and returns the children of each of its
    nodes; cycles are tolerated (each node is expanded once).
    """
    seen: set[Node] = set()
    expanded: set[Node] = set()
    frontier = frozenset(roots)
    while frontier:
        expanded |= frontier
        found: set[Node] = set()
        for children in children_of(frontier).values():
            found.update(children)
        seen |= found
        frontier = frozenset(found - expanded)
    return seen


def reached_from(roots: Mapping[Node, K], children_of: ChildrenOf) -> dict[Node, K]:
    """Every root and every node reachable from `roots`, each with the label of the root that
    reached it first (breadth first; among roots of one level, the first in `roots`' order).

    `descendants` for a request of many targets: which target each covered node belongs to.
    """
    labels: dict[Node, K] = dict(roots)
    frontier = list(roots)
    while frontier:
        children = children_of(frozenset(frontier))
        found: list[Node] = []
        for parent in frontier:
            for child in children.get(parent, ()):
                if child not in labels:
                    labels[child] = labels[parent]
                    found.append(child)
        frontier = found
    return labels
