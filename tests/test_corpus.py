"""The generated scenario corpus: deterministic, every family, valid layouts, two disjoint halves,
and a small sample that runs through the scenario harness on the real stores."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from permem import corpus
from permem.scenario_report import Outcome
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


# The held-apart half is scored, never read while fixing. Issue 15 is open: on the sample the
# held-apart half still has wrong personalizations, and the second wave of templates (written
# apart from the rules: every module not in FIRST_WAVE or THIRD_WAVE, first written as
# amendments, boundaries, exceptions, households, intentions and schedules, since split by
# situation) is not yet at the targets on either half. The bounds below are the counts
# measured on this sample when the wave landed; they only stop it getting worse.
FIRST_WAVE = frozenset(
    {"access", "contexts", "identifiers", "modality", "privacy", "revisions", "timing", "untrusted"}
)
# The third wave, written apart from the rules after the second wave's fixes (three writers,
# 42 templates): its development half was read for the first fixes only; it is far from the
# targets on both halves (the sample: 18 wrong on each).
THIRD_WAVE = frozenset(
    {"convictions", "crossings", "interludes", "lifespans", "mandates", "outcomes", "prospects",
     "reprieves", "rethinks", "reversals", "reversals_measured", "surmises", "venues"}
)  # fmt: skip
HELD_WRONG_AT_MOST = {"first": 2, "second": 4, "third": 18}
DEV_WRONG_AT_MOST = {"first": 0, "second": 2, "third": 18}
EMPTY_MISMATCHES_AT_MOST = {"first": 0, "second": 1, "third": 3}
HITS_AT_LEAST = {"first": 0.9, "second": 0.7, "third": 0.45}


def _wave(slug: str) -> str:
    by_slug = {f"{t.family}-{t.name}": t for t in corpus.REGISTRY}
    template = by_slug[slug.rsplit("-", 1)[0]]
    module = template.build.__module__.rsplit(".", 1)[-1]
    return "first" if module in FIRST_WAVE else "third" if module in THIRD_WAVE else "second"


@pytest.mark.slow
def test_both_halves_through_the_harness(both: dict[str, list[Path]], settings: Settings) -> None:
    """One variant of every template from each half, on the real stores (the whole corpus is
    benchmarks/scenario_corpus.py): the first wave's development half meets the targets, and
    nothing leaks or gets worse than the bounds above."""
    configured = settings.model_copy(update={"embedder": "hashing"})
    found: dict[tuple[str, str], Outcome] = {}
    for half in ("dev", "held"):
        sample = _one_per_template(both[half])
        assert len(sample) == len({p.name.rsplit("-", 1)[0] for p in both[half]})
        report = run_scenarios(sample, configured)
        for scenario in report.scenarios:
            assert scenario.not_run is None and scenario.outcome.queries > 0, scenario.name
            found.setdefault((half, _wave(scenario.name)), Outcome()).add(scenario.outcome)
    assert {wave for _, wave in found} == {"first", "second", "third"}
    for (half, wave), total in found.items():
        assert (total.errors, total.leaks, total.denied_mismatches) == (0, 0, 0), (half, wave)
        assert total.empty_mismatches <= EMPTY_MISMATCHES_AT_MOST[wave], (half, wave, total)
        bound = DEV_WRONG_AT_MOST if half == "dev" else HELD_WRONG_AT_MOST
        assert total.wrong <= bound[wave], (half, wave, total)
        assert total.hits >= HITS_AT_LEAST[wave] * (total.hits + total.misses), (half, wave, total)
