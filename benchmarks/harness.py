"""What the benchmarks share: the server, a fresh database per run, a child process per run,
the facts of the machine, the code and the server for the results header, the results file, and
the readers of the evaluation data.

The benchmarks are scripts (`python benchmarks/nightly.py`), so this module is imported as a
sibling (`import harness`): the script's folder is first on `sys.path`, also in spawned
children.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import platform
import re
import resource
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

__all__ = [
    "DIRECT_ENTITY_TYPES",
    "FreshDatabase",
    "Results",
    "benchmark_server",
    "code_version",
    "cores",
    "header",
    "in_child",
    "load_average",
    "log_files",
    "peak_rss_mb",
    "read_jsonl",
    "rss_mb",
    "server_facts",
    "tree_rss_mb",
]


# --- the server and its databases --------------------------------------------------------------


def benchmark_server(prefix: str = "permem-bench-pg-") -> tuple[str, Callable[[], None]]:
    """The server to benchmark on and a function that stops it.

    `PERMEM_BENCH_DATABASE_URL` (or else `PERMEM_TEST_DATABASE_URL`) names a running server,
    which is left running; without either an embedded server starts in a temporary folder,
    which the returned function stops and removes.
    """
    url = os.environ.get("PERMEM_BENCH_DATABASE_URL") or os.environ.get("PERMEM_TEST_DATABASE_URL")
    if url:
        return url.replace("postgresql://", "postgresql+psycopg://", 1), lambda: None
    from permem.stores.embedded import start_embedded, stop_embedded

    folder = Path(tempfile.mkdtemp(prefix=prefix))

    def stop() -> None:
        stop_embedded(folder / "pgdata")
        shutil.rmtree(folder, ignore_errors=True)

    return start_embedded(folder / "pgdata", database="postgres"), stop


class FreshDatabase:
    """A database created for one run on the benchmark server, and a home folder; both are
    removed after the run. Names are unique, so runs never meet."""

    def __init__(self, server: str, prefix: str = "permem_bench") -> None:
        import sqlalchemy as sa
        from sqlalchemy.engine import make_url

        self.name = f"{prefix}_{uuid.uuid4().hex[:8]}"
        self.admin = sa.create_engine(server, isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)
        self.url = make_url(server).set(database=self.name).render_as_string(hide_password=False)
        self.home = Path(tempfile.mkdtemp(prefix=prefix.replace("_", "-") + "-"))

    def __enter__(self) -> FreshDatabase:
        import sqlalchemy as sa

        with self.admin.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{self.name}"'))
        return self

    def __exit__(self, *exc: object) -> None:
        import sqlalchemy as sa

        with self.admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)'))
        self.admin.dispose()
        shutil.rmtree(self.home, ignore_errors=True)


# --- a measured run in its own process ---------------------------------------------------------


def _call(function: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
    # Some permem exceptions do not survive pickling: send the traceback as text instead.
    try:
        return function(*args)
    except BaseException:
        import traceback

        raise RuntimeError(f"in the child process:\n{traceback.format_exc()}") from None


def in_child(function: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
    """Run `function(*args)` in a fresh spawned process and return its result."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        return pool.submit(_call, function, *args).result()


def _proc_status_mb(key: str) -> float | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(key):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def peak_rss_mb() -> float:
    """This process's peak resident set (VmHWM), in MB; ru_maxrss where /proc is missing.

    VmHWM is the high-water mark of this process's own address space, so the parent's pages
    that `ru_maxrss` may inherit through a spawn do not count.
    """
    peak = _proc_status_mb("VmHWM:")
    return peak if peak is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def rss_mb() -> float:
    """This process's resident set now, in MB (0 where /proc is missing)."""
    return _proc_status_mb("VmRSS:") or 0.0


def tree_rss_mb() -> float:
    """Resident set of this process and its spawned children (Dask workers), in MB."""
    import psutil

    me = psutil.Process()
    total = me.memory_info().rss
    for child in me.children(recursive=True):
        try:
            if any("spawn_main" in part for part in child.cmdline()):
                total += child.memory_info().rss
        except psutil.Error:
            pass
    return total / 2**20


# --- facts for the results header --------------------------------------------------------------


def load_average() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def cores() -> str:
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else "?"
    return f"cores={os.cpu_count()} (usable {affinity})"


def code_version() -> str:
    """The commit measured, and how many tracked files differ from it (others edit the tree)."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True
        ).stdout.strip()
        changed = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root,
            capture_output=True,
            text=True,
        ).stdout.splitlines()
    except OSError:
        return "unknown"
    return f"{head or 'unknown'} (+{len(changed)} modified files)" if changed else head


def server_facts(url: str) -> str:
    """The server's host, version and the settings that change the figures."""
    import sqlalchemy as sa
    from sqlalchemy.engine import make_url

    engine = sa.create_engine(url, poolclass=sa.NullPool)
    try:
        with engine.connect() as conn:
            facts = {
                name: conn.execute(sa.text(f"SHOW {name}")).scalar()
                for name in ("server_version", "autovacuum", "synchronous_commit", "shared_buffers")
            }
    finally:
        engine.dispose()
    # Without autovacuum nothing ANALYZEs freshly loaded tables: the planner keeps empty-table
    # estimates all run long.
    return (
        f"{make_url(url).host or 'embedded'} (PostgreSQL {facts['server_version']}, "
        f"autovacuum {facts['autovacuum']}, synchronous_commit {facts['synchronous_commit']}, "
        f"shared_buffers {facts['shared_buffers']})"
    )


def header(benchmark: str, server: str, seed: int, load_at_start: str) -> str:
    """The first line of a results block: when, on what machine, code and server, which seed."""
    return (
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} {benchmark} benchmark: {cores()}, "
        f"python {platform.python_version()}, code {code_version()}, "
        f"server={server_facts(server)}, seed {seed}, load avg 1/5/15 at start {load_at_start}"
    )


# --- the results file --------------------------------------------------------------------------


class Results:
    """A benchmark's report: each part is printed and appended to `path` as soon as it is
    measured, so a run killed half-way still leaves what it measured."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.parts: list[str] = []

    def emit(self, text: str) -> None:
        print(text, end="", flush=True)
        self.parts.append(text)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(text)

    @property
    def text(self) -> str:
        return "".join(self.parts)


# --- the evaluation data -----------------------------------------------------------------------

# The entity types of presidio_synth's gold spans that are direct identifiers (the redaction and
# extraction evaluations count leaks of these; the others are quasi-identifiers).
DIRECT_ENTITY_TYPES = (
    "PERSON",
    "EMAIL_ADDRESS",
    "PHONE_NUMBER",
    "US_SSN",
    "CREDIT_CARD",
    "IBAN_CODE",
    "US_DRIVER_LICENSE",
    "IP_ADDRESS",
    "STREET_ADDRESS",
)


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Every line of a JSON Lines file, blank lines skipped."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def log_files(folder: Path) -> list[Path]:
    """`logs.jsonl` or `logs-NN.jsonl`, in name order; never the folder (its other files are
    not log lines)."""
    return sorted(p for p in folder.glob("logs*.jsonl") if re.fullmatch(r"logs(-\d+)?", p.stem))
