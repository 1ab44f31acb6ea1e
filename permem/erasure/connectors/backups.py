"""Backups (crypto-shredding, `permem.backup`): the erased subjects' blocks re-sealed under a
new key without what the ledger names, then their old keys destroyed, which makes every copy
of the old blocks unreadable. Residue: a block that still has a key and, decrypted, holds an id
or hash the ledger names (any state but `held`), whatever node of the plan it belongs to."""

from __future__ import annotations

from typing import Any

from permem.erasure.connectors import Erased, Stores
from permem.erasure.plan import ErasurePlan

__all__ = ["Backups", "connector"]


class Backups:
    """The tenant's backup files and keys (module doc)."""

    name = "backups"

    def __init__(self, stores: Stores) -> None:
        self._stores = stores

    def erase(self, plan: ErasurePlan) -> Erased:
        stores = self._stores
        if stores.backups is None or not plan.subjects:
            return Erased()
        from permem.backup import purge_subjects  # backup imports this package's ledger

        purged = purge_subjects(
            stores.db, plan.tenant, plan.subjects, stores.backups, now=stores.now
        )
        return Erased(detail=purged.as_json())  # its files are backups, not exports

    def residue(self, plan: ErasurePlan) -> list[dict[str, Any]]:
        if not self._stores.prove_backups:
            return []
        from permem.backup import backup_residue

        return [
            {"store": self.name, **found} for found in backup_residue(self._stores.db, plan.tenant)
        ]


def connector(stores: Stores) -> Backups:
    return Backups(stores)
