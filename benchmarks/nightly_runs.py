"""The nightly benchmark's measured runs, each called in its own spawned child process
(`harness.in_child`): the I/O floor, the end-to-end run, the flow with N workers, and the stored
state two runs must share (`benchmarks/nightly.py`)."""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import os
import sys
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from nightly_floors import stage_floors

from harness import (
    load_average,
    peak_rss_mb,
    rss_mb,
    tree_rss_mb,
)


def _default_batch_size() -> int:
    from permem.settings import Settings

    return int(Settings.model_fields["batch_size"].default)


def floor_child(log: str, url: str, home: str) -> dict[str, Any]:
    """Read the log and bulk-load its messages into `sources`, no NLP (in a child process)."""
    from collections import defaultdict

    from permem.logs import batches, read_log
    from permem.records import Message
    from permem.settings import Settings
    from permem.stores import migrate
    from permem.stores.database import bind_tenant, open_database, register_tenant
    from permem.stores.sources import append_sources

    batch_size = _default_batch_size()
    db = open_database(Settings(database_url=url, home=Path(home), batch_size=batch_size))
    migrate.upgrade(db)
    lines = loaded = 0
    started = time.perf_counter()
    for batch in batches(read_log(Path(log)), batch_size):
        lines += len(batch)
        grouped: dict[str, list[Message]] = defaultdict(list)
        for message in batch.messages:
            if not message.incognito:  # the nightly run never records them either
                grouped[message.tenant].append(message)
        batch_id = uuid.uuid4()
        with db.app.begin() as conn:
            for tenant, messages in grouped.items():
                bind_tenant(conn, tenant)
                register_tenant(conn, tenant)
                loaded += len(append_sources(conn, messages, batch_id))
    seconds = time.perf_counter() - started
    db.dispose()
    return {"lines": lines, "loaded": loaded, "seconds": seconds, "peak_rss_mb": peak_rss_mb()}


