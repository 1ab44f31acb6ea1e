"""Export: a subject's data, in a portable form the user can take elsewhere (JSON or CSV).

Portability in the strict sense covers what the person provided and some of what was observed;
permem also exports, voluntarily, what it inferred or imported, because seeing a claim is how
a user gets it corrected. Every record says which it is (`provenance`). The export holds the
subject's records with their history, source metadata and write-gate decision, the subject's
pause setting and the grants over their memory. permem never stores message text, so none is
exported; recall logs hold only ids and are not part of the export.

An export file is itself a derivative of the records in it: it is recorded in `exports` with
one lineage edge `memory -> export` per record, so a later deletion reaches the file. The file
is written atomically and the rows are committed only after it is in place; if the transaction
fails, the file is removed.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import uuid
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, get_args

import sqlalchemy as sa
from sqlalchemy.engine import Connection, RowMapping

from lineage import Node, NodeKind, Relation
from permem.controls import subject_paused
from permem.erasure.ledger import blocking
from permem.errors import BadInput
from permem.files import atomic_file
from permem.records import Origin, Status, UserMemory
from permem.stores.database import Database, check_tenant, tenant_transaction
from permem.stores.lineage_store import EdgeRow, add_edges
from permem.stores.memories import record_from_row
from permem.stores.schema import (
    exports,
    gate_decisions,
    grants,
    memories,
    memory_events,
    sources,
)

ExportFormat = Literal["json", "csv"]
FORMATS: tuple[str, ...] = get_args(ExportFormat)
EXPORT_VERSION = "permem-export/1"

# The portability distinction: what the person provided, what was observed of them, what
# permem concluded, and what came from elsewhere.
PROVENANCE: Mapping[Origin, str] = {
    Origin.EXPLICIT_INSTRUCTION: "provided",
    Origin.USER_FACT: "provided",
    Origin.OBSERVED_BEHAVIOR: "observed",
    Origin.INFERRED_PROFILE: "inferred",
    Origin.IMPORTED: "imported",
}

NOTES: Mapping[str, str] = {
    "provenance": "provided: you said it; observed: seen in what you did; inferred: concluded "
    "by the service (included voluntarily, so you can see and correct it); imported: taken "
    "from a profile or document from elsewhere.",
    "message_text": "Messages are referred to by id, span and metadata: the service never "
    "stores their text.",
    "recall_log": "Which records were supplied to which request is logged as ids only; the "
    "recall log is not part of the export.",
    "withheld": "Records you asked to forget are being erased and are not copied into a new "
    "file; withheld_pending_erasure counts them.",
}

CSV_COLUMNS: tuple[str, ...] = (
    "id",
    "tenant",
    "subject",
    "account",
    "claim",
    "origin",
    "provenance",
    "kind",
    "topic",
    "scope",
    "purpose",
    "sensitivity",
    "confidence",
    "observed_at",
    "valid_from",
    "valid_until",
    "status",
    "confirmation",
    "supersedes",
    "superseded_by",
    "session",
    "evidence",
    "source",
    "gate_decision",
    "gate_reasons",
    "gate_policy_version",
    "gate_decided_at",
    "history",
)

_SAFE_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
_MAX_NAME = 120


@dataclass(frozen=True, slots=True)
class ExportResult:
    """One export file handed to the user."""

    id: uuid.UUID
    path: Path
    records: int
    format: ExportFormat


def provenance(origin: Origin) -> str:
    """`provided`, `observed`, `inferred` or `imported`: the portability class of an origin."""
    return PROVENANCE[origin]


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def source_metadata(conn: Connection, message_ids: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Metadata of the named source messages (no text exists), by message id."""
    wanted = sorted(set(message_ids))
    if not wanted:
        return {}
    rows = conn.execute(
        sa.select(
            sources.c.message_id,
            sources.c.account,
            sources.c.conversation_id,
            sources.c.turn,
            sources.c.role,
            sources.c.ts,
            sources.c.scope,
            sources.c.purpose,
        ).where(sources.c.message_id.in_(wanted))
    ).mappings()
    return {
        row["message_id"]: {
            "role": row["role"],
            "account": row["account"],
            "conversation_id": row["conversation_id"],
            "turn": row["turn"],
            "ts": _iso(row["ts"]),
            "scope": row["scope"],
            "purpose": row["purpose"],
        }
        for row in rows
    }


