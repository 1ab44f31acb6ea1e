"""The controls on a subject: pause, resume, export, the synthesized profile; and the grants
over their memory."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse

from interfaces.http.auth import (
    Caller,
    Principal,
    checked_identifier,
    checked_text,
    service_of,
)
from interfaces.http.models import GrantBody, GrantOut, PauseOut, ProfileOut
from interfaces.http.problems import PROBLEMS
from permem import controls, grants
from permem.errors import BadInput, Forbidden, NotFound
from permem.export import export_subject
from permem.profile import read_profile
from permem.records import DEFAULT_PURPOSE, DEFAULT_SCOPE

__all__ = ["router"]

router = APIRouter(prefix="/v1", tags=["subjects"], responses=PROBLEMS)

_MEDIA = {"json": "application/json", "csv": "text/csv"}


def _owned(caller: Principal, subject: str) -> str:
    who = checked_identifier(subject, "subject")
    caller.check_owns(who)
    return who


def _pause(request: Request, caller: Principal, subject: str, paused: bool) -> PauseOut:
    who = _owned(caller, subject)
    controls.set_paused(
        service_of(request).rt.db, caller.tenant, who, paused=paused,
        actor=caller.audit_name, now=datetime.now(UTC),
    )  # fmt: skip
    return PauseOut(subject=who, paused=paused)


@router.post("/subjects/{subject}/pause", response_model=PauseOut)
def pause(subject: str, caller: Caller, request: Request) -> PauseOut:
    """Stop using and creating the subject's memory (stored claims are kept)."""
    return _pause(request, caller, subject, True)


@router.post("/subjects/{subject}/resume", response_model=PauseOut)
def resume(subject: str, caller: Caller, request: Request) -> PauseOut:
    """Use and create the subject's memory again."""
    return _pause(request, caller, subject, False)


@router.get(
    "/subjects/{subject}/export",
    response_class=FileResponse,
    responses={
        200: {
            "description": "The export file (also recorded as a lineage node).",
            "content": {"application/json": {"schema": {"type": "object"}},
                        "text/csv": {"schema": {"type": "string"}}},
        }
    },
)  # fmt: skip
def export(
    subject: str,
    caller: Caller,
    request: Request,
    format: Literal["json", "csv"] = Query(default="json", description="json or csv."),
) -> FileResponse:
    """The subject's data, history included, as a download; the file is kept under
    <home>/exports and recorded as a lineage node, so a deletion reaches it."""
    who = _owned(caller, subject)
    service = service_of(request)
    made = export_subject(
        service.rt.db, caller.tenant, who, format, directory=service.settings.exports_dir,
        actor=caller.audit_name, now=datetime.now(UTC),
    )  # fmt: skip
    return FileResponse(
        made.path, media_type=_MEDIA[format], filename=made.path.name,
        headers={"X-Permem-Export-Id": str(made.id), "X-Permem-Records": str(made.records)},
    )  # fmt: skip


@router.get("/subjects/{subject}/profile", response_model=ProfileOut)
def profile(
    subject: str,
    caller: Caller,
    request: Request,
    purpose: str = Query(default=DEFAULT_PURPOSE, description="For which declared purpose."),
    scope: str = Query(
        default=DEFAULT_SCOPE, description="global, workspace:<name> or project:<name>."
    ),
) -> ProfileOut:
    """The subject's synthesized profile: what recall could use now, grouped, each line citing
    its claims (regenerated first if its claims changed; none while paused)."""
    who = _owned(caller, subject)
    caller.check_purpose(purpose)
    made = read_profile(
        service_of(request).rt.db, caller.tenant, who,
        purpose=checked_text(purpose, "purpose"), scope=checked_text(scope, "scope"),
        now=datetime.now(UTC),
    )  # fmt: skip
    return ProfileOut.model_validate(made.as_json())


def _grant_out(made: grants.Grant) -> GrantOut:
    return GrantOut(
        id=str(made.id), grantee=made.actor, subject=made.subject, purpose=made.purpose,
        scope=made.scope, expires_at=made.expires_at.isoformat(), granted_by=made.granted_by,
        granted_at=made.granted_at.isoformat(),
        revoked_at=made.revoked_at.isoformat() if made.revoked_at else None,
    )  # fmt: skip


def _time(value: str, name: str) -> datetime:
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        raise BadInput(f"{name} is not an RFC 3339 time: {value!r}") from None
    if when.tzinfo is None:
        raise BadInput(f"{name} needs a timezone offset")
    return when


@router.post("/grants", response_model=GrantOut, status_code=201)
def grant(body: GrantBody, caller: Caller, request: Request) -> GrantOut:
    """Let another actor use the caller's (or their own third party's) memory for a purpose,
    in a scope, until a time (audited)."""
    subject = _owned(caller, body.subject or caller.actor)
    made = grants.grant(
        service_of(request).rt.db, caller.tenant,
        actor=checked_identifier(body.grantee, "grantee"), subject=subject,
        purpose=checked_text(body.purpose, "purpose"),
        expires_at=_time(body.expires_at, "expires_at"), granted_by=caller.audit_name,
        now=datetime.now(UTC), scope=checked_text(body.scope, "scope"),
    )  # fmt: skip
    return _grant_out(made)


@router.post("/grants/{grant_id}/revoke", response_model=GrantOut)
def revoke(grant_id: uuid.UUID, caller: Caller, request: Request) -> GrantOut:
    """End a grant over the caller's memory now (audited)."""
    db = service_of(request).rt.db
    over = next((g for g in grants.list_grants(db, caller.tenant) if g.id == grant_id), None)
    if over is None:
        raise NotFound(f"no grant {grant_id} in this tenant")
    if not grants.owns_memory(caller.actor, over.subject):
        raise Forbidden("only the subject may revoke a grant over their memory")
    ended = grants.revoke(
        db, caller.tenant, grant_id, revoked_by=caller.audit_name, now=datetime.now(UTC)
    )
    return _grant_out(ended)
