"""Load on `permem serve`: recall over HTTP on loopback, beside the in-process floor.

1. The store: the recall benchmark's generated claims (`recall_latency.load_corpus`: N claims
   of S subjects in T tenants, HashingEmbedder vectors in LanceDB, scalar indexes, VACUUM
   ANALYZE) in a fresh database and folder. 1M claims of 10k subjects by default.
2. The floor, measured first in this process: `Recaller.recall` (MiniLM, the calibrated
   relevance floor) over the same store and probes, one at a time.
3. `permem serve` started as a child process on 127.0.0.1 against that store, with one
   service key per tenant (purposes `assistant` and `travel`; each probe names its actor in
   `X-Permem-Subject`) and the token bucket opened wide (`PERMEM_RATE_PER_S`), so the limit
   measured is the server's, not the bucket's. An asyncio httpx loop keeps 1, 4 and 16
   requests in flight for `--seconds` each: p50, p99, requests/s, errors (any status but 200,
   or a transport error).
4. A soak: `--soak-clients` in flight for `--soak` seconds (600 by default), the server's
   resident set sampled every `--sample` seconds; reported first, last, peak and the slope
   after the first tenth of the soak.

Every figure is printed beside its floor. Targets on 2 cores: p99 <= 30 ms at one client, p50
at one client within 1.3x the in-process p50, 0 errors, RSS flat over the soak (it grows by no
more than 2% after the first tenth). The client runs on the same cores as the server and takes
its share of them. Run by hand (about 5 min to load 1M claims, a minute a level, the soak):

    PERMEM_BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python benchmarks/serve.py [--claims 1000000] [--soak 600]

Results are appended to benchmarks/results/serve.txt.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from typing import Any

from harness import Results, benchmark_server, header, load_average
from recall_corpus import QUERY_TS, Corpus, Probe, probes
from recall_latency import load_corpus, probe_query
from recall_stores import FreshStores, percentile, timed_index

RESULTS = Path(__file__).resolve().parent / "results" / "serve.txt"
ROOT = Path(__file__).resolve().parent.parent
TARGET_P99_MS = 30.0
TARGET_P50_RATIO = 1.3
RSS_GROWTH = 0.02


@dataclass
class Level:
    """What one stretch of load measured."""

    clients: int
    seconds: float = 0.0
    millis: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)

    @property
    def per_second(self) -> float:
        return len(self.millis) / self.seconds if self.seconds else 0.0


def rss_trend(samples: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """(growth, MB per minute) of (seconds, MB) samples after the first tenth of their span:
    growth is the fitted rise over that stretch as a share of its mean (least squares)."""
    if len(samples) < 2:
        return 0.0, 0.0
    start = samples[0][0] + (samples[-1][0] - samples[0][0]) / 10
    kept = [s for s in samples if s[0] >= start] or list(samples)
    if len(kept) < 2:
        return 0.0, 0.0
    mean_t = sum(t for t, _ in kept) / len(kept)
    mean_mb = sum(mb for _, mb in kept) / len(kept)
    spread = sum((t - mean_t) ** 2 for t, _ in kept)
    slope = sum((t - mean_t) * (mb - mean_mb) for t, mb in kept) / spread if spread else 0.0
    return slope * (kept[-1][0] - kept[0][0]) / mean_mb, slope * 60


def probe_body(probe: Probe) -> dict[str, Any]:
    """The `POST /v1/recall` body of a probe (its actor goes in `X-Permem-Subject`)."""
    return {
        "text": probe.text,
        "purpose": probe.purpose,
        "subject": probe.subject,
        "scope": probe.scope,
        "ts": QUERY_TS.isoformat(),
        "k": 5,
    }


def in_process(stores: FreshStores, index: Any, asked: Sequence[Probe], warmup: int) -> Level:
    """`Recaller.recall` on every probe, one at a time, in this process (the floor)."""
    from permem.embedding import MiniLMEmbedder
    from permem.recall import Recaller
    from permem.stores.database import open_database

    db = open_database(stores.settings)
    recaller = Recaller(db, index, MiniLMEmbedder())
    level = Level(clients=1)
    started = time.perf_counter()
    for number, probe in enumerate(asked):
        if number == warmup:
            started = time.perf_counter()
        began = time.perf_counter()
        answer = recaller.recall(probe_query(number, probe))
        if number >= warmup:
            level.millis.append((time.perf_counter() - began) * 1000)
            if answer.denied is not None:
                level.errors["denied"] += 1
    level.seconds = time.perf_counter() - started
    db.dispose()
    return level


def service_keys(stores: FreshStores, corpus: Corpus) -> dict[str, str]:
    """tenant -> a service key for the probes' purposes."""
    from datetime import UTC, datetime

    from permem import keys
    from permem.stores.database import open_database

    db = open_database(stores.settings)
    found = {}
    for t in range(corpus.tenants):
        tenant = corpus.tenant_of(t)
        _, found[tenant] = keys.create(
            db, tenant, actor="bench-assistant", role="service",
            purposes=("assistant", "travel"), now=datetime.now(UTC),
        )  # fmt: skip
    db.dispose()
    return found


