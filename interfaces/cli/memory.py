"""The memory controls: inspect, correct, confirm, reject, feedback, pause, resume, grant,
revoke, explain, export, profile, and the quarantine listing. None of them needs Prefect."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from interfaces.cli._common import (
    ActorOpt,
    ClaimOpt,
    JsonFlag,
    SubjectOpt,
    TenantOpt,
    claim_control,
    control,
    database,
    guarded,
    now,
    parse_time,
    parse_uuid,
    print_records,
)
from permem import controls
from permem.errors import BadInput
from permem.profile import Profile
from permem.records import DEFAULT_PURPOSE, DEFAULT_SCOPE
from permem.settings import load_settings

__all__ = [
    "confirm",
    "correct",
    "explain",
    "export",
    "feedback",
    "grant_access",
    "inspect",
    "pause",
    "profile",
    "quarantine_list",
    "reject",
    "resume",
    "revoke_access",
]


@guarded
def inspect(
    tenant: TenantOpt,
    subject: Annotated[
        str | None, typer.Option("--subject", help="Only this subject's records.")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Every record of the subject (or tenant), history included."""
    with database() as db:
        print_records(controls.inspect(db, tenant, subject), as_json)


@guarded
def quarantine_list(
    tenant: Annotated[str | None, typer.Option("--tenant", help="Only this tenant.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Log lines set aside by the nightly flow, with file, line and reason."""
    with database() as db:
        for row in controls.quarantined(db, tenant):
            row["quarantined_at"] = row["quarantined_at"].isoformat()
            if as_json:
                sys.stdout.write(json.dumps(row) + "\n")
            else:
                typer.echo(f"{row['file']}:{row['line_no']}: {row['reason']} ({row['tenant']})")


@guarded
def correct(
    tenant: TenantOpt,
    claim: ClaimOpt,
    text: Annotated[str, typer.Option("--text", help="The corrected claim.")],
    actor: ActorOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Append a correction that supersedes a claim (the old one stays as history)."""
    claim_control(
        tenant, claim, actor, as_json,
        lambda db, claim_id, who: controls.correct(
            db, tenant, claim_id, text, actor=who, now=now()
        ),
    )  # fmt: skip


@guarded
def confirm(
    tenant: TenantOpt, claim: ClaimOpt, actor: ActorOpt = None, as_json: JsonFlag = False
) -> None:
    """Confirm a claim: it becomes usable."""
    claim_control(
        tenant, claim, actor, as_json,
        lambda db, claim_id, who: controls.confirm(db, tenant, claim_id, actor=who),
    )  # fmt: skip


@guarded
def reject(
    tenant: TenantOpt, claim: ClaimOpt, actor: ActorOpt = None, as_json: JsonFlag = False
) -> None:
    """Reject a claim: never used again (kept as history until forgotten)."""
    claim_control(
        tenant, claim, actor, as_json,
        lambda db, claim_id, who: controls.reject(db, tenant, claim_id, actor=who),
    )  # fmt: skip


@guarded
def feedback(
    tenant: TenantOpt,
    claim: ClaimOpt,
    wrong: Annotated[
        bool, typer.Option("--wrong/--right", help="The claim is wrong (or right).")
    ] = True,
    actor: ActorOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Mark a claim wrong (unused until confirmed) or right (confirmed)."""
    claim_control(
        tenant, claim, actor, as_json,
        lambda db, claim_id, who: controls.feedback(db, tenant, claim_id, wrong=wrong, actor=who),
    )  # fmt: skip


def _pause(tenant: str, subject: str, actor: str | None, paused: bool, as_json: bool) -> None:
    state = {"tenant": tenant, "subject": subject, "paused": paused}
    control(
        lambda db: controls.set_paused(
            db, tenant, subject, paused=paused, actor=actor or subject, now=now()
        ),
        as_json,
        lambda _: (state, f"{subject}: {'paused' if paused else 'active'}"),
    )


@guarded
def pause(
    tenant: TenantOpt, subject: SubjectOpt, actor: ActorOpt = None, as_json: JsonFlag = False
) -> None:
    """Stop using and creating the subject's memory (stored claims are kept)."""
    _pause(tenant, subject, actor, True, as_json)


@guarded
def resume(
    tenant: TenantOpt, subject: SubjectOpt, actor: ActorOpt = None, as_json: JsonFlag = False
) -> None:
    """Use and create the subject's memory again."""
    _pause(tenant, subject, actor, False, as_json)


@guarded
def grant_access(
    tenant: TenantOpt,
    actor: Annotated[str, typer.Option("--actor", help="Who may use the memory.")],
    subject: SubjectOpt,
    purpose: Annotated[str, typer.Option("--purpose", help="For which declared purpose.")],
    expires: Annotated[str, typer.Option("--expires", help="Until when (RFC 3339).")],
    by: Annotated[str, typer.Option("--by", help="Who grants it (audited).")],
    scope: Annotated[
        str,
        typer.Option(
            "--scope",
            help="Which claims: global (only global ones), workspace:<name> or "
            "project:<name> (that scope and global ones), or all (every scope).",
        ),
    ] = "global",
    as_json: JsonFlag = False,
) -> None:
    """Let an actor use a subject's memory for a purpose, in a scope, until a time (audited)."""
    from permem import grants

    expires_at = parse_time(expires, "--expires")
    control(
        lambda db: grants.grant(
            db, tenant, actor=actor, subject=subject, purpose=purpose, expires_at=expires_at,
            granted_by=by, now=now(), scope=scope,
        ),
        as_json,
        lambda made: (
            {"grant": str(made.id), "scope": made.scope, "purpose": made.purpose},
            f"grant {made.id} (scope {made.scope})",
        ),
    )  # fmt: skip


@guarded
def revoke_access(
    tenant: TenantOpt,
    grant_id: Annotated[str, typer.Option("--grant", help="The grant id.")],
    by: Annotated[str, typer.Option("--by", help="Who revokes it (audited).")],
    as_json: JsonFlag = False,
) -> None:
    """End a grant now (audited)."""
    from permem import grants

    gid = parse_uuid(grant_id, "--grant")
    control(
        lambda db: grants.revoke(db, tenant, gid, revoked_by=by, now=now()),
        as_json,
        lambda ended: (
            {"grant": str(ended.id), "revoked_at": str(ended.revoked_at)},
            f"grant {ended.id} revoked",
        ),
    )


@guarded
def explain(tenant: TenantOpt, claim: ClaimOpt, as_json: JsonFlag = False) -> None:
    """The operational contract's eight answers for one claim (changes nothing)."""
    from permem.explain import ANSWER_KEYS, explain_claim

    with database() as db:
        explained = explain_claim(db, tenant, parse_uuid(claim, "--claim"), now=now())
    if as_json:
        typer.echo(json.dumps(explained, ensure_ascii=False))
        return
    claim_fields = explained["claim"]
    typer.echo(f"{claim_fields['id']}: {claim_fields['claim']}")
    for number, key in enumerate(ANSWER_KEYS, start=1):
        typer.echo(f"{number}. {key.replace('_', ' ')}: {explained['answers'][key]['summary']}")


@guarded
def export(
    tenant: TenantOpt,
    subject: SubjectOpt,
    fmt: Annotated[str, typer.Option("--format", help="json or csv.")] = "json",
    actor: ActorOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Write the subject's data (history included) to a JSON or CSV file under
    <home>/exports, recorded as a lineage node so that deletion reaches it."""
    from permem.export import FORMATS, export_subject

    if fmt not in FORMATS:
        raise BadInput(f"--format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    settings = load_settings()
    control(
        lambda db: export_subject(
            db, tenant, subject, fmt,  # type: ignore[arg-type]
            directory=settings.exports_dir, actor=actor or subject, now=now(),
        ),
        as_json,
        lambda made: (
            {"export": str(made.id), "path": str(made.path), "records": made.records,
             "format": fmt},
            f"{made.records} records -> {made.path}",
        ),
        settings,
    )  # fmt: skip


def _profile_lines(made: Profile) -> str:
    """The profile for people: a heading, then each group's statements with their claims."""
    head = f"{made.subject} ({made.purpose}, {made.scope})"
    if made.paused:
        return f"{head}: paused, no profile"
    if made.version is None:
        return f"{head}: no profile (nothing usable)"
    out = [f"{head}: profile version {made.version}"]
    for group, lines in made.as_json()["groups"].items():
        if lines:
            out.append(f"{group}:")
        for line in lines:
            until = f" (until {line['valid_until']})" if line["valid_until"] else ""
            cited = ", ".join(i[:8] for i in line["claim_ids"])
            out.append(f"  - {line['statement']}{until} [{cited}]")
    return "\n".join(out)


@guarded
def profile(
    tenant: TenantOpt,
    subject: SubjectOpt,
    purpose: Annotated[
        str, typer.Option("--purpose", help="For which declared purpose.")
    ] = DEFAULT_PURPOSE,
    scope: Annotated[
        str, typer.Option("--scope", help="global, workspace:<name> or project:<name>.")
    ] = DEFAULT_SCOPE,
    as_json: JsonFlag = False,
) -> None:
    """The subject's synthesized profile: what recall could use now, grouped, each line citing
    its claims (regenerated first if its claims changed; none while paused)."""
    from permem.profile import read_profile

    control(
        lambda db: read_profile(db, tenant, subject, purpose=purpose, scope=scope, now=now()),
        as_json,
        lambda made: (made.as_json(), _profile_lines(made)),
    )
