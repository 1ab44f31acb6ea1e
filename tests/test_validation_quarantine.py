"""Validation that sets rows aside instead of stalling, and loads that no single message can
fail (issue 10): real PostgreSQL, LanceDB, spaCy, Presidio and Great Expectations.

The missed identifier is a real one: `+99 123 456 789` is no valid phone number to Presidio's
recognizer (so the redactor keeps it), yet it has the shape `quality.IDENTIFIER_PATTERNS` refuses.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pandas as pd
import psycopg
import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from interfaces.cli import app
from permem import nightly
from permem.batch_quarantine import LOAD_FILE, VALIDATION_FILE, load_isolating, refused_by_value
from permem.errors import CheckFailed
from permem.logs import LogBatch
from permem.pipeline import Prepared, stable_id
from permem.quality import (
    IDENTIFIER_PATTERNS,
    SYSTEMIC_MIN_ROWS,
    SYSTEMIC_SHARE,
    validate_batch,
)
from permem.runtime import runtime
from permem.settings import Settings
from tests.test_nightly import line, owner_engine, rows, snapshot, write_log
from tests.test_quality import claim_batch

__all__ = ["owner_engine"]  # a fixture shared with test_nightly

MISSED = "I prefer +99 123 456 789 as my contact number"
REGEX = "expect_column_values_to_not_match_regex_list(claim)"


@pytest.fixture
def one_batch(hashing: Settings) -> Settings:
    return hashing.model_copy(update={"batch_size": 20})


def assert_redactor_misses(settings: Settings, text: str) -> None:
    """The premise of these tests: the identifier gets past the real redactor to validation."""
    assert not runtime(settings).redactor.redact(text).entities, "pick a form it misses"
    assert any(re.search(pattern, text) for pattern in IDENTIFIER_PATTERNS)


# --- which rows a validation sets aside, and when it fails the batch -------------------------


def test_every_offending_row_is_named_not_only_the_first_twenty() -> None:
    frame = claim_batch(200)
    bad = list(range(0, 150, 5))  # 30 rows: 15 %, within the share a batch may lose
    for position in bad:
        frame.loc[position, "claim"] = f"write to user{position}@example.org"
    validation = validate_batch(frame)
    assert not validation.success and validation.loadable and validation.systemic == ()
    assert set(validation.set_aside) == {str(frame.loc[p, "id"]) for p in bad}
    assert set(validation.set_aside.values()) == {(REGEX,)}
    assert "@example.org" not in json.dumps(validation.result)
    assert len(validation.result["set_aside"]) == 30


def test_a_row_failing_two_expectations_names_both() -> None:
    frame = claim_batch(50)
    frame.loc[7, "origin"] = "gossip"
    frame.loc[7, "confidence"] = 1.5
    frame.loc[8, "policy_version"] = None
    validation = validate_batch(frame)
    assert validation.loadable
    assert dict(validation.set_aside) == {
        str(frame.loc[7, "id"]): (
            "expect_column_values_to_be_in_set(origin)",
            "expect_column_values_to_be_between(confidence)",
        ),
        str(frame.loc[8, "id"]): ("expect_column_values_to_not_be_null(policy_version)",),
    }


@pytest.mark.parametrize(
    ("rows_in_batch", "offending", "systemic"),
    [
        (20, SYSTEMIC_MIN_ROWS, False),  # half the batch, but only 10 rows
        (55, SYSTEMIC_MIN_ROWS + 1, False),  # 11 rows, exactly 20 %
        (54, SYSTEMIC_MIN_ROWS + 1, True),  # 11 rows, more than 20 %
        (12, 12, True),
    ],
)
def test_the_declared_share_separates_bad_rows_from_a_bad_batch(
    rows_in_batch: int, offending: int, systemic: bool
) -> None:
    assert (SYSTEMIC_SHARE, SYSTEMIC_MIN_ROWS) == (0.2, 10)
    frame = claim_batch(rows_in_batch)
    for position in range(offending):
        frame.loc[position, "kind"] = "rumour"
    validation = validate_batch(frame)
    assert validation.loadable is not systemic
    if systemic:
        (line,) = validation.systemic
        assert line.startswith(f"{offending} of {rows_in_batch} rows failed row-level")
        assert validation.set_aside == {}
    else:
        assert len(validation.set_aside) == offending


def test_the_batch_shape_is_systemic() -> None:
    frame = claim_batch(30).drop(columns=["topic"])
    validation = validate_batch(frame)
    assert not validation.loadable
    assert any(s.startswith("expect_table_columns_to_match_set") for s in validation.systemic)


def test_a_row_without_an_id_cannot_be_set_aside_so_it_is_systemic() -> None:
    frame = claim_batch(30)
    frame.loc[3, "id"] = None
    validation = validate_batch(frame)
    assert not validation.loadable
    assert any("to_not_be_null(id)" in s for s in validation.systemic), validation.systemic


def test_an_expectation_that_raises_is_systemic() -> None:
    frame = claim_batch(30)
    frame["confidence"] = pd.Series(["high"] * 30, dtype=object)  # cannot be compared to 0..1
    validation = validate_batch(frame)
    assert not validation.loadable
    assert any("could not run" in s for s in validation.systemic), validation.systemic


# --- the nightly run: set aside, load the rest -------------------------------------------------


def test_a_missed_identifier_is_set_aside_and_every_other_row_loads(
    one_batch: Settings, tmp_path: Path, owner_engine: sa.Engine
) -> None:
    assert_redactor_misses(one_batch, MISSED)
    log = write_log(
        tmp_path / "log.jsonl",
        [
            line("m1", "I'm vegetarian and I can't stand mushrooms"),
            line("m2", f"I always book aisle seats, and {MISSED[0].lower()}{MISSED[1:]}"),
            line("m3", "I prefer evenings", account="bo"),
            line("m4", "I'm allergic to peanuts", tenant="globex", account="cy"),
        ],
    )
    report = nightly.run(one_batch, log).as_json()
    assert report["counts"]["set_aside"] == 1 and report["batches"] == 1
    memories = rows(owner_engine, "SELECT tenant, account, claim FROM memories")
    stored = {(r["tenant"], r["account"], r["claim"]) for r in memories}
    assert {
        ("acme", "ana", "I'm vegetarian"),
        ("acme", "ana", "I always book aisle seats"),
        ("acme", "bo", "I prefer evenings"),
        ("globex", "cy", "I'm allergic to peanuts"),
    } <= stored
    assert not any("99 123" in claim for _, _, claim in stored)
    sources = rows(owner_engine, "SELECT tenant, message_id FROM sources ORDER BY message_id")
    assert [s["message_id"] for s in sources] == ["m1", "m2", "m3", "m4"]

    (decision,) = rows(
        owner_engine,
        "SELECT * FROM gate_decisions "
        "WHERE source_message_id = 'm2' AND reasons[1] LIKE 'validation:%'",
    )
    assert decision["decision"] == "reject" and decision["memory_id"] is None
    assert decision["reasons"][0] == f"validation:{REGEX}"
    claim_id = stable_id(
        "claim", "acme", "m2", str(decision["span_start"]), str(decision["span_end"])
    )
    (held,) = rows(owner_engine, f"SELECT * FROM quarantine WHERE file = '{VALIDATION_FILE}'")
    assert held["tenant"] == "acme" and REGEX in held["reason"]
    assert str(claim_id) in held["reason"] and "message m2" in held["reason"]
    assert any(q["file"] == VALIDATION_FILE for q in report["quarantined"])

    env = {"PERMEM_DATABASE_URL": one_batch.database_url or "", "PERMEM_HOME": str(one_batch.home)}
    listed = CliRunner(env=env).invoke(app, ["quarantine", "--tenant", "acme", "--json"])
    assert listed.exit_code == 0, listed.stderr
    (entry,) = [json.loads(x) for x in listed.stdout.splitlines()]
    assert entry["file"] == VALIDATION_FILE and REGEX in entry["reason"]
    every_table = json.dumps(snapshot(owner_engine, one_batch), default=str)
    assert "99 123 456" not in every_table and "99 123 456" not in listed.stdout

    before = snapshot(owner_engine, one_batch)
    again = nightly.run(one_batch, log).as_json()
    assert again["counts"]["already_processed"] == 4 and again["counts"].get("set_aside", 0) == 0
    assert snapshot(owner_engine, one_batch) == before


# --- a systemic failure fails the run, and the next run moves past it ---------------------------


def systemic_log(path: Path) -> Path:
    """Batch 1 (14 lines): 12 claims with a missed identifier and two good ones, held back
    with them; batch 2: three good lines."""
    # One number for all: others may pass a checksum recognizer (an AU TFN, a CA SIN).
    bad = [line(f"m{n}", MISSED, account=f"u{n}") for n in range(1, 13)]
    good = [
        line("m13", "I always book aisle seats", account="bo"),
        line("m14", "I prefer evenings", account="bo"),
        line("m15", "I'm allergic to peanuts", tenant="globex", account="cy"),
        line("m16", "I'm vegetarian", tenant="globex", account="cy"),
        line("m17", "I can't stand mushrooms", tenant="globex", account="dee"),
    ]
    return write_log(path, bad + good)


def test_a_systemic_failure_fails_the_run_and_the_next_run_moves_past_it(
    hashing: Settings, tmp_path: Path, owner_engine: sa.Engine
) -> None:
    settings = hashing.model_copy(update={"batch_size": 14})
    assert_redactor_misses(settings, MISSED)
    log = systemic_log(tmp_path / "log.jsonl")
    with pytest.raises(CheckFailed, match="failed validation and was not loaded") as caught:
        nightly.run(settings, log)
    assert isinstance(caught.value, nightly.BatchRejected)
    (reason,) = caught.value.validation.systemic
    assert "more than 20%" in reason
    assert rows(owner_engine, "SELECT * FROM memories") == []
    recorded = rows(owner_engine, "SELECT message_id FROM sources")
    assert len(recorded) == 14  # batch 1 recorded as processed, batch 2 not reached
    decisions = rows(owner_engine, "SELECT decision, reasons FROM gate_decisions")
    assert decisions and all(d["decision"] == "reject" for d in decisions)
    assert all(d["reasons"][0] == "validation:batch-rejected" for d in decisions)
    held = rows(owner_engine, f"SELECT * FROM quarantine WHERE file = '{VALIDATION_FILE}'")
    assert len(held) == 14 and all("held back" in q["reason"] for q in held)
    assert not any("99 123" in q["reason"] for q in held)

    report = nightly.run(settings, log).as_json()  # moves past batch 1, loads batch 2
    assert report["counts"]["already_processed"] == 14
    stored = {r["claim"] for r in rows(owner_engine, "SELECT claim FROM memories")}
    assert stored == {"I'm allergic to peanuts", "I'm vegetarian", "I can't stand mushrooms"}
    before = snapshot(owner_engine, settings)
    nightly.run(settings, log)
    assert snapshot(owner_engine, settings) == before


@pytest.mark.slow
def test_a_systemic_failure_exits_1_through_the_cli_and_a_rerun_exits_0(
    hashing: Settings, tmp_path: Path
) -> None:
    log = systemic_log(tmp_path / "log.jsonl")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PERMEM_", "PREFECT_"))}
    env |= {
        "PERMEM_DATABASE_URL": hashing.database_url or "",
        "PERMEM_HOME": str(hashing.home),
        "PERMEM_EMBEDDER": "hashing",
        "PREFECT_HOME": str(tmp_path / "prefect"),
    }
    command = [
        sys.executable,
        "-m",
        "interfaces.cli",
        "nightly",
        "--logs",
        str(log),
        "--batch-size",
        "14",
    ]
    failed = subprocess.run([*command, "--json"], env=env, capture_output=True, text=True)
    assert failed.returncode == 1, failed.stderr
    assert "failed validation and was not loaded" in failed.stderr
    rerun = subprocess.run([*command, "--json"], env=env, capture_output=True, text=True)
    assert rerun.returncode == 0, rerun.stderr
    report = json.loads(rerun.stdout)
    assert report["counts"]["already_processed"] == 14 and report["counts"]["stored"] >= 3


# --- a load PostgreSQL refuses: bisect to the message --------------------------------------------


def corrupting(message_id: str, **change: Any) -> Callable[[Settings, LogBatch], Prepared]:
    """A prepare stage that hands one message on with a value PostgreSQL refuses, as a line
    that slipped past the log reader's checks would."""

    def prepare(settings: Settings, batch: LogBatch) -> Prepared:
        prepared = nightly.prepare_stage(settings, batch)
        prepared.messages = [
            replace(m, **change) if m.message_id == message_id else m for m in prepared.messages
        ]
        return prepared

    return prepare


