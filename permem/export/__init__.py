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

The package by job: `_facts` (provenance, source metadata, gate decisions, grants: shared with
`permem.explain`), `_history` (each record's changes in order), `_document` (what the export
holds), `_render` (JSON and CSV), `_files` (where a file lives, written atomically), `_export`
(the file and its rows in one transaction).
"""

from __future__ import annotations

from permem.export._document import EXPORT_VERSION, NOTES
from permem.export._export import ExportResult, export_subject
from permem.export._facts import (
    PROVENANCE,
    describe_source,
    gate_of,
    grant_state,
    grants_over,
    provenance,
    source_metadata,
)
from permem.export._files import export_path, safe_name
from permem.export._history import history_of
from permem.export._render import CSV_COLUMNS, FORMATS, ExportFormat, render

__all__ = [
    "CSV_COLUMNS",
    "EXPORT_VERSION",
    "FORMATS",
    "NOTES",
    "PROVENANCE",
    "ExportFormat",
    "ExportResult",
    "describe_source",
    "export_path",
    "export_subject",
    "gate_of",
    "grant_state",
    "grants_over",
    "history_of",
    "provenance",
    "render",
    "safe_name",
    "source_metadata",
]
