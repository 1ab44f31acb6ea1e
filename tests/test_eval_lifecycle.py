"""The lifecycle evaluation end to end on real stores: every variant on the same queries, the
contract's JSON, and the `history` variant really ungated (it supplies what permem refuses)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interfaces.cli import app
from permem.eval.lifecycle import datasets_of, run_lifecycle
from permem.eval.variants import VARIANTS
from permem.settings import Settings
from tests.conftest import cli_env
from tests.test_scenarios import _lines, _message, _query

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
FIELDS = {
    "queries", "hit_rate", "lift", "lift_ci", "wrong_rate", "wrong_by_cause", "severe",
    "p50_ms", "p99_ms", "strata",
}  # fmt: skip


@pytest.fixture
def base(settings: Settings) -> Settings:
    return settings.model_copy(update={"embedder": "hashing"})


def _case(root: Path) -> Path:
    """Ana is vegetarian, asked in an incognito chat about a rash; Ben (same tenant) peeks."""
    folder = root / "cases" / "ungated"
    folder.mkdir(parents=True)
    (folder / "README.md").write_text("Family: incognito, scope.\n")
    _lines(folder / "logs.jsonl", [
        _message("u-m1", "cafe", "ana", "I'm vegetarian, remember that for recipes"),
        _message("u-m2", "cafe", "ana", "I have a rash from my eczema again", incognito=True),
        _message("u-m3", "cafe", "ben", "I'm vegan"),
    ])  # fmt: skip
    _lines(folder / "queries.jsonl", [
        _query("q1", "cafe", "ana", "ana", "what should I cook tonight?"),
        _query("q2", "cafe", "ben", "ana", "what does ana eat?"),
    ])  # fmt: skip
    _lines(folder / "gold_recall.jsonl", [
        {"query_id": "q1", "relevant": ["u-m1"], "forbidden": ["u-m2", "u-m3"]},
        {"query_id": "q2", "relevant": [], "forbidden": ["u-m1", "u-m2"], "expect_denied": True},
    ])  # fmt: skip
    _lines(folder / "steps.jsonl", [{"op": "nightly"}, {"op": "recall"}])
    return folder.parent


def test_every_variant_answers_the_same_queries(base: Settings, tmp_path: Path) -> None:
    report = run_lifecycle([_case(tmp_path)], base).as_json()
    variants = report["variants"]
    assert list(variants) == list(VARIANTS)
    for name, figures in variants.items():
        assert set(figures) == FIELDS, name
        assert figures["queries"] == 2
    assert report["datasets"]["cases"]["leaks"] == 0
    none, permem, history = variants["none"], variants["permem"], variants["history"]
    assert (none["hit_rate"], none["lift"], none["wrong_rate"]) == (0.0, 0.0, 0.0)
    assert permem["hit_rate"] == 1.0 and permem["wrong_rate"] == 0.0 and permem["severe"] == 0
    assert permem["lift"] == 0.5  # q1 gains a hit, q2 is rightly denied: (1 + 0) / 2
    # The raw history supplies the incognito message to Ana and Ana's messages to Ben.
    assert history["wrong_rate"] == 1.0
    assert history["wrong_by_cause"]["control_violating"] == 2  # u-m2 in both answers
    assert history["wrong_by_cause"]["mis_scoped"] == 1  # u-m1 to Ben, who may not read Ana
    # Severe: the eczema message (health: special) in both answers, and Ana's diet to Ben.
    assert history["severe"] == 3
    assert history["strata"]["sensitivity"]["special"]["severe"] == 2
    assert history["strata"]["control"]["incognito"]["wrong"] == 2
    assert history["strata"]["origin"]["message:user"]["supplied"] == 4
    # The profile variant cites claims, mapped to their source messages.
    assert variants["profile"]["hit_rate"] == 1.0 and variants["profile"]["wrong_rate"] == 0.0


def test_k_is_the_same_for_every_variant(base: Settings, tmp_path: Path) -> None:
    report = run_lifecycle([_case(tmp_path)], base, k=1).as_json()
    supplied = {
        name: sum(row["supplied"] for row in v["strata"]["origin"].values())
        for name, v in report["variants"].items()
    }
    assert supplied["history"] == 2 and all(n <= 2 for n in supplied.values())


def test_datasets_are_scenario_folders_or_dev_sets(tmp_path: Path) -> None:
    root = _case(tmp_path)
    assert [d.name for d in datasets_of([root])] == ["cases"]
    dev = tmp_path / "eval" / "prefeval" / "explicit"
    dev.mkdir(parents=True)
    for name in ("logs.jsonl", "queries.jsonl", "gold_recall.jsonl"):
        (dev / name).write_text("")
    [found] = datasets_of([tmp_path / "eval" / "prefeval"])
    assert found.name == "prefeval/explicit"
    [(_, script)] = found.scenarios
    assert script == [
        {"op": "nightly", "logs": "logs.jsonl"},
        {"op": "recall", "queries": "queries.jsonl", "gold": "gold_recall.jsonl"},
    ]


def test_cli_prints_one_object_and_the_gate_reads_it(base: Settings, tmp_path: Path) -> None:
    runner = CliRunner(env=cli_env(base))
    ran = runner.invoke(app, ["eval", "lifecycle", str(_case(tmp_path)), "--json"])
    assert ran.exit_code == 0, ran.stderr
    [line] = ran.stdout.strip().splitlines()
    report: dict[str, Any] = json.loads(line)
    assert set(report["variants"]) == set(VARIANTS)
    saved = tmp_path / "report.json"
    saved.write_text(line)
    gate = runner.invoke(app, ["eval", "gate", "--report", str(saved)])
    assert gate.exit_code == 0, gate.stdout + gate.stderr
    assert "passed" in gate.stdout
    human = runner.invoke(app, ["eval", "lifecycle", str(tmp_path / "cases")])
    assert human.exit_code == 0 and "explicit_profile" in human.stdout


@pytest.mark.skipif(
    not (SHARED / "scenarios").is_dir(), reason=f"the dev scenarios are not at {SHARED}"
)
def test_history_is_ungated_on_a_dev_scenario(base: Settings) -> None:
    # Scenario 11: an incognito message, then a pause. permem never supplies the incognito
    # message nor anything while paused; the raw history supplies both.
    folder = SHARED / "scenarios" / "11-incognito-then-pause-resume"
    report = run_lifecycle([folder], base).as_json()["variants"]
    assert report["permem"]["wrong_rate"] == 0.0
    history = report["history"]
    assert history["wrong_rate"] > 0
    assert history["wrong_by_cause"]["control_violating"] >= 3
    assert history["strata"]["control"]["paused"]["wrong"] >= 1
    assert history["strata"]["control"]["incognito"]["wrong"] >= 1
