"""Every control end to end through the CLI, on the real stores, as exact state transitions."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interfaces.cli import app
from permem import nightly
from permem.settings import Settings
from tests.conftest import nightly_cli, user_line

LOG = [
    {"message_id": "m1", "text": "I'm vegetarian and I can't stand mushrooms", "day": 1},
    {"message_id": "m2", "text": "I'm allergic to peanuts", "day": 1},
    {"message_id": "m3", "text": "I only book morning flights", "day": 2},
]


@pytest.fixture
def cli(settings: Settings, tmp_path: Path) -> CliRunner:
    lines = (
        user_line(m["message_id"], m["text"], turn=i, ts=f"2026-03-0{m['day']}T10:00:00Z")
        for i, m in enumerate(LOG)
    )
    cli: CliRunner = nightly_cli(settings, tmp_path / "log.jsonl", lines)
    return cli


def run(cli: CliRunner, *args: str) -> Any:
    result = cli.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.stderr
    lines = [json.loads(x) for x in result.stdout.splitlines()]
    return lines[0] if len(lines) == 1 else lines


def records(cli: CliRunner) -> dict[str, dict[str, Any]]:
    lines = run(cli, "inspect", "--tenant", "acme", "--subject", "ana")
    return {r["claim"]: r for r in (lines if isinstance(lines, list) else [lines])}


def recalled(
    cli: CliRunner, tmp_path: Path, text: str, ts: str = "2026-03-10T12:00:00Z"
) -> set[str]:
    queries = tmp_path / "q.jsonl"
    queries.write_text(json.dumps({
        "query_id": "q", "tenant": "acme", "actor": "ana", "subject": "ana",
        "purpose": "assistant", "scope": "global", "ts": ts, "text": text,
        "k": 10,
    }) + "\n")  # fmt: skip
    answer = run(cli, "recall", "--queries", str(queries))
    return {r["claim"] for r in answer["records"]}


def test_correct_appends_and_supersedes(cli: CliRunner, tmp_path: Path) -> None:
    before = records(cli)
    old = before["I'm vegetarian"]
    new = run(cli, "correct", "--tenant", "acme", "--claim", old["id"], "--text",
              "I'm pescatarian, call me on +44 7700 900123")  # fmt: skip
    assert new["supersedes"] == old["id"] and new["confirmation"] == "confirmed"
    assert "7700" not in new["claim"] and new["source"] == {"message_id": None, "span": None}
    after = records(cli)
    assert after["I'm vegetarian"]["status"] == "superseded"
    assert after["I'm vegetarian"]["claim"] == old["claim"]  # history is kept as it was
    # A correction holds from the moment it is made: asked now, the new claim answers.
    found = recalled(cli, tmp_path, "what should I cook", ts=datetime.now(UTC).isoformat())
    assert "I'm vegetarian" not in found and new["claim"] in found
    # Correcting the superseded record again is an illegal transition: exit 2, one line.
    again = cli.invoke(app, ["correct", "--tenant", "acme", "--claim", old["id"], "--text", "x"])
    assert again.exit_code == 2
    assert again.stderr.startswith("permem: illegal status transition superseded -> superseded")


def test_confirm_and_reject_pending_claims(cli: CliRunner, tmp_path: Path) -> None:
    peanut = records(cli)["I'm allergic to peanuts"]
    assert peanut["confirmation"] == "pending"
    assert "I'm allergic to peanuts" not in recalled(cli, tmp_path, "snacks with nuts")
    confirmed = run(cli, "confirm", "--tenant", "acme", "--claim", peanut["id"])
    assert confirmed["confirmation"] == "confirmed"
    assert "I'm allergic to peanuts" in recalled(cli, tmp_path, "snacks with nuts")
    flights = records(cli)["I only book morning flights"]
    rejected = run(cli, "reject", "--tenant", "acme", "--claim", flights["id"])
    assert (rejected["confirmation"], rejected["status"]) == ("rejected", "retracted")
    assert "I only book morning flights" not in recalled(cli, tmp_path, "book a flight")
    twice = cli.invoke(app, ["confirm", "--tenant", "acme", "--claim", flights["id"]])
    assert twice.exit_code == 2 and "rejected -> confirmed" in twice.stderr


def test_feedback_wrong_stops_use_until_confirmed(cli: CliRunner, tmp_path: Path) -> None:
    flights = records(cli)["I only book morning flights"]
    marked = run(cli, "feedback", "--tenant", "acme", "--claim", flights["id"], "--wrong")
    assert marked["confirmation"] == "pending"
    assert "I only book morning flights" not in recalled(cli, tmp_path, "book a flight")
    run(cli, "feedback", "--tenant", "acme", "--claim", flights["id"], "--right")
    assert "I only book morning flights" in recalled(cli, tmp_path, "book a flight")


def test_pause_and_resume(cli: CliRunner, tmp_path: Path, settings: Settings) -> None:
    assert run(cli, "pause", "--tenant", "acme", "--subject", "ana")["paused"] is True
    assert recalled(cli, tmp_path, "book a flight") == set()
    # The nightly flow writes nothing new for a paused subject.
    log = tmp_path / "more.jsonl"
    log.write_text(json.dumps({
        "message_id": "m9", "tenant": "acme", "account": "ana", "conversation_id": "c",
        "turn": 9, "role": "user", "text": "I love jazz", "ts": "2026-03-05T10:00:00Z",
    }) + "\n")  # fmt: skip
    nightly.run(settings.model_copy(update={"embedder": "hashing"}), log)
    assert "I love jazz" not in records(cli)
    assert run(cli, "resume", "--tenant", "acme", "--subject", "ana")["paused"] is False
    assert "I only book morning flights" in recalled(cli, tmp_path, "book a flight")
    assert "I love jazz" not in records(cli)  # what was said while paused stays unread


def test_grant_and_revoke_through_the_cli(cli: CliRunner, tmp_path: Path, owner: Any) -> None:
    made = run(cli, "grant", "--tenant", "acme", "--actor", "ben", "--subject", "ana",
               "--purpose", "assistant", "--expires", "2099-01-01T00:00:00Z",
               "--by", "ana")  # fmt: skip
    ended = run(cli, "revoke", "--tenant", "acme", "--grant", made["grant"], "--by", "ana")
    assert ended["grant"] == made["grant"] and ended["revoked_at"]
    bad = cli.invoke(app, ["grant", "--tenant", "acme", "--actor", "ana", "--subject", "ana",
                           "--purpose", "assistant", "--expires", "2099-01-01T00:00:00Z",
                           "--by", "ana"])  # fmt: skip
    assert bad.exit_code == 2 and "needs no grant" in bad.stderr


def test_controls_on_unknown_or_malformed_claims_exit_2(cli: CliRunner) -> None:
    missing = cli.invoke(app, ["confirm", "--tenant", "acme", "--claim",
                               "00000000-0000-0000-0000-000000000000"])  # fmt: skip
    assert missing.exit_code == 2 and "no memory" in missing.stderr
    malformed = cli.invoke(app, ["confirm", "--tenant", "acme", "--claim", "nope"])
    assert malformed.exit_code == 2 and "must be a UUID" in malformed.stderr
    other_tenant = records(cli)["I only book morning flights"]["id"]
    hidden = cli.invoke(app, ["confirm", "--tenant", "globex", "--claim", other_tenant])
    assert hidden.exit_code == 2 and "no memory" in hidden.stderr


def test_export_through_the_cli_writes_a_recorded_file(cli: CliRunner, settings: Settings) -> None:
    made = run(cli, "export", "--tenant", "acme", "--subject", "ana", "--format", "json")
    path = Path(made["path"])
    assert path.is_file() and path.is_relative_to(settings.home / "exports")
    document = json.loads(path.read_text())
    assert document["subject"] == "ana" and document["record_count"] == made["records"] == 4
    assert {r["provenance"] for r in document["records"]} == {"provided"}
    as_csv = run(cli, "export", "--tenant", "acme", "--subject", "ana", "--format", "csv")
    assert Path(as_csv["path"]).read_bytes().count(b"\r\n") == 1 + as_csv["records"]
    bad = cli.invoke(app, ["export", "--tenant", "acme", "--subject", "ana", "--format", "xml"])
    assert bad.exit_code == 2 and "--format must be one of json, csv" in bad.stderr


def test_explain_through_the_cli_answers_all_eight(cli: CliRunner) -> None:
    flights = records(cli)["I only book morning flights"]
    explained = run(cli, "explain", "--tenant", "acme", "--claim", flights["id"])
    assert explained["claim"]["id"] == flights["id"]
    assert len(explained["answers"]) == 8
    assert all(answer["summary"] for answer in explained["answers"].values())
    human = cli.invoke(app, ["explain", "--tenant", "acme", "--claim", flights["id"]])
    assert human.exit_code == 0 and human.stdout.count("\n") == 9


def test_a_pause_covers_every_subject_under_it(db: Any) -> None:
    from permem.controls import set_paused, subject_paused
    from permem.stores.database import register_tenant, tenant_transaction

    with tenant_transaction(db.app, "acme") as conn:
        register_tenant(conn, "acme")
    now = datetime(2026, 11, 1, tzinfo=UTC)
    set_paused(db, "acme", "alice:tom", paused=True, actor="alice:tom", now=now)
    with tenant_transaction(db.app, "acme") as conn:
        assert subject_paused(conn, "alice:tom")
        assert subject_paused(conn, "alice:tom:wife")  # a third party tom told us about
        assert not subject_paused(conn, "alice:ann")  # another person on the account
        assert not subject_paused(conn, "alice")  # nor the account holder
        assert not subject_paused(conn, "alice:tomas")  # a prefix of the id is not a parent
    set_paused(db, "acme", "alice", paused=True, actor="alice", now=now)
    with tenant_transaction(db.app, "acme") as conn:
        assert subject_paused(conn, "alice:ann")
        assert subject_paused(conn, "alice:ann:son")
