"""Errors as RFC 9457 problem details (`application/problem+json`), mapped in one place.

Domain errors carry the message; the class decides the status: `Unauthenticated` 401,
`Forbidden` 403, `NotFound` 404, `IllegalTransition` 409, other `BadInput` and a body that
fails validation 422, `RateLimited` 429, an unusable store 503. Nothing a caller sends can
produce a 500: every such path ends in one of these.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sqlalchemy.exc
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException

from permem.errors import (
    BadInput,
    ConfigurationError,
    Forbidden,
    IllegalTransition,
    NotFound,
    Unauthenticated,
)

__all__ = ["PROBLEM_TYPE", "PROBLEMS", "Problem", "RateLimited", "install_handlers", "problem"]

PROBLEM_TYPE = "application/problem+json"
_TITLES = {
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    409: "Conflict",
    422: "Unprocessable Content",
    429: "Too Many Requests",
    503: "Service Unavailable",
}


class Problem(BaseModel):
    """RFC 9457 problem details."""

    type: str = Field(default="about:blank", description="A URI naming the problem type.")
    title: str = Field(description="The HTTP status phrase.")
    status: int = Field(description="The HTTP status code.")
    detail: str = Field(description="What went wrong, in one line a caller can act on.")
    instance: str | None = Field(default=None, description="The request path.")


class RateLimited(Exception):
    """The key used its token bucket up; retry after `retry_after` seconds."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(f"rate limit exceeded; retry in {retry_after:.2f} s")
        self.retry_after = retry_after


def _documented(what: str) -> dict[str, Any]:
    return {"model": Problem, "description": what, "content": {PROBLEM_TYPE: {}}}


# The problems every authenticated `/v1` operation may answer (documented in the OpenAPI).
PROBLEMS: dict[int | str, dict[str, Any]] = {
    401: _documented("No credential, or a bad, revoked or expired one."),
    403: _documented("Outside the credential's tenant, purposes or grants."),
    404: _documented("No such id in the credential's tenant."),
    409: _documented("The state does not allow this change (e.g. a superseded claim)."),
    422: _documented("The request is malformed."),
    429: _documented("The key's rate limit is exhausted."),
}


def problem(
    status: int, detail: str, request: Request, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    """A problem+json response."""
    body = Problem(
        title=_TITLES.get(status, "Error"),
        status=status,
        detail=detail.splitlines()[0] if detail else _TITLES.get(status, "Error"),
        instance=request.url.path,
    )
    return JSONResponse(
        body.model_dump(), status_code=status, media_type=PROBLEM_TYPE, headers=headers
    )


def _status_of(exc: Exception) -> int:
    if isinstance(exc, Unauthenticated):
        return 401
    if isinstance(exc, Forbidden):
        return 403
    if isinstance(exc, NotFound):
        return 404
    if isinstance(exc, IllegalTransition):
        return 409
    if isinstance(exc, BadInput):
        return 422
    return 503


def _validation_detail(exc: RequestValidationError) -> str:
    first = exc.errors()[0] if exc.errors() else {}
    where = ".".join(str(p) for p in first.get("loc", ()))
    return f"{where}: {first.get('msg', 'invalid request')}" if where else "invalid request"


def install_handlers(app: FastAPI) -> None:
    """Every error a request can cause, as problem+json."""

    async def domain(request: Request, exc: Exception) -> JSONResponse:
        status = _status_of(exc)
        headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
        return problem(status, str(exc), request, headers)

    async def validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return problem(422, _validation_detail(exc), request)

    async def http(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, HTTPException)
        # FastAPI answers a body that is not JSON at all with 400: it is a bad body too.
        status = 422 if exc.status_code == 400 else exc.status_code
        return problem(status, str(exc.detail), request, exc.headers)

    async def limited(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RateLimited)
        retry = {"Retry-After": str(max(1, round(exc.retry_after + 0.5)))}
        return problem(429, str(exc), request, retry)

    async def store(request: Request, exc: Exception) -> JSONResponse:
        return problem(503, "the store is unavailable; retry later", request)

    for error in (BadInput, Unauthenticated, ConfigurationError):
        app.add_exception_handler(error, domain)
    app.add_exception_handler(RequestValidationError, validation)
    app.add_exception_handler(HTTPException, http)
    app.add_exception_handler(RateLimited, limited)
    app.add_exception_handler(sqlalchemy.exc.OperationalError, store)
