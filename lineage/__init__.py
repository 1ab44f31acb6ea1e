"""The lineage graph: which derivative came from which source, and what deletion must reach.

Pure data and traversal; the stores that persist edges and erase nodes live in `permem`.
"""

from lineage.graph import Edge, Node, NodeKind, Relation, descendants, reached_from

__all__ = ["Edge", "Node", "NodeKind", "Relation", "descendants", "reached_from"]
