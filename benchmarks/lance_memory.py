"""Where the nightly's resident memory grows: LanceDB's reads and updates of a growing table.

Over a night the process's resident set grows by a few MB a batch (nightly.txt), and the
growth is the index step's: the same 100k log with the index stage replaced by one that does
nothing stays flat. This benchmark isolates it. Each variant runs in its own spawned child on
a new table and does, for `--rounds` rounds of `--rows` fresh rows (after one round that is
not counted: opening the table, the first use of each operation), what the index step does
with each batch: the check for ids already present (`VectorIndex._present`), the append, a
status update of `--updates` rows and, every `REFRESH_ROWS` appended rows, the refresh of the
scalar indexes. Resident memory is read after handing freed heap pages back
(`permem.heap.release_freed`) before and after each operation, and the differences are added
up per operation:

  index step   all four, as the nightly does;
  appends      the append alone (the floor);
  small cache  the index step on a connection whose LanceDB session holds at most 16 MB of
               index and metadata caches (the default allows 6 GB and 1 GB): does the growth
               live in those caches?

Run by hand; results are appended to benchmarks/results/lance_memory.txt:

    .venv/bin/python benchmarks/lance_memory.py [--rounds 100] [--rows 1400] [--updates 100]
"""

from __future__ import annotations

import argparse
import platform
import sys
import tempfile
import time
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Results, code_version, in_child, load_average  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "lance_memory.txt"
DIMENSION = 384
VARIANTS = ("index step", "appends", "small cache")


def _rss_mb() -> float:
    from permem.heap import release_freed

    release_freed()
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def variant_child(variant: str, rounds: int, rows: int, updates: int) -> dict[str, Any]:
    """One variant on a new table in this (spawned) process: MB gained per operation."""
    from permem.stores.vectors import IndexRow, VectorIndex
    from permem.stores.vectors._index import REFRESH_ROWS

    folder = tempfile.mkdtemp(prefix="permem-lance-memory-")
    index = VectorIndex(folder, DIMENSION, embedder="benchmark")
    if variant == "small cache":
        import lancedb

        session = lancedb.Session(
            index_cache_size_bytes=16 << 20, metadata_cache_size_bytes=16 << 20
        )

        def _open(self: Any) -> Any:
            db = lancedb.connect(self.uri, read_consistency_interval=timedelta(0), session=session)
            return db.create_table(self.table_name, schema=self._schema, exist_ok=True)

        VectorIndex._open = _open  # type: ignore[method-assign]
    rng = np.random.default_rng(7)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    gained: Counter[str] = Counter()

    def step(name: str, operation: Any, *args: Any) -> None:
        before = _rss_mb()
        operation(*args)
        gained[name] += _rss_mb() - before

    def one_round(counted: bool) -> None:
        nonlocal appended
        vectors = rng.standard_normal((rows, DIMENSION)).astype(np.float32)
        batch = [
            IndexRow(id=str(uuid.uuid4()), tenant=f"t{i % 6}", subject=f"s{i % 5000}",
                     scope="global", purpose="assistant", status="active", kind="fact",
                     sensitivity="none", valid_from=start, valid_until=None, vector=vectors[i])
            for i in range(rows)
        ]  # fmt: skip
        ids = [row.id for row in batch]
        if variant != "appends":
            step("id check", index._present, ids)
        step("append", index._table.add, index._arrow(batch))
        appended += rows
        if variant != "appends":
            step("status update", index.set_status, ids[:updates], "superseded")
            if appended >= REFRESH_ROWS:
                appended = 0
                step("index refresh", index.refresh_scalar_indexes)
        if not counted:
            gained.clear()

    appended = 0
    one_round(counted=False)  # opening the table and the first use of each operation
    first = _rss_mb()
    started = time.perf_counter()
    for _ in range(rounds):
        one_round(counted=True)
    return {
        "variant": variant,
        "gained": dict(gained),
        "total": _rss_mb() - first,
        "seconds": time.perf_counter() - started,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--rows", type=int, default=1400)
    parser.add_argument("--updates", type=int, default=100)
    args = parser.parse_args(argv)
    import lancedb

    results = Results(RESULTS)
    results.emit(
        f"\n# {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()}, code {code_version()}, "
        f"lancedb {lancedb.__version__}, load {load_average()}; {args.rounds} rounds of "
        f"{args.rows:,} rows ({DIMENSION} dimensions), {args.updates} status updates a round; "
        "MB of resident memory gained, after each operation's freed pages went back\n"
    )
    for variant in VARIANTS:
        found = in_child(variant_child, variant, args.rounds, args.rows, args.updates)
        parts = ", ".join(f"{name} {mb:+.0f}" for name, mb in found["gained"].items())
        results.emit(
            f"  {variant:<12} {found['total']:+6.0f} MB in all "
            f"({found['total'] / args.rounds:+.2f} MB a round; {parts}), "
            f"{found['seconds']:.1f} s\n"
        )


if __name__ == "__main__":
    main()