def describe_source(record: UserMemory, found: Mapping[str, dict[str, Any]]) -> dict[str, Any]:
    """A record's source: message id and span, plus the message's metadata when stored."""
    described = record.source.as_json()
    message_id = record.source.message_id
    if message_id is None:
        described["entered_through"] = "a control request (a correction), not a message"
        return described
    meta = found.get(message_id)
    described.update(meta if meta is not None else {"role": None, "missing": True})
    return described


def gate_of(conn: Connection, memory_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, dict[str, Any]]:
    """The write gate's latest decision for each memory that passed through it."""
    if not memory_ids:
        return {}
    rows = conn.execute(
        sa.select(
            gate_decisions.c.memory_id,
            gate_decisions.c.decision,
            gate_decisions.c.reasons,
            gate_decisions.c.policy_version,
            gate_decisions.c.decided_at,
        )
        .where(gate_decisions.c.memory_id.in_(list(memory_ids)))
        .order_by(gate_decisions.c.decided_at, gate_decisions.c.id)
    ).mappings()
    return {
        row["memory_id"]: {
            "decision": row["decision"],
            "reasons": list(row["reasons"]),
            "policy_version": row["policy_version"],
            "decided_at": _iso(row["decided_at"]),
        }
        for row in rows  # later rows overwrite earlier ones: the latest decision wins
    }


def history_of(
    conn: Connection, records: Sequence[UserMemory]
) -> dict[uuid.UUID, list[dict[str, Any]]]:
    """Each record's status and confirmation changes, in the order they happened."""
    if not records:
        return {}
    rows = conn.execute(
        sa.select(memory_events)
        .where(memory_events.c.memory_id.in_([r.id for r in records]))
        .order_by(memory_events.c.at, memory_events.c.id)
    ).mappings()
    grouped: dict[uuid.UUID, list[RowMapping]] = defaultdict(list)
    for row in rows:
        grouped[row["memory_id"]].append(row)
    histories: dict[uuid.UUID, list[dict[str, Any]]] = {}
    for record in records:
        current = {"status": record.status.value, "confirmation": record.confirmation.value}
        histories[record.id] = [
            {
                "field": e["field"],
                "old": e["old_value"],
                "new": e["new_value"],
                "actor": e["actor"],
                "reason": e["reason"],
                "at": _iso(e["at"]),
            }
            for e in _in_order(grouped.get(record.id, []), current)
        ]
    return histories


def _in_order(events: list[RowMapping], current: Mapping[str, str]) -> list[RowMapping]:
    """One record's `events` (sorted by time) with ties put in the order they must have had.

    An event's `at` is its transaction's start time, so the changes one transaction made share
    it. Each field's changes form a chain that ends in the record's `current` value, so walking
    back from it orders each field's changes within a transaction (even a change and its undo).
    How changes of different fields in one transaction interleave is not recorded.
    """
    groups: list[list[RowMapping]] = []
    for event in events:
        if groups and groups[-1][0]["at"] == event["at"]:
            groups[-1].append(event)
        else:
            groups.append([event])
    state = dict(current)  # each field's value after the changes not yet placed
    placed: list[list[RowMapping]] = []
    for group in reversed(groups):
        pending, backwards = list(group), []
        while pending:
            last = next(
                (e for e in reversed(pending) if state.get(e["field"]) == e["new_value"]),
                pending[-1],
            )
            pending = [e for e in pending if e is not last]
            backwards.append(last)
            state[last["field"]] = last["old_value"]
        placed.append(backwards[::-1])
    return [event for group in reversed(placed) for event in group]


def grant_state(row: RowMapping, now: datetime) -> str:
    """`active`, `revoked`, `expired` or `not_yet_granted` at `now` (recall's rule)."""
    if row["granted_at"] > now:
        return "not_yet_granted"
    if row["revoked_at"] is not None and row["revoked_at"] <= now:
        return "revoked"
    if row["expires_at"] <= now:
        return "expired"
    return "active"


