"""Recall latency at scale, side by side with the ranking-only floor, and recall quality.

1. Latency. N generated claims (short, realistic texts) of S subjects spread over T tenants
   are loaded through the repo's bulk paths: `append_sources` + `append_memories` (COPY,
   row-level security, salted hashes, lineage edges) into a fresh PostgreSQL database, and
   `VectorIndex.upsert` (HashingEmbedder vectors: only their cost matters here) into a fresh
   LanceDB table, then `ensure_scalar_indexes` and `VACUUM ANALYZE` (the server may run
   without autovacuum; a live system's tables are analysed). Claims are interleaved across
   subjects as they would arrive over time, with a realistic mix of lifecycle states
   (superseded, expired, session-only, pending confirmation, other purposes and scopes), and
   some subjects let another account read them through a grant.
   Then each probe query is answered twice, in alternating order so both see the same machine:
   * `Recaller.recall`: MiniLM query embedding, authorization, the PostgreSQL filter, the
     exact LanceDB ranking prefiltered to the survivors, the authoritative re-check and the
     `recall_log` write, each transaction committed;
   * the floor: MiniLM query embedding + `VectorIndex.search` over the same table with only
     the tenant + subject prefilter that every search carries (no authorization, no filter,
     no re-check, no log): what ranking alone costs.
   Reported: p50 and p99 of both, their ratio, and where the time inside `recall` goes
   (embedding, LanceDB search, the rest: PostgreSQL round trips and Python). Target: p99 at
   most 25 ms at 1M claims on 2 cores.
2. Quality. For each dev dataset (PrefEval explicit, implicit_choice, implicit_persona;
   LoCoMo), its log file(s) go through `permem.nightly.run` (default MiniLM embedder) into
   fresh stores, then its `queries*.jsonl` are answered with `Recaller.recall` and scored
   against the matching `gold_recall*.jsonl` (FORMATS.md, "Evaluation gold files"):
   * a hit is a returned record whose `source.message_id` is in `relevant`; recall@k is the
     share of queries with a non-empty `relevant` that have a hit among the first k records;
     for LoCoMo, whose questions may cite several turns, the share of relevant turns found in
     the first 5 is given too (turn coverage@5);
   * a wrong personalization is a returned record whose source is in `forbidden` (PrefEval's
     cross-subject `-xq` queries, LoCoMo's unanswerable queries): counted as records and as
     queries with at least one;
   * the ceiling: queries for which some usable claim of the subject cites a relevant turn
     (read as the database owner), so misses split into extraction and ranking.
   * the queries that `is_factual_question` takes for impersonal ones (recall then drops
     the subject's facts, events and plans) are counted, with their recall@5 apart.
   A dataset that is not on disk is skipped with a message. The data is read where it lies and
   never copied; only figures are written.

One process (the machine is shared; LanceDB is opened here, never in a forked child). Run by
hand (on 2 cores: about 1 minute for 100k claims, 5 for 1M, 1 for the quality part):

    PERMEM_BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \
        .venv/bin/python benchmarks/recall.py [--sizes 100000,1000000] [--queries 500] \
        [--parts latency,quality] [--profile OUT.prof]

Without it (or PERMEM_TEST_DATABASE_URL) it uses an embedded server in a temporary folder.
Every run creates its own databases with unique names and drops them after. `--profile` runs
the latency probes of the last size under cProfile and prints the top functions. Results are
appended to benchmarks/results/recall.txt as each part finishes.

The script by job: `recall_corpus.py` (the generated claims and probes), `recall_stores.py`
(fresh stores, timed embedder and index), `recall_latency.py` (part 1), `recall_quality.py`
(part 2); `harness.py` holds the server, the header and the results file.
"""

from __future__ import annotations

import argparse
import os
import shlex
import signal
import sys
import time
from pathlib import Path

from harness import Results, benchmark_server, header, load_average
from recall_corpus import Corpus
from recall_floor import floor_part
from recall_latency import latency_part
from recall_quality import quality_part

RESULTS = Path(__file__).resolve().parent / "results" / "recall.txt"
EVAL = Path("/work/shared/data/eval")


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(part.replace("_", "")) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"sizes must be integers, got {text!r}") from None
    if any(size < 1 for size in sizes):
        raise argparse.ArgumentTypeError("sizes must be positive")
    return sizes


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--sizes", type=_sizes, default=[100_000], help="claim counts, comma-separated"
    )
    parser.add_argument("--subjects", type=int, default=10_000)
    parser.add_argument("--tenants", type=int, default=10)
    parser.add_argument("--queries", type=int, default=500, help="measured probes per size")
    parser.add_argument("--warmup", type=int, default=30, help="probes before the clock starts")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--parts",
        default="latency,quality",
        help="latency, quality, floor (the relevance floor's sweep), comma-separated",
    )
    parser.add_argument("--data", type=Path, default=EVAL, help="the evaluation data folder")
    parser.add_argument(
        "--datasets", nargs="+", metavar="NAME", help="only these, e.g. prefeval/explicit locomo"
    )
    parser.add_argument("--profile", help="profile the probes of the last size; pstats here")
    parser.add_argument("--out", type=Path, default=RESULTS, help="results file (appended to)")
    args = parser.parse_args(argv)
    parts = {p.strip() for p in args.parts.split(",") if p.strip()}
    if not parts or parts - {"latency", "quality", "floor"}:
        parser.error("--parts takes latency, quality and floor")

    # A `kill` unwinds like Ctrl-C, so the databases and folders made so far are removed.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    load_start = load_average()
    server, stop = benchmark_server(prefix="permem-bench-recall-pg-")
    command = shlex.join([".venv/bin/python", "benchmarks/recall.py", *sys.argv[1:]])
    if os.environ.get("PERMEM_BENCH_DATABASE_URL"):
        command = f"PERMEM_BENCH_DATABASE_URL={os.environ['PERMEM_BENCH_DATABASE_URL']} {command}"
    results = Results(args.out)
    results.emit(
        f"{header('recall', server, args.seed, load_start)}; a shared, noisy machine: compare "
        f"figures within a run\n  command: {command}\n"
    )
    try:
        if "latency" in parts:
            for number, size in enumerate(args.sizes):
                corpus = Corpus(size, args.subjects, args.tenants, args.seed)
                last = number == len(args.sizes) - 1
                profile = str(Path(args.profile).absolute()) if args.profile and last else None
                started = time.perf_counter()
                block = latency_part(server, corpus, args.queries, args.warmup, profile)
                results.emit(f"{block}    (part took {time.perf_counter() - started:.0f} s)\n")
        if "quality" in parts:
            started = time.perf_counter()
            quality_part(server, args.data, args.datasets, results.emit)
            results.emit(f"    (quality part took {time.perf_counter() - started:.0f} s)\n")
        if "floor" in parts:
            started = time.perf_counter()
            floor_part(server, args.data, args.datasets, results.emit)
            results.emit(f"    (floor part took {time.perf_counter() - started:.0f} s)\n")
    finally:
        stop()
    results.emit(f"  load avg 1/5/15 at end {load_average()}\n")


if __name__ == "__main__":
    main(sys.argv[1:])