def end_to_end_child(
    log: str, url: str, home: str, embedder: str, profile: str | None
) -> dict[str, Any]:
    """`nightly.run` over the log on a warm runtime (in a child process)."""
    from permem import nightly
    from permem.runtime import close_all, runtime
    from permem.settings import Settings

    settings = Settings(
        database_url=url, home=Path(home), embedder=embedder, batch_size=_default_batch_size()
    )
    started = time.perf_counter()
    rt = runtime(settings)  # migrations, spaCy, Presidio
    rt.embedder.embed(["warm up the embedding model"])  # MiniLM loads on its first call
    importlib.import_module("lancedb")  # the vector index imports it on first use (seconds)
    startup = time.perf_counter() - started
    startup_rss = peak_rss_mb()
    threads = None
    if embedder == "minilm":
        import torch

        threads = torch.get_num_threads()

    # cProfile sees one thread only: stages that the run starts in a background thread
    # (indexing) get a profiler of their own, merged into the main one at the end.
    profiler = background = None
    if profile:
        import cProfile

        profiler, background = cProfile.Profile(), cProfile.Profile()
    main_thread = threading.get_ident()
    # The default stages, each call timed, to see whether a stage slows down as the stores grow.
    calls: dict[str, list[float]] = {name: [] for name in nightly.DIRECT_STAGES}
    # CPU seconds of the calling thread in each stage: the index step runs in a thread of its
    # own beside the next batch's stages, so its wall time (and theirs) holds waits for the GIL.
    cpu: dict[str, float] = dict.fromkeys(nightly.DIRECT_STAGES, 0.0)

    def timed(name: str, stage: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            started, on_cpu = time.perf_counter(), time.thread_time()
            if background is not None and threading.get_ident() != main_thread:
                value = background.runcall(stage, *args)
            else:
                value = stage(*args)
            calls[name].append(time.perf_counter() - started)
            cpu[name] += time.thread_time() - on_cpu
            return value

        return call

    stages = {name: timed(name, stage) for name, stage in nightly.DIRECT_STAGES.items()}
    done = 0
    rss_by_batch: list[float] = []

    def progress(lines: int) -> None:  # a heartbeat on stderr, for long runs
        nonlocal done
        done += lines
        rss_by_batch.append(rss_mb())
        elapsed = time.perf_counter() - started
        print(
            f"    ... {done:,} lines in {elapsed:,.0f} s, RSS {rss_by_batch[-1]:,.0f} MB",
            file=sys.stderr,
            flush=True,
        )

    nightly.PROGRESS.set(progress)
    if profiler is not None:
        profiler.enable()
    started = time.perf_counter()
    summary = nightly.run(settings, Path(log), stages=stages)
    wall = time.perf_counter() - started
    # The run's peak, read before the floors below, which hold every row they copy in memory
    # (at 1M messages the child's peak read after them was 2,431 MB, against 1,536 MB resident
    # after the run's last batch).
    peak = peak_rss_mb()
    hotspots = None
    if profiler is not None and background is not None and profile is not None:
        import pstats

        profiler.disable()
        profiler.create_stats()
        background.create_stats()
        pstats.Stats(profiler).add(pstats.Stats(background)).dump_stats(profile)
        hotspots = _hotspots(profile)
    # The floors of the non-NLP stages, on the stores this run left, with the load average
    # they were measured under (`nightly_floors`); not part of `wall`.
    floors = None if profile else stage_floors(settings, Path(log), summary.batches)
    if floors is not None:
        floors["load_average"] = load_average()
    close_all()
    result = summary.as_json()
    result.pop("quarantined", None)
    return {
        "summary": result,
        "seconds": dict(summary.seconds),
        "wall": wall,
        "startup": startup,
        "startup_rss_mb": startup_rss,
        "peak_rss_mb": peak,
        "torch_threads": threads,
        "hotspots": hotspots,
        "calls": calls,
        "cpu": cpu,
        "rss_by_batch": rss_by_batch,
        "floors": floors,
    }


def flow_child(
    log: str, url: str, home: str, embedder: str, workers: int, external: bool = False
) -> dict[str, Any]:
    """The Prefect flow over the log with `workers`, cold, on a temporary Prefect server
    started before the clock (in a child process); its report, timings and stored state.
    `external`: with more than one worker, `dask scheduler` and `workers` `dask worker`
    processes are started inside the clock and the flow reaches them through
    PERMEM_DASK_ADDRESS, instead of starting its local cluster."""
    os.environ.update(
        PERMEM_DATABASE_URL=url,
        PERMEM_HOME=home,
        PERMEM_EMBEDDER=embedder,
        PERMEM_BATCH_SIZE=str(_default_batch_size()),
        PREFECT_SERVER_ANALYTICS_ENABLED="false",
        PREFECT_LOGGING_LEVEL="WARNING",
        PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS="180",
    )
    from prefect.testing.utilities import prefect_test_harness

    from flows.nightly import NightlyParams, nightly_extract
    from permem import nightly
    from permem.runtime import close_all
    from permem.settings import load_settings

    marks: list[tuple[float, int, float]] = []  # (seconds since start, lines, tree RSS MB)

    def progress(lines: int) -> None:
        marks.append((time.perf_counter() - started, lines, tree_rss_mb()))

    with prefect_test_harness(server_startup_timeout=180):
        nightly.PROGRESS.set(progress)
        load_start = load_average()
        started = time.perf_counter()
        with contextlib.ExitStack() as stack:
            if external and workers > 1:
                from tests.dask_cluster import dask_cluster

                address = stack.enter_context(dask_cluster(workers))
                os.environ["PERMEM_DASK_ADDRESS"] = address
            report = nightly_extract(NightlyParams(logs=log, workers=workers))
        wall = time.perf_counter() - started
        os.environ.pop("PERMEM_DASK_ADDRESS", None)
        load_end = load_average()
    state = stored_state(load_settings())
    close_all()
    report.pop("quarantined", None)
    return {
        "report": report,
        "wall": wall,
        "marks": marks,
        "state": state,
        "peak_rss_mb": peak_rss_mb(),
        "load": (load_start, load_end),
    }


def stored_state(settings: Any) -> dict[str, Any]:
    """Every stored row of the run (minus timestamps, run ids, random ids and salted hashes)
    and the index ids, as digests: what must not differ between 1 and N workers."""
    import sqlalchemy as sa

    from permem.runtime import runtime

    volatile = {"created_at", "ingested_at", "decided_at", "quarantined_at", "at", "batch_id",
                "claim_hash", "subject_hash", "content_hash", "candidate_hash",
                "enqueued_at"}  # fmt: skip
    tables = {
        "sources": "tenant, message_id",
        "memories": "id",
        "gate_decisions": "id",
        "lineage_edges": "tenant, parent_kind, parent_id, child_kind, child_id",
        "memory_events": "memory_id, new_value",
        "quarantine": "line_no, reason",
    }
    engine = sa.create_engine(settings.database_url, poolclass=sa.NullPool)
    digests: dict[str, Any] = {}
    try:
        with engine.connect() as conn:
            for table, order in tables.items():
                drop = volatile | ({"id"} if table in ("memory_events", "quarantine") else set())
                digest = hashlib.blake2b(digest_size=8)
                count = 0
                for row in conn.execute(sa.text(f"SELECT * FROM {table} ORDER BY {order}")):
                    fields = {k: str(v) for k, v in row._mapping.items() if k not in drop}
                    digest.update(json.dumps(fields, sort_keys=True).encode())
                    count += 1
                digests[table] = (count, digest.hexdigest())
            tenants = list(conn.execute(sa.text("SELECT DISTINCT tenant FROM sources")).scalars())
    finally:
        engine.dispose()
    index = runtime(settings).index
    ids = sorted(set().union(*(index.ids(t) for t in tenants)))
    digests["index"] = (len(ids), hashlib.blake2b("".join(ids).encode(), digest_size=8).hexdigest())
    return digests


def _hotspots(path: str, top: int = 25) -> str:
    import io
    import pstats

    out = io.StringIO()
    stats = pstats.Stats(path, stream=out).strip_dirs()
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)
    return out.getvalue()
