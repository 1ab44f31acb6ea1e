"""The export document: the subject's records that may be copied, with their facts and history."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from permem.controls import subject_paused
from permem.erasure.ledger import blocking
from permem.export._facts import describe_source, gate_of, grants_over, provenance, source_metadata
from permem.export._history import history_of
from permem.records import Origin, Status, UserMemory
from permem.stores.memories import record_from_row
from permem.stores.schema import memories

EXPORT_VERSION = "permem-export/1"


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
    "profiles": "The profiles are inferred: the service made them from the records they cite "
    "(one per purpose and scope, regenerated when those records change; none while paused).",
}


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


def _profile_entries(
    conn: Connection, tenant: str, subject: str, now: datetime
) -> list[dict[str, Any]]:
    """The subject's synthesized profiles, current at `now`, each marked inferred."""
    from permem.profile import refresh_profiles

    return [
        {**made.as_json(), "provenance": provenance(Origin.INFERRED_PROFILE)}
        for made in refresh_profiles(conn, tenant, subject, now=now)
    ]


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
        "profiles": _profile_entries(conn, tenant, subject, now),
        "notes": dict(NOTES),
    }
