"""Why the nightly index step slows down batch by batch: the check for ids already present.

`VectorIndex.upsert` asks which of a batch's ids the table already holds (`_present`), then
appends the new ones. The scalar indexes are built at the end of a night
(`ensure_scalar_indexes`), so within a night every row appended earlier is unindexed, and the
check reads all of them: its cost grows with the rows appended so far tonight.

This benchmark appends `--rounds` batches of `--rows` fresh rows to a table that starts with
`--base` indexed rows, timing the check and the append of each round, in two tables side by
side in one process (rounds alternate between them):

  plain      the nightly path as it is (indexes only at the start);
  refreshed  the indexes brought up to date (`VectorIndex.refresh_scalar_indexes`, Lance's
             incremental `optimize_indices`) after every `--every` rounds.

Run by hand; results are appended to benchmarks/results/lance_present.txt:

    .venv/bin/python benchmarks/lance_present.py [--base 100000] [--rounds 100] [--rows 1300]
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from permem.stores.vectors import IndexRow, VectorIndex

RESULTS = Path(__file__).resolve().parent / "results" / "lance_present.txt"
DIMENSION = 256


def _rows(n: int, rng: np.random.Generator, start: datetime) -> list[IndexRow]:
    vectors = rng.standard_normal((n, DIMENSION)).astype(np.float32)
    return [
        IndexRow(
            id=str(uuid.uuid4()), tenant=f"t{i % 7}", subject=f"s{rng.integers(50_000)}",
            scope="global", purpose="assistant", status="active", kind="fact",
            sensitivity="none", valid_from=start, valid_until=None, vector=vectors[i],
        )  # fmt: skip
        for i in range(n)
    ]


def _code() -> str:
    here = Path(__file__).resolve().parent
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=here, capture_output=True,
                          text=True, check=False).stdout.strip()  # fmt: skip
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=here,
                           capture_output=True, text=True, check=False).stdout.strip()  # fmt: skip
    return head + (f" (+{len(dirty.splitlines())} modified files)" if dirty else "")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--rows", type=int, default=1300)
    parser.add_argument("--every", type=int, default=10)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(7)
    start = datetime(2026, 11, 1, tzinfo=UTC)
    lines = [
        f"# {datetime.now(UTC):%Y-%m-%d %H:%M} UTC lance present check, {platform.node()}, "
        f"code {_code()}, load avg {'/'.join(f'{x:.2f}' for x in os.getloadavg())}",
        f"  base {args.base:,} indexed rows, {args.rounds} rounds of {args.rows:,} fresh rows, "
        f"refreshed every {args.every} rounds",
    ]
    with tempfile.TemporaryDirectory(prefix="lance-present-") as tmp:
        base = _rows(args.base, rng, start)
        tables = {}
        for name in ("plain", "refreshed"):
            index = VectorIndex(str(Path(tmp) / name), DIMENSION)
            for i in range(0, len(base), 20_000):
                index.upsert(base[i : i + 20_000])
            index.ensure_scalar_indexes()
            tables[name] = index
        timings: dict[str, list[tuple[float, float, float]]] = {name: [] for name in tables}
        for round_ in range(1, args.rounds + 1):
            batch = _rows(args.rows, rng, start)
            for name, index in tables.items():
                started = time.perf_counter()
                present = index._present([row.id for row in batch])  # noqa: SLF001
                checked = time.perf_counter()
                assert not present
                index.upsert(batch)
                appended = time.perf_counter()
                refresh = 0.0
                if name == "refreshed" and round_ % args.every == 0:
                    index.refresh_scalar_indexes()
                    refresh = time.perf_counter() - appended
                timings[name].append((checked - started, appended - checked, refresh))
        picks = sorted({0, args.rounds // 4, args.rounds // 2, 3 * args.rounds // 4, args.rounds - 1})
        for name, rounds in timings.items():
            check = ", ".join(f"{rounds[i][0] * 1000:.0f}" for i in picks)
            upsert = ", ".join(f"{rounds[i][1] * 1000:.0f}" for i in picks)
            total = sum(c + a + r for c, a, r in rounds)
            refresh = sum(r for _, _, r in rounds)
            lines.append(
                f"  {name:<10} rounds {', '.join(str(i + 1) for i in picks)}: present check "
                f"{check} ms; upsert (check + append) {upsert} ms; all rounds {total:.1f} s "
                f"(of which index refresh {refresh:.1f} s)"
            )
    text = "\n".join(lines) + "\n"
    print(text, end="")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a") as out:
        out.write("\n" + text)


if __name__ == "__main__":
    main()
