"""The lifecycle evaluation: every memory variant on the same queries, scored against gold.

A dataset is a folder of scenarios (`shared/data/scenarios`, the generated corpus), one
scenario folder, or a dev evaluation set (`shared/data/eval/prefeval/<variant>`,
`shared/data/eval/locomo`: log files and query sets with gold, FORMATS.md). Each scenario runs
through the scenario harness (`permem.scenarios`: one fresh database and LanceDB directory,
its own steps); a dev evaluation set runs as a scenario whose script is one `nightly` step
per `logs*.jsonl` file and one `recall` step per `queries*.jsonl` with its
`gold_recall*.jsonl`. The harness's `nightly` also keeps the raw messages (the `history`
variant's store); at each `recall` step the harness scores permem as it always does (hits,
wrong, leaks) and then every variant (`permem.eval.variants`) answers each query with the same
k, timed, and is scored (`permem.eval.metrics`). Each variant answers a step's first query
once untimed (with another text, so no query vector is cached for it) before its timed answers:
that first call opens tables, a cost a serving process pays once, not per request.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from permem.errors import BadInput
from permem.eval.evidence import StoreView
from permem.eval.metrics import Answer, QueryFacts, summaries
from permem.eval.variants import VARIANTS, HistoryIndex, Variant, build_variants
from permem.logs import read_log
from permem.recall import MAX_K, RecallQuery, authorize, is_factual_question, parse_query
from permem.records import Message
from permem.scenario_report import Outcome, ScenarioReport
from permem.scenarios import (
    STEPS,
    STEPS_FILE,
    StoreFactory,
    json_lines,
    run_scenario,
)
from permem.settings import Settings
from permem.stores.database import tenant_transaction

__all__ = ["Dataset", "DatasetResult", "LifecycleReport", "datasets_of", "run_lifecycle"]

Script = list[dict[str, Any]]


@dataclass(frozen=True)
class Dataset:
    """A named set of scenarios: (folder, script) each; a None script: its `steps.jsonl`."""

    name: str
    scenarios: tuple[tuple[Path, Script | None], ...]


def _eval_script(folder: Path) -> Script | None:
    """The script of a dev evaluation set (None: the folder is not one)."""
    logs = sorted(p.name for p in folder.glob("logs*.jsonl"))
    recalls = []
    for queries in sorted(folder.glob("queries*.jsonl")):
        gold = folder / f"gold_recall{queries.stem.removeprefix('queries')}.jsonl"
        if gold.is_file():
            recalls.append({"op": "recall", "queries": queries.name, "gold": gold.name})
    if not logs or not recalls:
        return None
    return [{"op": "nightly", "logs": name} for name in logs] + recalls


def _holds_datasets(path: Path) -> bool:
    """Whether `path` is a dataset or a folder with one somewhere beneath it."""
    if not path.is_dir():
        return False
    if (path / STEPS_FILE).is_file() or _eval_script(path) is not None:
        return True
    return any(_holds_datasets(p) for p in path.iterdir())


def datasets_of(paths: Sequence[Path]) -> list[Dataset]:
    """Each path as a dataset: a scenario folder, a dev evaluation set (named by its folder,
    a PrefEval variant as `prefeval/<variant>`), a folder of scenarios (one dataset), or any
    folder with datasets beneath it (`shared/data`: each of them, folders in name order)."""
    found: list[Dataset] = []
    for path in paths:
        if (path / STEPS_FILE).is_file():
            found.append(Dataset(path.name, ((path, None),)))
            continue
        if not path.is_dir():
            raise BadInput(f"not a scenario folder, an evaluation set or a folder of them: {path}")
        script = _eval_script(path)
        if script is not None:
            name = path.name if path.parent.name == "eval" else f"{path.parent.name}/{path.name}"
            found.append(Dataset(name, ((path, script),)))
            continue
        scenarios = sorted(p for p in path.iterdir() if (p / STEPS_FILE).is_file())
        if scenarios:
            found.append(Dataset(path.name, tuple((p, None) for p in scenarios)))
            continue
        inner = sorted(p for p in path.iterdir() if _holds_datasets(p))
        if not inner:
            raise BadInput(f"no scenario or evaluation set (logs, queries and gold) in {path}")
        found.extend(datasets_of(inner))
    return found


@dataclass
class DatasetResult:
    """One dataset's answers per variant and the harness's own outcome for permem."""

    name: str
    answers: dict[str, list[Answer]] = field(default_factory=lambda: {v: [] for v in VARIANTS})
    outcome: Outcome = field(default_factory=Outcome)
    scenarios: int = 0
    not_run: list[str] = field(default_factory=list)
    invalid_queries: int = 0

    def as_json(self) -> dict[str, Any]:
        return {
            "variants": summaries(self.answers),
            "scenarios": self.scenarios,
            "leaks": self.outcome.leaks,
            "invalid_queries": self.invalid_queries,
            "not_run": self.not_run,
        }


@dataclass
class LifecycleReport:
    datasets: list[DatasetResult]

    def pooled(self) -> dict[str, list[Answer]]:
        return {v: [a for d in self.datasets for a in d.answers[v]] for v in VARIANTS}

    def as_json(self) -> dict[str, Any]:
        """`{"variants": {NAME: {...}}}` over every dataset together, plus the leaks and each
        dataset's own figures (`datasets`)."""
        return {
            "variants": summaries(self.pooled()),
            "leaks": sum(d.outcome.leaks for d in self.datasets),
            "datasets": {d.name: d.as_json() for d in self.datasets},
        }


