"""`permem serve`: the HTTP API on uvicorn (docs/serve.md)."""

from __future__ import annotations

from typing import Annotated

import typer

from interfaces.cli._common import guarded

__all__ = ["serve"]


@guarded
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8400,
) -> None:
    """Serve recall and the controls over HTTP (keys: `permem keys create`)."""
    import uvicorn

    from interfaces.http import create_app
    from permem.settings import load_settings

    app = create_app(load_settings())
    # One process: the models, engines and token buckets live in it (uvicorn's workers would
    # each load their own); SIGTERM/SIGINT stop it gracefully (the lifespan disposes).
    uvicorn.run(app, host=host, port=port, log_level="info", proxy_headers=True)
