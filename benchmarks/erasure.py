"""Erasure at scale: one subject with 1,000 claims in a store of N claims.

For each size (default 100k and 1M claims of 10k subjects, generated and bulk-loaded exactly as
benchmarks/recall.py does), a subject `victim` gets 1,000 claims of its own, indexed; then,
side by side in one run:

* **until recall is empty**: from the start of the forget request until a recall for the
  subject returns nothing: `forget.request` (one ledger row, committed) plus one full
  `Recaller.recall` (target <= 100 ms); then **blocked**: the request and its expansion over
  the lineage graph (node rows, statuses), which recall does not wait for;
* **erased**: `forget.erase` (LanceDB delete + compaction with materialized deletions + old
  version cleanup + scalar index rebuild, PostgreSQL deletes, VACUUM), split by step;
* **verified**: `forget.verify` (PostgreSQL by id and hash; every LanceDB data and index file
  read with the Lance file reader); erased + verified is the time to verified physical
  erasure (target <= 60 s).

Backups are not part of this run (none exist): their purge costs one re-encryption per backup
of the subject's block. Run by hand:

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

sys.path.insert(0, str(Path(__file__).resolve().parent))

import recall as bench  # noqa: E402  (benchmarks/recall.py: generator and loaders)

from harness import benchmark_server, code_version, cores, load_average  # noqa: E402

VICTIM = "victim"
VICTIM_CLAIMS = 1000
RESULTS = Path(__file__).resolve().parent / "results" / "erasure.txt"


def add_victim(stores: Any, index: Any, tenant: str) -> list[str]:
    """Append 1,000 claims of `victim` (in `tenant`) through the same bulk paths; their ids."""
    from permem.embedding import HashingEmbedder
    from permem.indexing import enqueue, index_pending
    from permem.stores.database import open_database, tenant_transaction
    from permem.stores.memories import append_memories
    from permem.stores.sources import append_sources

    corpus = bench.Corpus(claims=VICTIM_CLAIMS, subjects=1, tenants=1, seed=4242)
    pairs = []
    for i, (message, memory) in enumerate(bench.generate_chunk(corpus, 0, VICTIM_CLAIMS)):
        message = dataclasses.replace(
            message, message_id=f"v-{i:05d}", tenant=tenant, account=VICTIM, subject=VICTIM
        )
        memory = dataclasses.replace(
            memory,
            tenant=tenant,
            subject=VICTIM,
            account=VICTIM,
            source=dataclasses.replace(memory.source, message_id=message.message_id),
            id=uuid.uuid4(),
        )
        pairs.append((message, memory))
    db = open_database(stores.settings)
    with tenant_transaction(db.app, tenant) as conn:
        append_sources(conn, [m for m, _ in pairs], uuid.uuid4())
        append_memories(conn, [r for _, r in pairs])
        enqueue(conn, [r for _, r in pairs])
    # Lineage memory -> embedding -> index row, as the nightly index step records it.
    index_pending(db, index, HashingEmbedder(index.dimension), tenants=[tenant])
    db.dispose()
    return [str(r.id) for _, r in pairs]


def measure(server: str, claims: int) -> dict[str, float]:
    from permem import forget
    from permem.recall import Recaller, parse_query
    from permem.runtime import runtime

    corpus = bench.Corpus(claims=claims, subjects=10_000, tenants=4, seed=7)
    with bench.FreshStores(server, embedder="hashing") as stores:
        rt = runtime(stores.settings)
        bench.load_corpus(stores, corpus, rt.index)
        tenant = corpus.tenant_of(0)
        add_victim(stores, rt.index, tenant)
        recaller = Recaller(rt.db, rt.index, rt.embedder)
        query = parse_query({
            "query_id": "q", "tenant": tenant, "actor": VICTIM, "subject": VICTIM,
            "purpose": "assistant", "scope": "global", "ts": bench.QUERY_TS.isoformat(),
            "text": "what should I cook tonight?", "k": 5,
        })  # fmt: skip
        assert recaller.recall(query).records, "the victim must be recallable before"
        now = datetime.now(UTC)
        target = forget.Target(forget.TargetKind.SUBJECT, VICTIM)
        started = time.perf_counter()
        blocked = forget.request(rt.db, tenant, target, actor=VICTIM, now=now)
        answer = recaller.recall(query)  # after the request row, before the expansion
        until_empty = time.perf_counter() - started
        assert not answer.records, "a recall after the request must return nothing"
        forget.expand(rt.db, blocked, actor=VICTIM, now=now)
        block_s = blocked.seconds
        assert blocked.memories == VICTIM_CLAIMS
        started = time.perf_counter()
        erased = forget.erase(rt.db, rt.index, tenant, now=now)
        erase_s = time.perf_counter() - started
        started = time.perf_counter()
        verified = forget.verify(rt.db, rt.index, tenant, now=now, backups=False)
        verify_s = time.perf_counter() - started
        assert verified.clean, verified.residue
        return {
            "claims": claims + VICTIM_CLAIMS,
            "block_s": block_s,
            "until_recall_empty_s": until_empty,
            "erase_s": erase_s,
            "verify_s": verify_s,
            "until_verified_s": erase_s + verify_s,
            "ledger_rows": float(sum(blocked.nodes.values())),
            "rows_deleted": float(sum(erased.rows_deleted.values())),
        }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100000,1000000")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    server, stop = benchmark_server(prefix="permem-bench-recall-pg-")
    rows = []
    try:
        for size in sizes:
            print(f"size {size:,}: loading ...", file=sys.stderr, flush=True)
            rows.append(measure(server, size))
            print(f"  {rows[-1]}", file=sys.stderr, flush=True)
    finally:
        stop()
    lines = [
        f"# erasure benchmark {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()}, "
        f"{cores()}, load {load_average()}",
        f"# {code_version()}; one subject with {VICTIM_CLAIMS} claims; "
        "targets: recall empty <= 100 ms, verified erasure <= 60 s",
        f"{'claims':>10} {'block ms':>9} {'->empty ms':>11} {'erase s':>8} {'verify s':>9} "
        f"{'verified s':>11} {'ledger':>7} {'deleted':>8}",
    ]
    for r in rows:
        lines.append(
            f"{int(r['claims']):>10,} {r['block_s'] * 1000:>9.1f} "
            f"{r['until_recall_empty_s'] * 1000:>11.1f} {r['erase_s']:>8.2f} "
            f"{r['verify_s']:>9.2f} {r['until_verified_s']:>11.2f} {int(r['ledger_rows']):>7} "
            f"{int(r['rows_deleted']):>8}"
        )
    if len(rows) > 1:
        a, b = rows[0], rows[-1]
        lines.append(
            f"growth {int(a['claims']):,} -> {int(b['claims']):,} claims: block x"
            f"{b['block_s'] / a['block_s']:.2f}, until empty x"
            f"{b['until_recall_empty_s'] / a['until_recall_empty_s']:.2f}, verified erasure x"
            f"{b['until_verified_s'] / a['until_verified_s']:.2f}"
        )
    text = "\n".join(lines) + "\n\n"
    print(text)
    RESULTS.parent.mkdir(exist_ok=True)
    with RESULTS.open("a") as fh:
        fh.write(text)


if __name__ == "__main__":
    main()
