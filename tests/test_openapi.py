"""The HTTP API's contract: docs/openapi.json is the app's own document (regenerate with
`python -m interfaces.http.openapi > docs/openapi.json`), and schemathesis, run against the
live app on the real stores for every operation with valid and invalid inputs, finds no 5xx
and no response outside the document (status, content type, body schema)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.python.asgi import shutdown_lifespans
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from interfaces.http import create_app
from interfaces.http.openapi import document
from permem.runtime import close_all
from permem.settings import Settings
from tests.conftest import DatabaseFactory
from tests.serve_support import fill, make_keys

COMMITTED = Path(__file__).resolve().parent.parent / "docs" / "openapi.json"
# Examples per operation and generation mode: CI's budget, not the fuzzer's appetite.
EXAMPLES = 12
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]


def test_the_committed_document_is_the_apps() -> None:
    assert COMMITTED.read_text(encoding="utf-8") == document(), (
        "docs/openapi.json drifted from the app: run "
        "`python -m interfaces.http.openapi > docs/openapi.json`"
    )


def _operations() -> list[tuple[str, str, GenerationMode]]:
    """Every operation of the document with valid inputs, and with invalid ones when it takes
    any (an operation without parameters or body has no invalid request)."""
    spec = json.loads(COMMITTED.read_text(encoding="utf-8"))
    found = []
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            found.append((method.upper(), path, GenerationMode.POSITIVE))
            if operation.get("parameters") or operation.get("requestBody"):
                found.append((method.upper(), path, GenerationMode.NEGATIVE))
    return found


@pytest.fixture(scope="module")
def live(
    database_factory: DatabaseFactory, tmp_path_factory: Any, prefect_server: str
) -> Iterator[tuple[Any, str]]:
    """(A forget the fuzzer makes runs the forget flow: the session's Prefect server takes it.)
    The app's schema loaded from the running app over stores with ana's log (its lifespan
    is started by schemathesis and stopped before the database goes) and ana's key."""
    home = tmp_path_factory.mktemp("fuzzed")
    with database_factory() as url:
        configured = fill(Settings(database_url=url, home=home / "home"), home / "log.jsonl")
        key = make_keys(configured)["ana"]
        schema = schemathesis.openapi.from_asgi("/openapi.json", create_app(configured))
        # Unknown query parameters are ignored, as HTTP services commonly do (docs/serve.md);
        # every other invalid input is generated.
        schema.config.generation.update(allow_extra_parameters=False)
        try:
            yield schema, key
        finally:
            shutdown_lifespans()
            close_all()


@pytest.mark.slow
@pytest.mark.parametrize(("method", "path", "mode"), _operations())
def test_every_operation_holds_to_the_document(
    live: tuple[Any, str], method: str, path: str, mode: GenerationMode
) -> None:
    schema, key = live
    operation = schema[path][method]

    # Valid requests as ana, so the fuzzer gets past authorization into the bodies and
    # parameters; invalid ones fuzz the identity headers too.
    own = {"X-Permem-Subject": "ana", "X-Permem-Tenant": "acme"}
    pinned: dict[str, Any] = {"headers": own} if mode is GenerationMode.POSITIVE else {}
    if "{subject}" in path and mode is GenerationMode.POSITIVE:
        pinned["path_parameters"] = {"subject": "ana"}

    @given(case=operation.as_strategy(generation_mode=mode, **pinned))
    @settings(
        max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )  # fmt: skip
    def holds(case: Any) -> None:
        case.call_and_validate(headers={"Authorization": f"Bearer {key}"}, checks=CHECKS)

    holds()
