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
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shlex
import signal
import sys
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import lance
import numpy as np
import sqlalchemy as sa
from numpy.typing import NDArray

from harness import FreshDatabase, Results, benchmark_server, header, load_average

RESULTS = Path(__file__).resolve().parent / "results" / "recall.txt"
EVAL = Path("/work/shared/data/eval")
TARGET_SIZE = 1_000_000
TARGET_P99_MS = 25.0
CHUNK = 50_000  # claims per load transaction and per LanceDB upsert (one fragment each)
QUERY_TS = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
GRANTED_SHARE = 0.02  # subjects whose memory another account may read through a grant
DELEGATED_QUERIES = 0.10  # probes asked by that other account

# ---------------------------------------------------------------------------------------------
# Generated claims: short texts in the words the pipeline stores them in.
# ---------------------------------------------------------------------------------------------

FOODS = ("peanuts", "shellfish", "coriander", "mushrooms", "blue cheese", "spicy curries",
         "oat milk", "sushi", "tofu", "lamb", "olives", "dark chocolate", "kimchi", "lentil soup",
         "gluten", "sesame", "raw onion", "aubergine", "ramen", "falafel")  # fmt: skip
CITIES = ("Lisbon", "Porto", "Lyon", "Ghent", "Bergen", "Krakow", "Valencia", "Bologna",
          "Tallinn", "Kyoto", "Hanoi", "Montreal", "Tucson", "Riga", "Basel",
          "Seville")  # fmt: skip
HOBBIES = ("bouldering", "birdwatching", "sea swimming", "pottery", "trail running", "chess",
           "baking bread", "sailing", "knitting", "film photography", "gardening", "kayaking",
           "board games", "cycling", "jazz piano", "salsa dancing")  # fmt: skip
STYLES = ("short answers", "bullet points", "metric units", "a formal tone", "British spelling",
          "code examples in Python", "answers in French", "no emojis", "step-by-step plans",
          "a summary first", "sources for every fact", "dark mode screenshots")  # fmt: skip
RELATIONS = ("daughter", "son", "partner", "mother", "brother", "best friend", "boss")
WHEN = ("", "", "", " on weekdays", " at work", " when travelling", " in the evenings",
        " since last year", " these days")  # fmt: skip

TEMPLATES: tuple[tuple[str, str, str], ...] = (
    # (kind, origin, template)
    ("preference", "user_fact", "prefers {style}{when}"),
    ("preference", "user_fact", "likes {food}{when}"),
    ("preference", "user_fact", "dislikes {food}"),
    ("preference", "observed_behavior", "often asks about {hobby}"),
    ("preference", "user_fact", "enjoys {hobby}{when}"),
    ("constraint", "user_fact", "is allergic to {food}"),
    ("constraint", "user_fact", "avoids {food}{when}"),
    ("constraint", "user_fact", "cannot travel before {hour} am"),
    ("instruction", "explicit_instruction", "wants {style}"),
    ("instruction", "explicit_instruction", "asks to always use {style}"),
    ("fact", "user_fact", "lives in {city}"),
    ("fact", "user_fact", "works as a {job} in {city}"),
    ("fact", "user_fact", "has a {relation} who loves {hobby}"),
    ("event", "user_fact", "visited {city} last {season}"),
    ("event", "user_fact", "ran a half marathon in {city}"),
    ("plan", "user_fact", "plans to visit {city} in {month}"),
    ("plan", "user_fact", "is going to start {hobby} next {season}"),
)
JOBS = ("nurse", "data analyst", "teacher", "carpenter", "pharmacist", "architect", "chef")
SEASONS = ("spring", "summer", "autumn", "winter")
MONTHS = ("January", "March", "May", "July", "September", "November")

QUERIES = ("What should I cook for dinner tonight?", "Suggest a snack for a long train ride.",
           "Can you find me a hotel in {city} for next weekend?",
           "Plan a three-day trip to {city} for me.", "Write a short email to my team.",
           "Recommend a weekend activity near {city}.", "What should I order at a sushi place?",
           "Help me pick a birthday present for my {relation}.",
           "Summarise this article about {hobby} for me.", "Draft my weekly plan.",
           "Is {food} safe to eat every day?", "How many calories are in {food}?",
           "Which flight should I book to {city}?", "Give me a recipe with {food}.",
           "I need ideas for a hobby I can do {when_q}.")  # fmt: skip
