"""The nightly's LanceDB writes in a child process of their own, replaced every few batches.

LanceDB keeps native memory from every read and update of a table that grows, and a new
connection does not give it back (benchmarks/lance_memory.py): over a night of 200 batches
the process that indexed them grew by about 3 MB a batch (1M messages: 848 MB resident after
the first batch, 1,536 MB after the last). `IndexWriter` runs the index step's table
operations (`upsert`, `set_status`, `ensure_scalar_indexes`), past the first few, in one
spawned child process that imports LanceDB and nothing of the NLP, and replaces it after
`calls` operations, so what LanceDB keeps goes away with it. Embedding, lineage and the queue
stay in the caller.

The child is `python -c` calling `serve_pipes` of this module, started with `subprocess` and spoken
to over two pipes of its own (pickled calls and answers): unlike a multiprocessing child it
never imports the caller's main module, so a script without a `__main__` guard still works.
It opens the table itself (LanceDB must not cross a fork), and ends when its pipe closes
(the caller's `close`, or the caller's death). The rows appended since
the scalar indexes were last refreshed are counted here, not in the child, so the refresh
comes every `REFRESH_ROWS` rows as it does in one process, whichever child appends them.
An error in the child is raised here with its message; the call's effect is what the same
call in this process would have left (each operation is one LanceDB commit or none). When
the exchange itself fails (the child died, or the caller was interrupted while waiting), the
child is stopped and the next call starts another.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import Any, BinaryIO

from permem.errors import PermemError
from permem.stores.vectors._index import VectorIndex
from permem.stores.vectors._rows import IndexRow

# Operations done in the calling process before a child takes over, and by each child before
# a fresh one does: a night of 5,000-line batches calls two or three a batch, so a night of
# up to about 10 batches stays in one process, and each child serves about 5 batches. Over
# 300k messages children of 40 calls grew from 237 to 424 MB resident before the next took
# over; over 100k, children of 12 calls held 128-165 MB of their own (USS), about 0.85 s of
# start-up each (an empty table), in the background.
IN_PROCESS_CALLS = 25
CALLS_PER_CHILD = 12

_Spec = tuple[str, int, str, str | None]

# The child's own index, opened on its first call (one per spec).
_OPENED: dict[_Spec, VectorIndex] = {}


def _index(spec: _Spec) -> VectorIndex:
    found = _OPENED.get(spec)
    if found is None:
        uri, dimension, table, embedder = spec
        found = _OPENED[spec] = VectorIndex(uri, dimension, table, embedder=embedder)
    return found


def _upsert(spec: _Spec, rows: Sequence[IndexRow], appended: int, refresh_rows: int) -> int:
    index = _index(spec)
    index.refresh_rows, index._appended = refresh_rows, appended
    index.upsert(rows)
    return index._appended


def _set_status(spec: _Spec, ids: Sequence[str], status: str) -> None:
    _index(spec).set_status(ids, status)


def _ensure_scalar_indexes(spec: _Spec) -> int:
    index = _index(spec)
    index.ensure_scalar_indexes()
    return index._appended


_OPERATIONS: dict[str, Callable[..., Any]] = {
    "upsert": _upsert,
    "set_status": _set_status,
    "ensure_scalar_indexes": _ensure_scalar_indexes,
}


class WriterFailed(PermemError):
    """The index writer's child process ended without answering, or raised an error that
    could not be sent back as it was."""


def _serve(calls: BinaryIO, answers: BinaryIO) -> None:
    """The child's loop: one pickled call in, one pickled (ok, value) out, until EOF."""
    while True:
        try:
            name, args = pickle.load(calls)
        except EOFError:
            return
        try:
            answer: tuple[bool, Any] = (True, _OPERATIONS[name](*args))
        except Exception as exc:  # sent back and raised in the caller
            answer = (False, exc)
        try:
            data = pickle.dumps(answer)
        except Exception:  # an error that does not pickle: its type and message
            data = pickle.dumps((False, WriterFailed(f"{type(answer[1]).__name__}: {answer[1]}")))
        answers.write(data)
        answers.flush()


# What the child runs (`python -c`: the module is imported, never run as __main__).
_CHILD = (
    "import sys; from permem.stores.vectors._writer import serve_pipes; "
    "serve_pipes(int(sys.argv[1]), int(sys.argv[2]))"
)


