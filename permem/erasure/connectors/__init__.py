"""One connector per store that can hold something of an erased node.

`CONNECTORS` lists a factory per store, in the order `forget` erases them: the vector index
first (its rows, old versions and rewritten fragments), then export files, then the synthesized
profiles, then the system of record (whose rows say what the other stores were built from),
then backups (re-sealed without what the ledger names). `verify` asks each, in the same order,
for residue. A new derivative (a cache, a replica) is one new module here and one entry in the
list.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from permem.erasure.plan import ErasurePlan
from permem.stores.database import Database
from permem.stores.vectors import VectorIndex

__all__ = ["CONNECTORS", "Connector", "ConnectorFactory", "Erased", "Stores", "connectors_for"]


@dataclass(frozen=True, slots=True)
class Stores:
    """Where one erase or verify run of one tenant finds the stores (built by `forget`)."""

    db: Database
    tenant: str
    now: datetime
    index: VectorIndex | None = None  # None: no vector index configured
    backups: Path | None = None  # erase: purge the backups under this folder (None: skip)
    prove_backups: bool = True  # verify: decrypt every backup block that still has a key
    vacuum: bool = True  # erase: VACUUM the tables rows were deleted from


@dataclass
class Erased:
    """What a connector's `erase` removed: counts only, never text or subject names."""

    rows: Counter[str] = field(default_factory=Counter)  # rows deleted, by table
    files: int = 0  # files deleted
    detail: dict[str, Any] = field(default_factory=dict)  # store-specific counts


class Connector(Protocol):
    """How one store erases the nodes of an `ErasurePlan` and proves that it did.

    * `name` is the store as reports name it: the `store` of each residue entry.
    * `erase(plan)` physically removes from the store every copy of the plan's nodes it holds,
      including copies a plain delete leaves behind (old versions, dead tuples, rewritten
      files, blocks sealed under a key). It is idempotent: a node already gone is no error,
      so a re-run after a crash or a failed verification finishes the job. A failure raises
      (the erasure must fail loudly, and the ledger rows stay `blocked` for the re-run).
    * `residue(plan)` reads the store, as it is on disk where that differs from its latest
      view, for every node of the plan (by id, and by content fingerprint where the store can
      tell), and returns one entry per finding: a dict with `store` and ids or paths, never
      text. Empty means clean. It changes nothing.
    """

    name: str

    def erase(self, plan: ErasurePlan) -> Erased: ...

    def residue(self, plan: ErasurePlan) -> list[dict[str, Any]]: ...


# A factory returns None when its store is not configured for this run.
ConnectorFactory = Callable[[Stores], Connector | None]


def _default() -> list[ConnectorFactory]:
    from permem.erasure.connectors import backups, exports, lancedb, postgres, profiles

    return [
        lancedb.connector,
        exports.connector,
        profiles.connector,
        postgres.connector,
        backups.connector,
    ]


CONNECTORS: list[ConnectorFactory] = _default()


def connectors_for(stores: Stores) -> list[Connector]:
    """The connectors of `CONNECTORS` configured for `stores`, in order."""
    return [c for factory in CONNECTORS if (c := factory(stores)) is not None]
