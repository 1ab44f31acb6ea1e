"""Part 1 of the recall benchmark: the generated claims bulk-loaded, then each probe answered by
`Recaller.recall` and by the ranking-only floor, alternately (`benchmarks/recall.py`)."""

from __future__ import annotations

import sys
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import lance
import sqlalchemy as sa

from recall_corpus import QUERY_TS, Corpus, Probe, generate_chunk, probes
from recall_stores import FreshStores, TimedEmbedder, percentile, timed_index

TARGET_SIZE = 1_000_000
TARGET_P99_MS = 25.0
CHUNK = 50_000  # claims per load transaction and per LanceDB upsert (one fragment each)


@dataclass
class LoadStats:
    pg_seconds: float = 0.0
    lance_seconds: float = 0.0
    lance_rows: int = 0
    scalar_index_seconds: float = 0.0
    analyze_seconds: float = 0.0
    grants: int = 0
    fragments: int = 0


def load_corpus(stores: FreshStores, corpus: Corpus, index: Any) -> LoadStats:
    """Bulk-load the generated claims into PostgreSQL and LanceDB (see the module docstring)."""
    from permem import grants
    from permem.embedding import HashingEmbedder, embed_unique
    from permem.indexing import INDEXED_CONFIRMATIONS
    from permem.stores import migrate
    from permem.stores.database import bind_tenant, open_database, register_tenant
    from permem.stores.memories import append_memories
    from permem.stores.sources import append_sources
    from permem.stores.vectors import IndexRow

    stats = LoadStats()
    db = open_database(stores.settings)
    migrate.upgrade(db)
    hashing = HashingEmbedder(index.dimension)
    with db.app.begin() as conn:
        for t in range(corpus.tenants):
            bind_tenant(conn, corpus.tenant_of(t))
            register_tenant(conn, corpus.tenant_of(t))
    for start in range(0, corpus.claims, CHUNK):
        pairs = generate_chunk(corpus, start, min(corpus.claims, start + CHUNK))
        by_tenant: defaultdict[str, list[tuple[Any, Any]]] = defaultdict(list)
        for message, memory in pairs:
            by_tenant[message.tenant].append((message, memory))
        started = time.perf_counter()
        batch_id = uuid.uuid4()
        with db.app.begin() as conn:
            for tenant, group in by_tenant.items():
                bind_tenant(conn, tenant)
                append_sources(conn, [m for m, _ in group], batch_id)
                append_memories(conn, [r for _, r in group], batch_id=batch_id)
        stats.pg_seconds += time.perf_counter() - started
        # What index_pending would have indexed, with the statuses sync_status carries over.
        indexable = [r for _, r in pairs if r.confirmation.value in INDEXED_CONFIRMATIONS]
        started = time.perf_counter()
        vectors = embed_unique(hashing, [r.claim for r in indexable])
        index.upsert([IndexRow.of(r, v) for r, v in zip(indexable, vectors, strict=True)])
        stats.lance_seconds += time.perf_counter() - started
        stats.lance_rows += len(indexable)
        print(
            f"    ... loaded {start + len(pairs):,} claims (PostgreSQL {stats.pg_seconds:.0f} s, "
            f"LanceDB {stats.lance_seconds:.0f} s)",
            file=sys.stderr,
            flush=True,
        )
    started = time.perf_counter()
    index.ensure_scalar_indexes()
    stats.scalar_index_seconds = time.perf_counter() - started
    stats.fragments = len(lance.dataset(f"{index.uri}/{index.table_name}.lance").get_fragments())
    grant_time = QUERY_TS - timedelta(days=30)
    for s in range(corpus.subjects):
        if corpus.granted(s):
            grants.grant(
                db, corpus.tenant_of(s), actor=corpus.subject_name(corpus.grantee(s)),
                subject=corpus.subject_name(s), purpose="assistant",
                expires_at=QUERY_TS + timedelta(days=365), granted_by=corpus.subject_name(s),
                now=grant_time,
            )  # fmt: skip
            stats.grants += 1
    db.dispose()
    started = time.perf_counter()
    owner = stores.owner()
    with owner.connect() as conn:
        conn.execute(sa.text("VACUUM ANALYZE"))
    owner.dispose()
    stats.analyze_seconds = time.perf_counter() - started
    return stats


@dataclass
class Latency:
    recall: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)
    floor_search: list[float] = field(default_factory=list)
    embed: list[float] = field(default_factory=list)
    search: list[float] = field(default_factory=list)
    rest: list[float] = field(default_factory=list)
    returned: Counter[int] = field(default_factory=Counter)
    filtered: Counter[str] = field(default_factory=Counter)
    denied: int = 0
    embedded_on_the_spot: int = 0


def probe_query(number: int, probe: Probe) -> Any:
    """The `RecallQuery` a probe asks (k=5, at `QUERY_TS`)."""
    from permem.recall import RecallQuery

    return RecallQuery(
        query_id=f"bench-{number}", tenant=probe.tenant, actor=probe.actor,
        subject=probe.subject, purpose=probe.purpose, scope=probe.scope, ts=QUERY_TS,
        text=probe.text, k=5,
    )  # fmt: skip