class _Child:
    """One writer child process and its two pipes."""

    def __init__(self) -> None:
        calls_read, calls_write = os.pipe()
        answers_read, answers_write = os.pipe()
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-c", _CHILD, str(calls_read), str(answers_write)],
                pass_fds=(calls_read, answers_write),
                stdin=subprocess.DEVNULL,
            )
        except BaseException:
            for fd in (calls_read, calls_write, answers_read, answers_write):
                os.close(fd)
            raise
        os.close(calls_read)
        os.close(answers_write)
        self.calls = os.fdopen(calls_write, "wb")
        self.answers = os.fdopen(answers_read, "rb")
        self.served = 0

    def call(self, name: str, *args: Any) -> Any:
        """`name` in the child; an error it raised is raised here. If the exchange itself
        fails (the child died, or this process was interrupted while waiting), the child is
        stopped, since its next answer could belong to this call, and the error goes up."""
        self.served += 1
        try:
            pickle.dump((name, args), self.calls)
            self.calls.flush()
            ok, value = pickle.load(self.answers)
        except (EOFError, BrokenPipeError, ValueError) as exc:  # ValueError: closed pipe
            self.close()
            raise WriterFailed(
                f"the index writer's child process ended (exit {self.process.returncode}) "
                f"during {name}"
            ) from exc
        except BaseException:
            self.close()
            raise
        if not ok:
            raise value
        return value

    @property
    def stopped(self) -> bool:
        return self.process.returncode is not None

    def close(self) -> None:
        """Close its pipes (the child ends at EOF) and wait for it; kill it if it has not
        ended within a minute (an operation under way, stuck)."""
        for stream in (self.calls, self.answers):
            try:
                stream.close()
            except OSError:
                pass  # the child is gone already
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class IndexWriter:
    """`VectorIndex.upsert`, `set_status` and `ensure_scalar_indexes` of `index`: the first
    `in_process` calls in this process (a short night never starts a child), every later one
    in a child process replaced after `calls` of them (see the module docstring).
    `table_name` names the same table."""

    def __init__(
        self,
        index: VectorIndex,
        *,
        in_process: int = IN_PROCESS_CALLS,
        calls: int = CALLS_PER_CHILD,
    ) -> None:
        self.index = index
        self.table_name = index.table_name
        self._budget = in_process
        self.in_process = in_process
        self.calls = calls
        self.child_calls = 0
        self.children = 0
        self._spec: _Spec = (index.uri, index.dimension, index.table_name, index.embedder)
        self._child: _Child | None = None

    def _run(self, name: str, *args: Any) -> Any:
        """`name` with `args` in the current child (a fresh one when the last has served
        `calls`)."""
        if self._child is not None and self._child.served >= self.calls:
            self._child.close()
            self._child = None
        if self._child is None:
            self._child = _Child()
            self.children += 1
        self.child_calls += 1
        child = self._child
        try:
            return child.call(name, self._spec, *args)
        finally:
            if child.stopped:  # the exchange failed and stopped it: the next call starts another
                self._child = None

    def _here(self) -> bool:
        """Whether this call stays in this process (the night's first `in_process` calls)."""
        if self.in_process > 0:
            self.in_process -= 1
            return True
        return False

    def upsert(self, rows: Sequence[IndexRow]) -> None:
        if self._here():
            self.index.upsert(rows)
        else:
            appended, refresh = self.index._appended, self.index.refresh_rows
            self.index._appended = self._run("upsert", list(rows), appended, refresh)

    def set_status(self, ids: Sequence[str], status: str) -> None:
        if self._here():
            self.index.set_status(ids, status)
        else:
            self._run("set_status", list(ids), status)

    def ensure_scalar_indexes(self) -> None:
        if self._here():
            self.index.ensure_scalar_indexes()
        else:
            self.index._appended = self._run("ensure_scalar_indexes")

    def close(self) -> None:
        """Stop the child, if one was started (waits for the operation under way); the next
        night starts in this process again."""
        self.in_process = self._budget
        child, self._child = self._child, None
        if child is not None:
            child.close()


def serve_pipes(calls: int, answers: int) -> None:
    """The child's entry point: serve the calls read from file descriptor `calls`."""
    with os.fdopen(calls, "rb") as reading, os.fdopen(answers, "wb") as writing:
        _serve(reading, writing)
