"""The command-line contract: commands, exit codes, one-line errors."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from interfaces.cli import app
from permem.records import SourceRef
from permem.settings import Settings
from permem.stores import migrate
from permem.stores.database import open_database, register_tenant, tenant_transaction
from permem.stores.memories import append_correction, append_memories
from permem.stores.sources import append_sources
from tests.conftest import memory, message

CONTRACT_COMMANDS = [
    "nightly", "recall", "inspect", "explain", "correct", "confirm", "reject", "pause",
    "resume", "forget", "export", "expire", "verify-erasure", "backup", "erase-backups",
    "rebuild-index", "redact", "hold", "release", "restore", "status",
]  # fmt: skip


def _env(settings: Settings) -> dict[str, str]:
    return {"PERMEM_DATABASE_URL": settings.database_url or "", "PERMEM_HOME": str(settings.home)}


def test_help_lists_every_contract_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "interfaces.cli", "--help"], capture_output=True, text=True,
        check=True, env={**os.environ, "COLUMNS": "200"},
    )  # fmt: skip
    listed = {line.split()[1] for line in result.stdout.splitlines() if line.startswith("│ ")}
    assert set(CONTRACT_COMMANDS) | {"db"} <= listed


def test_upgrade_then_inspect_json(settings: Settings) -> None:
    runner = CliRunner(env=_env(settings))
    upgraded = runner.invoke(app, ["db", "upgrade"])
    assert upgraded.exit_code == 0, upgraded.stderr
    assert f"schema at revision {migrate.head_revision()}" in upgraded.stdout
    db = open_database(settings)
    # Each claim's span is where its text stands in its message, and the two spans differ.
    said = {"m1": "I'm vegetarian, mostly.", "m2": "Well, actually I'm pescatarian"}
    old = memory(
        "demo", "m1", subject="alice", claim="I'm vegetarian", source=SourceRef("m1", (0, 14))
    )
    new = memory(
        "demo", "m2", subject="alice", claim="actually I'm pescatarian",
        source=SourceRef("m2", (6, 30)), supersedes=old.id,
    )  # fmt: skip
    with tenant_transaction(db.app, "demo") as conn:
        register_tenant(conn, "demo")
        append_sources(conn, [message("demo", m, text=text) for m, text in said.items()])
        append_memories(conn, [old])
        append_correction(conn, new, actor="alice")
    db.dispose()
    result = runner.invoke(app, ["inspect", "--tenant", "demo", "--subject", "alice", "--json"])
    assert result.exit_code == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    by_claim = {line["claim"]: line for line in lines}
    assert set(by_claim) == {"I'm vegetarian", "actually I'm pescatarian"}
    assert by_claim["I'm vegetarian"]["status"] == "superseded"
    assert by_claim["actually I'm pescatarian"]["supersedes"] == by_claim["I'm vegetarian"]["id"]
    for claim, line in by_claim.items():
        start, end = line["source"]["span"]
        assert said[line["source"]["message_id"]][start:end] == claim
    assert by_claim["actually I'm pescatarian"]["source"] == {"message_id": "m2", "span": [6, 30]}
    # Another tenant sees nothing of it.
    other = runner.invoke(app, ["inspect", "--tenant", "elsewhere", "--json"])
    assert other.exit_code == 0 and other.stdout == ""


def test_inspect_on_an_unmigrated_database_says_what_to_do(settings: Settings) -> None:
    result = CliRunner(env=_env(settings)).invoke(app, ["inspect", "--tenant", "t", "--json"])
    assert result.exit_code == 2
    assert result.stderr == ("permem: the database has no permem schema; run `permem db upgrade`\n")


def test_bad_setting_and_bad_tenant_exit_2(settings: Settings) -> None:
    bad_url = CliRunner(env={"PERMEM_DATABASE_URL": "mysql://x/y"}).invoke(
        app, ["inspect", "--tenant", "t"]
    )
    assert bad_url.exit_code == 2
    assert bad_url.stderr.startswith("permem: invalid setting PERMEM_DATABASE_URL")
    runner = CliRunner(env=_env(settings))
    assert runner.invoke(app, ["db", "upgrade"]).exit_code == 0
    blank = runner.invoke(app, ["inspect", "--tenant", " ", "--json"])
    assert blank.exit_code == 2
    assert blank.stderr.startswith("permem: tenant must be a non-empty name")


def test_unreachable_server_exits_2_with_one_line() -> None:
    result = CliRunner(env={"PERMEM_DATABASE_URL": "postgresql://nobody@127.0.0.1:1/none"}).invoke(
        app, ["inspect", "--tenant", "t"]
    )
    assert result.exit_code == 2
    assert result.stderr.startswith("permem: cannot use the database:")
    assert result.stderr.count("\n") == 1


@pytest.mark.slow
def test_nightly_on_the_embedded_defaults(tmp_path: Path) -> None:
    """The console script with PERMEM_DATABASE_URL unset starts its own PostgreSQL, runs the
    nightly flow on the bundled sample log, and inspects the result."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PERMEM_")}
    env |= {"PERMEM_HOME": str(tmp_path / "home"), "PERMEM_EMBEDDER": "hashing"}
    permem = [sys.executable, "-m", "interfaces.cli"]
    sample = Path(__file__).parent.parent / "examples" / "sample-log.jsonl"
    run = subprocess.run(
        [*permem, "nightly", "--logs", str(sample), "--json"], env=env, capture_output=True,
        text=True,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["counts"]["quarantined"] == 2 and report["counts"]["stored"] >= 8
    out = subprocess.run(
        [*permem, "inspect", "--tenant", "demo", "--subject", "alice", "--json"], env=env,
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    claims = {json.loads(line)["claim"]: json.loads(line) for line in out.stdout.splitlines()}
    assert claims["I'm vegetarian"]["status"] == "superseded"
    assert not any("alice.w@example.org" in c for c in claims)
    assert (tmp_path / "home" / "pgdata" / "PG_VERSION").exists()
    again = subprocess.run(
        [*permem, "nightly", "--logs", str(sample), "--json"], env=env, capture_output=True,
        text=True,
    )  # fmt: skip
    assert json.loads(again.stdout)["counts"]["stored"] == 0


def test_redact_reads_lines_and_writes_json() -> None:
    result = CliRunner().invoke(
        app, ["redact"], input="email me at jo@example.com, I prefer mornings\nno identifiers\n"
    )
    assert result.exit_code == 0, result.stderr
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["text"] == "email me at jo@example.com, I prefer mornings"
    assert "jo@example.com" not in first["redacted"] and "I prefer mornings" in first["redacted"]
    assert first["entities"][0]["type"] == "EMAIL_ADDRESS"
    assert second == {"text": "no identifiers", "redacted": "no identifiers", "entities": []}
