"""Ingest hardening on the real stores (issue 10): no line can fail a batch, forget reaches
late arrivals, changed text under a processed message_id is quarantined, and two people on one
account keep their own claims.

Every run goes through the real nightly pipeline (`permem.nightly.run` with its direct stages)
on real PostgreSQL, LanceDB, spaCy and Presidio; the controls are called through the CLI or
their core functions, as the CLI does.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from interfaces.cli import app
from permem import controls, nightly
from permem.forget import Target, TargetKind, block, erase
from permem.hashing import content_hash
from permem.recall import Recaller, parse_query
from permem.runtime import runtime
from permem.settings import Settings
from tests.conftest import cli_env
from tests.test_forget import text_residue

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)


def record(mid: str, text: str, *, tenant: str = "acme", account: str = "ana",
           ts: str = "2026-03-01T09:00:00Z", **extra: Any) -> dict[str, Any]:  # fmt: skip
    return {
        "message_id": mid, "tenant": tenant, "account": account,
        "conversation_id": f"c-{account}", "turn": 1, "role": "user", "text": text, "ts": ts,
        **extra,
    }  # fmt: skip


def encode(obj: dict[str, Any]) -> bytes:
    return json.dumps(obj).encode()


def write(path: Path, lines: list[bytes]) -> Path:
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


@pytest.fixture
def cli(hashing: Settings) -> CliRunner:
    return CliRunner(env=cli_env(hashing))


@pytest.fixture
def owner_engine(hashing: Settings) -> Any:
    engine = sa.create_engine(hashing.database_url or "", poolclass=sa.NullPool)
    yield engine
    engine.dispose()


def rows(engine: sa.Engine, sql: str) -> list[dict[str, Any]]:
    with engine.connect() as conn:
        return [dict(r) for r in conn.execute(sa.text(sql)).mappings()]


def recalled(settings: Settings, tenant: str, subject: str, text: str) -> list[str]:
    rt = runtime(settings)
    query = parse_query({
        "query_id": "q", "tenant": tenant, "actor": subject, "subject": subject,
        "purpose": "assistant", "scope": "global", "ts": NOW.isoformat(), "text": text, "k": 10,
    })  # fmt: skip
    return [r.record.claim for r in Recaller(rt.db, rt.index, rt.embedder).recall(query).records]


def quarantine_listing(cli: CliRunner, *tenant: str) -> list[dict[str, Any]]:
    args = ["quarantine", "--json", *(["--tenant", tenant[0]] if tenant else [])]
    result = cli.invoke(app, args)
    assert result.exit_code == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


# ------------------------------------------------------------ one line of each bad class

GOOD = [
    record("a1", "I'm vegetarian and I can't stand mushrooms"),
    record("g1", "I prefer evenings", tenant="globex", account="bo"),
    record("i1", "I always book aisle seats", tenant="initech", account="cy"),
    record("cafe\u0301", "I prefer green tea", tenant="globex", account="bo"),
    record("i2", "I prefer window seats", tenant="initech", account="cy", subject="cy:kid"),
]
# (line, reason it is quarantined with, tenant of the quarantine row)
BAD: list[tuple[bytes, str, str | None]] = [
    (encode(record("x1", "nul \u0000 inside")), "field text holds U+0000", "acme"),
    (encode(record("x2", "half \ud83d pair")), "field text holds a lone UTF-16 surrogate", "acme"),
    (encode(record("x3", "hi", tenant="ac\u0000me")), "field tenant holds U+0000", None),
    (encode(record("x4", "hi", turn=2**31)), "field turn must be an integer", "acme"),
    (encode(record("x5", "hi", turn=10**30)), "field turn must be an integer", "acme"),
    (encode(record("x6", "hi", ts="0001-01-01T00:00:00+14:00")), "field ts", "acme"),
    (encode(record("x7", "hi", ts="9999-12-31T23:59:59-12:00")), "field ts", "acme"),
    (encode(record("x8", "hi", ts="2100-01-01T00:00:00Z")), "field ts is outside", "acme"),
    (encode(record("m" * 5000, "hi")), "field message_id is longer than 200", "acme"),
    (encode(record("x9", "hi", tenant=" acme")), "field tenant must not have leading", None),
    (encode(record("x10", "hi", account="ana\u200b")), "character U+200B", "acme"),
    (encode(record("x11", "hi", conversation_id="c\u202e")), "character U+202E", "acme"),
    (encode(record("x12", "hi", session="s\x1b")), "character U+001B", "acme"),
    (encode(record("x13", "hi", subject="bo:kid")), "field subject must be the account", "acme"),
    (b'{"message_id": "x14", "tenant": "acme", "turn": 1' + b"9" * 5000 + b"}",
     "invalid JSON: a number has too many digits", None),
    (b'{"message_id": "x15", "tenant": "\xff\xfe"}', "line is not valid UTF-8", None),
]  # fmt: skip


def mixed_log(path: Path) -> Path:
    """Good and bad lines interleaved, so bad lines fall into every batch."""
    lines: list[bytes] = []
    good = [encode(g) for g in GOOD]
    for i, (bad, _, _) in enumerate(BAD):
        lines.append(bad)
        if i % 3 == 0 and good:
            lines.append(good.pop(0))
    return write(path, lines + good)


def test_every_good_line_loads_and_every_bad_line_is_listed_with_its_reason(
    hashing: Settings, tmp_path: Path, owner_engine: sa.Engine, cli: CliRunner
) -> None:
    log = mixed_log(tmp_path / "log.jsonl")
    first = nightly.run(hashing, log)
    assert first.counts["quarantined"] == len(BAD)
    stored = {(r["tenant"], r["message_id"])
              for r in rows(owner_engine, "SELECT tenant, message_id FROM sources")}  # fmt: skip
    assert stored == {
        ("acme", "a1"), ("globex", "g1"), ("initech", "i1"), ("globex", "caf\u00e9"),
        ("initech", "i2"),
    }  # fmt: skip
    claims = {(r["tenant"], r["subject"], r["claim"]) for r in rows(
        owner_engine, "SELECT tenant, subject, claim FROM memories")}  # fmt: skip
    assert ("initech", "cy:kid", "I prefer window seats") in claims
    assert ("globex", "bo", "I prefer green tea") in claims
    assert {t for t, _, _ in claims} == {"acme", "globex", "initech"}

    lines = log.read_bytes().split(b"\n")
    expected = {lines.index(bad) + 1: (reason, tenant) for bad, reason, tenant in BAD}
    listed = quarantine_listing(cli)
    assert {q["line_no"] for q in listed} == set(expected)
    for q in listed:
        reason, tenant = expected[q["line_no"]]
        assert reason in q["reason"] and q["tenant"] == tenant, q
    assert {q["line_no"] for q in quarantine_listing(cli, "acme")} == {
        n for n, (_, tenant) in expected.items() if tenant == "acme"
    }

    # A re-run raises nothing and adds nothing.
    counted = "SELECT (SELECT count(*) FROM sources) s, (SELECT count(*) FROM memories) m, " \
              "(SELECT count(*) FROM quarantine) q"  # fmt: skip
    before = rows(owner_engine, counted)
    second = nightly.run(hashing, log)
    assert second.counts["new"] == 0 and second.counts["stored"] == 0
    assert rows(owner_engine, counted) == before

    # The tenant of the bad lines still works through the CLI: inspect, recall, export.
    inspected = cli.invoke(app, ["inspect", "--tenant", "acme", "--subject", "ana", "--json"])
    assert inspected.exit_code == 0, inspected.stderr
    assert "I'm vegetarian" in {json.loads(x)["claim"] for x in inspected.stdout.splitlines()}
    queries = tmp_path / "queries.jsonl"
    queries.write_text(json.dumps({
        "query_id": "q1", "tenant": "acme", "actor": "ana", "subject": "ana",
        "purpose": "assistant", "scope": "global", "ts": NOW.isoformat(),
        "text": "what should I cook for dinner?", "k": 5,
    }) + "\n")  # fmt: skip
    answered = cli.invoke(app, ["recall", "--queries", str(queries), "--json"])
    assert answered.exit_code == 0, answered.stderr
    (answer,) = [json.loads(x) for x in answered.stdout.splitlines()]
    assert answer.get("error") is None and answer["records"], answer
    exported = cli.invoke(
        app, ["export", "--tenant", "acme", "--subject", "ana", "--format", "json", "--json"]
    )
    assert exported.exit_code == 0, exported.stderr
    made = json.loads(exported.stdout)
    assert made["records"] >= 1 and Path(made["path"]).is_file()


# ------------------------------------------------------------------ late arrivals after forget

REQUESTED = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def test_forget_reaches_messages_written_before_it_that_arrive_later(
    hashing: Settings, tmp_path: Path, owner_engine: sa.Engine, owner: sa.Engine, cli: CliRunner
) -> None:
    nightly.run(hashing, write(tmp_path / "early.jsonl", [
        encode(record("a0", "I prefer trains")),
        encode(record("b0", "I prefer buses", account="ben")),
    ]))  # fmt: skip
    rt = runtime(hashing)
    request = block(rt.db, "acme", Target(TargetKind.SUBJECT, "ana"), actor="ana", now=REQUESTED)
    erase(rt.db, rt.index, "acme", now=REQUESTED)

    late = write(tmp_path / "late.jsonl", [
        encode(record("a1", "I can't stand zorblecanary mushrooms", ts="2026-03-01T10:00:00Z")),
        encode(record("a2", "I love quexcanary cartoons", ts="2026-03-02T11:59:59Z",
                      subject="ana:kid")),
        encode(record("a3", "I prefer aisle seats", ts="2026-03-03T09:00:00Z")),
        encode(record("b1", "I love jazz", account="ben", ts="2026-03-01T10:00:00Z")),
    ])  # fmt: skip
    summary = nightly.run(hashing, late)
    assert summary.counts["erased_on_arrival"] == 2
    ids = {r["message_id"] for r in rows(owner_engine, "SELECT message_id FROM sources")}
    assert ids == {"a3", "b0", "b1"}  # a0 was erased; a1, a2 never stored
    assert text_residue(owner, ("zorblecanary", "quexcanary")) == []
    assert recalled(hashing, "acme", "ana", "what seats do I like?") == ["I prefer aisle seats"]
    assert recalled(hashing, "acme", "ana:kid", "what do I love?") == []
    assert "I love jazz" in recalled(hashing, "acme", "ben", "what music do I love?")

    listed = [q for q in quarantine_listing(cli, "acme") if "erased on arrival" in q["reason"]]
    assert sorted(q["reason"] for q in listed) == [
        f"message_id {mid} erased on arrival: forget request {request.request_id}"
        for mid in ("a1", "a2")
    ]
    assert {(Path(q["file"]).name, q["line_no"]) for q in listed} == {
        ("late.jsonl", 1),
        ("late.jsonl", 2),
    }
    # The record proves the erasure with a salted hash: not a plain hash of the text.
    digests = {
        r["content_hash"]
        for r in rows(
            owner_engine, "SELECT content_hash FROM quarantine WHERE reason LIKE '%erased on%'"
        )
    }
    text = "I can't stand zorblecanary mushrooms"
    assert len(digests) == 2
    assert content_hash(b"", text) not in digests
    assert hashlib.sha256(text.encode()).hexdigest() not in digests

    again = nightly.run(hashing, late)
    assert again.counts["erased_on_arrival"] == 2 and again.counts["new"] == 0
    assert len(quarantine_listing(cli, "acme")) == len(listed)


# ------------------------------------------------------- changed text under a processed id


def test_changed_text_under_a_processed_message_id_is_quarantined(
    hashing: Settings, tmp_path: Path, owner_engine: sa.Engine, owner: sa.Engine, cli: CliRunner
) -> None:
    nightly.run(hashing, write(tmp_path / "first.jsonl", [
        encode(record("m1", "I prefer tea")),
        encode(record("m2", "I'm vegetarian")),
    ]))  # fmt: skip
    second = write(tmp_path / "second.jsonl", [
        encode(record("m1", "I prefer plonkcanary coffee")),
        encode(record("m2", "i'm   VEGETARIAN")),  # the same content, trivially respelled
        encode(record("m3", "I prefer aisle seats")),
        encode(record("m3", "I prefer middle seats")),  # same id twice in one batch
    ])  # fmt: skip
    summary = nightly.run(hashing, second)
    assert summary.counts["changed_content"] == 1
    assert summary.counts["already_processed"] == 1 and summary.counts["new"] == 1
    listed = quarantine_listing(cli, "acme")
    assert {(Path(q["file"]).name, q["line_no"], q["reason"]) for q in listed} == {
        ("second.jsonl", 1, "message_id m1 was processed before with other content"),
        ("second.jsonl", 4, "duplicate message_id m3 with other content"),
    }
    assert text_residue(owner, ("plonkcanary", "middle seats")) == []
    claims = {r["claim"] for r in rows(owner_engine, "SELECT claim FROM memories")}
    assert claims == {"I prefer tea", "I'm vegetarian", "I prefer aisle seats"}

    again = nightly.run(hashing, second)
    assert again.counts["changed_content"] == 1 and again.counts["new"] == 0
    assert len(quarantine_listing(cli, "acme")) == 2


# ----------------------------------------------------------- two people on one account


def test_two_people_on_one_account_keep_their_own_claims(
    hashing: Settings, tmp_path: Path, owner_engine: sa.Engine
) -> None:
    nightly.run(hashing, write(tmp_path / "family.jsonl", [
        encode(record("f1", "I'm vegetarian", account="fam", subject="fam:tom",
                      ts="2026-03-01T09:00:00Z")),
        encode(record("f2", "I'm pescatarian", account="fam", subject="fam:ann",
                      ts="2026-03-02T09:00:00Z")),
        encode(record("f3", "my wife Carla loves opera", account="fam", subject="fam:tom",
                      ts="2026-03-02T10:00:00Z")),
    ]))  # fmt: skip
    found = rows(owner_engine, "SELECT subject, claim, topic, status, supersedes FROM memories")
    diet = {r["subject"]: r for r in found if r["topic"] == "diet"}
    assert set(diet) == {"fam:tom", "fam:ann"}
    assert all(r["status"] == "active" and r["supersedes"] is None for r in diet.values())
    assert {r["subject"] for r in found if "opera" in r["claim"]} == {"fam:tom:wife"}
    assert recalled(hashing, "acme", "fam:tom", "what do I eat?") == ["I'm vegetarian"]
    assert recalled(hashing, "acme", "fam:ann", "what do I eat?") == ["I'm pescatarian"]

    # One person's own change still supersedes their own claim, and only theirs.
    nightly.run(hashing, write(tmp_path / "later.jsonl", [
        encode(record("f4", "actually I'm vegan now", account="fam", subject="fam:tom",
                      ts="2026-03-04T09:00:00Z")),
    ]))  # fmt: skip
    status = {r["claim"]: r["status"] for r in rows(
        owner_engine, "SELECT claim, status FROM memories")}  # fmt: skip
    assert status["I'm vegetarian"] == "superseded"
    assert status["I'm pescatarian"] == "active"
    assert recalled(hashing, "acme", "fam:ann", "what do I eat?") == ["I'm pescatarian"]


def test_forgetting_one_person_of_a_shared_account_reaches_their_messages_only(
    hashing: Settings, tmp_path: Path, owner_engine: sa.Engine, owner: sa.Engine
) -> None:
    nightly.run(hashing, write(tmp_path / "family.jsonl", [
        encode(record("t1", "I can't stand zorbleolive olives", account="fam", subject="fam:tom")),
        encode(record("t2", "my wife loves quexopera", account="fam", subject="fam:tom")),
        encode(record("n1", "I prefer window seats", account="fam", subject="fam:ann")),
        encode(record("h1", "I prefer green tea", account="fam")),
    ]))  # fmt: skip
    spoke = {r["message_id"]: r["subject"] for r in rows(
        owner_engine, "SELECT message_id, subject FROM sources")}  # fmt: skip
    assert spoke == {"t1": "fam:tom", "t2": "fam:tom", "n1": "fam:ann", "h1": None}
    rt = runtime(hashing)
    block(rt.db, "acme", Target(TargetKind.SUBJECT, "fam:tom"), actor="fam:tom", now=REQUESTED)
    erase(rt.db, rt.index, "acme", now=REQUESTED)
    # Tom's messages and every claim from them (his wife's included) are gone; the others stay.
    left = {r["message_id"] for r in rows(owner_engine, "SELECT message_id FROM sources")}
    assert left == {"n1", "h1"}
    subjects = {r["subject"] for r in rows(owner_engine, "SELECT subject FROM memories")}
    assert subjects == {"fam:ann", "fam"}
    assert text_residue(owner, ("zorbleolive", "quexopera")) == []
    assert recalled(hashing, "acme", "fam:ann", "where do I sit?") == ["I prefer window seats"]


def test_a_pause_covers_the_person_and_the_account_holder_covers_everyone(
    hashing: Settings, tmp_path: Path, owner_engine: sa.Engine
) -> None:
    rt = runtime(hashing)
    controls.set_paused(rt.db, "acme", "fam:ann", paused=True, actor="fam:ann", now=NOW)
    summary = nightly.run(hashing, write(tmp_path / "one.jsonl", [
        encode(record("p1", "I prefer tea", account="fam", subject="fam:ann")),
        encode(record("p2", "I prefer coffee", account="fam", subject="fam:tom")),
    ]))  # fmt: skip
    assert summary.counts["paused_subject"] == 1
    assert {r["subject"] for r in rows(owner_engine, "SELECT subject FROM memories")} == {"fam:tom"}
    controls.set_paused(rt.db, "acme", "fam", paused=True, actor="fam", now=NOW)
    summary = nightly.run(hashing, write(tmp_path / "two.jsonl", [
        encode(record("p3", "I prefer jazz", account="fam", subject="fam:tom")),
        encode(record("p4", "I prefer rock", account="fam")),
    ]))  # fmt: skip
    assert summary.counts["paused_subject"] == 2 and summary.counts["new"] == 0
    sources = {r["message_id"] for r in rows(owner_engine, "SELECT message_id FROM sources")}
    assert sources == {"p1", "p2", "p3", "p4"}  # recorded, so a resume does not mine the pause
    assert len(rows(owner_engine, "SELECT id FROM memories")) == 1
