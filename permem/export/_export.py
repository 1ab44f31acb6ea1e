"""Exporting a subject: the file written atomically, then its row and lineage edges committed."""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import sqlalchemy as sa

from lineage import Node, NodeKind, Relation
from permem.errors import BadInput
from permem.export._document import _document
from permem.export._files import _write_atomically, export_path
from permem.export._render import FORMATS, ExportFormat, render
from permem.stores.database import Database, check_tenant, tenant_transaction
from permem.stores.lineage_store import EdgeRow, add_edges
from permem.stores.schema import exports


@dataclass(frozen=True, slots=True)
class ExportResult:
    """One export file handed to the user."""

    id: uuid.UUID
    path: Path
    records: int
    format: ExportFormat


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
    The JSON form also holds the subject's synthesized profiles, made current first in the
    same transaction and marked inferred. The file is
    `<directory>/<tenant>/<subject>/<export id>.<fmt>` (odd names encoded, see `safe_name`),
    mode 0600, written atomically. In the same tenant-bound transaction, after
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
