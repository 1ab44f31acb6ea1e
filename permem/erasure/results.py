"""What each step of a forget request reports: `BlockResult`, `EraseResult`, `VerifyResult`."""

from __future__ import annotations

import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from permem.erasure.plan import Target


@dataclass
class BlockResult:
    request_id: uuid.UUID
    tenant: str
    targets: tuple[Target, ...]  # one, or the many subjects of one request
    memories: int = 0
    sources: int = 0
    nodes: Counter[str] = field(default_factory=Counter)  # ledger rows by node kind
    held: int = 0  # ledger rows kept under a legal hold
    already: int = 0  # nodes an earlier request had already put in the ledger
    request_seconds: float = 0.0  # until the request row committed: recall excludes from then
    seconds: float = 0.0

    @property
    def target(self) -> Target:
        """The request's first (for most requests, its only) target."""
        return self.targets[0]

    def as_json(self) -> dict[str, Any]:
        return {
            "request_id": str(self.request_id),
            "tenant": self.tenant,
            "target": {"kind": self.target.kind.value, "id": self.target.value},
            "targets": [{"kind": t.kind.value, "id": t.value} for t in self.targets],
            "memories": self.memories,
            "sources": self.sources,
            "nodes": dict(self.nodes),
            "held": self.held,
            "already_in_ledger": self.already,
            "request_seconds": round(self.request_seconds, 4),
            "seconds": round(self.seconds, 4),
        }


@dataclass
class EraseResult:
    tenant: str
    released: int = 0  # held rows whose hold ended, now erased
    nodes: Counter[str] = field(default_factory=Counter)
    rows_deleted: Counter[str] = field(default_factory=Counter)  # by table
    files_deleted: int = 0
    subjects: list[str] = field(default_factory=list)  # whose backups must follow
    still_held: int = 0
    stores: dict[str, dict[str, Any]] = field(default_factory=dict)  # counts by connector
    seconds: float = 0.0
    # Wall seconds of each connector's erase, in the order they ran: which store's erasure
    # grows with the table (benchmarks/erasure.py prints them).
    connector_seconds: dict[str, float] = field(default_factory=dict)

    @property
    def backups(self) -> dict[str, Any]:
        return self.stores.get("backups", {})

    def as_json(self) -> dict[str, Any]:
        return {
            "tenant": self.tenant,
            "released": self.released,
            "stores": self.stores,
            "nodes": dict(self.nodes),
            "rows_deleted": dict(self.rows_deleted),
            "files_deleted": self.files_deleted,
            "backups": self.backups,  # what the backup purge did ({} when it did not run)
            "still_held": self.still_held,
            "seconds": round(self.seconds, 4),
        }


@dataclass
class VerifyResult:
    tenant: str
    checked: int = 0
    verified: int = 0
    residue: list[dict[str, Any]] = field(default_factory=list)
    held: int = 0
    seconds: float = 0.0
    # Wall seconds of reading the ledger and the plan ("ledger"), then of each connector's
    # residue check, in the order they ran (benchmarks/erasure.py prints them).
    connector_seconds: dict[str, float] = field(default_factory=dict)

    @property
    def clean(self) -> bool:
        return not self.residue

    def as_json(self) -> dict[str, Any]:
        return {
            "tenant": self.tenant,
            "checked": self.checked,
            "verified": self.verified,
            "held": self.held,
            "residue": self.residue,
            "seconds": round(self.seconds, 4),
        }