REFUSED = {
    "NUL byte": ({"conversation_id": "c-\x00"}, "DataError"),
    "turn out of range": ({"turn": 2**40}, "NumericValueOutOfRange (22003)"),
    "lone surrogate": ({"session": "s-\ud800"}, "UnicodeEncodeError"),
}


@pytest.mark.parametrize(("change", "error"), REFUSED.values(), ids=REFUSED.keys())
def test_a_message_postgresql_refuses_is_quarantined_and_its_batch_is_stored(
    one_batch: Settings, tmp_path: Path, owner_engine: sa.Engine,
    change: dict[str, Any], error: str,
) -> None:  # fmt: skip
    log = write_log(
        tmp_path / "log.jsonl",
        [
            line("m1", "I'm vegetarian and I can't stand mushrooms"),
            line("m2", "I always book aisle seats"),
            line("m3", "I prefer evenings", account="bo"),
            line("m4", "I'm allergic to peanuts", tenant="globex", account="cy"),
            line("m5", "I prefer window seats", tenant="globex", account="cy"),
        ],
    )
    stages = {**nightly.DIRECT_STAGES, "prepare": corrupting("m2", **change)}
    report = nightly.run(one_batch, log, stages=stages).as_json()
    assert report["counts"]["load_refused"] == 1
    sources = rows(owner_engine, "SELECT message_id FROM sources ORDER BY message_id")
    assert [s["message_id"] for s in sources] == ["m1", "m3", "m4", "m5"]
    claims = {r["claim"] for r in rows(owner_engine, "SELECT claim FROM memories")}
    assert {"I'm vegetarian", "I prefer evenings", "I'm allergic to peanuts"} <= claims
    assert "I always book aisle seats" not in claims
    (refused,) = rows(owner_engine, f"SELECT * FROM quarantine WHERE file = '{LOAD_FILE}'")
    assert refused["tenant"] == "acme"
    assert refused["reason"] == f"load: PostgreSQL refused message m2: {error}"

    before = snapshot(owner_engine, one_batch)
    again = nightly.run(one_batch, log, stages=stages).as_json()  # refused again, stored once
    assert again["counts"]["load_refused"] == 1 and again["counts"]["already_processed"] == 4
    assert snapshot(owner_engine, one_batch) == before


