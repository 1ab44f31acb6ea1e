"""What the erasure ledger (the `erasing` view) lets a block keep."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from permem.backup._format import SubjectBlock
from permem.erasure.ledger import Clock, ErasureLedger
from permem.records import Status

_GONE = (Status.BLOCKED.value, Status.ERASED.value)


# The clock that stamped each subject-level row a subject request is compared with
# (`permem.erasure.ledger`): PostgreSQL stamps gate decisions, the caller settings and grants.
_STAMPS = {
    "gate_decisions": ("decided_at", Clock.DATABASE),
    "subject_settings": ("updated_at", Clock.CALLER),
    "grants": ("granted_at", Clock.CALLER),
}


def _marks(ledger: ErasureLedger, table: str, row: Mapping[str, Any]) -> list[str]:
    """The ledgered ids and hashes that `row` of `table` holds (empty: it may be kept).

    `ledger` is the `erasing` view (every state but `held`). A subject-level erasure covers
    the settings, grants and rejected candidates of the subject and of its third parties
    stamped at or before it; its records are ledgered one by one.
    """
    found: list[str] = []

    def check(kind: str, value: Any, ledgered: frozenset[str]) -> None:
        if value is not None and str(value) in ledgered:
            found.append(f"{kind}:{value}")

    if table == "memories":
        check("memory", row["id"], ledger.memories)
        check("source", row["source_message_id"], ledger.sources)
        check("hash", row["claim_hash"], ledger.hashes)
    elif table == "sources":
        check("source", row["message_id"], ledger.sources)
        check("hash", row["content_hash"], ledger.hashes)
    elif table == "memory_events":
        check("memory", row["memory_id"], ledger.memories)
    elif table == "gate_decisions":
        check("memory", row["memory_id"], ledger.memories)
        check("source", row["source_message_id"], ledger.sources)
        check("hash", row["candidate_hash"], ledger.hashes)
    if table in _STAMPS and (table != "gate_decisions" or row["memory_id"] is None):
        column, clock = _STAMPS[table]
        subject = row["subject"]
        if subject is not None and ledger.subject_request(subject, row[column], clock):
            found.append(f"subject:{subject}")
    return found


def _keep(block: SubjectBlock, ledger: ErasureLedger) -> tuple[SubjectBlock, int]:
    """`block` without what the ledger forbids, nor what depends on it; and how many rows
    were left out. Sources stay only while a kept claim cites them."""
    tables = block.tables
    claims = [
        r
        for r in tables.get("memories", [])
        if r["status"] not in _GONE and not _marks(ledger, "memories", r)
    ]
    kept_ids = {r["id"] for r in claims}
    cited = {r["source_message_id"] for r in claims if r["source_message_id"] is not None}
    kept: dict[str, list[dict[str, Any]]] = {
        "sources": [
            r
            for r in tables.get("sources", [])
            if r["message_id"] in cited and not _marks(ledger, "sources", r)
        ],
        "memories": claims,
        "memory_events": [
            r
            for r in tables.get("memory_events", [])
            if r["memory_id"] in kept_ids and not _marks(ledger, "memory_events", r)
        ],
        "gate_decisions": [
            r
            for r in tables.get("gate_decisions", [])
            if (r["memory_id"] is None or r["memory_id"] in kept_ids)
            and not _marks(ledger, "gate_decisions", r)
        ],
        "subject_settings": [
            r
            for r in tables.get("subject_settings", [])
            if not _marks(ledger, "subject_settings", r)
        ],
        "grants": [r for r in tables.get("grants", []) if not _marks(ledger, "grants", r)],
    }
    result = SubjectBlock(block.key_id, block.subject, kept)
    return result, block.rows - result.rows


def _residue_marks(block: SubjectBlock, ledger: ErasureLedger) -> list[str]:
    return sorted(
        {
            mark
            for name, rows in block.tables.items()
            for r in rows
            for mark in _marks(ledger, name, r)
        }
    )
