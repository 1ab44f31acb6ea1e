"""Throughput and memory of the nightly job, side by side with the I/O floor.

1. A synthetic conversation log (FORMATS.md, `conversation_log.py`) is generated, streamed to
   disk, deterministic for a seed: several tenants, about one account per 20 messages,
   conversations of 4-20 turns alternating user and assistant, long-ish assistant answers,
   user messages of 1-3 sentences of which about one in four carries a durable statement
   (preferences, constraints, standing instructions, third parties, corrections, one-offs,
   plans, contact details), the rest questions, requests and chit-chat. Sentences are built
   from word lists so claim texts rarely repeat. About 0.1% of the lines are malformed, 1% are
   document or tool messages, and a few conversations are incognito.
2. The I/O floor: the same log read with `read_log` + `batches` and bulk-loaded into the
   `sources` table with `append_sources`, one transaction per batch, no NLP.
3. End to end: `permem.nightly.run` with the default batch size on a fresh database and a fresh
   LanceDB directory. The runtime (migrations, spaCy, Presidio, the embedding model) is built
   and warmed before the clock starts; its start-up time is reported apart.
4. Each run happens in its own child process (multiprocessing, spawn), which reports its peak
   RSS (VmHWM: the high-water mark of its own address space, so the parent's pages that
   `ru_maxrss` may inherit through the spawn do not count). Both runs are repeated at a
   second, smaller log size to show whether memory stays flat in the log's size.

5. With `--workers N`, instead of 2-4: the Prefect flow `nightly_extract` over the same log
   with 1 worker (every stage in the flow's process) and with N workers (extract, classify,
   redact and gate on a local Dask cluster, one partition of each batch per worker), side by
   side, each in its own child on a fresh database, under a temporary Prefect server started
   before the clock. Both runs start cold (the models load inside the timed run: in the flow
   process, or in each worker), so the wall time holds the workers' start-up; the rate after
   the first batch shows the steady state without it. The two stored states are compared
   (rows and index ids, as the flow test does) and must be identical. With `--external` the N
   workers are `dask scheduler` and N `dask worker` processes on loopback, started inside the
   clock (`tests/dask_cluster.py`), which the flow reaches through PERMEM_DASK_ADDRESS.

The machine is shared and noisy: compare the ratios within one run, not absolute figures
across runs. Run by hand (10-20 minutes for 100k messages on 2 cores):

    PERMEM_BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \
        .venv/bin/python benchmarks/nightly.py [--messages 100000] [--also 20000] \
        [--embedder minilm|hashing] [--keep-log PATH] [--profile OUT.prof] [--workers 2]
        [--external]

Without it (or PERMEM_TEST_DATABASE_URL) it uses an embedded server in a temporary folder,
stopped and removed at the end (`harness.py`, shared with recall.py). `--also 0` skips the
second size. `--profile` runs only the end-to-end run, under cProfile, and reports its top
functions. Results are appended to benchmarks/results/nightly.txt as each part finishes. The
measured runs, each in its child process, are in `nightly_runs.py`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from conversation_log import generate
from harness import (
    FreshDatabase,
    Results,
    benchmark_server,
    header,
    in_child,
    load_average,
)
from nightly_runs import _default_batch_size, end_to_end_child, floor_child, flow_child

RESULTS = Path(__file__).parent / "results" / "nightly.txt"


# ---------------------------------------------------------------------------------------------
# Orchestration and the report.
# ---------------------------------------------------------------------------------------------


def measure(log: Path, server: str, embedder: str) -> dict[str, Any]:
    """The floor, then the end-to-end run, over the same log, each on a fresh database."""
    with FreshDatabase(server) as db:
        floor = in_child(floor_child, str(log), db.url, str(db.home))
    with FreshDatabase(server) as db:
        e2e = in_child(end_to_end_child, str(log), db.url, str(db.home), embedder, None)
    return {"floor": floor, "e2e": e2e}


def measure_workers(
    log: Path, server: str, embedder: str, workers: int, external: bool = False
) -> dict[int, Any]:
    """The flow with 1 worker, then with `workers`, over the same log, each on a fresh
    database (`external`: the workers are a `dask scheduler` and `dask worker` processes
    started in the clock, reached through PERMEM_DASK_ADDRESS)."""
    runs: dict[int, Any] = {}
    for count in (1, workers):
        with FreshDatabase(server) as db:
            runs[count] = in_child(
                flow_child, str(log), db.url, str(db.home), embedder, count, external
            )
    return runs


def report_workers(n: int, runs: dict[int, Any], embedder: str, external: bool = False) -> str:
    """The 1-worker and N-worker flow runs side by side, and the speed-up."""
    one, many = runs[1], runs[max(runs)]
    lines = one["report"]["lines"]
    cluster = (
        "`dask scheduler` + `dask worker` processes started in the clock, PERMEM_DASK_ADDRESS"
        if external
        else "a local cluster started by the flow"
    )
    out = [
        f"  n={n:,} embedder={embedder} batch={_default_batch_size()}: the flow "
        f"(temporary Prefect server up before the clock; models load inside the run; "
        f"workers: {cluster})\n"
    ]
    for count, run in sorted(runs.items()):
        report = run["report"]
        stages = _seconds(report["stage_seconds"])
        workers = report.get("worker_stage_seconds")
        in_workers = f"; inside the workers, added up: {_seconds(workers)}" if workers else ""
        out.append(
            f"    {count} worker{'s' if count > 1 else ' '}: {run['wall']:.1f} s wall "
            f"({lines / run['wall']:,.0f} msgs/s), {_steady(run['marks'])}; "
            f"peak RSS flow process {run['peak_rss_mb']:,.0f} MB, with workers "
            f"{max((m[2] for m in run['marks']), default=0):,.0f} MB; "
            f"load avg 1/5/15 before {run['load'][0]}, after {run['load'][1]}\n"
            f"      stage seconds (flow process): {stages}{in_workers}\n"
        )
    steady_one, steady_many = _steady_rate(one["marks"]), _steady_rate(many["marks"])
    steady = (
        f", after the first batch {steady_many / steady_one:.2f}x"
        if steady_one and steady_many
        else ""
    )
    same = one["state"] == many["state"]
    out.append(
        f"    speed-up {max(runs)} vs 1 workers: {one['wall'] / many['wall']:.2f}x wall{steady}; "
        f"stored state identical: {'yes' if same else 'NO'} "
        f"({', '.join(f'{k} {v[0]:,}' for k, v in one['state'].items())})\n"
    )
    if not same:
        diff = {k: (one["state"][k], many["state"].get(k)) for k in one["state"]
                if one["state"][k] != many["state"].get(k)}  # fmt: skip
        out.append(f"    DIFFERENT: {diff}\n")
    return "".join(out)


def _seconds(seconds: dict[str, float]) -> str:
    return ", ".join(f"{k} {v:.1f}" for k, v in sorted(seconds.items(), key=lambda kv: -kv[1]))


def _steady_rate(marks: list[tuple[float, int, float]]) -> float | None:
    """Lines per second from the end of the first batch to the end of the last."""
    if len(marks) < 2:
        return None
    return sum(m[1] for m in marks[1:]) / (marks[-1][0] - marks[0][0])


def _steady(marks: list[tuple[float, int, float]]) -> str:
    rate = _steady_rate(marks)
    if rate is None:
        return "one batch"
    return f"first batch done at {marks[0][0]:.1f} s, then {rate:,.0f} msgs/s"


def report_size(n: int, log_stats: dict[str, Any], run: dict[str, Any], embedder: str) -> str:
    floor, e2e = run["floor"], run["e2e"]
    summary, seconds = e2e["summary"], e2e["seconds"]
    lines = summary["lines"]
    floor_rate = floor["lines"] / floor["seconds"]
    e2e_rate = lines / e2e["wall"]
    with_startup = lines / (e2e["wall"] + e2e["startup"])
    counts = summary["counts"]
    total = sum(seconds.values())
    stages = ", ".join(
        f"{name} {value:.1f} s ({value / e2e['wall']:.0%})"
        for name, value in sorted(seconds.items(), key=lambda kv: -kv[1])
    )
    if total > 1.02 * e2e["wall"]:
        # The run indexes a batch in the background while the next one goes through the
        # stages before it: stage times overlap and their shares of the wall time add up to
        # more than 100%. `index_wait` is the time the main loop waited for the index step.
        stages += f" (sum {total:.1f} s for {e2e['wall']:.1f} s wall: index overlaps)"
    roles = log_stats["roles"]
    user = roles.get("user", 0)
    decisions = ", ".join(f"{k} {v}" for k, v in sorted(summary["decisions"].items()))
    threads = f", torch threads {e2e['torch_threads']}" if e2e["torch_threads"] else ""
    return (
        f"  n={n:,} embedder={embedder} batch={_default_batch_size()}\n"
        f"    log: {log_stats['tenants']} tenants, {log_stats['accounts']:,} accounts, "
        f"{log_stats['conversations']:,} conversations; user {user / n:.1%} "
        f"(mean {log_stats['user_mean_words']} words, durable statement in "
        f"{log_stats['durable_share_of_user']:.1%}, {log_stats['durable_distinct']:.1%} of those "
        f"distinct), assistant {roles.get('assistant', 0) / n:.1%} "
        f"(mean {log_stats['assistant_mean_words']} words), document/tool "
        f"{(roles.get('document', 0) + roles.get('tool', 0)) / n:.2%}, malformed "
        f"{log_stats['malformed'] / n:.2%}, incognito {log_stats['incognito'] / n:.2%}, "
        f"scoped {log_stats['scoped'] / n:.1%}\n"
        f"    I/O floor (read_log + batches + append_sources): {floor_rate:,.0f} msgs/s "
        f"({floor['seconds']:.1f} s, {floor['loaded']:,} sources), "
        f"peak RSS {floor['peak_rss_mb']:,.0f} MB\n"
        f"    end to end (nightly.run, warm runtime): {e2e_rate:,.0f} msgs/s "
        f"({e2e['wall']:.1f} s); start-up {e2e['startup']:.1f} s apart "
        f"({with_startup:,.0f} msgs/s with it){threads}\n"
        f"    ratio floor/e2e: {floor_rate / e2e_rate:,.1f}x\n"
        f"    peak RSS end to end: {e2e['peak_rss_mb']:,.0f} MB "
        f"(after start-up {e2e['startup_rss_mb']:,.0f} MB; {_rss_trend(e2e['rss_by_batch'])})\n"
        f"    stage seconds (share of wall): {stages}\n"
        f"    per batch, first vs last 3 batches: {_trend(e2e['calls'])}\n"
        f"{_floors(e2e, seconds)}"
        f"    per message: candidates {counts.get('candidates', 0) / lines:.3f}, "
        f"claims stored {counts.get('stored', 0) / lines:.3f}, "
        f"indexed {counts.get('indexed', 0) / lines:.3f}; batches {summary['batches']}, "
        f"quarantined {counts.get('quarantined_lines', 0)}, incognito "
        f"{counts.get('incognito', 0)}; decisions: {decisions}\n"
    )


def _floors(e2e: dict[str, Any], seconds: dict[str, float]) -> str:
    """Each non-NLP stage beside its floor measured in the same child (`nightly_floors`)."""
    floors = e2e.get("floors")
    if not floors:
        return ""

    def beside(stage: str, floor: dict[str, Any], what: str) -> str:
        ratio = seconds.get(stage, 0.0) / floor["seconds"] if floor["seconds"] else float("inf")
        verdict = "met" if ratio <= 3 else "NOT met"
        return (
            f"{stage} {seconds.get(stage, 0.0):.1f} s vs {what} {floor['seconds']:.2f} s "
            f"({ratio:.1f}x, target <= 3x: {verdict})"
        )

    load, index, prepare = floors["load"], floors["index"], floors["prepare"]
    embed = floors.get("embed") or {"seconds": 0.0, "rows": 0}
    embedded = e2e["summary"].get("index_embed_seconds", 0.0)
    validate = seconds.get("validate", 0.0) / e2e["wall"]
    copied = f"a bare COPY of the same {load['rows']:,} rows"
    appended = f"a bare LanceDB append of the same {index['rows']:,} vectors"
    return (
        f"    stages beside their floors (same child, load avg 1/5/15 {floors['load_average']}): "
        f"{beside('load', load, copied)}; {beside('index', index, appended)}; "
        f"embedding in the index step {embedded:.1f} s vs the bare model on the same "
        f"{embed['rows']:,} distinct claim texts {embed['seconds']:.1f} s "
        f"({embedded / embed['seconds'] if embed['seconds'] else float('inf'):.2f}x); "
        f"{beside('prepare', prepare, 'its state reads')}; "
        f"gate {seconds.get('gate', 0.0):.1f} s (reads nothing: its state comes from prepare's "
        f"reads, {prepare['seconds']:.2f} s); validate {validate:.1%} of wall "
        f"(target <= 10%: {'met' if validate <= 0.10 else 'NOT met'}); thread CPU seconds "
        f"(no GIL or database waits): {_seconds_cpu(e2e.get('cpu') or {})}\n"
    )


def _seconds_cpu(cpu: dict[str, float]) -> str:
    shown = ("prepare", "gate", "validate", "load", "index")
    return ", ".join(f"{name} {cpu[name]:.1f}" for name in shown if name in cpu)


def _rss_trend(samples: list[float]) -> str:
    """RSS after the first batch, at a quarter, half, three quarters and the end of the run."""
    if not samples:
        return "no RSS samples"
    picks = sorted(
        {0, len(samples) // 4, len(samples) // 2, 3 * len(samples) // 4, len(samples) - 1}
    )
    shown = " -> ".join(f"{samples[i]:,.0f}" for i in picks)
    return f"RSS after batches {', '.join(str(i + 1) for i in picks)}: {shown} MB"


def _trend(calls: dict[str, list[float]]) -> str:
    """Mean seconds per batch of the first and the last three batches, for the costly stages."""
    shown = []
    for name, seconds in sorted(calls.items(), key=lambda kv: -sum(kv[1])):
        if len(seconds) < 2 or sum(seconds) < 1.0:
            continue
        k = min(3, len(seconds) // 2)
        first, last = sum(seconds[:k]) / k, sum(seconds[-k:]) / k
        shown.append(f"{name} {first:.2f} -> {last:.2f} s")
    return ", ".join(shown) or "-"


def main(argv: list[str] | None = None) -> str:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=100_000, help="log lines (main size)")
    parser.add_argument("--also", type=int, default=20_000, help="second log size (0: none)")
    parser.add_argument("--embedder", choices=("minilm", "hashing"), default="minilm")
    parser.add_argument("--keep-log", type=Path, help="write the main log here and keep it")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", help="profile one end-to-end run; write pstats here")
    parser.add_argument(
        "--workers",
        type=int,
        help="compare the flow with 1 worker and with this many (instead of floor/e2e)",
    )
    parser.add_argument(
        "--external",
        action="store_true",
        help="with --workers: start `dask scheduler` and `dask worker` processes (inside the "
        "clock) and reach them through PERMEM_DASK_ADDRESS instead of the flow's local cluster",
    )
    args = parser.parse_args(argv)

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")
    load_start = load_average()
    server, stop = benchmark_server()
    scratch = Path(tempfile.mkdtemp(prefix="permem-bench-logs-"))
    sizes = [args.messages]
    if args.also and args.also != args.messages and not args.profile:
        sizes.append(args.also)
    results = Results(RESULTS)
    results.emit(header("nightly", server, args.seed, load_start) + "\n")
    rss: list[tuple[int, float, float]] = []
    try:
        for n in sizes:
            log = scratch / f"log-{n}.jsonl"
            if args.keep_log is not None:
                log = (
                    args.keep_log
                    if n == args.messages
                    else args.keep_log.with_name(f"{args.keep_log.stem}-{n}{args.keep_log.suffix}")
                )
            started = time.perf_counter()
            log_stats = generate(log, n, args.seed)
            print(
                f"  generated {n:,} lines in {time.perf_counter() - started:.1f} s: "
                f"{json.dumps(log_stats)}",
                flush=True,
            )
            if args.profile:
                with FreshDatabase(server) as db:
                    e2e = in_child(
                        end_to_end_child, str(log), db.url, str(db.home), args.embedder,
                        str(Path(args.profile).absolute()),
                    )  # fmt: skip
                summary = e2e["summary"]
                block = (
                    f"  PROFILE n={n:,} embedder={args.embedder}: "
                    f"{summary['lines'] / e2e['wall']:,.0f} msgs/s under cProfile "
                    f"({e2e['wall']:.1f} s); stage seconds {summary['stage_seconds']}; "
                    f"pstats in {args.profile}\n"
                )
                print(e2e["hotspots"], flush=True)
                results.emit(block)
                continue
            if args.workers:
                runs = measure_workers(log, server, args.embedder, args.workers, args.external)
                results.emit(report_workers(n, runs, args.embedder, args.external))
                continue
            run = measure(log, server, args.embedder)
            results.emit(report_size(n, log_stats, run, args.embedder))
            rss.append((n, run["floor"]["peak_rss_mb"], run["e2e"]["peak_rss_mb"]))
    finally:
        if args.keep_log is None:
            shutil.rmtree(scratch, ignore_errors=True)
        stop()
    if len(rss) == 2:
        (n1, f1, e1), (n2, f2, e2) = rss
        results.emit(
            f"  peak RSS by log size: floor {n1:,}: {f1:,.0f} MB, {n2:,}: {f2:,.0f} MB; "
            f"end to end {n1:,}: {e1:,.0f} MB, {n2:,}: {e2:,.0f} MB "
            f"(e2e growth {e1 / e2 - 1:+.0%} for {n1 / n2:.0f}x the lines)\n"
        )
    results.emit(f"  load avg 1/5/15 at end {load_average()}\n")
    return results.text


if __name__ == "__main__":
    main(sys.argv[1:])
