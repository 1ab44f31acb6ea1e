"""Erasure at scale: one subject with 1,000 claims, and 1,000 subjects with 100k claims in one
request, in a store of N claims.

For each size (default 100k and 1M claims of 10k subjects, generated and bulk-loaded exactly as
benchmarks/recall.py does: `recall_corpus.py`, `recall_latency.py`), a subject `victim` gets
1,000 claims of its own and 1,000 subjects `gone-0000` .. `gone-0999` get 100 each (100k
claims, interleaved as months of nightly runs would store them), all indexed through
`index_pending` (so with their lineage); then two forget requests, each measured the same
way, side by side in one run:

* **one subject** (`victim`), then **1,000 subjects** in one request (`Target.of_subjects`);
* **until recall is empty**: from the start of the forget request until a recall for (one of)
  the subject(s) returns nothing: `forget.request` (one ledger row per subject, committed in
  one transaction) plus one full `Recaller.recall` (target <= 100 ms: "block"); then
  **blocked**: the request and its expansion over the lineage graph (node rows, statuses,
  profiles), which recall does not wait for;
* **erased**: `forget.erase` (LanceDB delete + one compaction with materialized deletions +
  old version cleanup + scalar index rebuild, PostgreSQL deletes, VACUUM);
* **verified**: `forget.verify` (PostgreSQL by id and hash; every LanceDB data and index file
  read with the Lance file reader); erased + verified is the time to verified physical
  erasure (targets at 1M claims: one subject <= 15 s, 1,000 subjects <= 60 s).

Backups are not part of this run (none exist): their purge costs one re-encryption per backup
of each subject's block. Run by hand:

    PERMEM_BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \
        .venv/bin/python benchmarks/erasure.py [--sizes 100000,1000000]

Results are appended to benchmarks/results/erasure.txt.
"""

from __future__ import annotations

import argparse
import dataclasses
import platform
import sys
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import benchmark_server, code_version, cores, load_average  # noqa: E402
from recall_corpus import QUERY_TS, Corpus, generate_chunk  # noqa: E402
from recall_latency import load_corpus  # noqa: E402
from recall_stores import FreshStores  # noqa: E402

VICTIM = "victim"
VICTIM_CLAIMS = 1000
BATCH_SUBJECTS = 1000
BATCH_CLAIMS = 100_000  # 100 a subject
RESULTS = Path(__file__).resolve().parent / "results" / "erasure.txt"
# Targets (issue 14): block = until recall is empty; verified = erase + verify, at 1M claims.
BLOCK_TARGET_MS = 100.0
VERIFIED_TARGET_S = {"one subject": 15.0, "1,000 subjects": 60.0}


def add_victims(stores: Any, index: Any, tenant: str, subjects: list[str], claims: int) -> None:
    """Append `claims` claims of `subjects` (in `tenant`, interleaved: claim i is subject
    i mod len(subjects)'s) through the same bulk paths, and index them with their lineage."""
    from permem.embedding import HashingEmbedder
    from permem.indexing import enqueue, index_pending
    from permem.stores.database import open_database, tenant_transaction
    from permem.stores.memories import append_memories
    from permem.stores.sources import append_sources

    corpus = Corpus(claims=claims, subjects=len(subjects), tenants=1, seed=4242)
    db = open_database(stores.settings)
    for start in range(0, claims, 20_000):
        pairs = []
        chunk = generate_chunk(corpus, start, min(claims, start + 20_000))
        for i, (message, memory) in enumerate(chunk, start):
            subject = subjects[i % len(subjects)]
            message = dataclasses.replace(
                message, message_id=f"{subject}-{i:06d}", tenant=tenant, account=subject,
                subject=subject,
            )  # fmt: skip
            memory = dataclasses.replace(
                memory,
                tenant=tenant,
                subject=subject,
                account=subject,
                source=dataclasses.replace(memory.source, message_id=message.message_id),
                id=uuid.uuid4(),
            )
            pairs.append((message, memory))
        with tenant_transaction(db.app, tenant) as conn:
            append_sources(conn, [m for m, _ in pairs], uuid.uuid4())
            append_memories(conn, [r for _, r in pairs])
            enqueue(conn, [r for _, r in pairs])
    # Lineage memory -> embedding -> index row, as the nightly index step records it.
    index_pending(db, index, HashingEmbedder(index.dimension), tenants=[tenant])
    db.dispose()


