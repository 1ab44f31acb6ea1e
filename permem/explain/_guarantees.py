"""Answer 8: the tests that show the guarantees a claim relies on, the measurements and gaps."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from permem.records import UserMemory

# Guarantee -> the test files that show it. A test checks that every file named exists.
TEST_MAP: Mapping[str, tuple[str, ...]] = {
    "tenant isolation": ("tests/test_isolation.py",),
    "append-only history": ("tests/test_append_only.py",),
    "write gate": ("tests/test_policy.py", "tests/test_nightly.py"),
    "extraction": ("tests/test_extraction.py",),
    "redaction": ("tests/test_redaction.py",),
    "recall filters and authorization": ("tests/test_recall.py",),
    "controls": ("tests/test_controls.py",),
    "export": ("tests/test_export.py",),
    "explain": ("tests/test_explain.py",),
    "lineage": ("tests/test_lineage.py", "tests/test_nightly.py"),
    "deletion": ("tests/test_forget.py", "tests/test_flow_erasure.py"),
    "backups": ("tests/test_backup.py", "tests/test_flow_erasure.py"),
    "expiry": ("tests/test_expiry.py",),
    "synthesized profile": ("tests/test_profile.py",),
}

# Measurements run by hand (question 8's benefit and operational cost), and what is missing.
MEASUREMENTS: Mapping[str, tuple[str, ...]] = {
    "extraction quality": ("benchmarks/extraction_eval.py",),
    "redaction quality": ("benchmarks/redaction_eval.py",),
    "recall quality and latency": ("benchmarks/recall.py",),
    "erasure latency": ("benchmarks/erasure.py",),
    "operational cost": (
        "benchmarks/nightly.py",
        "benchmarks/append.py",
        "benchmarks/vector_search.py",
    ),
}
GAPS: tuple[str, ...] = (
    "personalization lift against a matched no-memory baseline: not evaluated (the scenario "
    "harness and benchmarks/recall.py measure wrong personalizations and recall@k only)",
)

_PLACEHOLDER = re.compile(r"<[A-Z][A-Z_]*>")


def select_tests(record: UserMemory, gated: bool) -> dict[str, Any]:
    """The entries of `TEST_MAP` that bear on `record`, each with why; the others with why not."""
    relevant: list[dict[str, Any]] = []
    not_relevant: dict[str, str] = {}
    from_message = record.source.message_id is not None
    placeholder = _PLACEHOLDER.search(record.claim)
    why_not = {
        "write gate": None if gated else "it did not pass the write gate (entered by a control)",
        "extraction": None if from_message else "it was not extracted from a message",
        "redaction": None if placeholder else "its text holds no redaction placeholder",
    }
    why = {
        "tenant isolation": "no other tenant can read or write it",
        "append-only history": "its evidence never changes; status changes are events",
        "write gate": "the gate decided to keep it",
        "extraction": "it was extracted from a message with an exact span",
        "redaction": f"its text holds the placeholder {placeholder.group(0)}"
        if placeholder
        else "",
        "recall filters and authorization": "recall uses it only for authorized, live requests",
        "controls": "the user's controls change its state",
        "export": "it appears in the subject's export",
        "explain": "this explanation",
        "lineage": "its derivatives are reachable for deletion",
        "deletion": "forgetting it blocks it at once and erases every derivative, verified",
        "backups": "backups hold it under its subject's key; erasure destroys that key",
        "expiry": "it expires when its validity, session or retention ends",
        "synthesized profile": "its subject's profile cites it only while recall could use it, "
        "and no version outlives its erasure",
    }
    for guarantee, files in TEST_MAP.items():
        reason = why_not.get(guarantee)
        if reason is None:
            relevant.append({"guarantee": guarantee, "files": list(files), "why": why[guarantee]})
        else:
            not_relevant[guarantee] = reason
    return {
        "relevant": relevant,
        "not_relevant": not_relevant,
        "measurements": {name: list(files) for name, files in MEASUREMENTS.items()},
        "gaps": list(GAPS),
        "summary": f"{len(relevant)} guarantees bear on this claim, shown by "
        f"{len({f for r in relevant for f in r['files']})} test files; "
        f"{len(GAPS)} gap(s) stated.",
    }
