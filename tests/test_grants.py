"""Grants through the CLI: a declared purpose, never to oneself, and a scope that decides which
of the subject's claims the grantee sees (permem/grants.py states the semantics).

Real PostgreSQL, LanceDB, spaCy and Presidio: the claims come from a nightly run, grants are
made with `permem grant` and recall runs through `permem recall`.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from interfaces.cli import app
from permem.errors import BadInput
from permem.grants import covers, grant_scope
from permem.policy import PURPOSES
from permem.settings import Settings
from tests.conftest import nightly_cli, user_line

T = "acme"
GLOBAL, HOME, TAXES = (
    "I only book morning flights",
    "I always water the tomatoes on Sundays",
    "I prefer dark mode in spreadsheets",
)
LOG = [
    ("m1", GLOBAL, "global"),
    ("m2", HOME, "workspace:home"),
    ("m3", TAXES, "project:taxes"),
]
EXPIRES = "2099-01-01T00:00:00Z"


@pytest.fixture
def cli(settings: Settings, tmp_path: Path) -> CliRunner:
    lines = (user_line(m, text, turn=i, scope=scope) for i, (m, text, scope) in enumerate(LOG))
    cli: CliRunner = nightly_cli(settings, tmp_path / "log.jsonl", lines)
    return cli


def grant(cli: CliRunner, actor: str, *extra: str, purpose: str = "assistant") -> Any:
    result = cli.invoke(app, ["grant", "--tenant", T, "--actor", actor, "--subject", "ana",
                              "--purpose", purpose, "--expires", EXPIRES, "--by", "ana",
                              *extra, "--json"])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def recall(cli: CliRunner, tmp_path: Path, asks: list[tuple[str, str]]) -> list[Any]:
    """One query per (actor, scope), answered in one `permem recall` run."""
    now = datetime.now(UTC).isoformat()
    queries = tmp_path / "q.jsonl"
    queries.write_text("".join(
        json.dumps({
            "query_id": f"{actor}@{scope}", "tenant": T, "actor": actor, "subject": "ana",
            "purpose": "assistant", "scope": scope, "ts": now,
            "text": "what do I like for my garden, my spreadsheets and my flights", "k": 10,
        }) + "\n"
        for actor, scope in asks
    ))  # fmt: skip
    result = cli.invoke(app, ["recall", "--queries", str(queries), "--json"])
    assert result.exit_code == 0, result.stderr
    return [json.loads(x) for x in result.stdout.splitlines()]


def test_a_grant_scope_decides_which_claims_the_grantee_sees(
    cli: CliRunner, tmp_path: Path
) -> None:
    assert grant(cli, "ben")["scope"] == "global"  # the default
    assert grant(cli, "cy", "--scope", "workspace:home")["scope"] == "workspace:home"
    assert grant(cli, "dee", "--scope", "all")["scope"] == "*"
    grant(cli, "eve", "--scope", "workspace:home")
    grant(cli, "eve", "--scope", "project:taxes")  # two grants add up
    asks = [
        (actor, scope)
        for actor in ("ana", "ben", "cy", "dee", "eve")
        for scope in ("global", "workspace:home", "project:taxes")
    ]
    answers = {a["query_id"]: a for a in recall(cli, tmp_path, asks)}
    seen = {qid: {r["claim"] for r in a["records"]} for qid, a in answers.items()}
    assert all(a["denied"] is None for a in answers.values())
    expected = {
        # The subject: the query's scope and global claims.
        "ana@global": {GLOBAL},
        "ana@workspace:home": {GLOBAL, HOME},
        "ana@project:taxes": {GLOBAL, TAXES},
        # A global grant: global claims only, whatever the query's scope.
        "ben@global": {GLOBAL},
        "ben@workspace:home": {GLOBAL},
        "ben@project:taxes": {GLOBAL},
        # A workspace grant: that workspace and global claims, never another scope.
        "cy@global": {GLOBAL},
        "cy@workspace:home": {GLOBAL, HOME},
        "cy@project:taxes": {GLOBAL},
        # All scopes, said explicitly: like the subject.
        "dee@global": {GLOBAL},
        "dee@workspace:home": {GLOBAL, HOME},
        "dee@project:taxes": {GLOBAL, TAXES},
        "eve@global": {GLOBAL},
        "eve@workspace:home": {GLOBAL, HOME},
        "eve@project:taxes": {GLOBAL, TAXES},
    }
    assert seen == expected


def test_grants_for_undeclared_purposes_to_oneself_or_unknown_scopes_are_refused(
    cli: CliRunner, owner: sa.Engine
) -> None:
    base = ["grant", "--tenant", T, "--subject", "ana", "--expires", EXPIRES, "--by", "ana"]
    refused = {
        "unknown purpose": [*base, "--actor", "ben", "--purpose", "ads_targeting"],
        "needs no grant": [*base, "--actor", "ana", "--purpose", "assistant"],
        "unknown grant scope": [*base, "--actor", "ben", "--purpose", "assistant",
                                "--scope", "everything"],
    }  # fmt: skip
    for reason, args in refused.items():
        result = cli.invoke(app, args)
        assert result.exit_code == 2, (reason, result.stdout, result.stderr)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and reason in lines[0], (reason, lines)
        assert "Traceback" not in result.stdout + result.stderr
    # The account holder needs no grant over a person they told us about either.
    holder = cli.invoke(app, [*base[:3], "--subject", "ana:mother", *base[5:],
                              "--actor", "ana", "--purpose", "assistant"])  # fmt: skip
    assert holder.exit_code == 2 and "needs no grant" in holder.stderr
    with owner.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM grants")).scalar_one() == 0
        assert conn.execute(sa.text("SELECT count(*) FROM grant_events")).scalar_one() == 0
    # Every declared purpose can be granted.
    for purpose in PURPOSES:
        assert grant(cli, "ben", purpose=purpose)["purpose"] == purpose


def test_a_grant_made_before_scopes_existed_reads_as_global(
    cli: CliRunner, tmp_path: Path, owner: sa.Engine
) -> None:
    # A row inserted without a scope, as every grant made before migration 0006.
    with owner.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO grants (tenant, actor, subject, purpose, expires_at, granted_by, "
                "granted_at) VALUES (:t, 'old', 'ana', 'assistant', :e, 'ana', :g)"
            ),
            {"t": T, "e": datetime(2099, 1, 1, tzinfo=UTC),
             "g": datetime.now(UTC) - timedelta(days=1)},
        )  # fmt: skip
    (answer,) = recall(cli, tmp_path, [("old", "workspace:home")])
    assert {r["claim"] for r in answer["records"]} == {GLOBAL}


@pytest.mark.parametrize(
    ("scope", "claim_scope", "covered"),
    [
        ("global", "global", True),
        ("global", "workspace:home", False),
        ("workspace:home", "workspace:home", True),
        ("workspace:home", "global", True),
        ("workspace:home", "project:taxes", False),
        ("*", "project:taxes", True),
    ],
)
def test_covers(scope: str, claim_scope: str, covered: bool) -> None:
    assert covers([scope], claim_scope) is covered


def test_grant_scope_spellings() -> None:
    assert grant_scope("all") == grant_scope("*") == "*"
    assert grant_scope("project:taxes") == "project:taxes"
    for bad in ("", "home", "workspace:", "Global", " global"):
        with pytest.raises(BadInput):
            grant_scope(bad)
