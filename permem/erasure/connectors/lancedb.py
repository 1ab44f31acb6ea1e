"""The vector index: rows, the old dataset versions and the rewritten fragments that hold them.

Erased by claim id (`VectorIndex.erase`: delete, compaction with materialized deletions, old
versions removed). Residue is looked for by id in every data and index file, read with the
Lance file reader rather than by querying the latest version: a subject's name may come back
legitimately (new messages after the request, or records under a legal hold).
"""

from __future__ import annotations

from typing import Any

from permem.erasure.connectors import Erased, Stores
from permem.erasure.plan import ErasurePlan
from permem.stores.vectors import VectorIndex

__all__ = ["LanceConnector", "connector"]


class LanceConnector:
    """The LanceDB vector index (module doc)."""

    name = "lancedb"

    def __init__(self, index: VectorIndex) -> None:
        self._index = index

    def erase(self, plan: ErasurePlan) -> Erased:
        ids = plan.indexed_memories
        if ids:
            self._index.erase(ids)
        return Erased(detail={"claims": len(ids)})

    def residue(self, plan: ErasurePlan) -> list[dict[str, Any]]:
        return [
            {"store": self.name, "file": str(path)}
            for path in self._index.files_holding(plan.indexed_memories)
        ]


def connector(stores: Stores) -> LanceConnector | None:
    return LanceConnector(stores.index) if stores.index is not None else None