@pytest.fixture
def commits(hashing: Settings) -> Iterator[list[str]]:
    """Each commit on the application engine, as it happens."""
    seen: list[str] = []
    engine = runtime(hashing).db.app

    def record(conn: sa.Connection) -> None:
        seen.append("commit")

    sa.event.listen(engine, "commit", record)
    yield seen
    sa.event.remove(engine, "commit", record)


def through_gate(settings: Settings, lines: list[str], path: Path) -> tuple[Prepared, list[Any]]:
    from permem.logs import batches, read_log

    (batch,) = batches(read_log(write_log(path, lines)), 50)
    prepared = nightly.prepare_stage(settings, batch)
    proposals = nightly.classify_stage(settings, nightly.extract_stage(settings, prepared))
    proposals = nightly.redact_stage(settings, proposals)
    return prepared, nightly.gate_stage(settings, prepared, proposals)


GOOD = [line(f"m{n}", f"I prefer {w} seats", account=f"a{n}") for n, w in enumerate(
    ["aisle", "window", "front", "back", "quiet", "exit-row", "middle", "upper"], start=1
)]  # fmt: skip


def test_a_clean_batch_loads_in_one_transaction(
    hashing: Settings, tmp_path: Path, commits: list[str]
) -> None:
    prepared, proposals = through_gate(hashing, GOOD, tmp_path / "log.jsonl")
    commits.clear()
    loaded = load_isolating(runtime(hashing).db, prepared, proposals, uuid.uuid4())
    assert commits == ["commit"]
    assert loaded.refused == [] and loaded.result.sources == 8 and loaded.result.memories == 8


