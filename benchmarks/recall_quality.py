"""Part 2 of the recall benchmark: each dev dataset through the nightly run, then its queries
answered and scored against the gold (`benchmarks/recall.py`)."""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from harness import (
    log_files,
    read_jsonl,
)
from recall_stores import FreshStores, TimedEmbedder, percentile, timed_index


def datasets(root: Path) -> list[tuple[str, Path]]:
    """(name, folder) of every PrefEval variant and every LoCoMo folder under `root`."""
    found = [(f"prefeval/{p.name}", p) for p in sorted((root / "prefeval").glob("*")) if p.is_dir()]
    found += [(p.name, p) for p in sorted(root.glob("locomo*")) if p.is_dir()]
    return found


def query_sets(folder: Path) -> Iterator[tuple[str, Path, Path]]:
    """(label, queries file, gold file): `queries.jsonl` with `gold_recall.jsonl`,
    `queries_X.jsonl` with `gold_recall_X.jsonl`."""
    for queries in sorted(folder.glob("queries*.jsonl")):
        suffix = queries.stem.removeprefix("queries")
        gold = folder / f"gold_recall{suffix}.jsonl"
        if gold.is_file():
            yield (suffix.lstrip("_") or "queries"), queries, gold


@dataclass
class Score:
    queries: int = 0
    with_relevant: int = 0
    hit1: int = 0
    hit5: int = 0
    turn_coverage5: float = 0.0
    ceiling: int = 0
    with_forbidden: int = 0
    wrong_records: int = 0
    wrong_queries: int = 0
    answered: int = 0  # queries that returned at least one record
    errors: int = 0
    denied: int = 0
    millis: list[float] = field(default_factory=list)
    embed_millis: list[float] = field(default_factory=list)
    search_millis: list[float] = field(default_factory=list)
    embedded_on_the_spot: int = 0
    filtered: Counter[str] = field(default_factory=Counter)
    # Queries that `is_factual_question` takes for impersonal ones (no facts, events or plans).
    factual: int = 0
    factual_hit5: int = 0


@dataclass(frozen=True)
class Answered:
    """One answered query as the floor sweep needs it: its gold and the (source, score) of
    each returned record, best first."""

    relevant: frozenset[str]
    forbidden: frozenset[str]
    returned: tuple[tuple[str | None, float], ...]


def score_queries(
    recaller: Any,
    embedder: TimedEmbedder,
    index: Any,
    queries: list[dict[str, Any]],
    gold: dict[str, dict[str, Any]],
    usable: dict[str, set[str]],
    kept: list[Answered] | None = None,
) -> Score:
    """Answer `queries` and score them against `gold` (see the module docstring); each answer
    is also added to `kept` when given."""
    from permem.errors import BadInput
    from permem.recall import is_factual_question, parse_query

    score = Score()
    for obj in queries:
        score.queries += 1
        expected = gold.get(obj.get("query_id", ""), {})
        relevant = set(expected.get("relevant", []))
        forbidden = set(expected.get("forbidden", []))
        try:
            query = parse_query(obj)
        except (ValueError, BadInput):
            score.errors += 1
            continue
        embedder.seconds = index.seconds = 0.0
        embedder.texts = 0
        started = time.perf_counter()
        answer = recaller.recall(query)
        score.millis.append((time.perf_counter() - started) * 1000)
        score.embed_millis.append(embedder.seconds * 1000)
        score.search_millis.append(index.seconds * 1000)
        score.embedded_on_the_spot += max(0, embedder.texts - 1)
        score.denied += answer.denied is not None
        score.filtered.update(answer.filtered_out)
        sources = [r.record.source.message_id for r in answer.records]
        if kept is not None:
            returned = tuple(zip(sources, (r.score for r in answer.records), strict=True))
            kept.append(Answered(frozenset(relevant), frozenset(forbidden), returned))
        score.answered += bool(sources)
        if relevant:
            score.with_relevant += 1
            score.hit1 += bool(set(sources[:1]) & relevant)
            score.hit5 += bool(set(sources[:5]) & relevant)
            score.turn_coverage5 += len(set(sources[:5]) & relevant) / len(relevant)
            score.ceiling += bool(usable.get(query.subject, set()) & relevant)
            if is_factual_question(query.text):
                score.factual += 1
                score.factual_hit5 += bool(set(sources[:5]) & relevant)
        if forbidden:
            score.with_forbidden += 1
        wrong = sum(s in forbidden for s in sources)
        score.wrong_records += wrong
        score.wrong_queries += wrong > 0
    return score


def usable_sources(stores: FreshStores) -> dict[str, set[str]]:
    """subject -> message ids cited by the subject's usable claims (read as the owner)."""
    from permem.states import USABLE_CONFIRMATIONS, USABLE_STATUSES
    from permem.stores.schema import memories

    m = memories.c
    found: defaultdict[str, set[str]] = defaultdict(set)
    owner = stores.owner()
    with owner.connect() as conn:
        rows = conn.execute(
            sa.select(m.subject, m.source_message_id).where(
                m.status.in_([s.value for s in USABLE_STATUSES]),
                m.confirmation.in_([c.value for c in USABLE_CONFIRMATIONS]),
                m.source_message_id.is_not(None),
            )
        )
        for subject, message_id in rows:
            found[subject].add(message_id)
    owner.dispose()
    return found


