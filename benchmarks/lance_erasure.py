"""Why verified erasure grows with the LanceDB table: what `VectorIndex.erase` rewrites.

`erase` deletes the rows, compacts with materialized deletions (every data file holding a
deleted row is rewritten), rebuilds the scalar indexes and removes the old versions. Which
files hold a subject's rows decides the cost: a subject whose claims arrived over months is
spread over every fragment, one whose claims arrived in one night sits in one. This builds a
table of N rows (the index's real schema, 384-dimensional vectors, appended in nights of 5,000
rows, compacted as the nightly optimize leaves it), then erases through `VectorIndex.erase`,
timed step by step with the same calls in the same order:

- **spread**: one subject with 1,000 rows, one every N/1,000 rows;
- **clustered**: one subject with 1,000 rows appended in one night (then compacted).

Each with Lance's default compaction target (1,048,576 rows a fragment, which `erase` and the
nightly optimize use now) and with a smaller one, to show what bounding the fragments buys.

Run by hand (a few minutes for 1.1M rows); appends to benchmarks/results/lance_erasure.txt:

    .venv/bin/python benchmarks/lance_erasure.py [--sizes 110000,1100000]
"""

from __future__ import annotations

import argparse
import platform
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parent))

from permem.stores.vectors import VectorIndex  # noqa: E402

from harness import Results, code_version, cores, load_average  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "lance_erasure.txt"
DIMENSION = 384
NIGHT = 5000
SUBJECT_ROWS = 1000


def _night(
    index: VectorIndex, start: int, n: int, subject_of: list[str], rng: np.random.Generator
) -> pa.Table:
    schema = index._table.schema  # noqa: SLF001 (a benchmark of this class's files)
    when = datetime(2026, 1, 1, tzinfo=UTC)
    vectors = rng.standard_normal((n, DIMENSION), dtype=np.float32)
    columns: dict[str, pa.Array] = {
        "id": pa.array([f"claim-{i:09d}" for i in range(start, start + n)])
    }
    for field in schema:
        name = field.name
        if name in ("id", "vector", "valid_from", "valid_until"):
            continue
        fixed = {"tenant": "t", "status": "active", "scope": "global", "purpose": "assistant"}
        values = subject_of if name == "subject" else [fixed.get(name, "x")] * n
        columns[name] = pa.array(values, field.type)
    columns["valid_from"] = pa.array([when] * n, schema.field("valid_from").type)
    columns["valid_until"] = pa.array([None] * n, schema.field("valid_until").type)
    columns["vector"] = pa.FixedSizeListArray.from_arrays(
        pa.array(vectors.ravel()), type=schema.field("vector").type
    )
    return pa.table(columns, schema=schema)


def _erase_steps(
    index: VectorIndex, subject: str, fragment_rows: int, defer_remap: bool
) -> dict[str, float]:
    """`VectorIndex.erase` of the subject's rows, its steps timed apart (same calls, same order).
    `defer_remap`: compaction leaves the scalar indexes to the rebuild that follows it instead
    of remapping them to the rewritten fragments first."""
    table = index._table  # noqa: SLF001
    ids = [
        r["id"]
        for r in table.search().where(f"subject = '{subject}'").select(["id"]).limit(None).to_list()
    ]
    seconds: dict[str, float] = {}
    started = time.perf_counter()
    index.delete(ids)
    seconds["delete"] = time.perf_counter() - started
    started = time.perf_counter()
    table.to_lance().optimize.compact_files(
        materialize_deletions=True,
        materialize_deletions_threshold=0.0,
        target_rows_per_fragment=fragment_rows,
        defer_index_remap=defer_remap,
    )
    table.checkout_latest()
    seconds["compact"] = time.perf_counter() - started
    started = time.perf_counter()
    index._build_scalar_indexes(rebuild=True)  # noqa: SLF001
    seconds["scalar indexes"] = time.perf_counter() - started
    started = time.perf_counter()
    table.to_lance().cleanup_old_versions(older_than=timedelta(0), delete_unverified=True)
    table.checkout_latest()
    seconds["cleanup"] = time.perf_counter() - started
    seconds["rows"] = float(len(ids))
    return seconds


def run(size: int, fragment_rows: int, defer_remap: bool, results: Results) -> None:
    rng = np.random.default_rng(1)
    with tempfile.TemporaryDirectory(prefix="permem-lance-") as folder:
        index = VectorIndex(folder, DIMENSION)
        every = size // SUBJECT_ROWS
        for start in range(0, size, NIGHT):
            n = min(NIGHT, size - start)
            subjects = [
                "spread" if (start + i) % every == 0 else f"s{(start + i) % 10_000}"
                for i in range(n)
            ]
            index._table.add(_night(index, start, n, subjects, rng))  # noqa: SLF001
        index._table.add(_night(index, size, SUBJECT_ROWS, ["clustered"] * SUBJECT_ROWS, rng))  # noqa: SLF001
        table = index._table  # noqa: SLF001
        table.to_lance().optimize.compact_files(target_rows_per_fragment=fragment_rows)
        table.checkout_latest()
        index.ensure_scalar_indexes()
        table.to_lance().cleanup_old_versions(older_than=timedelta(0), delete_unverified=True)
        table.checkout_latest()
        fragments = len(table.to_lance().get_fragments())
        results.emit(
            f"  {size + SUBJECT_ROWS:,} rows in {fragments} fragments (target "
            f"{fragment_rows:,} rows a fragment; indexes remapped "
            f"{'by the rebuild only' if defer_remap else 'at compaction'}; "
            f"load avg {load_average()})\n"
        )
        for subject in ("spread", "clustered"):
            before = len(table.to_lance().get_fragments())
            steps = _erase_steps(index, subject, fragment_rows, defer_remap)
            total = sum(v for k, v in steps.items() if k != "rows")
            detail = ", ".join(f"{k} {v:.2f} s" for k, v in steps.items() if k != "rows")
            results.emit(
                f"    {subject:<9} subject ({steps['rows']:.0f} rows, table of {before} "
                f"fragments): erase {total:.1f} s = {detail}\n"
            )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="110000,1100000")
    parser.add_argument(
        "--fragment-rows",
        default="1048576,65536",
        help="compaction targets to compare (1048576: Lance's default, what erase uses now)",
    )
    parser.add_argument(
        "--remap",
        default="compaction,rebuild",
        help="when the scalar indexes follow the rewritten fragments, to compare: at compaction "
        "(Lance's default, then rebuilt anyway) or only by the rebuild after it",
    )
    args = parser.parse_args(argv)
    remaps = args.remap.split(",")
    if not set(remaps) <= {"compaction", "rebuild"}:
        parser.error(f"--remap takes compaction and/or rebuild, got {args.remap!r}")
    results = Results(RESULTS)
    results.emit(
        f"\n# {datetime.now(UTC):%Y-%m-%d %H:%M} UTC lance erasure, {platform.node()}, cores "
        f"{cores().removeprefix('cores=')}, code {code_version()}, load avg {load_average()}\n"
    )
    for fragment_rows in (int(f) for f in args.fragment_rows.split(",")):
        for size in (int(s) for s in args.sizes.split(",")):
            for remap in remaps:
                run(size - SUBJECT_ROWS, fragment_rows, remap == "rebuild", results)


if __name__ == "__main__":
    main()
