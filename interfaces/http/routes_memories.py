"""The controls on one claim, and inspect: each calls the function the CLI calls."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime

from fastapi import APIRouter, Query, Request

from interfaces.http.auth import Caller, Principal, checked_identifier, checked_text, service_of
from interfaces.http.models import CorrectBody, ExplainOut, FeedbackBody, RecordOut
from interfaces.http.problems import PROBLEMS
from permem import controls
from permem.explain import explain_claim
from permem.records import UserMemory
from permem.stores.database import Database

__all__ = ["router"]

router = APIRouter(prefix="/v1/memories", tags=["memories"], responses=PROBLEMS)


def _on_claim(
    request: Request,
    caller: Principal,
    claim_id: uuid.UUID,
    act: Callable[[Database, str], UserMemory],
) -> RecordOut:
    """One control on a claim of the caller's own memory: 404 for an id the tenant does not
    hold, 403 for another subject's claim; `act(db, audited actor)` does the change."""
    service = service_of(request)
    caller.owned_claim(service, claim_id)
    return RecordOut.model_validate(act(service.rt.db, caller.audit_name).as_json())


@router.get("", response_model=list[RecordOut])
def inspect(
    caller: Caller,
    request: Request,
    subject: str | None = Query(default=None, description="Default: the credential's actor."),
) -> list[RecordOut]:
    """Every record of the subject, history included, oldest first (changes nothing)."""
    who = checked_identifier(subject, "subject") if subject is not None else caller.actor
    caller.check_owns(who)
    found = controls.inspect(service_of(request).rt.db, caller.tenant, who)
    return [RecordOut.model_validate(r.as_json()) for r in found]


@router.get("/{claim_id}/explain", response_model=ExplainOut)
def explain(claim_id: uuid.UUID, caller: Caller, request: Request) -> ExplainOut:
    """The operational contract's eight answers for one claim (changes nothing)."""
    service = service_of(request)
    caller.owned_claim(service, claim_id)
    explained = explain_claim(service.rt.db, caller.tenant, claim_id, now=datetime.now(UTC))
    return ExplainOut.model_validate(explained)


@router.post("/{claim_id}/correct", response_model=RecordOut, status_code=201)
def correct(claim_id: uuid.UUID, body: CorrectBody, caller: Caller, request: Request) -> RecordOut:
    """Append a correction that supersedes the claim; returns the new record."""
    text = checked_text(body.text, "text")
    return _on_claim(
        request, caller, claim_id,
        lambda db, who: controls.correct(
            db, caller.tenant, claim_id, text, actor=who, now=datetime.now(UTC)
        ),
    )  # fmt: skip


@router.post("/{claim_id}/confirm", response_model=RecordOut)
def confirm(claim_id: uuid.UUID, caller: Caller, request: Request) -> RecordOut:
    """Confirm the claim: it becomes usable."""
    return _on_claim(
        request, caller, claim_id,
        lambda db, who: controls.confirm(db, caller.tenant, claim_id, actor=who),
    )  # fmt: skip


@router.post("/{claim_id}/reject", response_model=RecordOut)
def reject(claim_id: uuid.UUID, caller: Caller, request: Request) -> RecordOut:
    """Reject the claim: never used again (kept as history until forgotten)."""
    return _on_claim(
        request, caller, claim_id,
        lambda db, who: controls.reject(db, caller.tenant, claim_id, actor=who),
    )  # fmt: skip


@router.post("/{claim_id}/feedback", response_model=RecordOut)
def feedback(
    claim_id: uuid.UUID, body: FeedbackBody, caller: Caller, request: Request
) -> RecordOut:
    """Mark the claim wrong (unused until confirmed) or right (confirmed)."""
    return _on_claim(
        request, caller, claim_id,
        lambda db, who: controls.feedback(db, caller.tenant, claim_id, wrong=body.wrong, actor=who),
    )  # fmt: skip