WHEN_Q = ("at home", "on weekends", "in winter", "with friends")


def _fill(template: str, rng: random.Random) -> str:
    slots = {
        "style": STYLES, "food": FOODS, "hobby": HOBBIES, "city": CITIES, "relation": RELATIONS,
        "when": WHEN, "job": JOBS, "season": SEASONS, "month": MONTHS, "when_q": WHEN_Q,
        "hour": ("6", "7", "8", "9", "10"),
    }  # fmt: skip
    return re.sub(r"\{(\w+)\}", lambda m: rng.choice(slots[m.group(1)]), template)


@dataclass(frozen=True)
class Corpus:
    """Where the generated claims live: names of tenants, subjects, the grants."""

    claims: int
    subjects: int
    tenants: int
    seed: int

    def tenant_of(self, subject: int) -> str:
        return f"tenant-{subject % self.tenants:02d}"

    @staticmethod
    def subject_name(subject: int) -> str:
        return f"user-{subject:05d}"

    def granted(self, subject: int) -> bool:
        """Whether the next subject of the same tenant holds a grant to read this one."""
        return subject % round(1 / GRANTED_SHARE) == 0 and subject + self.tenants < self.subjects

    def grantee(self, subject: int) -> int:
        return subject + self.tenants  # same tenant, another account


def generate_chunk(corpus: Corpus, start: int, stop: int) -> list[tuple[Any, Any]]:
    """Claims `start`..`stop` as (Message, UserMemory) pairs, deterministic for the seed.

    Claim i belongs to subject i mod S: a subject's claims are spread through the tables as
    they would be after months of nightly runs, not stored next to each other.
    """
    from permem.records import (
        Confirmation,
        Kind,
        Message,
        Origin,
        Role,
        Sensitivity,
        SourceRef,
        Status,
        UserMemory,
    )

    rng = random.Random(f"{corpus.seed}:{start}")
    pairs = []
    for i in range(start, stop):
        s = i % corpus.subjects
        tenant, subject = corpus.tenant_of(s), corpus.subject_name(s)
        kind, origin, template = rng.choice(TEMPLATES)
        claim = _fill(template, rng)
        observed = QUERY_TS - timedelta(days=rng.uniform(1, 720))
        valid_from, valid_until = observed, None
        roll = rng.random()
        if roll < 0.04:  # "until Friday": already over
            valid_until = observed + rng.uniform(0.2, 0.9) * (QUERY_TS - observed)
        elif roll < 0.07:
            valid_until = QUERY_TS + timedelta(days=rng.uniform(1, 90))
        elif roll < 0.09:  # a plan that starts later
            valid_from = QUERY_TS + timedelta(days=rng.uniform(1, 60))
        roll = rng.random()
        status, session = Status.ACTIVE, None
        if roll < 0.07:
            status = Status.SUPERSEDED
        elif roll < 0.10:
            status = Status.EXPIRED
        elif roll < 0.12:
            status, session = Status.SESSION_ONLY, f"s-{subject}-{rng.randrange(3)}"
        elif roll < 0.13:
            status = Status.RETRACTED
        roll = rng.random()
        confirmation = Confirmation.UNCONFIRMED
        if roll < 0.06:
            confirmation = Confirmation.PENDING
        elif roll < 0.07:
            confirmation = Confirmation.REJECTED
        elif roll < 0.15:
            confirmation = Confirmation.CONFIRMED
        roll = rng.random()
        purpose = "assistant"
        if roll < 0.04:
            purpose = "travel"
        elif roll < 0.07:
            purpose = "health_coach"
        elif roll < 0.10:
            purpose = "budget_coach"
        roll = rng.random()
        scope = "global"
        if roll < 0.10:
            scope = f"project:{rng.choice(('alpha', 'beta', 'gamma'))}"
        elif roll < 0.15:
            scope = "workspace:home"
        text = f"Remember this: {claim}."  # only its salted hash is stored
        message = Message(
            message_id=f"m-{i:08d}",
            tenant=tenant,
            account=subject,
            conversation_id=f"c-{subject}-{i // corpus.subjects // 8}",
            turn=i // corpus.subjects,
            role=Role.USER,
            text=text,
            ts=observed,
            scope=scope,
            purpose=purpose,
            session=session,
        )
        memory = UserMemory(
            tenant=tenant,
            subject=subject,
            account=subject,
            origin=Origin(origin),
            kind=Kind(kind),
            claim=claim,
            source=SourceRef(message.message_id, (15, len(text) - 1)),
            scope=scope,
            purpose=purpose,
            observed_at=observed,
            valid_from=valid_from,
            valid_until=valid_until,
            confidence=round(rng.uniform(0.55, 0.95), 3),
            sensitivity=Sensitivity.SPECIAL if "allergic" in claim else Sensitivity.NONE,
            confirmation=confirmation,
            status=status,
            session=session,
            policy_version="bench",
            id=uuid.UUID(int=rng.getrandbits(128), version=4),
        )
        pairs.append((message, memory))
    return pairs


