"""`POST /v1/forget` (block at once, then the forget flow erases and verifies) and
`GET /v1/forget/{request_id}` (blocked -> erased -> verified, or held)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from fastapi import APIRouter, Request

from interfaces.http.auth import Caller, checked_identifier, service_of
from interfaces.http.models import ForgetBody, ForgetOut
from interfaces.http.problems import PROBLEMS
from permem import controls, forget
from permem.erasure.ledger import TargetKind
from permem.errors import Forbidden

__all__ = ["router"]

router = APIRouter(prefix="/v1/forget", tags=["forget"], responses=PROBLEMS)


@router.post("", response_model=ForgetOut, status_code=202)
def start(body: ForgetBody, caller: Caller, request: Request) -> ForgetOut:
    """Forget the caller's subject, one of their source messages or one of their claims: the
    forget flow's steps. Blocked before this answers (no later recall returns it); erased and
    verified in the background; follow it with `GET /v1/forget/{request_id}`."""
    service = service_of(request)
    db = service.rt.db
    target = forget.Target.of(subject=body.subject, source=body.source, claim=body.claim)
    value = checked_identifier(target.value, target.kind.value)
    if target.kind is TargetKind.SUBJECT:
        caller.check_owns(value)
    elif target.kind is TargetKind.SOURCE:
        caller.check_owns(controls.speaker_of_source(db, caller.tenant, value))
    else:
        caller.owned_claim(service, uuid.UUID(value))
    # The request row commits before this answers: recall excludes the target from then on.
    # The forget flow (a Prefect flow run, as `permem forget` starts) expands, erases,
    # purges backups and verifies it in the background.
    blocked = forget.request(
        db, caller.tenant, target, actor=caller.audit_name, now=datetime.now(UTC)
    )
    service.finish_forget(caller.tenant, target, caller.audit_name, blocked.request_id)
    return ForgetOut.model_validate(forget.request_state(db, caller.tenant, blocked.request_id))


@router.get("/{request_id}", response_model=ForgetOut)
def state(request_id: uuid.UUID, caller: Caller, request: Request) -> ForgetOut:
    """Where a forget request the caller made stands."""
    db = service_of(request).rt.db
    found = forget.request_state(db, caller.tenant, request_id)
    if found["requested_by"] != caller.audit_name:
        raise Forbidden("only who asked for a deletion may follow it")
    return ForgetOut.model_validate(found)
