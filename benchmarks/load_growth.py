"""Where the load and prepare stages grow over a night: each of their steps timed per batch.

The nightly benchmark shows the load stage growing with the night (1M lines: 0.52 -> 1.51 s a
batch) and prepare with it. This runs one night over a generated log (hashing embedder, one
process) with the load's own steps (`permem.pipeline_load`: supersession planning, retractions,
returns, edges, ...) and prepare's reads (`permem.arrivals.read_known`) wrapped in timers, and
reports each step's mean seconds over the first and the last batches. `--no-refresh` turns
off the night's own statistics refresh (`permem.table_statistics`; the benchmark server may run
without autovacuum), to see which growth is stale planner statistics and which is work that
grows with each subject's history; run both side by side. Run by hand:

    PERMEM_BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \
        .venv/bin/python benchmarks/load_growth.py --messages 200000 [--no-refresh]

Results are appended to benchmarks/results/load_growth.txt.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import conversation_log
from harness import FreshDatabase, Results, benchmark_server, header, load_average

RESULTS = Path(__file__).resolve().parent / "results" / "load_growth.txt"
# The load's steps, as `permem.pipeline_load` names them, and prepare's state read.
LOAD_STEPS = (
    "append_sources",
    "plan_topic_supersession",
    "append_memories",
    "enqueue",
    "with_topic_siblings",
    "mark_superseded",
    "apply_retractions",
    "reinstate",
    "add_edges",
    "copy_insert",
)
EDGE = 3  # batches averaged at each end


class Timings:
    """Seconds per batch and step; a batch starts when prepare is called."""

    def __init__(self) -> None:
        self.batch = 0
        self.seconds: dict[int, dict[str, float]] = defaultdict(lambda: defaultdict(float))

    def wrap(self, owner: Any, name: str, label: str) -> None:
        original = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                self.seconds[self.batch][label] += time.perf_counter() - started

        setattr(owner, name, timed)

    def stage(self, name: str, stage: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            if name == "prepare":
                self.batch += 1
            started = time.perf_counter()
            value = stage(*args)
            self.seconds[self.batch][f"stage {name}"] += time.perf_counter() - started
            return value

        return call

    def report(self) -> list[str]:
        batches = sorted(b for b in self.seconds if b > 0)
        if len(batches) < 2 * EDGE:
            return [f"    only {len(batches)} batches: too few to compare the ends"]
        first, last = batches[:EDGE], batches[-EDGE:]
        labels = sorted({k for b in batches for k in self.seconds[b]})

        def mean(chosen: list[int], label: str) -> float:
            return sum(self.seconds[b].get(label, 0.0) for b in chosen) / len(chosen)

        lines = [f"    per batch, mean of batches {first[0]}-{first[-1]} -> {last[0]}-{last[-1]}:"]
        for label in labels:
            a, b = mean(first, label), mean(last, label)
            lines.append(f"      {label:<28} {a:7.3f} -> {b:7.3f} s  ({b - a:+.3f})")
        return lines


def night(url: str, home: Path, log: Path, refresh: bool) -> tuple[float, Timings, Any]:
    from permem import nightly, pipeline, pipeline_load
    from permem.runtime import close_all, runtime
    from permem.settings import Settings
    from permem.table_statistics import StatisticsRefresh

    settings = Settings(database_url=url, home=home, embedder="hashing")
    runtime(settings)  # migrations, spaCy and Presidio load before the clock starts
    timings = Timings()
    for name in LOAD_STEPS:
        timings.wrap(pipeline_load, name, f"load: {name}")
    # `permem.pipeline` calls read_known by the name it imported.
    timings.wrap(pipeline, "read_known", "prepare: read_known")

    if not refresh:  # a threshold no night reaches
        nightly.StatisticsRefresh = lambda db: StatisticsRefresh(db, min_rows=10**15)

    stages = {name: timings.stage(name, stage) for name, stage in nightly.DIRECT_STAGES.items()}
    started = time.perf_counter()
    summary = nightly.run(settings, log, stages=stages)
    wall = time.perf_counter() - started
    close_all()
    return wall, timings, summary


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=200_000)
    parser.add_argument("--no-refresh", action="store_true", help="no statistics refresh")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    load_at_start = load_average()
    server, stop = benchmark_server()
    results = Results(RESULTS)
    try:
        with tempfile.TemporaryDirectory(prefix="permem-load-growth-") as scratch:
            log = Path(scratch) / "log.jsonl"
            conversation_log.generate(log, args.messages, seed=args.seed)
            results.emit(header("load growth", server, args.seed, load_at_start) + "\n")
            with FreshDatabase(server) as db:
                wall, timings, summary = night(db.url, db.home, log, not args.no_refresh)
            refreshes = summary.counts["statistics_refreshes"]
            how = "no refresh" if args.no_refresh else f"{refreshes} statistics refreshes"
            lines = [
                f"  {args.messages:,} lines, hashing, {how} "
                f"({summary.seconds['statistics']:.1f} s): {wall:.0f} s, "
                f"{args.messages / wall:.0f} msgs/s, load avg at end {load_average()}"
            ]
            results.emit("\n".join(lines + timings.report()) + "\n\n")
    finally:
        stop()


if __name__ == "__main__":
    main()