def test_a_refused_message_is_found_by_halving_and_only_it_is_left_out(
    hashing: Settings, tmp_path: Path, commits: list[str], owner_engine: sa.Engine
) -> None:
    prepared, proposals = through_gate(hashing, GOOD, tmp_path / "log.jsonl")
    bad = replace(prepared.messages[5], conversation_id="c\x00")
    prepared.messages[5] = bad
    for proposal in proposals:
        if proposal.candidate.message.message_id == bad.message_id:
            proposal.candidate = replace(proposal.candidate, message=bad)
    commits.clear()
    loaded = load_isolating(runtime(hashing).db, prepared, proposals, uuid.uuid4())
    (refused,) = loaded.refused
    assert refused.reason == "load: PostgreSQL refused message m6: DataError"
    assert loaded.result.sources == 7 and loaded.result.memories == 7
    assert loaded.result.quarantined == 1
    # The whole batch fails; its halves: m1-m4 commits, m5-m8 fails; its halves: m5-m6 fails
    # (m5 commits, m6 fails: its quarantine row commits), m7-m8 commits. 4 commits, not 8.
    assert len(commits) == 4
    stored = rows(owner_engine, "SELECT source_message_id FROM memories ORDER BY 1")
    assert [r["source_message_id"] for r in stored] == ["m1", "m2", "m3", "m4", "m5", "m7", "m8"]


def test_only_a_refused_value_is_isolated_not_a_failing_server(tmp_path: Path) -> None:
    unreachable = sa.create_engine("postgresql+psycopg://nobody@127.0.0.1:9/none")
    with pytest.raises(sa.exc.OperationalError) as lost:
        unreachable.connect()
    unreachable.dispose()
    assert not refused_by_value(lost.value)
    assert not refused_by_value(psycopg.OperationalError("server closed the connection"))
    assert not refused_by_value(psycopg.errors.SerializationFailure())
    assert not refused_by_value(RuntimeError("bulk insert needs an open connection"))
    assert refused_by_value(psycopg.errors.NumericValueOutOfRange())
    assert refused_by_value(psycopg.errors.UniqueViolation())
    assert refused_by_value(psycopg.errors.ProgramLimitExceeded())  # an index row too large
    assert refused_by_value(psycopg.DataError("PostgreSQL text fields cannot contain NUL"))
    assert refused_by_value(UnicodeEncodeError("utf-8", "\ud800", 0, 1, "surrogates not allowed"))
