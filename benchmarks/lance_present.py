"""Why the nightly index step slows down batch by batch: the reads that no index covers.

`VectorIndex.upsert` asks which of a batch's ids the table already holds (`_present`) before
it appends the new ones, and the status sync updates rows by id. A row no scalar index covers
is read by a scan on each of these, so without indexes kept up to date a night's batches each
pay for all the rows appended before them (on a first night: every row, since the indexes
are built only at its end).

This benchmark appends `--rounds` batches of `--rows` fresh rows to a table that starts with
`--base` indexed rows (0: a first night, no index at all), and after each append sets the
status of `--updates` rows of the previous round, timing the id check, the append and the
update, in two tables side by side in one process (rounds alternate between them):

  plain      appends only, indexes as they were at the start (the nightly path before);
  refreshed  `upsert` brings the indexes up to date every `REFRESH_ROWS` appended rows
             (`VectorIndex.refresh_scalar_indexes`: built on a first night, then Lance's
             incremental `optimize_indices`).

Run by hand; results are appended to benchmarks/results/lance_present.txt:

    .venv/bin/python benchmarks/lance_present.py [--base 100000] [--rounds 100] [--rows 1300]
"""

from __future__ import annotations

import argparse
import platform
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from permem.stores.vectors import IndexRow, VectorIndex  # noqa: E402
from permem.stores.vectors._index import REFRESH_ROWS  # noqa: E402

from harness import Results, code_version, load_average  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "lance_present.txt"
DIMENSION = 256


def _rows(n: int, rng: np.random.Generator, start: datetime) -> list[IndexRow]:
    vectors = rng.standard_normal((n, DIMENSION)).astype(np.float32)
    return [
        IndexRow(
            id=str(uuid.uuid4()),
            tenant=f"t{i % 7}",
            subject=f"s{rng.integers(50_000)}",
            scope="global",
            purpose="assistant",
            status="active",
            kind="fact",
            sensitivity="none",
            valid_from=start,
            valid_until=None,
            vector=vectors[i],
        )  # fmt: skip
        for i in range(n)
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--rows", type=int, default=1300)
    parser.add_argument("--updates", type=int, default=50)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(7)
    start = datetime(2026, 11, 1, tzinfo=UTC)
    lines = [
        f"# {datetime.now(UTC):%Y-%m-%d %H:%M} UTC lance present check, {platform.node()}, "
        f"code {code_version()}, load avg {load_average()}",
        f"  base {args.base:,} indexed rows, {args.rounds} rounds of {args.rows:,} fresh rows "
        f"and a status update of {args.updates} rows of the round before; refreshed every "
        f"{REFRESH_ROWS:,} appended rows",
    ]
    with tempfile.TemporaryDirectory(prefix="lance-present-") as tmp:
        base = _rows(args.base, rng, start)
        tables = {}
        for name in ("plain", "refreshed"):
            index = VectorIndex(str(Path(tmp) / name), DIMENSION)
            if name == "plain":
                index.refresh_rows = 1 << 62
            for i in range(0, len(base), 20_000):
                index.upsert(base[i : i + 20_000])
            if base:
                index.ensure_scalar_indexes()
            tables[name] = index
        timings: dict[str, list[tuple[float, float, float]]] = {name: [] for name in tables}
        previous: list[IndexRow] = []
        for _ in range(args.rounds):
            batch = _rows(args.rows, rng, start)
            updated = [row.id for row in previous[: args.updates]]
            for name, index in tables.items():
                started = time.perf_counter()
                present = index._present([row.id for row in batch])  # noqa: SLF001
                checked = time.perf_counter()
                assert not present
                index.upsert(batch)  # its own check again, the append, a refresh when due
                appended = time.perf_counter()
                index.set_status(updated, "superseded")
                timings[name].append((checked - started, appended - checked,
                                      time.perf_counter() - appended))  # fmt: skip
            previous = batch
        last = args.rounds - 1
        picks = sorted({0, args.rounds // 4, args.rounds // 2, 3 * args.rounds // 4, last})
        for name, rounds in timings.items():
            shown = [", ".join(f"{rounds[i][part] * 1000:.0f}" for i in picks) for part in range(3)]
            total = sum(sum(r) for r in rounds)
            lines.append(
                f"  {name:<10} rounds {', '.join(str(i + 1) for i in picks)}: id check "
                f"{shown[0]} ms; upsert {shown[1]} ms; status update {shown[2]} ms; all rounds "
                f"{total:.1f} s"
            )
    Results(RESULTS).emit("\n" + "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
