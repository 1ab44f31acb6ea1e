"""The scenario harness: hand-written scenarios exercise its scoring; the developer sample (when
the shared data is present) must run with no wrong personalization, leak or mismatch."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interfaces.cli import app
from permem.records import Confirmation, Status, UserMemory
from permem.scenarios import miss_cause, run_scenarios, wrong_cause
from permem.settings import Settings
from tests.conftest import cli_env, memory

DEV_SCENARIOS = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "scenarios"


def _lines(path: Path, rows: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def _message(mid: str, tenant: str, account: str, text: str, **extra: Any) -> dict[str, Any]:
    return {
        "message_id": mid, "tenant": tenant, "account": account, "conversation_id": f"c-{mid}",
        "turn": 1, "role": "user", "text": text, "ts": "2026-04-01T10:00:00Z", **extra,
    }  # fmt: skip


def _query(qid: str, tenant: str, actor: str, subject: str, text: str) -> dict[str, Any]:
    return {
        "query_id": qid, "tenant": tenant, "actor": actor, "subject": subject,
        "purpose": "assistant", "scope": "global", "ts": "2026-04-10T10:00:00Z", "text": text,
    }  # fmt: skip


def _scenario(root: Path, name: str, family: str, gold: list[dict[str, Any]]) -> Path:
    """A scenario: Ana is vegetarian and texts at +44 7700 900123; Ben is vegan."""
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "README.md").write_text(f"Family: {family}.\nA hand-written case.\n")
    _lines(folder / "logs.jsonl", [
        _message("s-m1", "cafe", "ana", "I'm vegetarian, text me at +44 7700 900123"),
        _message("s-m2", "cafe", "ben", "I'm vegan"),
    ])  # fmt: skip
    _lines(folder / "more.jsonl", [_message("s-m3", "cafe", "ana", "I hate cilantro")])
    _lines(folder / "queries.jsonl", [
        _query("q1", "cafe", "ana", "ana", "what should I cook tonight?"),
        _query("q2", "cafe", "ben", "ana", "what does ana eat?"),
    ])  # fmt: skip
    _lines(folder / "gold_recall.jsonl", gold)
    _lines(folder / "steps.jsonl", [
        {"op": "nightly"},
        {"op": "nightly", "logs": "more.jsonl"},
        {"op": "recall", "queries": "queries.jsonl", "gold": "gold_recall.jsonl"},
    ])  # fmt: skip
    return folder


CLEAN_GOLD = [
    {"query_id": "q1", "relevant": ["s-m1", "s-m3"], "forbidden": ["s-m2"],
     "claim_must_not_contain": ["7700 900123"]},
    {"query_id": "q2", "relevant": [], "forbidden": ["s-m1"], "expect_denied": True},
]  # fmt: skip


@pytest.fixture
def base(settings: Settings) -> Settings:
    return settings.model_copy(update={"embedder": "hashing"})


def test_a_clean_scenario_scores_hits_and_nothing_wrong(base: Settings, tmp_path: Path) -> None:
    _scenario(tmp_path / "cases", "clean", "scope, pii", CLEAN_GOLD)
    report = run_scenarios([tmp_path / "cases"], base)
    [scenario] = report.scenarios
    assert scenario.families == ["scope", "pii"] and scenario.not_run is None
    total = report.total
    assert (total.queries, total.hits, total.misses) == (2, 2, 0)
    assert (total.wrong, total.leaks, total.denied_mismatches, total.empty_mismatches) == (0,) * 4
    assert not report.failed and set(report.families) == {"scope", "pii"}


def test_wrong_personalizations_leaks_and_mismatches_are_counted(
    base: Settings, tmp_path: Path
) -> None:
    # Gold that the stored state contradicts on purpose: every kind of failure shows up.
    gold = [
        {"query_id": "q1", "relevant": ["s-m2"], "forbidden": ["s-m1"],
         "claim_must_not_contain": ["vegetarian"], "expect_empty": True},
        {"query_id": "q2", "relevant": [], "forbidden": []},
    ]  # fmt: skip
    _scenario(tmp_path, "contradicted", "poisoning", gold)
    report = run_scenarios([tmp_path / "contradicted"], base)
    total = report.total
    assert total.wrong == 1 and total.misses == 1 and total.hits == 0
    assert total.leaks == 1 and total.empty_mismatches == 1
    assert total.denied_mismatches == 1  # q2 was denied without expect_denied
    details = report.scenarios[0].details
    # Ben's claim is stored and usable, only not Ana's; Ana's claim came back without it,
    # said at the same moment.
    assert {"query_id": "q1", "miss": "s-m2", "cause": "active_not_returned"} in details
    [wrong] = [d for d in details if d.get("wrong_personalization") == "s-m1"]
    assert (wrong["beside"], wrong["said"]) == ("without_relevant", "said_between")
    assert report.causes() == {
        "miss active_not_returned": 1,
        "wrong said_between, without_relevant": 1,
    }
    assert report.causes("poisoning") == report.causes()
    assert report.causes("temporal") == {}
    # "I'm vegetarian" is stored as a dietary constraint of Ana's.
    assert wrong["kind"] == "constraint" and report.wrong_kinds() == {"constraint": 1}
    assert report.failed


T0 = datetime(2026, 4, 1, 10, 0, tzinfo=UTC)


def _record(message_id: str, days: int = 0, **fields: Any) -> UserMemory:
    at = T0 + timedelta(days=days)
    return memory(message_id=message_id, observed_at=at, valid_from=at, **fields)


def test_a_miss_is_traced_to_where_its_claim_stopped() -> None:
    assert miss_cause([]) == "not_stored"
    assert miss_cause([_record("m")]) == "active_not_returned"
    pending = _record("m", confirmation=Confirmation.PENDING)
    assert miss_cause([pending]) == "held_for_confirmation"
    # One usable clause of the message is enough for "not returned".
    assert miss_cause([pending, _record("m")]) == "active_not_returned"
    assert miss_cause([_record("m", status=Status.SUPERSEDED)]) == "superseded"
    both = [_record("m", status=Status.SUPERSEDED), _record("m", status=Status.SESSION_ONLY)]
    assert miss_cause(both) == "session_only+superseded"


def test_a_wrong_is_placed_in_time_and_beside_or_without_the_relevant_claim() -> None:
    new = _record("new", days=5)
    assert wrong_cause(_record("old"), ["old", "new"], [new]) == (
        "beside_relevant",
        "said_before",
    )
    assert wrong_cause(_record("later", days=9), ["later"], [new]) == (
        "without_relevant",
        "said_after",
    )
    assert wrong_cause(_record("x", days=5), ["x"], [new, _record("a", days=1)]) == (
        "without_relevant",
        "said_between",
    )
    assert wrong_cause(_record("x"), ["x"], []) == ("without_relevant", "unknown")


def test_unsupported_step_ends_the_scenario_visibly(base: Settings, tmp_path: Path) -> None:
    folder = _scenario(tmp_path, "later", "forget", CLEAN_GOLD)
    steps = [{"op": "nightly"}, {"op": "teleport"}, {"op": "recall"}]
    _lines(folder / "steps.jsonl", steps)
    [scenario] = run_scenarios([folder], base).scenarios
    assert scenario.not_run == "step 2 (teleport) and later: `teleport` is not supported yet"
    assert scenario.outcome.queries == 0


def test_cli_exit_codes(base: Settings, tmp_path: Path) -> None:
    runner = CliRunner(env=cli_env(base))
    _scenario(tmp_path / "good", "clean", "scope", CLEAN_GOLD)
    ok = runner.invoke(app, ["eval", "scenarios", str(tmp_path / "good"), "--json"])
    assert ok.exit_code == 0, ok.stderr
    assert json.loads(ok.stdout)["total"]["hits"] == 2
    bad_gold = [{"query_id": "q1", "relevant": [], "forbidden": ["s-m1"]}, CLEAN_GOLD[1]]
    _scenario(tmp_path / "bad", "wrong", "scope", bad_gold)
    failed = runner.invoke(app, ["eval", "scenarios", str(tmp_path / "bad")])
    assert failed.exit_code == 1
    assert failed.stderr.strip().endswith("1 wrong personalization(s) and 0 leaked substring(s)")
    missing = runner.invoke(app, ["eval", "scenarios", str(tmp_path / "nowhere")])
    assert missing.exit_code == 2 and "not a scenario folder" in missing.stderr


@pytest.mark.skipif(
    not DEV_SCENARIOS.is_dir(), reason=f"developer scenarios not present at {DEV_SCENARIOS}"
)
def test_developer_scenarios_have_no_wrong_personalization(settings: Settings) -> None:
    report = run_scenarios([DEV_SCENARIOS], settings)  # the default MiniLM embedder
    total = report.total
    problems = [d for s in report.scenarios for d in s.details]
    assert total.queries > 0 and total.hits > 0
    assert (total.wrong, total.leaks) == (0, 0), problems
    assert (total.denied_mismatches, total.empty_mismatches, total.errors) == (0, 0, 0), problems
