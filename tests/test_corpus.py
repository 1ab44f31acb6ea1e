"""The generated scenario corpus: deterministic, every family, valid layouts, two disjoint halves,
and a small sample that runs through the scenario harness on the real stores."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from permem import corpus
from permem.scenarios import families_of, run_scenarios
from permem.settings import Settings

EXPECTED_FAMILIES = {
    "cross-tenant", "cross-account", "shared-device", "scope", "purpose", "temporal",
    "correction", "one-off-exception", "plan-vs-fact", "poisoning", "hallucinated-recap",
    "sensitive", "incognito", "pause", "forget", "belief-vs-fact", "pii-in-preference",
}  # fmt: skip


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    root = tmp_path_factory.mktemp("corpus")
    return {half: corpus.generate(root / half, half=half) for half in ("dev", "held")}


def test_same_seed_same_corpus_and_another_seed_differs(tmp_path: Path) -> None:
    small = {"temporal", "shared-device", "poisoning"}
    for name, seed in (("a", 7), ("b", 7), ("c", 8)):
        corpus.generate(tmp_path / name, seed=seed, per_template=2, families=small)
    assert _tree(tmp_path / "a") == _tree(tmp_path / "b")
    assert _tree(tmp_path / "a") != _tree(tmp_path / "c")


def test_every_family_in_both_halves_and_halves_disjoint(both: dict[str, list[Path]]) -> None:
    assert set(corpus.FAMILIES) == EXPECTED_FAMILIES
    names = {half: {p.name for p in paths} for half, paths in both.items()}
    assert names["dev"] and names["held"] and not names["dev"] & names["held"]
    assert len(names["dev"]) + len(names["held"]) >= 300
    for paths in both.values():
        assert {f for p in paths for f in families_of(p)} == EXPECTED_FAMILIES
    ids = {half: {m["message_id"] for p in paths for m in _lines(p / "logs.jsonl")}
           for half, paths in both.items()}  # fmt: skip
    assert not ids["dev"] & ids["held"]


def test_layouts_are_valid(both: dict[str, list[Path]]) -> None:
    required = {"message_id", "tenant", "account", "conversation_id", "turn", "role", "text", "ts"}
    for folder in (p for paths in both.values() for p in paths):
        assert (folder / "README.md").read_text().startswith("Family: ")
        steps = _lines(folder / "steps.jsonl")
        logs = [m for step in steps if step["op"] == "nightly"
                for m in _lines(folder / step.get("logs", "logs.jsonl"))]  # fmt: skip
        assert logs and all(required <= m.keys() for m in logs), folder.name
        message_ids = [m["message_id"] for m in logs]
        assert len(message_ids) == len(set(message_ids)), folder.name
        recalls = [step for step in steps if step["op"] == "recall"]
        assert recalls, folder.name
        for step in recalls:
            queries = _lines(folder / step["queries"])
            gold = {g["query_id"]: g for g in _lines(folder / step["gold"])}
            assert queries and {q["query_id"] for q in queries} == gold.keys(), folder.name
            for g in gold.values():
                cited = set(g["relevant"]) | set(g["forbidden"])
                assert cited <= set(message_ids), (folder.name, cited - set(message_ids))
                assert not set(g["relevant"]) & set(g["forbidden"]), folder.name
                if g.get("expect_empty") or g.get("expect_denied"):
                    assert not g["relevant"], folder.name
        for step in steps:
            if step["op"] in ("forget", "pause", "resume"):
                assert step["tenant"] in {m["tenant"] for m in logs}, folder.name
            if step["op"] == "forget" and "source" in step:
                assert step["source"] in message_ids, folder.name


def _one_per_template(paths: list[Path]) -> list[Path]:
    """The first variant of every template: each family and template, both halves alike."""
    seen: dict[str, Path] = {}
    for path in sorted(paths):
        seen.setdefault(path.name.rsplit("-", 1)[0], path)
    return list(seen.values())


# The held-apart half is scored, never read while fixing. On this sample it still has
# wrong personalizations (issue 15 is open: the rules fit the development half better than
# classes they have not seen); the bound below only stops it getting worse.
HELD_WRONG_AT_MOST = 3


@pytest.mark.slow
def test_both_halves_through_the_harness(both: dict[str, list[Path]], settings: Settings) -> None:
    """One variant of every template from each half, on the real stores (the whole corpus is
    benchmarks/scenario_corpus.py): the development half meets the targets, the held-apart
    half leaks nothing and does not get worse."""
    configured = settings.model_copy(update={"embedder": "hashing"})
    outcomes = {}
    for half in ("dev", "held"):
        sample = _one_per_template(both[half])
        assert len(sample) == len({p.name.rsplit("-", 1)[0] for p in both[half]})
        report = run_scenarios(sample, configured)
        for scenario in report.scenarios:
            assert scenario.not_run is None and scenario.outcome.queries > 0, scenario.name
        outcomes[half] = report.total
    dev, held = outcomes["dev"], outcomes["held"]
    for total in (dev, held):
        assert (total.errors, total.leaks) == (0, 0)
        assert (total.denied_mismatches, total.empty_mismatches) == (0, 0)
    assert dev.wrong == 0
    assert dev.hits >= 0.9 * (dev.hits + dev.misses)
    assert held.wrong <= HELD_WRONG_AT_MOST, held
    assert held.hits >= 0.9 * (held.hits + held.misses), held
