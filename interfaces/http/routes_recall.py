"""`POST /v1/recall` and `POST /v1/recall/{recall_id}/influence`."""

from __future__ import annotations

import dataclasses
import uuid
from datetime import UTC, datetime

from fastapi import APIRouter, Request

from interfaces.http.auth import Caller, checked_text, service_of
from interfaces.http.models import InfluenceBody, InfluenceOut, RecallBody, RecallOut
from interfaces.http.problems import PROBLEMS
from permem.context import evidence_block
from permem.errors import BadInput, Forbidden
from permem.influence import report_influence
from permem.recall import parse_query

__all__ = ["router"]

router = APIRouter(prefix="/v1", tags=["recall"], responses=PROBLEMS)


def _uuids(values: list[str]) -> list[uuid.UUID]:
    try:
        return [uuid.UUID(v) for v in values]
    except ValueError:
        raise BadInput("used_ids must be record ids (UUIDs)") from None


@router.post("/recall", response_model=RecallOut)
def recall(body: RecallBody, caller: Caller, request: Request) -> RecallOut:
    """The live, authorized, applicable records for the request, with their provenance, the
    `recall_id` of its log row and the prompt-ready `context`; 403 when the actor may not read
    the subject's memory for this purpose (the denial is logged)."""
    caller.check_purpose(body.purpose)
    fields = body.model_dump()
    fields.update(
        tenant=caller.tenant,
        actor=caller.actor,
        subject=body.subject or caller.actor,
        ts=body.ts or datetime.now(UTC).isoformat(),
        query_id=body.query_id or uuid.uuid4().hex,
    )
    try:
        query = parse_query({k: v for k, v in fields.items() if v is not None})
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    answer = service_of(request).recaller.recall(dataclasses.replace(query, via=caller.via))
    if answer.denied is not None:
        raise Forbidden(f"no access to this subject's memory: {answer.denied}")
    return RecallOut.model_validate(
        {
            "query_id": answer.query_id,
            "recall_id": str(answer.recall_id),
            "records": [r.as_json() for r in answer.records],
            "context": evidence_block(answer.records),
        }
    )


@router.post("/recall/{recall_id}/influence", response_model=InfluenceOut, status_code=201)
def influence(
    recall_id: uuid.UUID, body: InfluenceBody, caller: Caller, request: Request
) -> InfluenceOut:
    """Report which of a recall's records the response used (stored beside the recall log;
    `explain` reports it). 404 for a recall the tenant never logged."""
    if body.note is not None:
        checked_text(body.note, "note")
    made = report_influence(
        service_of(request).rt.db, caller.tenant, recall_id, _uuids(body.used_ids),
        actor=caller.actor, via=caller.via, note=body.note, now=datetime.now(UTC),
    )  # fmt: skip
    return InfluenceOut.model_validate(made.as_json())