# Keys of a measured run that hold one store's erase or verify seconds (the connector_seconds
# of forget.erase and forget.verify; verify's "ledger" is reading the ledger and the plan).
BY_STORE = "erase seconds of "
VERIFY_BY_STORE = "verify seconds of "


def forget_timed(rt: Any, tenant: str, subjects: list[str], expected: int) -> dict[str, float]:
    """One forget request for `subjects`, timed step by step (module doc)."""
    from permem import forget
    from permem.recall import Recaller, parse_query

    recaller = Recaller(rt.db, rt.index, rt.embedder)
    query = parse_query({
        "query_id": "q", "tenant": tenant, "actor": subjects[-1], "subject": subjects[-1],
        "purpose": "assistant", "scope": "global", "ts": QUERY_TS.isoformat(),
        "text": "what should I cook tonight?", "k": 5,
    })  # fmt: skip
    assert recaller.recall(query).records, "the subject must be recallable before"
    now = datetime.now(UTC)
    targets = forget.Target.of_subjects(subjects)
    started = time.perf_counter()
    blocked = forget.request(rt.db, tenant, targets, actor="bench", now=now)
    answer = recaller.recall(query)  # after the request rows, before the expansion
    until_empty = time.perf_counter() - started
    assert not answer.records, "a recall after the request must return nothing"
    forget.expand(rt.db, blocked, actor="bench", now=now)
    assert blocked.memories == expected, (blocked.memories, expected)
    versions = rt.index._table.version
    started = time.perf_counter()
    erased = forget.erase(rt.db, rt.index, tenant, now=now)
    erase_s = time.perf_counter() - started
    versions = rt.index._table.version - versions
    started = time.perf_counter()
    verified = forget.verify(rt.db, rt.index, tenant, now=now, backups=False)
    verify_s = time.perf_counter() - started
    assert verified.clean, verified.residue[:5]
    return {
        "subjects": float(len(subjects)),
        "forgotten": float(expected),
        "request_s": blocked.request_seconds,
        "block_s": blocked.seconds,
        "until_recall_empty_s": until_empty,
        "erase_s": erase_s,
        "verify_s": verify_s,
        "until_verified_s": erase_s + verify_s,
        "ledger_rows": float(sum(blocked.nodes.values())),
        "rows_deleted": float(sum(erased.rows_deleted.values())),
        "index_versions": float(versions),
        **{f"{BY_STORE}{name}": seconds for name, seconds in erased.connector_seconds.items()},
        **{f"{VERIFY_BY_STORE}{k}": seconds for k, seconds in verified.connector_seconds.items()},
    }


def measure(server: str, claims: int) -> dict[str, dict[str, float]]:
    from permem.runtime import runtime

    corpus = Corpus(claims=claims, subjects=10_000, tenants=4, seed=7)
    batch = [f"gone-{i:04d}" for i in range(BATCH_SUBJECTS)]
    with FreshStores(server, embedder="hashing") as stores:
        rt = runtime(stores.settings)
        load_corpus(stores, corpus, rt.index)
        tenant = corpus.tenant_of(0)
        started = time.perf_counter()
        add_victims(stores, rt.index, tenant, [VICTIM], VICTIM_CLAIMS)
        add_victims(stores, rt.index, tenant, batch, BATCH_CLAIMS)
        print(f"  victims added in {time.perf_counter() - started:.0f} s", file=sys.stderr)
        owner = stores.owner()
        with owner.connect() as conn:
            conn.execute(sa.text("VACUUM ANALYZE"))
        owner.dispose()
        stored = claims + VICTIM_CLAIMS + BATCH_CLAIMS
        one = forget_timed(rt, tenant, [VICTIM], VICTIM_CLAIMS)
        many = forget_timed(rt, tenant, batch, BATCH_CLAIMS)
        return {
            "one subject": {"claims": float(stored), **one},
            "1,000 subjects": {"claims": float(stored - VICTIM_CLAIMS), **many},
        }


