"""Prefect tasks of the backup flows: one task per step per batch of tenants.

Tasks receive the small `Settings`, tenant names, a folder and times; the database stays in
the process's runtime. Every step is safe to repeat (a backup adds one more file; the erasure
steps finish what an interrupted run left), so each one retries.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from prefect import task
from prefect.cache_policies import NO_CACHE

from permem import backup as backups
from permem.errors import BadInput, PermemError
from permem.runtime import runtime
from permem.settings import Settings
from permem.stores.database import list_tenants


def _transient(task: Any, task_run: Any, state: Any) -> bool:
    """Retry trouble with I/O, not a permem error (bad input, a damaged file): it would only
    fail again."""
    return not isinstance(state.data, PermemError)


_OPTIONS: dict[str, Any] = {
    "cache_policy": NO_CACHE,
    "persist_result": False,
    "retries": 2,
    "retry_delay_seconds": 2,
    "retry_condition_fn": _transient,
}


@task(name="list_tenants", **_OPTIONS)
def tenants_task(settings: Settings, only: list[str] | None) -> list[str]:
    """The registered tenants, or those of `only` (an unknown name is an error)."""
    known = list_tenants(runtime(settings).db)
    if only is None:
        return known
    unknown = sorted(set(only) - set(known))
    if unknown:
        raise BadInput(f"unknown tenant(s): {', '.join(unknown)}")
    return [t for t in known if t in set(only)]


@task(name="backup_tenants", **_OPTIONS)
def backup_task(
    settings: Settings, tenants: list[str], directory: str, actor: str, now: datetime
) -> list[dict[str, Any]]:
    db = runtime(settings).db
    return [
        backups.backup_tenant(db, t, Path(directory), actor=actor, now=now).as_json()
        for t in tenants
    ]


@task(name="purge_erased", **_OPTIONS)
def purge_task(
    settings: Settings, tenants: list[str], directory: str, now: datetime
) -> list[dict[str, Any]]:
    db = runtime(settings).db
    return [backups.purge_erased(db, t, Path(directory), now=now).as_json() for t in tenants]


@task(name="drop_expired", **_OPTIONS)
def drop_task(
    settings: Settings, tenants: list[str], directory: str, now: datetime, retention: timedelta
) -> list[dict[str, Any]]:
    db = runtime(settings).db
    return [
        backups.drop_expired(db, t, Path(directory), now=now, retention=retention).as_json()
        for t in tenants
    ]


@task(name="prove_erased", **_OPTIONS)
def prove_task(settings: Settings, tenants: list[str]) -> list[dict[str, Any]]:
    db = runtime(settings).db
    return [backups.prove_backups(db, t).as_json() for t in tenants]
