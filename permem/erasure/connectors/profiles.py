"""The synthesized profiles: every stored version that is an erased node or cites an erased
claim is deleted (with its lineage edges), then `VACUUM`. Residue: such a version is still in
the `profiles` table. Only ids are compared: each line of a profile cites the claims it was
made from, and a version that cites none of the erased claims was not made from them.
"""

from __future__ import annotations

import uuid
from typing import Any

import sqlalchemy as sa

from lineage import NodeKind
from permem.erasure.connectors import Erased, Stores
from permem.erasure.connectors.postgres import vacuum_tables
from permem.erasure.plan import ErasurePlan
from permem.stores.bulk import any_of
from permem.stores.database import tenant_transaction
from permem.stores.schema import lineage_edges, profiles

__all__ = ["ProfileTable", "connector"]


def _covered(plan: ErasurePlan) -> sa.ColumnElement[bool]:
    """The versions the plan erases: its profile nodes, and any that cites one of its claims."""
    ids = [uuid.UUID(i) for i in plan.ids(NodeKind.PROFILE)]
    cites = profiles.c.claim_ids.op("&&")(sa.literal(plan.memory_ids, sa.ARRAY(sa.Uuid)))
    return sa.or_(profiles.c.id == any_of(ids, sa.Uuid), cites)


class ProfileTable:
    """The `profiles` table of the system of record (module doc)."""

    name = "profiles"

    def __init__(self, stores: Stores) -> None:
        self._stores = stores

    def erase(self, plan: ErasurePlan) -> Erased:
        out = Erased()
        with tenant_transaction(self._stores.db.app, plan.tenant) as conn:
            ids = [str(i) for i in conn.execute(sa.select(profiles.c.id).where(_covered(plan)))
                   .scalars()]  # fmt: skip
            out.rows["lineage_edges"] += conn.execute(
                sa.delete(lineage_edges).where(
                    lineage_edges.c.child_kind == NodeKind.PROFILE.value,
                    lineage_edges.c.child_id == any_of(ids),
                )
            ).rowcount
            out.rows["profiles"] += conn.execute(sa.delete(profiles).where(_covered(plan))).rowcount
        if self._stores.vacuum and out.rows["profiles"]:
            vacuum_tables(self._stores.db, ["profiles"])
        return out

    def residue(self, plan: ErasurePlan) -> list[dict[str, Any]]:
        with tenant_transaction(self._stores.db.app, plan.tenant) as conn:
            found = conn.execute(sa.select(profiles.c.id).where(_covered(plan)).limit(20))
            return [
                {"store": "postgresql", "table": "profiles", "id": str(i)} for i in found.scalars()
            ]


def connector(stores: Stores) -> ProfileTable:
    return ProfileTable(stores)
