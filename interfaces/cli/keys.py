"""`permem keys create|list|revoke`: the HTTP service's API keys (only their hashes are kept)."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from interfaces.cli._common import JsonFlag, TenantOpt, control, database, guarded, now, parse_time
from interfaces.cli._common import parse_uuid as _uuid

__all__ = ["keys_app"]

keys_app = typer.Typer(help="API keys of the HTTP service (`permem serve`).", no_args_is_help=True)


@keys_app.command("create")
@guarded
def create(
    tenant: TenantOpt,
    actor: Annotated[str, typer.Option("--actor", help="Who the key acts as (audited).")],
    role: Annotated[
        str, typer.Option("--role", help="user (acts as its actor) or service (names its user).")
    ],
    purposes: Annotated[
        str | None,
        typer.Option("--purposes", help="Comma-separated declared purposes it may recall for."),
    ] = None,
    expires: Annotated[str | None, typer.Option("--expires", help="Until when (RFC 3339).")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Make a key and print it once: only its hash is stored."""
    from permem import keys

    wanted = tuple(p.strip() for p in purposes.split(",") if p.strip()) if purposes else ()
    expires_at = parse_time(expires, "--expires") if expires else None
    control(
        lambda db: keys.create(
            db, tenant, actor=actor, role=role, purposes=wanted, expires_at=expires_at, now=now()
        ),
        as_json,
        lambda made: (
            {**made[0].as_json(), "key": made[1]},
            f"key {made[0].id} for {actor} ({role}); shown once:\n{made[1]}",
        ),
    )


@keys_app.command("list")
@guarded
def list_(tenant: TenantOpt, as_json: JsonFlag = False) -> None:
    """Every key of the tenant, revoked and expired ones too (never the keys themselves)."""
    from permem import keys

    with database() as db:
        found = keys.list_keys(db, tenant)
    for key in found:
        data = key.as_json()
        if as_json:
            sys.stdout.write(json.dumps(data) + "\n")
        else:
            state = "revoked" if key.revoked_at else f"expires {data['expires_at'] or 'never'}"
            purposes = ",".join(key.purposes) or "any purpose"
            typer.echo(f"{key.id} {key.actor} {key.role.value} ({purposes}) {state}")


@keys_app.command("revoke")
@guarded
def revoke(
    tenant: TenantOpt,
    key_id: Annotated[str, typer.Option("--key-id", help="The key's id (from keys list).")],
    by: Annotated[str, typer.Option("--by", help="Who revokes it (audited).")] = "cli",
    as_json: JsonFlag = False,
) -> None:
    """End a key now: every later request with it gets 401."""
    from permem import keys

    kid = _uuid(key_id, "--key-id")
    control(
        lambda db: keys.revoke(db, tenant, kid, by=by, now=now()),
        as_json,
        lambda ended: (ended.as_json(), f"key {ended.id} revoked"),
    )