class _ScenarioRun:
    """One scenario under the harness with the lifecycle's `nightly` and `recall` steps."""

    def __init__(self, key: str, result: DatasetResult, k: int | None) -> None:
        self._key = key
        self._result = result
        self._k = k
        self._messages: dict[tuple[str, str], Message] = {}
        self._history: HistoryIndex | None = None
        self._variants: dict[str, Variant] | None = None
        self._recalls = 0

    @property
    def steps(self) -> dict[str, Any]:
        return {**STEPS, "nightly": self._nightly, "recall": self._recall}

    def _setup(self, settings: Settings) -> tuple[HistoryIndex, dict[str, Variant]]:
        from permem.runtime import runtime

        if self._history is None or self._variants is None:
            rt = runtime(settings)
            self._history = HistoryIndex(rt.embedder)
            self._variants = build_variants(rt.db, rt.index, rt.embedder, self._history)
        return self._history, self._variants

    def _nightly(
        self, settings: Settings, folder: Path, step: Mapping[str, Any], report: ScenarioReport
    ) -> None:
        STEPS["nightly"](settings, folder, step, report)
        log = folder / str(step.get("logs", "logs.jsonl"))
        read = [m for m in read_log(log) if isinstance(m, Message)]
        for m in read:
            self._messages.setdefault((m.tenant, m.message_id), m)
        history, _ = self._setup(settings)
        history.add(read)

    def _recall(
        self, settings: Settings, folder: Path, step: Mapping[str, Any], report: ScenarioReport
    ) -> None:
        from permem.runtime import runtime

        STEPS["recall"](settings, folder, step, report)  # the harness's score, leaks included
        self._recalls += 1
        _, variants = self._setup(settings)
        db = runtime(settings).db
        view = StoreView.read(db, dict(self._messages))
        queries = json_lines(folder / str(step.get("queries", "queries.jsonl")))
        gold_file = folder / str(step.get("gold", "gold_recall.jsonl"))
        gold = {g["query_id"]: g for g in json_lines(gold_file)}
        warmed: set[str] = set()
        for obj in queries:
            try:
                query = parse_query(obj)
            except (ValueError, BadInput):
                self._result.invalid_queries += 1
                continue
            if self._k is not None:
                query = dataclasses.replace(query, k=self._k)
            expected = gold.get(query.query_id, {})
            with tenant_transaction(db.app, query.tenant) as conn:
                denied = isinstance(authorize(conn, query), str)
            facts = QueryFacts(
                key=f"{self._key}/{self._recalls}/{query.query_id}", tenant=query.tenant,
                actor=query.actor, subject=query.subject, purpose=query.purpose,
                scope=query.scope, ts=query.ts, session=query.session,
                factual=is_factual_question(query.text, query.subject), denied=denied,
            )  # fmt: skip
            relevant = frozenset(expected.get("relevant", []))
            forbidden = frozenset(expected.get("forbidden", []))
            for name, variant in variants.items():
                if name not in warmed:  # the first call opens tables: not a request's cost
                    variant.retrieve(_warm_up(query), view)
                    warmed.add(name)
                self._result.answers[name].append(
                    _answer(variant, query, view, facts, relevant, forbidden)
                )


def _warm_up(query: RecallQuery) -> RecallQuery:
    """The query with another text: warming up must not cache the timed query's vector."""
    return dataclasses.replace(query, query_id=f"{query.query_id}-warm-up", text="warm-up")


def _answer(
    variant: Variant,
    query: RecallQuery,
    view: StoreView,
    facts: QueryFacts,
    relevant: frozenset[str],
    forbidden: frozenset[str],
) -> Answer:
    started = time.perf_counter()
    found = variant.retrieve(query, view)
    millis = (time.perf_counter() - started) * 1000
    items = variant.supplied(found[: query.k], view)
    return Answer(facts, items, relevant, forbidden, millis)


def run_lifecycle(
    paths: Sequence[Path],
    base: Settings,
    *,
    k: int | None = None,
    progress: Callable[[str, ScenarioReport], None] | None = None,
) -> LifecycleReport:
    """Every dataset under `paths` through every variant (module docstring); `k` replaces each
    query's own k (the same for every variant)."""
    if k is not None and not 1 <= k <= MAX_K:
        raise BadInput(f"--k must be between 1 and {MAX_K}, got {k}")
    datasets = datasets_of(paths)
    results: list[DatasetResult] = []
    factory = StoreFactory(base)
    try:
        for dataset in datasets:
            result = DatasetResult(dataset.name)
            for folder, script in dataset.scenarios:
                run = _ScenarioRun(f"{dataset.name}/{folder.name}", result, k)
                with factory.fresh() as settings:
                    report = run_scenario(folder, settings, steps=run.steps, script=script)
                result.outcome.add(report.outcome)
                result.scenarios += 1
                if report.not_run:
                    result.not_run.append(f"{report.name}: {report.not_run}")
                if progress is not None:
                    progress(dataset.name, report)
            results.append(result)
    finally:
        factory.close()
    return LifecycleReport(results)
