"""`GET /healthz` (the process answers), `GET /readyz` (stores reachable, models loaded) and
`GET /metrics` (Prometheus text format). No credential needed."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from interfaces.http.auth import service_of
from interfaces.http.problems import PROBLEM_TYPE, Problem

__all__ = ["router"]

router = APIRouter(tags=["operations"])


@router.get("/healthz")
def healthz() -> dict[str, str]:
    """The process is up."""
    return {"status": "ok"}


@router.get(
    "/readyz",
    responses={503: {"model": Problem, "description": "Not ready.", "content": {PROBLEM_TYPE: {}}}},
)
def readyz(request: Request) -> Any:
    """The database and the vector index answer and the models are loaded."""
    service = service_of(request)
    checks: dict[str, str] = {}
    try:
        with service.rt.db.app.connect() as conn:
            conn.execute(sa.select(1))
        checks["database"] = "ok"
    except Exception as exc:  # a store that does not answer is what this reports, not a 500
        checks["database"] = f"unreachable: {type(exc).__name__}"
    try:
        service.rt.index.count()
        checks["index"] = "ok"
    except Exception as exc:
        checks["index"] = f"unreachable: {type(exc).__name__}"
    checks["models"] = "ok" if service.models_loaded else "loading"
    if all(v == "ok" for v in checks.values()):
        return {"status": "ready", **checks}
    failing = ", ".join(f"{k} {v}" for k, v in checks.items() if v != "ok")
    body = Problem(title="Service Unavailable", status=503, detail=f"not ready: {failing}")
    return JSONResponse(body.model_dump(), status_code=503, media_type=PROBLEM_TYPE)


@router.get(
    "/metrics",
    response_class=Response,
    responses={200: {"content": {CONTENT_TYPE_LATEST: {"schema": {"type": "string"}}}}},
)
def metrics(request: Request) -> Response:
    """Request counts and latencies by route, in Prometheus' text format."""
    return Response(generate_latest(service_of(request).registry), media_type=CONTENT_TYPE_LATEST)
