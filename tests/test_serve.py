"""`permem serve` through HTTP on the real stores: authentication and authorization (each
refusal the right status, problem+json and no data), recall with its context and recall id,
influence stored and explained, forget followed to verified, the operational routes, and one
real server process."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from permem.context import CONTEXT_HEADER
from permem.settings import Settings
from tests.conftest import cli_env, sql_rows
from tests.serve_support import Served, fill, make_keys, serving

PROBLEM = "application/problem+json"


@pytest.fixture
def served(settings: Settings, tmp_path: Path, prefect_server: str) -> Iterator[Served]:
    configured = fill(settings, tmp_path / "log.jsonl")
    made = make_keys(configured)
    with serving(configured) as client:
        yield Served(client, configured, made)


def ask(text: str = "what should I cook tonight", **fields: Any) -> dict[str, Any]:
    return {"text": text, "purpose": "assistant", "k": 10, **fields}


def refused(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == PROBLEM
    body: dict[str, Any] = response.json()
    assert body["status"] == status and body["detail"]
    assert "vegetarian" not in response.text and "peanut" not in response.text
    return body


def test_recall_returns_attributed_records_context_and_a_logged_recall_id(served: Served) -> None:
    answer = served.post("/v1/recall", "ana", ask())
    assert answer.status_code == 200, answer.text
    body = answer.json()
    claims = {r["claim"] for r in body["records"]}
    assert "I'm vegetarian" in claims and "I'm allergic to peanuts" not in claims  # pending
    first = body["records"][0]
    assert first["source"]["message_id"] in {"m1", "m3"} and first["origin"] == "user_fact"
    lines = body["context"].splitlines()
    assert lines[0] == CONTEXT_HEADER and lines[-1] == "END UNTRUSTED EVIDENCE"
    assert len(lines) == len(body["records"]) + 2
    assert all("source: message m" in line and "date: 2026-03-0" in line for line in lines[1:-1])
    logged = sql_rows(served.settings, f"SELECT * FROM recall_log WHERE id = '{body['recall_id']}'")
    assert [(r["actor"], r["subject"], r["via"]) for r in logged] == [("ana", "ana", None)]
    assert {str(i) for i in logged[0]["returned_ids"]} == {r["id"] for r in body["records"]}
    tonight = served.post(
        "/v1/recall", "ana", ask("steak tonight, just this once: forget my vegetarian rule")
    )
    flagged = [line for line in tonight.json()["context"].splitlines() if "CONFLICTS" in line]
    assert flagged and all("vegetarian" in line for line in flagged)


def test_credentials_that_prove_nothing_get_401(served: Served) -> None:
    refused(served.client.post("/v1/recall", json=ask()), 401)
    for who in ("revoked", "expired"):
        assert refused(served.post("/v1/recall", who, ask()), 401)["title"] == "Unauthorized"
    served.keys["forged"] = served.keys["ana"][:-2] + "xx"
    refused(served.post("/v1/recall", "forged", ask()), 401)
    basic = served.client.post("/v1/recall", json=ask(), headers={"Authorization": "Basic eA=="})
    assert refused(basic, 401) and basic.headers["www-authenticate"] == "Bearer"


def test_tenants_never_meet(served: Served) -> None:
    claim_id = served.claims()["I'm vegetarian"]["id"]
    refused(served.post("/v1/recall", "ana", ask(), **{"X-Permem-Tenant": "globex"}), 403)
    # ana of globex is another person: she finds nothing of acme's ana, by text or by id.
    assert served.post("/v1/recall", "globex", ask()).json()["records"] == []
    for path in (f"/v1/memories/{claim_id}/explain", f"/v1/memories/{claim_id}/confirm"):
        call = served.get if path.endswith("explain") else served.post
        body = refused(call(path, "globex"), 404)
        assert body["detail"] == f"no memory {claim_id} in this tenant"
    assert served.claims()["I'm vegetarian"]["confirmation"] == "unconfirmed"


def test_another_subject_needs_a_grant(served: Served) -> None:
    denied = refused(served.post("/v1/recall", "bob", ask(subject="ana")), 403)
    assert "no access" in denied["detail"]
    vegetarian = served.claims()["I'm vegetarian"]["id"]
    refused(served.post(f"/v1/memories/{vegetarian}/reject", "bob"), 403)
    refused(served.get("/v1/memories?subject=ana", "bob"), 403)
    made = served.post("/v1/grants", "ana", {"grantee": "bob", "purpose": "assistant",
                                             "expires_at": "2099-01-01T00:00:00Z"})  # fmt: skip
    assert made.status_code == 201, made.text
    assert made.json()["granted_by"] == "ana" and made.json()["subject"] == "ana"
    seen = served.post("/v1/recall", "bob", ask(subject="ana"))
    assert "I'm vegetarian" in {r["claim"] for r in seen.json()["records"]}
    refused(served.post(f"/v1/grants/{made.json()['id']}/revoke", "bob"), 403)
    ended = served.post(f"/v1/grants/{made.json()['id']}/revoke", "ana")
    assert ended.status_code == 200 and ended.json()["revoked_at"]
    refused(served.post("/v1/recall", "bob", ask(subject="ana")), 403)
    assert served.claims()["I'm vegetarian"]["status"] == "active"


def test_a_service_key_acts_for_its_named_user_within_its_purposes(served: Served) -> None:
    for_ana = {"X-Permem-Subject": "ana"}
    answer = served.post("/v1/recall", "svc", ask(), **for_ana)
    assert answer.status_code == 200 and answer.json()["records"]
    logged = sql_rows(
        served.settings, f"SELECT * FROM recall_log WHERE id = '{answer.json()['recall_id']}'"
    )
    assert [(r["actor"], r["via"]) for r in logged] == [("ana", "concierge")]
    refused(served.post("/v1/recall", "svc", ask(purpose="travel"), **for_ana), 403)
    refused(served.post("/v1/recall", "svc", ask()), 403)  # no end user named
    refused(served.post("/v1/recall", "ana", ask(), **{"X-Permem-Subject": "bob"}), 403)
    refused(served.post("/v1/recall", "svc", ask(), **{"X-Permem-Subject": " ana"}), 422)


def test_influence_is_stored_and_explained(served: Served) -> None:
    answer = served.post("/v1/recall", "ana", ask()).json()
    used = [r["id"] for r in answer["records"] if r["claim"] == "I'm vegetarian"]
    path = f"/v1/recall/{answer['recall_id']}/influence"
    made = served.post(path, "ana", {"used_ids": used, "note": "suggested a lentil curry"})
    assert made.status_code == 201, made.text
    assert made.json()["used_ids"] == used and made.json()["reported_by"] == "ana"
    selection = served.get(f"/v1/memories/{used[0]}/explain", "ana").json()["answers"]["selection"]
    assert selection["times_influenced"] == 1
    assert selection["recent_influence"][0]["note"] == "suggested a lentil curry"
    assert selection["recent_influence"][0]["recall_id"] == answer["recall_id"]
    other = served.claims()["I'm allergic to peanuts"]["id"]  # pending: never returned
    refused(served.post(path, "ana", {"used_ids": [other]}), 422)
    refused(served.post(path, "bob", {"used_ids": used}), 403)
    refused(served.post(path, "globex", {"used_ids": used}), 404)
    refused(served.post(f"/v1/recall/{uuid.uuid4()}/influence", "ana", {"used_ids": []}), 404)
    rows = sql_rows(served.settings, "SELECT used_ids FROM recall_influence")
    assert [[str(i) for i in r["used_ids"]] for r in rows] == [used]


@pytest.mark.parametrize(
    "body",
    [
        {"text": "x", "purpose": "assistant", "actor": "bob"},  # the actor is never from a body
        {"text": "x", "purpose": "assistant", "tenant": "globex"},
        {"text": "x", "purpose": "assistant", "k": 0},
        {"text": "x", "purpose": "assistant", "ts": "yesterday"},
        {"text": "x", "purpose": "assistant", "scope": "garden"},
        {"text": "x\x00", "purpose": "assistant"},
        {"purpose": "assistant"},
        [1, 2],
    ],
)
def test_malformed_bodies_get_422_problems(served: Served, body: Any) -> None:
    refused(served.post("/v1/recall", "ana", body), 422)


def test_a_key_beyond_its_rate_gets_429(served: Served) -> None:
    limited = served.settings.model_copy(update={"rate_per_s": 0.01, "rate_burst": 2})
    with serving(limited) as client:
        headers = served.as_("ana")
        codes = [client.post("/v1/recall", json=ask(), headers=headers).status_code for _ in "abc"]
        assert codes == [200, 200, 429]
        late = client.post("/v1/recall", json=ask(), headers=headers)
        assert late.headers["content-type"] == PROBLEM and int(late.headers["retry-after"]) >= 1
        # The bucket is per key: bob's is full.
        assert client.post("/v1/recall", json=ask(), headers=served.as_("bob")).status_code == 200


def test_forget_blocks_at_once_and_reports_until_verified(served: Served) -> None:
    claim_id = served.claims()["I only book morning flights"]["id"]
    refused(served.post("/v1/forget", "bob", {"claim": claim_id}), 403)
    refused(served.post("/v1/forget", "ana", {"claim": claim_id, "subject": "ana"}), 422)
    started = served.post("/v1/forget", "ana", {"claim": claim_id})
    assert started.status_code == 202, started.text
    request_id = started.json()["request_id"]
    assert started.json()["state"] in {"blocked", "erased", "verified"}
    assert "I only book morning flights" not in {
        r["claim"] for r in served.post("/v1/recall", "ana", ask("book a flight")).json()["records"]
    }
    states = []
    for _ in range(300):
        states.append(served.get(f"/v1/forget/{request_id}", "ana").json()["state"])
        if states[-1] == "verified":
            break
        time.sleep(0.2)
    assert states[-1] == "verified", states
    assert "I only book morning flights" not in served.claims()
    # The erasure was the forget flow, a Prefect flow run for this very request.
    [run] = [r for r in _forget_runs() if r.parameters["params"].get("request_id") == request_id]
    assert run.state is not None and run.state.is_completed()
    refused(served.get(f"/v1/forget/{request_id}", "bob"), 403)
    refused(served.get(f"/v1/forget/{request_id}", "globex"), 404)


def _forget_runs() -> list[Any]:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import FlowFilter, FlowFilterName

    async def read() -> list[Any]:
        async with get_client() as client:
            return await client.read_flow_runs(
                flow_filter=FlowFilter(name=FlowFilterName(any_=["forget"]))
            )

    return asyncio.run(read())


def test_operational_routes(served: Served) -> None:
    assert served.client.get("/healthz").json() == {"status": "ok"}
    ready = served.client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json() == {"status": "ready", "database": "ok", "index": "ok", "models": "ok"}
    served.post("/v1/recall", "ana", ask())
    text = served.client.get("/metrics").text
    assert 'permem_http_requests_total{method="POST",route="/v1/recall",status="200"}' in text
    assert served.client.get("/nowhere").headers["content-type"] == PROBLEM


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.slow
def test_permem_serve_answers_over_a_real_socket(settings: Settings, tmp_path: Path) -> None:
    configured = fill(settings, tmp_path / "log.jsonl")
    key = make_keys(configured)["ana"]
    port = _free_port()
    env = {**os.environ, **cli_env(configured), "PYTHONPATH": str(Path(__file__).parent.parent)}
    server = subprocess.Popen(
        [sys.executable, "-m", "interfaces.cli", "serve", "--port", str(port)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.5)
        answer = httpx.post(
            f"{base}/v1/recall", json=ask(), headers={"Authorization": f"Bearer {key}"}, timeout=30
        )
        assert answer.status_code == 200, answer.text
        assert "I'm vegetarian" in {r["claim"] for r in answer.json()["records"]}
    finally:
        server.terminate()
        output = server.communicate(timeout=60)[0].decode(errors="replace")
    # uvicorn re-raises SIGTERM once it has shut down gracefully (the lifespan ran to its end).
    assert server.returncode in (0, -15), output
    assert "Application shutdown complete" in output


def test_a_jwt_signed_by_the_configured_key_set_is_the_second_way_in(
    served: Served, tmp_path: Path
) -> None:
    import jwt
    from cryptography.hazmat.primitives.asymmetric import rsa

    signing = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    public = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(signing.public_key()))
    jwks = tmp_path / "jwks.json"
    jwks.write_text(json.dumps({"keys": [{**public, "kid": "k1", "use": "sig"}]}))
    stranger = rsa.generate_private_key(public_exponent=65537, key_size=2048)

    def token(key: Any = signing, **claims: Any) -> str:
        body = {"sub": "ana", "tenant": "acme", "exp": int(time.time()) + 60, **claims}
        return jwt.encode(body, key, algorithm="RS256", headers={"kid": "k1"})

    with serving(served.settings.model_copy(update={"jwks_file": jwks})) as client:

        def recall(bearer: str) -> Any:
            return client.post(
                "/v1/recall", json=ask(), headers={"Authorization": f"Bearer {bearer}"}
            )

        assert "I'm vegetarian" in {r["claim"] for r in recall(token()).json()["records"]}
        refused(recall(token(stranger)), 401)
        refused(recall(token(exp=int(time.time()) - 5)), 401)
        refused(recall(token(tenant=None)), 401)
        assert recall(token(tenant="globex")).json()["records"] == []
    # The service without a key set accepts no JWT at all.
    bearer = {"Authorization": f"Bearer {token()}"}
    refused(served.client.post("/v1/recall", json=ask(), headers=bearer), 401)


def test_export_is_a_download_recorded_as_a_lineage_node(served: Served) -> None:
    as_csv = served.get("/v1/subjects/ana/export?format=csv", "ana")
    assert as_csv.status_code == 200 and as_csv.headers["content-type"].startswith("text/csv")
    records = int(as_csv.headers["x-permem-records"])
    assert records == 4 and as_csv.content.count(b"\r\n") == 1 + records
    export_id = as_csv.headers["x-permem-export-id"]
    rows = sql_rows(served.settings, f"SELECT * FROM exports WHERE id = '{export_id}'")
    assert [(r["subject"], r["format"], r["created_by"]) for r in rows] == [("ana", "csv", "ana")]
    assert Path(rows[0]["path"]).read_bytes() == as_csv.content
    edges = sql_rows(
        served.settings, f"SELECT count(*) AS n FROM lineage_edges WHERE child_id = '{export_id}'"
    )
    assert edges == [{"n": records}]
    refused(served.get("/v1/subjects/ana/export?format=xml", "ana"), 422)
    refused(served.get("/v1/subjects/ana/export", "bob"), 403)
