"""The command-line contract: commands, exit codes, one-line errors."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from permem.cli import app
from permem.settings import Settings

CONTRACT_COMMANDS = [
    "nightly", "recall", "inspect", "explain", "correct", "confirm", "reject", "pause",
    "resume", "forget", "export", "expire", "verify-erasure", "backup", "erase-backups",
    "rebuild-index", "redact",
]  # fmt: skip
NOT_YET = [c for c in CONTRACT_COMMANDS if c != "inspect"]


def _env(settings: Settings) -> dict[str, str]:
    return {"PERMEM_DATABASE_URL": settings.database_url or "", "PERMEM_HOME": str(settings.home)}


def test_help_lists_every_contract_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "permem", "--help"], capture_output=True, text=True, check=True,
        env={**os.environ, "COLUMNS": "200"},
    )  # fmt: skip
    listed = {line.split()[1] for line in result.stdout.splitlines() if line.startswith("│ ")}
    assert set(CONTRACT_COMMANDS) | {"db", "demo"} <= listed


@pytest.mark.parametrize("command", NOT_YET)
def test_commands_built_later_exit_2_with_one_line(command: str) -> None:
    result = CliRunner().invoke(app, [command, "--json", "--tenant", "t"])
    assert result.exit_code == 2
    assert result.stderr == f"permem: `permem {command}` is not implemented yet\n"


def test_upgrade_then_inspect_json(settings: Settings) -> None:
    runner = CliRunner(env=_env(settings))
    upgraded = runner.invoke(app, ["db", "upgrade"])
    assert upgraded.exit_code == 0, upgraded.stderr
    assert "schema at revision 0001" in upgraded.stdout
    demo = runner.invoke(app, ["demo", "--json"])
    assert demo.exit_code == 0, demo.stderr
    result = runner.invoke(app, ["inspect", "--tenant", "demo", "--subject", "alice", "--json"])
    assert result.exit_code == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["claim"] for line in lines] == [
        "is allergic to peanuts", "answer in metric units", "is vegetarian", "is pescatarian",
    ]  # fmt: skip
    by_claim = {line["claim"]: line for line in lines}
    assert by_claim["is vegetarian"]["status"] == "superseded"
    assert by_claim["is pescatarian"]["supersedes"] == by_claim["is vegetarian"]["id"]
    assert by_claim["is pescatarian"]["source"] == {"message_id": "demo-4", "span": [0, 28]}
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
def test_embedded_default_when_no_database_url(tmp_path: Path) -> None:
    """The console script with PERMEM_DATABASE_URL unset starts its own PostgreSQL."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PERMEM_")}
    env["PERMEM_HOME"] = str(tmp_path / "home")
    permem = [sys.executable, "-m", "permem"]
    subprocess.run([*permem, "demo"], env=env, check=True, capture_output=True)
    out = subprocess.run(
        [*permem, "inspect", "--tenant", "demo", "--json"], env=env, check=True,
        capture_output=True, text=True,
    )  # fmt: skip
    assert len(out.stdout.splitlines()) == 4
    assert (tmp_path / "home" / "pgdata" / "PG_VERSION").exists()
