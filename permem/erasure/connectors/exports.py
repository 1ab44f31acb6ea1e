"""Export files handed to a user: a file that holds an erased record is deleted as a whole (it
may hold other records too; the user can export again). Residue: the file is still on disk."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from lineage import NodeKind
from permem.erasure.connectors import Erased, Stores
from permem.erasure.plan import ErasurePlan
from permem.stores.bulk import any_of
from permem.stores.database import tenant_transaction
from permem.stores.schema import exports

__all__ = ["ExportFiles", "connector"]


class ExportFiles:
    """Export files, found through their `exports` rows (module doc)."""

    name = "exports"

    def __init__(self, stores: Stores) -> None:
        self._stores = stores

    def _files(self, plan: ErasurePlan) -> list[tuple[str, Path]]:
        ids = [uuid.UUID(i) for i in plan.ids(NodeKind.EXPORT)]
        if not ids:
            return []
        with tenant_transaction(self._stores.db.app, plan.tenant) as conn:
            rows = conn.execute(
                sa.select(exports.c.id, exports.c.path).where(exports.c.id == any_of(ids, sa.Uuid))
            ).all()
        return [(str(export_id), Path(path)) for export_id, path in rows]

    def erase(self, plan: ErasurePlan) -> Erased:
        out = Erased()
        for _, file in self._files(plan):
            if file.exists():
                file.unlink()
                out.files += 1
        return out

    def residue(self, plan: ErasurePlan) -> list[dict[str, Any]]:
        return [
            {"store": self.name, "id": export_id, "path": str(file)}
            for export_id, file in self._files(plan)
            if file.exists()
        ]


def connector(stores: Stores) -> ExportFiles:
    return ExportFiles(stores)
