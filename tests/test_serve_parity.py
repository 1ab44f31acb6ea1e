"""Every control through HTTP ends in the same state as through the command line: the same
log in two databases, the controls applied by `permem …` to one and by the HTTP service to
the other, then every table the controls write compared (ids aside: each store makes its own)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interfaces.cli import app
from permem.settings import Settings
from tests.conftest import DatabaseFactory, cli_env, sql_rows
from tests.serve_support import Served, fill, make_keys, serving

EXPIRES = "2099-01-01T00:00:00Z"
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def state(settings: Settings) -> dict[str, Any]:
    """What the controls change, with ids replaced by the claims they name."""
    rows: Callable[[str], list[dict[str, Any]]] = lambda sql: sql_rows(settings, sql)  # noqa: E731
    claims = {str(r["id"]): r["claim"] for r in rows("SELECT id, claim FROM memories")}
    memories = sorted(
        (r["claim"], r["status"], r["confirmation"], claims.get(str(r["supersedes"])))
        for r in rows("SELECT * FROM memories")
    )
    named = lambda text: _UUID.sub(lambda m: claims.get(m[0], "erased"), text)  # noqa: E731
    events = sorted(
        (claims.get(str(r["memory_id"]), "erased"), r["field"], r["old_value"], r["new_value"],
         r["actor"], named(r["reason"]))
        for r in rows("SELECT * FROM memory_events")
    )  # fmt: skip
    return {
        "memories": memories,
        "events": events,
        "settings": rows("SELECT subject, paused, updated_by FROM subject_settings"),
        "grants": rows(
            "SELECT actor, subject, purpose, scope, granted_by, revoked_by IS NOT NULL AS ended, "
            "revoked_by FROM grants"
        ),
        "grant_events": sorted((r["event"], r["by"]) for r in rows("SELECT * FROM grant_events")),
        "exports": rows("SELECT subject, format, records, created_by FROM exports"),
        "export_edges": rows("SELECT count(*) AS n FROM lineage_edges WHERE child_kind = 'export'"),
        "ledger": sorted(
            (r["node_kind"], r["state"], r["requested_by"])
            for r in rows("SELECT * FROM erasure_ledger")
        ),
        "index_queue": rows("SELECT count(*) AS n FROM index_queue"),
    }


def by_cli(settings: Settings) -> None:
    cli = CliRunner(env=cli_env(settings))

    def run(*args: str) -> Any:
        done = cli.invoke(app, [*args, "--json"])
        assert done.exit_code == 0, done.stderr
        return json.loads(done.stdout.splitlines()[-1])

    listed = cli.invoke(app, ["inspect", "--tenant", "acme", "--subject", "ana", "--json"])
    ids = {r["claim"]: r["id"] for r in map(json.loads, listed.stdout.splitlines())}
    acme = ("--tenant", "acme")
    run("correct", *acme, "--claim", ids["I'm vegetarian"], "--text", "I'm pescatarian")
    run("confirm", *acme, "--claim", ids["I'm allergic to peanuts"])
    run("feedback", *acme, "--claim", ids["I can't stand mushrooms"], "--wrong")
    run("reject", *acme, "--claim", ids["I only book morning flights"])
    run("pause", *acme, "--subject", "ana")
    run("resume", *acme, "--subject", "ana")
    run("export", *acme, "--subject", "ana", "--format", "json")
    made = run("grant", *acme, "--actor", "bob", "--subject", "ana", "--purpose", "assistant",
               "--expires", EXPIRES, "--by", "ana")  # fmt: skip
    run("revoke", *acme, "--grant", made["grant"], "--by", "ana")
    run("forget", *acme, "--claim", ids["I can't stand mushrooms"], "--by", "ana")


def by_http(served: Served) -> None:
    ids = {claim: r["id"] for claim, r in served.claims().items()}

    def ok(response: Any) -> Any:
        assert response.status_code < 300, response.text
        return response

    names = {
        "vegetarian": "I'm vegetarian",
        "peanuts": "I'm allergic to peanuts",
        "mushrooms": "I can't stand mushrooms",
        "flights": "I only book morning flights",
    }
    on = {name: f"/v1/memories/{ids[claim]}" for name, claim in names.items()}
    ok(served.post(f"{on['vegetarian']}/correct", "ana", {"text": "I'm pescatarian"}))
    ok(served.post(f"{on['peanuts']}/confirm", "ana"))
    ok(served.post(f"{on['mushrooms']}/feedback", "ana", {"wrong": True}))
    ok(served.post(f"{on['flights']}/reject", "ana"))
    ok(served.post("/v1/subjects/ana/pause", "ana"))
    ok(served.post("/v1/subjects/ana/resume", "ana"))
    exported = ok(served.get("/v1/subjects/ana/export?format=json", "ana"))
    assert json.loads(exported.content)["subject"] == "ana"
    made = ok(served.post("/v1/grants", "ana", {"grantee": "bob", "purpose": "assistant",
                                                "expires_at": EXPIRES})).json()  # fmt: skip
    ok(served.post(f"/v1/grants/{made['id']}/revoke", "ana"))
    started = ok(served.post("/v1/forget", "ana", {"claim": ids["I can't stand mushrooms"]}))
    request_id = started.json()["request_id"]
    for _ in range(300):
        if served.get(f"/v1/forget/{request_id}", "ana").json()["state"] == "verified":
            return
        time.sleep(0.2)
    pytest.fail("the forget request did not reach verified")


@pytest.mark.slow
def test_every_control_ends_in_the_same_state_through_http_and_the_cli(
    settings: Settings, tmp_path: Path, database_factory: DatabaseFactory, prefect_server: str
) -> None:
    through_cli = fill(settings, tmp_path / "log.jsonl")
    before = state(through_cli)
    with database_factory() as url:
        through_http = fill(
            settings.model_copy(update={"database_url": url, "home": tmp_path / "home2"}),
            tmp_path / "log2.jsonl",
        )
        assert state(through_http) == before  # the same start
        with serving(through_http) as client:
            by_http(Served(client, through_http, make_keys(through_http)))
        by_cli(through_cli)
        after = state(through_cli)
        assert after != before
        assert state(through_http) == after
