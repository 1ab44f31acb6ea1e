"""Prefect tasks of the deletion flows: block, erase (backups included), verify, rebuild.

Each task takes the small `Settings` and ids; the database, index and embedder come from the
process's runtime. Erasure steps are idempotent, so their I/O retries are safe.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from prefect import task
from prefect.cache_policies import NO_CACHE

from permem import forget
from permem.indexing import rebuild_index
from permem.runtime import runtime
from permem.settings import Settings

_OPTIONS: dict[str, Any] = {"cache_policy": NO_CACHE, "persist_result": False}
_IO: dict[str, Any] = {**_OPTIONS, "retries": 2, "retry_delay_seconds": 2}


@task(name="block", **_OPTIONS)
def block_task(
    settings: Settings,
    tenant: str,
    target: forget.Targets,
    actor: str,
    now: datetime,
    request_id: uuid.UUID | None = None,
) -> dict[str, Any]:
    db = runtime(settings).db
    if request_id is not None:  # committed already (permem serve): expand it
        return forget.continue_block(db, tenant, target, request_id, actor=actor, now=now).as_json()
    return forget.block(db, tenant, target, actor=actor, now=now).as_json()


@task(name="erase", **_IO)
def erase_task(settings: Settings, tenant: str, now: datetime) -> dict[str, Any]:
    rt = runtime(settings)
    return forget.erase(rt.db, rt.index, tenant, now=now, backups=settings.backups_dir).as_json()


@task(name="verify", **_IO)
def verify_task(settings: Settings, tenant: str, now: datetime) -> dict[str, Any]:
    rt = runtime(settings)
    return forget.verify(rt.db, rt.index, tenant, now=now).as_json()


@task(name="rebuild_index", **_IO)
def rebuild_task(settings: Settings) -> dict[str, Any]:
    rt = runtime(settings)
    result = rebuild_index(rt.db, rt.index, rt.embedder)
    return {
        "tenants": result.tenants,
        "queued": result.queued,
        "skipped_in_ledger": result.skipped_in_ledger,
        "indexed": result.indexed,
        "seconds": round(result.seconds, 3),
    }
