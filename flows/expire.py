"""Expiry (hourly): claims past `valid_until`, ended sessions and retention limits become
`expired`; their index rows follow. Entrypoint: `flows/expire.py:expire_memories`.
Publishes `expire-summary` (claims expired by reason)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from prefect import flow, task
from prefect.artifacts import create_table_artifact
from prefect.cache_policies import NO_CACHE
from pydantic import BaseModel, Field

from permem import expiry
from permem.runtime import runtime
from permem.settings import Settings, load_settings


class ExpireParams(BaseModel):
    """Parameters of an expiry run (the UI renders them as a form)."""

    at: datetime | None = Field(
        default=None, description="Expire as of this time (default: now). Timezone required."
    )
    ended_sessions: list[str] = Field(
        default_factory=list, description="Session ids known to have ended."
    )


@task(name="expire", cache_policy=NO_CACHE, persist_result=False, retries=2, retry_delay_seconds=2)
def expire_task(settings: Settings, at: datetime, ended: list[str]) -> dict[str, Any]:
    rt = runtime(settings)
    return expiry.expire(
        rt.db, rt.index, at=at, session_hours=settings.session_hours, ended_sessions=ended
    ).as_json()


@flow(name="expire_memories", log_prints=False)
def expire_memories(params: ExpireParams | None = None) -> dict[str, Any]:
    params = params or ExpireParams()
    at = params.at or datetime.now(UTC)
    report = expire_task(load_settings(), at, params.ended_sessions)
    rows = [{"reason": r, "claims": n} for r, n in sorted(report["by_reason"].items())]
    rows.append({"reason": "total", "claims": report["expired"]})
    create_table_artifact(
        key="expire-summary", table=rows, description=f"Claims expired as of {at.isoformat()}"
    )
    return report