def _mark(ok: bool) -> str:
    return "met" if ok else "MISSED"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100000,1000000")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    server, stop = benchmark_server(prefix="permem-bench-recall-pg-")
    runs = []
    try:
        for size in sizes:
            print(f"size {size:,}: loading ...", file=sys.stderr, flush=True)
            runs.append(measure(server, size))
            print(f"  {runs[-1]}", file=sys.stderr, flush=True)
    finally:
        stop()
    lines = [
        f"# erasure benchmark {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()}, "
        f"{cores()}, load {load_average()}",
        f"# {code_version()}; one subject with {VICTIM_CLAIMS:,} claims, then "
        f"{BATCH_SUBJECTS:,} subjects with {BATCH_CLAIMS:,} claims in one request; targets: "
        f"block (->empty) <= {BLOCK_TARGET_MS:.0f} ms, verified <= 15 s (one subject) and "
        "<= 60 s (1,000 subjects) at 1M claims",
        f"{'request':>14} {'claims':>10} {'request ms':>11} {'->empty ms':>11} "
        f"{'block ms':>9} {'erase s':>8} {'verify s':>9} {'verified s':>11} {'ledger':>7} "
        f"{'deleted':>8} {'versions':>8}  targets",
    ]
    for run in runs:
        for case, r in run.items():
            target = VERIFIED_TARGET_S[case]
            empty_ms = r["until_recall_empty_s"] * 1000
            lines.append(
                f"{case:>14} {int(r['claims']):>10,} {r['request_s'] * 1000:>11.1f} "
                f"{empty_ms:>11.1f} {r['block_s'] * 1000:>9.1f} {r['erase_s']:>8.2f} "
                f"{r['verify_s']:>9.2f} {r['until_verified_s']:>11.2f} "
                f"{int(r['ledger_rows']):>7} {int(r['rows_deleted']):>8} "
                f"{int(r['index_versions']):>8}  ->empty <= {BLOCK_TARGET_MS:.0f} ms "
                f"{_mark(empty_ms <= BLOCK_TARGET_MS)}, verified <= {target:.0f} s "
                f"{_mark(r['until_verified_s'] <= target)}"
            )
    for run in runs:
        for case, r in run.items():
            parts = ", ".join(
                f"{key.removeprefix(BY_STORE)} {value:.2f}"
                for key, value in r.items()
                if key.startswith(BY_STORE)
            )
            lines.append(f"erase s by store, {case} at {int(r['claims']):,} claims: {parts}")
            parts = ", ".join(
                f"{key.removeprefix(VERIFY_BY_STORE)} {value:.2f}"
                for key, value in r.items()
                if key.startswith(VERIFY_BY_STORE)
            )
            lines.append(f"verify s by store, {case} at {int(r['claims']):,} claims: {parts}")
    if len(runs) > 1:
        for case in runs[0]:
            a, b = runs[0][case], runs[-1][case]
            lines.append(
                f"growth {int(a['claims']):,} -> {int(b['claims']):,} claims, {case}: request x"
                f"{b['request_s'] / a['request_s']:.2f}, until empty x"
                f"{b['until_recall_empty_s'] / a['until_recall_empty_s']:.2f}, block x"
                f"{b['block_s'] / a['block_s']:.2f}, verified erasure x"
                f"{b['until_verified_s'] / a['until_verified_s']:.2f}"
            )
    text = "\n".join(lines) + "\n\n"
    print(text)
    RESULTS.parent.mkdir(exist_ok=True)
    with RESULTS.open("a") as fh:
        fh.write(text)


if __name__ == "__main__":
    main()