def quality_dataset(
    server: str,
    name: str,
    folder: Path,
    kept: dict[str, list[Answered]] | None = None,
) -> str:
    """Score one dataset's query sets; with `kept`, answer without a relevance floor and keep
    every answer under `<name>/<label>` (for `recall_floor`)."""
    from permem import nightly
    from permem.recall import Recaller
    from permem.runtime import runtime

    logs = log_files(folder)
    sets = list(query_sets(folder))
    if not logs or not sets:
        return f"    {name}: no log file or no queries with gold in {folder}; skipped\n"
    with FreshStores(server) as stores:
        rt = runtime(stores.settings)  # migrations; the models are shared by the process
        started = time.perf_counter()
        stored = 0
        for path in logs:
            stored += nightly.run(stores.settings, path).counts["stored"]
        seconds = time.perf_counter() - started
        usable = usable_sources(stores)
        embedder = TimedEmbedder(rt.embedder)
        index = timed_index(rt.index.uri, rt.index.dimension)
        recaller = Recaller(rt.db, index, embedder, abstain=kept is None)
        lines = [
            f"    {name}: nightly {seconds:.0f} s, {stored:,} claims stored, "
            f"{sum(map(len, usable.values())):,} usable\n"
        ]
        for label, queries_path, gold_path in sets:
            gold = {g["query_id"]: g for g in read_jsonl(gold_path)}
            answers = None if kept is None else kept.setdefault(f"{name}/{label}", [])
            queries = read_jsonl(queries_path)
            s = score_queries(recaller, embedder, index, queries, gold, usable, answers)
            lines.append(_score_line(label, s, coverage=name.startswith("locomo")))
    return "".join(lines)


def _share(part: float, whole: int) -> str:
    return f"{part / whole:.3f}" if whole else "-"


def _score_line(label: str, s: Score, *, coverage: bool) -> str:
    parts = [f"      {label}: {s.queries} queries"]
    if s.with_relevant:
        parts.append(
            f"{s.with_relevant} with relevant turns: recall@1 {_share(s.hit1, s.with_relevant)}, "
            f"recall@5 {_share(s.hit5, s.with_relevant)}"
            + (f", turn coverage@5 {_share(s.turn_coverage5, s.with_relevant)}" if coverage else "")
            + f"; ceiling (a usable claim of the subject cites a relevant turn) "
            f"{_share(s.ceiling, s.with_relevant)}; taken for factual questions {s.factual} "
            f"(recall@5 {_share(s.factual_hit5, s.factual)}, the others "
            f"{_share(s.hit5 - s.factual_hit5, s.with_relevant - s.factual)})"
        )
    parts.append(
        f"wrong personalizations: {s.wrong_records} records in {s.wrong_queries} queries "
        f"({s.with_forbidden} queries have forbidden turns)"
    )
    parts.append(f"answered {s.answered}/{s.queries - s.errors}")
    parts.append(f"denied {s.denied}, invalid {s.errors}")
    answered = s.queries - s.errors
    if answered and sum(s.filtered.values()):
        parts.append(
            "filtered out per query: "
            + ", ".join(
                f"{reason} {count / answered:.1f}"
                for reason, count in s.filtered.most_common()
                if count
            )
        )
    if s.millis:
        parts.append(
            f"recall p50 {percentile(s.millis, 0.5):.1f} ms (embed "
            f"{percentile(s.embed_millis, 0.5):.1f}, search "
            f"{percentile(s.search_millis, 0.5):.1f}), claims embedded on the spot "
            f"{s.embedded_on_the_spot}"
        )
    return "; ".join(parts) + "\n"


def quality_part(
    server: str,
    root: Path,
    only: Sequence[str] | None,
    report: Callable[[str], None],
    kept: dict[str, list[Answered]] | None = None,
) -> None:
    """Score every dataset found under `root` (or `only` those), reporting each as it ends;
    `kept`: see `quality_dataset`."""
    floor = "no relevance floor" if kept is not None else "the calibrated relevance floor"
    report(
        "  quality: nightly.run (embedder minilm) into fresh stores, then Recaller.recall "
        f"with {floor}\n"
    )
    found = datasets(root) if root.is_dir() else []
    expected = ["prefeval/explicit", "prefeval/implicit_choice", "prefeval/implicit_persona"]
    for name in expected + ["locomo"]:
        if not any(n == name or (name == "locomo" and n.startswith("locomo")) for n, _ in found):
            report(f"    {name}: not found under {root}; skipped\n")
    for name, folder in found:
        if only and name not in only:
            continue
        print(f"  quality {name}: running the nightly pipeline ...", flush=True)
        report(quality_dataset(server, name, folder, kept))
