"""How long a Dask worker of the nightly flow takes to start, before and after a change, side
by side in one run.

For each round and each code tree (`--before REV`, extracted with `git archive`, and this
checkout), alternating so that both see the same machine:

1. a driver process (the flow's process) imports the tree's flow and waits, before the clock;
2. the clock starts; `dask scheduler` and two `dask worker` processes start on loopback with
   that tree on their PYTHONPATH (`tests/dask_cluster.py`); "registered" is the time until
   both have joined the scheduler;
3. the driver connects to the scheduler (as the default client, which prefect-dask's task runner
   uses whatever the tree's settings say) and runs the tree's real flow `nightly_extract` with 2
   workers over one batch (two partitions: one per worker): "cold analyze" is the flow's
   `analyze` stage seconds, the first task each fresh worker runs;
4. the same flow again on a second fresh database, on the now warm workers: "warm analyze";
5. what each worker imported: how many modules, and which of the heavy packages only the
   flow's own stages use.

A worker's start-up is registered + cold analyze - warm analyze: from launching the process to
its first result, minus the work itself. Under a temporary Prefect server started before the
clock; each flow run on a fresh database (PERMEM_BENCH_DATABASE_URL or
PERMEM_TEST_DATABASE_URL, else an embedded server). Appends to benchmarks/results/nightly.txt.

    PERMEM_BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \\
        nice -n 19 .venv/bin/python benchmarks/dask_workers.py --before 9bf3b90 [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

from conversation_log import generate
from harness import FreshDatabase, Results, benchmark_server, header, load_average

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "benchmarks" / "results" / "nightly.txt"
# Imported by a worker only if it imports more than analyzing a partition needs.
HEAVY = ("great_expectations", "pandas", "sqlalchemy", "psycopg", "alembic", "lancedb", "pyarrow",
         "scipy", "torch", "transformers", "spacy", "presidio_analyzer")  # fmt: skip
MESSAGES = 400  # one batch of this many lines: two partitions, one per worker


def driver(log: str, first: tuple[str, str], second: tuple[str, str]) -> None:
    """The flow's process, in the tree on PYTHONPATH: two flow runs on the cluster whose
    address arrives on stdin; prints one RESULT line."""
    from distributed import Client

    from flows.nightly import NightlyParams, nightly_extract

    print("READY", flush=True)
    address = sys.stdin.readline().strip()
    client = Client(address)  # the default client: the task runner connects to it
    analyze = []
    for url, home in (first, second):
        os.environ.update(PERMEM_DATABASE_URL=url, PERMEM_HOME=home)
        report = nightly_extract(NightlyParams(logs=log, workers=2))
        analyze.append(report["stage_seconds"]["analyze"])
    heavy = HEAVY
    modules = client.run(lambda: (len(sys.modules), [m for m in heavy if m in sys.modules]))
    client.close()
    print("RESULT " + json.dumps({"analyze": analyze, "modules": modules}), flush=True)


def measure(tree: Path, log: Path, server: str, env: dict[str, str]) -> dict[str, Any]:
    """Steps 1-5 for one tree."""
    sys.path.insert(0, str(REPO))
    from tests.dask_cluster import dask_cluster

    with FreshDatabase(server) as one, FreshDatabase(server) as two:
        child = subprocess.Popen(
            [sys.executable, __file__, "--driver", str(log), one.url, str(one.home), two.url,
             str(two.home)],
            env={**env, "PYTHONPATH": str(tree)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        try:
            assert child.stdin is not None and child.stdout is not None
            while child.stdout.readline().strip() != "READY":
                if child.poll() is not None:
                    raise RuntimeError("the driver failed before it was ready")
            started = time.perf_counter()
            with dask_cluster(2, pythonpath=tree, env={"PYTHONPATH": ""}) as address:
                registered = time.perf_counter() - started
                child.stdin.write(address + "\n")
                child.stdin.flush()
                line = ""
                while not line.startswith("RESULT "):
                    line = child.stdout.readline()
                    if not line and child.poll() is not None:
                        raise RuntimeError("the driver failed")
        finally:
            if child.poll() is None:
                child.kill()
            child.wait()
    result: dict[str, Any] = json.loads(line.removeprefix("RESULT "))
    result["registered"] = registered
    return result


def report(label: str, runs: list[dict[str, Any]]) -> str:
    lines = []
    for run in runs:
        cold, warm = run["analyze"]
        startup = run["registered"] + cold - warm
        counts = sorted({count for count, _ in run["modules"].values()})
        heavy = sorted({name for _, names in run["modules"].values() for name in names})
        lines.append(
            f"    {label}: registered {run['registered']:.1f} s, cold analyze {cold:.1f} s, "
            f"warm analyze {warm:.1f} s: start-up {startup:.1f} s; worker modules "
            f"{'/'.join(str(c) for c in counts)}, heavy ones imported: {', '.join(heavy)}\n"
        )
    return "".join(lines)


def main(argv: list[str]) -> None:
    if argv and argv[0] == "--driver":
        log, url1, home1, url2, home2 = argv[1:]
        driver(log, (url1, home1), (url2, home2))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="git revision to compare with")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")
    load_start = load_average()
    server, stop = benchmark_server()
    scratch = Path(tempfile.mkdtemp(prefix="permem-bench-dask-"))
    results = Results(RESULTS)
    try:
        before = scratch / "before"
        before.mkdir()
        archive = subprocess.run(
            ["git", "-C", str(REPO), "archive", args.before], check=True, capture_output=True
        ).stdout
        (scratch / "before.tar").write_bytes(archive)
        with tarfile.open(scratch / "before.tar") as tar:
            tar.extractall(before, filter="data")
        revision = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--short", args.before],
            check=True, capture_output=True, text=True,
        ).stdout.strip()  # fmt: skip
        log = scratch / "log.jsonl"
        generate(log, MESSAGES, 1)
        from prefect.settings import PREFECT_API_URL
        from prefect.testing.utilities import prefect_test_harness

        with prefect_test_harness(server_startup_timeout=180):
            env = {
                **os.environ,
                "PREFECT_API_URL": str(PREFECT_API_URL.value()),
                "PREFECT_LOGGING_LEVEL": "WARNING",
                "PERMEM_EMBEDDER": "hashing",
                "PERMEM_BATCH_SIZE": str(MESSAGES),
            }
            results.emit(
                header("dask worker start-up", server, 1, load_start)
                + f"\n  before = {revision}, after = this checkout; {args.rounds} rounds, "
                f"alternating; the real flow with 2 workers over one batch of {MESSAGES} lines "
                f"(hashing embedder) on `dask scheduler` + 2 `dask worker` started in the clock\n"
            )
            runs: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}
            for number in range(args.rounds):
                for label, tree in (("before", before), ("after", REPO)):
                    run = measure(tree, log, server, env)
                    runs[label].append(run)
                    results.emit(f"  round {number + 1} (load avg {load_average()})\n")
                    results.emit(report(label, [run]))
        means = {
            label: sum(r["registered"] + r["analyze"][0] - r["analyze"][1] for r in found)
            / len(found)
            for label, found in runs.items()
        }
        results.emit(
            f"  mean worker start-up: before {means['before']:.1f} s, after "
            f"{means['after']:.1f} s ({means['before'] / means['after']:.2f}x); "
            f"load avg 1/5/15 at end {load_average()}\n"
        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        stop()


if __name__ == "__main__":
    main(sys.argv[1:])
