"""On-demand deletion: block, erase every derivative, purge backups, verify.

Entrypoint: `flows/forget.py:forget`. Started by `permem forget`, by
`prefect deployment run 'forget/on-demand' --params ...` or from the UI: the same flow each time.
Publishes `forget-summary` (what was blocked, erased, purged and verified) and, when a legal
hold kept records, `forget-legal-hold` (the exception, visible). Residue fails the run.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from prefect import flow
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from pydantic import BaseModel, Field

from permem.errors import CheckFailed
from permem.forget import Target
from permem.settings import load_settings
from tasks.erasure import block_task, erase_task, verify_task


class ForgetParams(BaseModel):
    """What to forget: exactly one of subject, source message or claim, or a list of subjects
    (a UI form)."""

    tenant: str = Field(description="The tenant holding the data.")
    subject: str | None = Field(default=None, description="Forget everything of this subject.")
    subjects: list[str] | None = Field(
        default=None,
        description="Forget everything of each of these subjects, in one request: one block "
        "transaction, one erase run (one LanceDB compaction), one verification. Not with "
        "subject, source or claim.",
    )
    source: str | None = Field(
        default=None, description="Forget this source message and everything derived from it."
    )
    claim: str | None = Field(default=None, description="Forget this one claim (its id).")
    requested_by: str = Field(description="Who asked for the deletion (recorded in the ledger).")
    request_id: uuid.UUID | None = Field(
        default=None,
        description="A request already committed to the ledger for this target (permem serve "
        "commits it before it answers): the flow expands it instead of making another.",
    )


@flow(name="forget", log_prints=False)
def forget(params: ForgetParams) -> dict[str, Any]:
    settings = load_settings()
    targets = Target.requested(
        subject=params.subject, source=params.source, claim=params.claim, subjects=params.subjects
    )
    now = datetime.now(UTC)
    blocked = block_task(
        settings, params.tenant, targets, params.requested_by, now, params.request_id
    )
    erased = erase_task(settings, params.tenant, now)
    verified = verify_task(settings, params.tenant, now)
    report = {"blocked": blocked, "erased": erased, "verified": verified}
    publish(report)
    if verified["residue"]:
        raise CheckFailed(
            f"erasure left residue in {len(verified['residue'])} place(s) "
            f"({', '.join(sorted({r['store'] for r in verified['residue']}))}); see the "
            "forget-residue artifact"
        )
    return report


def _targets(targets: list[dict[str, str]]) -> str:
    """The request's target, or how many subjects it names and the first few."""
    if len(targets) == 1:
        return str(targets[0])
    named = ", ".join(t["id"] for t in targets[:5])
    return f"{len(targets)} subjects: {named}{', ...' if len(targets) > 5 else ''}"


def publish(report: dict[str, Any]) -> None:
    blocked, erased, verified = report["blocked"], report["erased"], report["verified"]
    rows = [
        {"step": "block", "measure": "request", "value": blocked["request_id"]},
        {"step": "block", "measure": "target", "value": _targets(blocked["targets"])},
        {"step": "block", "measure": "memories blocked", "value": blocked["memories"]},
        {"step": "block", "measure": "sources covered", "value": blocked["sources"]},
        {"step": "block", "measure": "already in ledger", "value": blocked["already_in_ledger"]},
        {"step": "block", "measure": "seconds", "value": blocked["seconds"]},
    ]
    rows += [
        {"step": "block", "measure": f"ledger rows {kind}", "value": n}
        for kind, n in sorted(blocked["nodes"].items())
    ]
    rows += [
        {"step": "erase", "measure": f"rows deleted from {table}", "value": n}
        for table, n in sorted(erased["rows_deleted"].items())
    ]
    rows += [
        {"step": "erase", "measure": "files deleted", "value": erased["files_deleted"]},
        {"step": "erase", "measure": "released from hold", "value": erased["released"]},
        {"step": "erase", "measure": "seconds", "value": erased["seconds"]},
        {"step": "erase", "measure": "backups re-sealed", "value": str(erased["backups"])},
        {"step": "verify", "measure": "ledger rows checked", "value": verified["checked"]},
        {"step": "verify", "measure": "verified", "value": verified["verified"]},
        {"step": "verify", "measure": "residue", "value": len(verified["residue"])},
        {"step": "verify", "measure": "held (legal hold)", "value": verified["held"]},
    ]
    create_table_artifact(key="forget-summary", table=rows, description="What the deletion did")
    if verified["held"] or blocked["held"]:
        create_markdown_artifact(
            key="forget-legal-hold",
            description="Records kept under a legal hold (blocked from use, not erased)",
            markdown=(
                "# Legal hold: erasure exception\n\n"
                f"{blocked['held']} ledger row(s) of this request and {verified['held']} in the "
                "tenant are under an open legal hold: blocked from every use, kept until the "
                "hold is released; the next erase run after the release completes the erasure."
            ),
        )
    if verified["residue"]:
        create_markdown_artifact(
            key="forget-residue",
            description="Where erased data was still found",
            markdown="# Residue\n\n" + "\n".join(f"- {r}" for r in verified["residue"][:200]),
        )