def grants_over(conn: Connection, subject: str, now: datetime) -> list[dict[str, Any]]:
    """The grants that let someone use `subject`'s memory, with their state at `now`."""
    rows = conn.execute(
        sa.select(grants).where(grants.c.subject == subject).order_by(grants.c.granted_at)
    ).mappings()
    return [
        {
            "id": str(row["id"]),
            "actor": row["actor"],
            "purpose": row["purpose"],
            "scope": row["scope"],
            "granted_by": row["granted_by"],
            "granted_at": _iso(row["granted_at"]),
            "expires_at": _iso(row["expires_at"]),
            "revoked": row["revoked_at"] is not None and row["revoked_at"] <= now,
            "revoked_at": _iso(row["revoked_at"]),
            "state": grant_state(row, now),
        }
        for row in rows
    ]


def _subject_records(conn: Connection, subject: str) -> tuple[list[UserMemory], int]:
    """The subject's records that may be copied, oldest first, and how many are withheld.

    The rows are share-locked until the export commits: a deletion that starts meanwhile
    waits, and then finds this export's lineage edges.
    """
    rows = conn.execute(
        sa.select(memories)
        .where(memories.c.subject == subject)
        .order_by(memories.c.observed_at, memories.c.created_at, memories.c.id)
        .with_for_update(read=True)
    ).mappings()
    records = [record_from_row(r) for r in rows]
    ledger = blocking(
        conn,
        memories=[str(r.id) for r in records],
        sources={r.source.message_id for r in records if r.source.message_id},
        subjects={subject},
    )
    gone = {Status.BLOCKED, Status.ERASED}
    kept = [
        r for r in records
        if r.status not in gone
        and not ledger.blocks_memory(str(r.id), r.subject, r.source.message_id or None,
                                     r.created_at)
    ]  # fmt: skip
    return kept, len(records) - len(kept)


def _record_entries(conn: Connection, records: Sequence[UserMemory]) -> list[dict[str, Any]]:
    ids = [r.id for r in records]
    found = source_metadata(conn, (r.source.message_id for r in records if r.source.message_id))
    gates = gate_of(conn, ids)
    histories = history_of(conn, records)
    superseded_by = {r.supersedes: r.id for r in reversed(records) if r.supersedes is not None}
    entries = []
    for record in records:
        entry = record.as_json()
        entry.update(
            {
                "tenant": record.tenant,
                "account": record.account,
                "provenance": provenance(record.origin),
                "topic": record.topic,
                "session": record.session,
                "evidence": record.evidence,
                "superseded_by": str(superseded_by[record.id])
                if record.id in superseded_by
                else None,
                "source": describe_source(record, found),
                "gate": gates.get(record.id),
                "history": histories.get(record.id, []),
            }
        )
        entries.append(entry)
    return entries


def _document(
    conn: Connection,
    tenant: str,
    subject: str,
    export_id: uuid.UUID,
    actor: str,
    now: datetime,
) -> dict[str, Any]:
    records, withheld = _subject_records(conn, subject)
    return {
        "export_version": EXPORT_VERSION,
        "export_id": str(export_id),
        "tenant": tenant,
        "subject": subject,
        "exported_at": now.isoformat(),
        "exported_by": actor,
        "paused": subject_paused(conn, subject),
        "grants": grants_over(conn, subject, now),
        "record_count": len(records),
        "withheld_pending_erasure": withheld,
        "records": _record_entries(conn, records),
        "notes": dict(NOTES),
    }


