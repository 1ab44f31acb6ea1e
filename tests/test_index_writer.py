"""The nightly's LanceDB writes in a child process (`permem.stores.vectors.IndexWriter`): the same
stored state as in one process, the parent never opening LanceDB, the scalar-index refresh
counted across children, errors raised in the caller. Real PostgreSQL and LanceDB."""

from __future__ import annotations

import subprocess
import sys
import uuid
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from permem import nightly
from permem.errors import BadInput
from permem.runtime import runtime
from permem.settings import Settings
from permem.stores.vectors import IndexRow, IndexWriter, VectorIndex
from permem.stores.vectors._writer import WriterFailed
from tests.test_flow_dask import big_log, state_of


def test_a_night_written_by_children_stores_what_one_process_stores(
    two_stores: list[Settings], tmp_path: Path
) -> None:
    """Every write in a child from the first, a fresh child every two writes: the rows, the
    lineage and the index ids equal those of the run that writes in its own process, and the
    parent never opened the table; the night's end stops the child."""
    log = big_log(tmp_path / "log.jsonl")
    in_process, children = two_stores
    nightly.run(in_process, log)
    rt = runtime(children)
    writer = rt._writer = IndexWriter(rt.index, in_process=0, calls=2)
    summary = nightly.run(children, log)
    assert summary.counts["indexed"] > 0
    assert 0 < summary.embed_seconds < summary.seconds["index"]  # part of the index step
    assert writer.children >= 3 and writer.child_calls > 4  # children, one after the other
    assert rt.index._opened is None  # nothing of LanceDB in the parent
    assert writer._child is None  # the night's end stopped the last child
    assert state_of(children) == state_of(in_process)


def _rows(n: int) -> list[IndexRow]:
    vectors = np.random.default_rng(3).standard_normal((n, 8)).astype(np.float32)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    return [
        IndexRow(id=str(uuid.uuid4()), tenant="acme", subject="ana", scope="global",
                 purpose="assistant", status="active", kind="fact", sensitivity="none",
                 valid_from=start, valid_until=None, vector=vectors[i])
        for i in range(n)
    ]  # fmt: skip


def test_the_refresh_of_the_scalar_indexes_is_counted_across_children(tmp_path: Path) -> None:
    """Three appends of four rows, each by a new child, with a refresh due every ten rows: the
    third child builds the indexes, as one process would have."""
    index = VectorIndex(str(tmp_path / "lance"), 8, embedder="test")
    index.refresh_rows = 10
    writer = IndexWriter(index, in_process=0, calls=1)
    try:
        for _ in range(2):
            writer.upsert(_rows(4))
        assert index._appended == 8
        assert not list(index._table.list_indices())
        writer.upsert(_rows(4))
        assert index._appended == 0
        assert {tuple(ix.columns) for ix in index._table.list_indices()} >= {("id",)}
        assert index.count() == 12
    finally:
        writer.close()


def test_an_error_in_the_child_is_raised_in_the_caller(tmp_path: Path) -> None:
    index = VectorIndex(str(tmp_path / "lance"), 8, embedder="test")
    writer = IndexWriter(index, in_process=0)
    try:
        writer.upsert(_rows(2))
        with pytest.raises(BadInput, match="status must not be empty"):
            writer.set_status([], "")
        assert writer.child_calls == 2 and index._opened is None
        writer.upsert(_rows(1))  # the child still serves after an error
        assert index.count() == 3
    finally:
        writer.close()


def test_a_script_without_a_main_guard_can_write_through_a_child(tmp_path: Path) -> None:
    """The child is started with `python -m`, not multiprocessing: it never runs the caller's
    main module again (a spawned multiprocessing child would, and fail in an unguarded one)."""
    script = tmp_path / "unguarded.py"
    script.write_text(
        "import sys\n"
        "sys.path.insert(0, sys.argv[2])\n"
        "from tests.test_index_writer import _rows\n"
        "from permem.stores.vectors import IndexWriter, VectorIndex\n"
        "index = VectorIndex(sys.argv[1], 8, embedder='test')\n"
        "writer = IndexWriter(index, in_process=0)\n"
        "writer.upsert(_rows(5))\n"
        "writer.close()\n"
        "print(index.count())\n"
    )
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "lance"), str(root)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "5"


def test_a_child_that_died_is_replaced_and_a_finished_refresh_resets_the_count(
    tmp_path: Path,
) -> None:
    index = VectorIndex(str(tmp_path / "lance"), 8, embedder="test")
    writer = IndexWriter(index, in_process=0)
    try:
        writer.upsert(_rows(3))
        assert writer._child is not None
        writer._child.process.kill()
        with pytest.raises(WriterFailed, match="ended"):
            writer.upsert(_rows(1))
        writer.upsert(_rows(2))  # a new child
        assert writer.children == 2 and index._appended == 5
        writer.ensure_scalar_indexes()
        assert index._appended == 0  # as in one process: the indexes cover every row
        assert index.count() == 5
    finally:
        writer.close()