def measure_latency(
    stores: FreshStores, corpus: Corpus, index: Any, n: int, warmup: int, profile: str | None
) -> Latency:
    """Answer `warmup + n` probes through `Recaller.recall` and through the floor, alternately."""
    from permem.embedding import MiniLMEmbedder
    from permem.recall import Recaller
    from permem.stores.database import open_database

    db = open_database(stores.settings)
    embedder = TimedEmbedder(MiniLMEmbedder())
    recaller = Recaller(db, index, embedder)
    embedder.embed(["warm up the model"])
    result = Latency()

    def ask_recall(number: int, probe: Probe) -> None:
        query = probe_query(number, probe)
        embedder.seconds = index.seconds = 0.0
        embedder.texts = 0
        started = time.perf_counter()
        answer = recaller.recall(query)
        elapsed = time.perf_counter() - started
        if number < warmup:
            return
        result.recall.append(elapsed * 1000)
        result.embed.append(embedder.seconds * 1000)
        result.search.append(index.seconds * 1000)
        result.rest.append((elapsed - embedder.seconds - index.seconds) * 1000)
        result.returned[len(answer.records)] += 1
        result.filtered.update(answer.filtered_out)
        result.denied += answer.denied is not None
        result.embedded_on_the_spot += max(0, embedder.texts - 1)

    def ask_floor(number: int, probe: Probe) -> None:
        started = time.perf_counter()
        vector = embedder.embed([probe.text])[0]
        searched = time.perf_counter()
        index.search(vector, tenant=probe.tenant, subject=probe.subject, k=5)
        done = time.perf_counter()
        if number >= warmup:
            result.floor.append((done - started) * 1000)
            result.floor_search.append((done - searched) * 1000)

    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile()
    for number, probe in enumerate(probes(corpus, warmup + n)):
        if number == warmup and profiler is not None:
            profiler.enable()
        first, second = (ask_recall, ask_floor) if number % 2 else (ask_floor, ask_recall)
        first(number, probe)
        second(number, probe)
    if profiler is not None and profile is not None:
        import io
        import pstats

        profiler.disable()
        profiler.dump_stats(profile)
        out = io.StringIO()
        stats = pstats.Stats(profile, stream=out).strip_dirs()
        stats.sort_stats("cumulative").print_stats(30)
        stats.sort_stats("tottime").print_stats(25)
        print(out.getvalue(), flush=True)
    db.dispose()
    return result


def _pp(values: Sequence[float]) -> str:
    return f"p50 {percentile(values, 0.5):.1f} ms, p99 {percentile(values, 0.99):.1f} ms"


def report_latency(corpus: Corpus, stats: LoadStats, lat: Latency, profiled: bool) -> str:
    n = corpus.claims
    p50, p99 = percentile(lat.recall, 0.5), percentile(lat.recall, 0.99)
    f50, f99 = percentile(lat.floor, 0.5), percentile(lat.floor, 0.99)
    returned = sum(k * v for k, v in lat.returned.items()) / max(1, len(lat.recall))
    filtered = sum(lat.filtered.values()) / max(1, len(lat.recall))
    reasons = ", ".join(
        f"{reason} {count / len(lat.recall):.2f}"
        for reason, count in lat.filtered.most_common()
        if count
    )
    if n == TARGET_SIZE:
        verdict = "MET" if p99 <= TARGET_P99_MS else "NOT MET"
        target = f"target p99 <= {TARGET_P99_MS:.0f} ms at 1M claims on 2 cores: {verdict}"
    else:
        target = f"(the {TARGET_P99_MS:.0f} ms p99 target applies at 1M claims)"
    if profiled:
        target += "; measured under cProfile: slower than without"
    return (
        f"  latency, n={n:,} claims of {corpus.subjects:,} subjects ({n / corpus.subjects:.0f} "
        f"each) in {corpus.tenants} tenants; {len(lat.recall)} probes after warm-up, k=5, "
        f"recall and floor alternating\n"
        f"    load: PostgreSQL append_sources+append_memories {n / stats.pg_seconds:,.0f} "
        f"claims/s ({stats.pg_seconds:.0f} s); LanceDB upsert {stats.lance_rows:,} rows "
        f"{stats.lance_rows / stats.lance_seconds:,.0f} rows/s ({stats.lance_seconds:.0f} s, "
        f"{stats.fragments} fragments); scalar indexes {stats.scalar_index_seconds:.1f} s; "
        f"VACUUM ANALYZE {stats.analyze_seconds:.1f} s; {stats.grants} grants\n"
        f"    per probe: filtered out {filtered:.1f} claims ({reasons}); returned "
        f"{returned:.2f} records; denied {lat.denied}; claims embedded on the spot "
        f"{lat.embedded_on_the_spot}\n"
        f"    Recaller.recall (embed, authorize, filter, rank, re-check, log): {_pp(lat.recall)}\n"
        f"    floor (MiniLM embed + VectorIndex.search, tenant+subject only): {_pp(lat.floor)}\n"
        f"    ratio recall/floor: p50 {p50 / f50:.2f}x, p99 {p99 / f99:.2f}x\n"
        f"    inside recall: embed {_pp(lat.embed)}; LanceDB search (survivor ids) "
        f"{_pp(lat.search)}; the rest (PostgreSQL, Python) {_pp(lat.rest)}\n"
        f"    inside the floor: LanceDB search {_pp(lat.floor_search)}\n"
        f"    {target}\n"
    )


def latency_part(server: str, corpus: Corpus, n: int, warmup: int, profile: str | None) -> str:
    from permem.embedding import MiniLMEmbedder

    print(f"  latency n={corpus.claims:,}: loading ...", flush=True)
    with FreshStores(server) as stores:
        index = timed_index(str(stores.home / "lance"), MiniLMEmbedder.dimension)
        stats = load_corpus(stores, corpus, index)
        lat = measure_latency(stores, corpus, index, n, warmup, profile)
    return report_latency(corpus, stats, lat, profile is not None)