def _json_cell(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _csv_row(entry: Mapping[str, Any]) -> list[str]:
    gate = entry["gate"] or {}
    flat: dict[str, Any] = {
        **entry,
        "source": _json_cell(entry["source"]),
        "history": _json_cell(entry["history"]),
        "gate_decision": gate.get("decision"),
        "gate_reasons": _json_cell(gate["reasons"]) if gate else None,
        "gate_policy_version": gate.get("policy_version"),
        "gate_decided_at": gate.get("decided_at"),
    }
    return ["" if flat[c] is None else str(flat[c]) for c in CSV_COLUMNS]


def render(document: Mapping[str, Any], fmt: ExportFormat) -> bytes:
    """The export file's bytes: one JSON document, or one CSV row per record (RFC 4180).

    The CSV form holds the records only; the subject-level facts (pause, grants, notes) are in
    the JSON form.
    """
    if fmt == "json":
        return (json.dumps(document, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, quoting=csv.QUOTE_MINIMAL, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    writer.writerows(_csv_row(entry) for entry in document["records"])
    return buffer.getvalue().encode("utf-8")


def safe_name(name: str) -> str:
    """A folder name for any tenant or subject string: `[A-Za-z0-9._-]` kept, every other
    byte percent-encoded; a leading dot encoded too (no `.`, `..` or hidden folders); a name
    too long for a file system shortened and completed by a hash. Distinct names stay distinct.
    """
    encoded = "".join(
        chr(b) if chr(b) in _SAFE_NAME_CHARS else f"%{b:02X}" for b in name.encode("utf-8")
    )
    if encoded.startswith("."):
        encoded = "%2E" + encoded[1:]
    if len(encoded) <= _MAX_NAME:
        return encoded
    # "%%" never occurs in an encoded name, so a shortened name cannot equal an encoded one.
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:40]
    return f"{encoded[:64]}%%{digest}"


def export_path(directory: Path, tenant: str, subject: str, export_id: uuid.UUID, fmt: str) -> Path:
    """Where an export file lives: `<directory>/<tenant>/<subject>/<export id>.<format>`."""
    return directory / safe_name(tenant) / safe_name(subject) / f"{export_id}.{fmt}"


def _write_atomically(path: Path, content: bytes) -> None:
    """Write `content` to `path` (mode 0600) so that `path` is either absent or complete."""
    with atomic_file(path) as fh:
        fh.write(content)


def export_subject(
    db: Database,
    tenant: str,
    subject: str,
    fmt: ExportFormat,
    *,
    directory: Path,
    actor: str,
    now: datetime,
) -> ExportResult:
    """Write every record of `subject` in `tenant` to one JSON or CSV file and record it.

    History is included: superseded, paused, expired, retracted and pending records too, each
    with its status; records being erased at the user's request are withheld (and counted). A
    subject with no records gets a valid export with zero records: what we hold is nothing.
    The file is `<directory>/<tenant>/<subject>/<export id>.<fmt>` (odd names encoded, see
    `safe_name`), mode 0600, written atomically. In the same tenant-bound transaction, after
    the file is in place, one `exports` row and one `memory -> export` lineage edge per record
    are committed; if that fails, the file is removed and the error raised.
    """
    check_tenant(tenant)
    if fmt not in FORMATS:
        raise BadInput(f"export format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    if not subject:
        raise BadInput("an export needs a subject")
    if not actor:
        raise BadInput("an export needs the actor who asked for it")
    if now.tzinfo is None:
        raise BadInput("the export time must carry a timezone")
    export_id = uuid.uuid4()
    path = export_path(Path(os.path.abspath(directory)), tenant, subject, export_id, fmt)
    written = False
    try:
        with tenant_transaction(db.app, tenant) as conn:
            document = _document(conn, tenant, subject, export_id, actor, now)
            _write_atomically(path, render(document, fmt))
            written = True
            count = len(document["records"])
            conn.execute(
                sa.insert(exports).values(
                    id=export_id,
                    tenant=tenant,
                    subject=subject,
                    format=fmt,
                    path=str(path),
                    records=count,
                    created_by=actor,
                    created_at=now,
                )
            )
            export_node = Node(NodeKind.EXPORT, str(export_id))
            add_edges(
                conn,
                [
                    EdgeRow(
                        tenant,
                        Node(NodeKind.MEMORY, entry["id"]),
                        export_node,
                        Relation.EXPORTED,
                    )
                    for entry in document["records"]
                ],
            )
    except BaseException:
        if written:
            path.unlink(missing_ok=True)
        raise
    return ExportResult(id=export_id, path=path, records=count, format=fmt)