# ---------------------------------------------------------------------------------------------
# Stores: a fresh database per run, and timing wrappers around the embedder and the index.
# ---------------------------------------------------------------------------------------------


class FreshStores(FreshDatabase):
    """A database created on the benchmark server and a LanceDB folder, both removed after."""

    def __init__(self, server: str, embedder: str = "minilm") -> None:
        from permem.settings import Settings

        super().__init__(server, prefix="permem_bench_recall")
        self.settings = Settings(database_url=self.url, home=self.home, embedder=embedder)

    def __enter__(self) -> FreshStores:
        super().__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        from permem.runtime import close_all

        close_all()
        super().__exit__(*exc)

    def owner(self) -> sa.Engine:
        """The database owner (a superuser on the benchmark servers: no row-level security)."""
        return sa.create_engine(self.url, isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)


class TimedEmbedder:
    """An `Embedder` that adds the time each `embed` call takes to `seconds`."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name: str = inner.name
        self.dimension: int = inner.dimension
        self.seconds = 0.0
        self.texts = 0

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        started = time.perf_counter()
        vectors: NDArray[np.float32] = self.inner.embed(texts)
        self.seconds += time.perf_counter() - started
        self.texts += len(texts)
        return vectors


def timed_index(uri: str, dimension: int) -> Any:
    """A `VectorIndex` whose `search` adds its time to `.seconds` (a subclass: the Recaller
    takes the concrete class)."""
    from permem.stores.vectors import VectorIndex

    class TimedIndex(VectorIndex):
        seconds = 0.0

        def search(self, vector: Any, **kwargs: Any) -> list[tuple[str, float]]:
            started = time.perf_counter()
            try:
                return super().search(vector, **kwargs)
            finally:
                self.seconds += time.perf_counter() - started

    return TimedIndex(uri, dimension)


# ---------------------------------------------------------------------------------------------
# Part 1: latency.
# ---------------------------------------------------------------------------------------------


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


@dataclass(frozen=True)
class Probe:
    tenant: str
    actor: str
    subject: str
    purpose: str
    scope: str
    text: str


def probes(corpus: Corpus, n: int) -> list[Probe]:
    rng = random.Random(f"{corpus.seed}:probes")
    granted = [s for s in range(corpus.subjects) if corpus.granted(s)]
    found = []
    for _ in range(n):
        if granted and rng.random() < DELEGATED_QUERIES:
            s = rng.choice(granted)
            actor = corpus.subject_name(corpus.grantee(s))
        else:
            s = rng.randrange(corpus.subjects)
            actor = corpus.subject_name(s)
        roll = rng.random()
        purpose = "assistant" if roll < 0.85 or actor != corpus.subject_name(s) else "travel"
        scope = "global" if rng.random() < 0.85 else "project:alpha"
        found.append(
            Probe(
                corpus.tenant_of(s),
                actor,
                corpus.subject_name(s),
                purpose,
                scope,
                _fill(rng.choice(QUERIES), rng),
            )  # fmt: skip
        )
    return found


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


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


def measure_latency(
    stores: FreshStores, corpus: Corpus, index: Any, n: int, warmup: int, profile: str | None
) -> Latency:
    """Answer `warmup + n` probes through `Recaller.recall` and through the floor, alternately."""
    from permem.embedding import MiniLMEmbedder
    from permem.recall import Recaller, RecallQuery
    from permem.stores.database import open_database

    db = open_database(stores.settings)
    embedder = TimedEmbedder(MiniLMEmbedder())
    recaller = Recaller(db, index, embedder)
    embedder.embed(["warm up the model"])
    result = Latency()

    def ask_recall(number: int, probe: Probe) -> None:
        query = RecallQuery(
            query_id=f"bench-{number}", tenant=probe.tenant, actor=probe.actor,
            subject=probe.subject, purpose=probe.purpose, scope=probe.scope, ts=QUERY_TS,
            text=probe.text, k=5,
        )  # fmt: skip
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


# ---------------------------------------------------------------------------------------------
# Part 2: quality on the dev datasets.
# ---------------------------------------------------------------------------------------------


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def log_files(folder: Path) -> list[Path]:
    """`logs.jsonl` or `logs-NN.jsonl`, in name order; never the folder (its other files are
    not log lines)."""
    return sorted(p for p in folder.glob("logs*.jsonl") if re.fullmatch(r"logs(-\d+)?", p.stem))


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


def score_queries(
    recaller: Any,
    embedder: TimedEmbedder,
    index: Any,
    queries: list[dict[str, Any]],
    gold: dict[str, dict[str, Any]],
    usable: dict[str, set[str]],
) -> Score:
    """Answer `queries` and score them against `gold` (see the module docstring)."""
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


def quality_dataset(server: str, name: str, folder: Path) -> str:
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
        recaller = Recaller(rt.db, index, embedder)
        lines = [
            f"    {name}: nightly {seconds:.0f} s, {stored:,} claims stored, "
            f"{sum(map(len, usable.values())):,} usable\n"
        ]
        for label, queries_path, gold_path in sets:
            gold = {g["query_id"]: g for g in read_jsonl(gold_path)}
            s = score_queries(recaller, embedder, index, read_jsonl(queries_path), gold, usable)
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
    server: str, root: Path, only: Sequence[str] | None, report: Callable[[str], None]
) -> None:
    """Score every dataset found under `root` (or `only` those), reporting each as it ends."""
    report("  quality: nightly.run (embedder minilm) into fresh stores, then Recaller.recall\n")
    found = datasets(root) if root.is_dir() else []
    expected = ["prefeval/explicit", "prefeval/implicit_choice", "prefeval/implicit_persona"]
    for name in expected + ["locomo"]:
        if not any(n == name or (name == "locomo" and n.startswith("locomo")) for n, _ in found):
            report(f"    {name}: not found under {root}; skipped\n")
    for name, folder in found:
        if only and name not in only:
            continue
        print(f"  quality {name}: running the nightly pipeline ...", flush=True)
        report(quality_dataset(server, name, folder))


# ---------------------------------------------------------------------------------------------
# The run and the report.
# ---------------------------------------------------------------------------------------------


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
        "--parts", default="latency,quality", help="latency, quality or both (comma-separated)"
    )
    parser.add_argument("--data", type=Path, default=EVAL, help="the evaluation data folder")
    parser.add_argument(
        "--datasets", nargs="+", metavar="NAME", help="only these, e.g. prefeval/explicit locomo"
    )
    parser.add_argument("--profile", help="profile the probes of the last size; pstats here")
    parser.add_argument("--out", type=Path, default=RESULTS, help="results file (appended to)")
    args = parser.parse_args(argv)
    parts = {p.strip() for p in args.parts.split(",") if p.strip()}
    if not parts or parts - {"latency", "quality"}:
        parser.error("--parts takes latency, quality or both")

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
    finally:
        stop()
    results.emit(f"  load avg 1/5/15 at end {load_average()}\n")


if __name__ == "__main__":
    main(sys.argv[1:])
