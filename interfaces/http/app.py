"""The FastAPI application of `permem serve`: routes under `/v1`, problem+json errors, the
stores and models loaded once at startup and disposed of at shutdown, request metrics."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request, Response
from starlette.concurrency import run_in_threadpool

from interfaces.http import (
    routes_forget,
    routes_memories,
    routes_ops,
    routes_recall,
    routes_subjects,
)
from interfaces.http.problems import install_handlers
from interfaces.http.service import Service
from permem.settings import Settings

__all__ = ["API_VERSION", "create_app"]

API_VERSION = "1.0.0"


def create_app(settings: Settings) -> FastAPI:
    """The service over `settings`' stores; nothing is opened until startup."""
    service = Service(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await run_in_threadpool(service.start)
        try:
            yield
        finally:
            await run_in_threadpool(service.close)

    app = FastAPI(
        title="permem",
        version=API_VERSION,
        summary="Personalization memory: recall attributed evidence and control it.",
        description="Authenticate with `Authorization: Bearer <key>` (`permem keys create`). "
        "A service key names its end user in `X-Permem-Subject`. Errors are RFC 9457 "
        "problem details. See docs/serve.md.",
        lifespan=lifespan,
    )
    app.state.service = service
    install_handlers(app)
    for module in (routes_recall, routes_memories, routes_subjects, routes_forget, routes_ops):
        app.include_router(module.router)

    @app.middleware("http")
    async def measure(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        started = time.perf_counter()
        response = await call_next(request)
        route = getattr(request.scope.get("route"), "path", "unmatched")
        service.latency.labels(route).observe(time.perf_counter() - started)
        service.requests.labels(request.method, route, str(response.status_code)).inc()
        return response

    return app
