"""The export file's bytes: one JSON document, or one CSV row per record."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from typing import Any, Literal, get_args

ExportFormat = Literal["json", "csv"]
FORMATS: tuple[str, ...] = get_args(ExportFormat)


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