def start_server(stores: FreshStores) -> tuple[subprocess.Popen[bytes], str]:
    """`permem serve` of this checkout on a free loopback port, once it answers /readyz."""
    import httpx

    with socket.socket() as probe_socket:
        probe_socket.bind(("127.0.0.1", 0))
        port = probe_socket.getsockname()[1]
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "PERMEM_DATABASE_URL": stores.url,
        "PERMEM_HOME": str(stores.home),
        "PERMEM_EMBEDDER": "minilm",
        "PERMEM_RATE_PER_S": "100000",
        "PERMEM_RATE_BURST": "1000000",
    }
    command = [sys.executable, "-c", "from interfaces.cli import main; main()", "serve"]
    log = stores.home / "serve.log"  # a file, not a pipe: a full pipe would stall the server
    with log.open("wb") as sink:
        server = subprocess.Popen(
            [*command, "--port", str(port)], cwd=ROOT, env=env,
            stdout=subprocess.DEVNULL, stderr=sink,
        )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"permem serve exited: {log.read_text()[-2000:]}")
        try:
            if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                return server, base
        except httpx.TransportError:
            pass
        time.sleep(1)
    stop_server(server)
    raise RuntimeError("permem serve was not ready within 300 s")


def stop_server(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def server_rss_mb(pid: int) -> float:
    import psutil

    return float(psutil.Process(pid).memory_info().rss) / 2**20


async def drive(
    base: str,
    tenant_keys: dict[str, str],
    asked: Sequence[Probe],
    clients: int,
    seconds: float,
    sample: tuple[int, float, list[tuple[float, float]]] | None = None,
) -> Level:
    """`clients` requests in flight for `seconds`, cycling through `asked`; with `sample`
    (pid, interval, samples) the server's RSS is appended to samples every interval."""
    import httpx

    level = Level(clients=clients)
    numbers = count()
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    started = time.perf_counter()
    deadline = started + seconds

    async def client(http: httpx.AsyncClient) -> None:
        while time.perf_counter() < deadline:
            probe = asked[next(numbers) % len(asked)]
            headers = {
                "Authorization": f"Bearer {tenant_keys[probe.tenant]}",
                "X-Permem-Subject": probe.actor,
            }
            began = time.perf_counter()
            try:
                response = await http.post("/v1/recall", json=probe_body(probe), headers=headers)
            except httpx.HTTPError as exc:
                level.errors[type(exc).__name__] += 1
                continue
            level.millis.append((time.perf_counter() - began) * 1000)
            if response.status_code != 200:
                level.errors[str(response.status_code)] += 1

    async def sampler() -> None:
        assert sample is not None
        pid, interval, samples = sample
        while time.perf_counter() < deadline:
            samples.append((time.perf_counter() - started, server_rss_mb(pid)))
            await asyncio.sleep(interval)
        samples.append((time.perf_counter() - started, server_rss_mb(pid)))

    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=30) as http:
        tasks = [client(http) for _ in range(clients)]
        await asyncio.gather(*tasks, *([sampler()] if sample else []))
    level.seconds = time.perf_counter() - started
    return level


def _figures(level: Level) -> str:
    errors = sum(level.errors.values())
    detail = f" ({', '.join(f'{k} {v}' for k, v in level.errors.most_common())})" if errors else ""
    return (
        f"p50 {percentile(level.millis, 0.5):.1f} ms, p99 {percentile(level.millis, 0.99):.1f} "
        f"ms, {level.per_second:.1f} requests/s, {len(level.millis)} requests, "
        f"errors {errors}{detail}"
    )


def report_level(level: Level, floor: Level) -> str:
    ratio = percentile(level.millis, 0.5) / percentile(floor.millis, 0.5)
    p99_ratio = percentile(level.millis, 0.99) / percentile(floor.millis, 0.99)
    return (
        f"    HTTP, {level.clients:>2} client(s) for {level.seconds:.0f} s: {_figures(level)}; "
        f"beside the floor: p50 {ratio:.2f}x, p99 {p99_ratio:.2f}x, requests/s "
        f"{level.per_second / floor.per_second:.2f}x\n"
    )


