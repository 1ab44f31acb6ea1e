"""Nightly deletion verification: every ledger entry looked for in every store.

Entrypoint: `flows/verify_erasure.py:verify_erasure`. Scans PostgreSQL tables, every LanceDB
data and index file (read with the Lance file reader), export files and backups, per tenant;
erases first whatever is still blocked (a forget that crashed) unless told not to. Residue
fails the run and the `verify-erasure-residue` artifact lists where it was found.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from prefect import flow
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from pydantic import BaseModel, Field

from permem.errors import CheckFailed
from permem.forget import tenants_with_ledger
from permem.runtime import runtime
from permem.settings import load_settings
from tasks.erasure import erase_task, verify_task


class VerifyErasureParams(BaseModel):
    finish_pending: bool = Field(
        default=True,
        description="First erase what is still blocked (e.g. a forget run that crashed).",
    )


@flow(name="verify_erasure", log_prints=False)
def verify_erasure(params: VerifyErasureParams | None = None) -> dict[str, Any]:
    params = params or VerifyErasureParams()
    settings = load_settings()
    now = datetime.now(UTC)
    tenants: dict[str, Any] = {}
    for tenant in tenants_with_ledger(runtime(settings).db):
        if params.finish_pending:
            erase_task(settings, tenant, now)
        tenants[tenant] = verify_task(settings, tenant, now)
    residue = [{"tenant": t, **r} for t, v in tenants.items() for r in v["residue"]]
    rows = [
        {
            "tenant": t,
            "checked": v["checked"],
            "verified": v["verified"],
            "held": v["held"],
            "residue": len(v["residue"]),
        }
        for t, v in sorted(tenants.items())
    ]
    create_table_artifact(
        key="verify-erasure-summary", table=rows, description="Erasure verification per tenant"
    )
    create_markdown_artifact(
        key="verify-erasure-residue",
        description="Where erased data was still found",
        markdown="# Residue\n\n"
        + ("\n".join(f"- {r}" for r in residue[:500]) or "none: every ledger entry verified"),
    )
    report = {"tenants": tenants, "residue": residue}
    if residue:
        raise CheckFailed(
            f"erased data found in {len(residue)} place(s): "
            f"{', '.join(sorted({r['store'] for r in residue}))}"
        )
    return report