def verdicts(one: Level, floor: Level, levels: Sequence[Level], growth: float) -> str:
    p99 = percentile(one.millis, 0.99)
    ratio = percentile(one.millis, 0.5) / percentile(floor.millis, 0.5)
    errors = sum(sum(level.errors.values()) for level in levels)

    def met(ok: bool) -> str:
        return "MET" if ok else "NOT MET"

    return (
        f"    targets: p99 at one client {p99:.1f} ms <= {TARGET_P99_MS:.0f} ms: "
        f"{met(p99 <= TARGET_P99_MS)}; p50 at one client {ratio:.2f}x the in-process p50 <= "
        f"{TARGET_P50_RATIO}x: {met(ratio <= TARGET_P50_RATIO)}; errors {errors} (all levels "
        f"and the soak): {met(errors == 0)}; RSS growth over the soak {growth:+.1%} <= "
        f"{RSS_GROWTH:.0%}: {met(growth <= RSS_GROWTH)}\n"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--claims", type=int, default=1_000_000)
    parser.add_argument("--subjects", type=int, default=10_000)
    parser.add_argument("--tenants", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--probes", type=int, default=2000, help="distinct probes, cycled")
    parser.add_argument("--floor-queries", type=int, default=500, help="in-process probes")
    parser.add_argument("--warmup", type=int, default=30, help="probes before the clock starts")
    parser.add_argument("--clients", default="1,4,16", help="concurrency levels")
    parser.add_argument("--seconds", type=float, default=60, help="per concurrency level")
    parser.add_argument("--soak", type=float, default=600, help="soak length in seconds")
    parser.add_argument("--soak-clients", type=int, default=4)
    parser.add_argument("--sample", type=float, default=5, help="RSS sampling interval, s")
    parser.add_argument("--out", type=Path, default=RESULTS, help="results file (appended to)")
    args = parser.parse_args(argv)
    levels_wanted = [int(part) for part in args.clients.split(",") if part.strip()]

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    load_start = load_average()
    pg, stop_pg = benchmark_server(prefix="permem-bench-serve-pg-")
    results = Results(args.out)
    command = shlex.join([".venv/bin/python", "benchmarks/serve.py", *sys.argv[1:]])
    results.emit(f"{header('serve', pg, args.seed, load_start)}\n  command: {command}\n")
    corpus = Corpus(args.claims, args.subjects, args.tenants, args.seed)
    asked = probes(corpus, args.probes)
    try:
        with FreshStores(pg) as stores:
            from permem.embedding import MiniLMEmbedder

            print(f"  loading {corpus.claims:,} claims ...", flush=True)
            index = timed_index(str(stores.home / "lance"), MiniLMEmbedder.dimension)
            stats = load_corpus(stores, corpus, index)
            floor = in_process(
                stores, index, asked[: args.warmup + args.floor_queries], args.warmup
            )
            results.emit(
                f"  store: {corpus.claims:,} claims of {corpus.subjects:,} subjects in "
                f"{corpus.tenants} tenants (loaded in {stats.pg_seconds + stats.lance_seconds:.0f}"
                f" s); {len(asked)} distinct probes, k=5\n"
                f"    floor, Recaller.recall in process, one at a time: {_figures(floor)}\n"
            )
            tenant_keys = service_keys(stores, corpus)
            server, base = start_server(stores)
            try:
                samples: list[tuple[float, float]] = []
                asyncio.run(drive(base, tenant_keys, asked[: args.warmup], 1, 10))
                rss_before = server_rss_mb(server.pid)
                levels = []
                for clients in levels_wanted:
                    level = asyncio.run(drive(base, tenant_keys, asked, clients, args.seconds))
                    levels.append(level)
                    results.emit(report_level(level, floor))
                sampling = (server.pid, args.sample, samples)
                soak = asyncio.run(
                    drive(base, tenant_keys, asked, args.soak_clients, args.soak, sampling)
                )
                levels.append(soak)
                growth, per_minute = rss_trend(samples)
                results.emit(
                    f"    soak, {soak.clients} clients for {soak.seconds:.0f} s: {_figures(soak)}"
                    f"\n    server RSS: {rss_before:.0f} MB before the levels, "
                    f"{samples[0][1]:.0f} MB at the soak's start, {samples[-1][1]:.0f} MB at its "
                    f"end, peak {max(mb for _, mb in samples):.0f} MB ({len(samples)} samples); "
                    f"after its first tenth {per_minute:+.2f} MB/min, {growth:+.1%}\n"
                )
                one = next((level for level in levels if level.clients == 1), levels[0])
                results.emit(verdicts(one, floor, levels, growth))
            finally:
                stop_server(server)
    finally:
        stop_pg()
    results.emit(f"  load avg 1/5/15 at end {load_average()}\n")


if __name__ == "__main__":
    main(sys.argv[1:])
