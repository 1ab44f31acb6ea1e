"""A Dask cluster of separate processes on loopback, as users run one: `dask scheduler` and
`dask worker` commands, for the tests and benchmarks that run the nightly flow against an
existing scheduler (`PERMEM_DASK_ADDRESS`)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def dask_command() -> str | None:
    """The `dask` command beside this interpreter, else the one on PATH; None without one."""
    beside = Path(sys.executable).parent / "dask"
    if beside.exists():
        return str(beside)
    return shutil.which("dask")


@contextmanager
def dask_cluster(
    workers: int,
    *,
    pythonpath: Path = REPO,
    env: Mapping[str, str] | None = None,
    timeout: float = 180.0,
) -> Iterator[str]:
    """A scheduler and `workers` single-threaded worker processes on 127.0.0.1 (free ports,
    no dashboards), each worker importing permem from `pythonpath`; yields the scheduler's
    address once every worker has registered (`env` adds to this process's environment; its
    PYTHONPATH comes after `pythonpath`). Every process is stopped on leaving, also on
    failure (a worker's nanny and its worker process are stopped as one process group)."""
    command = dask_command()
    if command is None:
        raise RuntimeError("the `dask` command is not installed")
    folder = Path(tempfile.mkdtemp(prefix="permem-dask-"))
    scheduler_file = folder / "scheduler.json"
    environ = {**os.environ, **(env or {}), "DASK_LOGGING__DISTRIBUTED": "warning"}
    environ["PYTHONPATH"] = os.pathsep.join(
        path for path in (str(pythonpath), environ.get("PYTHONPATH", "")) if path
    )
    with ExitStack() as stack:
        stack.callback(shutil.rmtree, folder, ignore_errors=True)

        def start(*args: str, name: str) -> None:
            log = stack.enter_context((folder / f"{name}.log").open("wb"))
            process = subprocess.Popen(
                [command, *args],
                env=environ,
                cwd=folder,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
            stack.callback(_stop, process)

        start(
            "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
            "--scheduler-file", str(scheduler_file), name="scheduler",
        )  # fmt: skip
        address = _scheduler_address(scheduler_file, folder / "scheduler.log", timeout)
        for number in range(workers):
            start(
                "worker", address, "--host", "127.0.0.1", "--nthreads", "1", "--nworkers", "1",
                "--no-dashboard", "--name", f"permem-{number}",
                "--local-directory", str(folder / f"worker-{number}"), name=f"worker-{number}",
            )  # fmt: skip
        wait_for_workers(address, workers, timeout)
        yield address


def wait_for_workers(address: str, workers: int, timeout: float) -> None:
    """Return once `workers` workers are registered with the scheduler at `address`."""
    from distributed import Client

    with Client(address, timeout=timeout, set_as_default=False) as client:
        client.wait_for_workers(workers, timeout=timeout)


def _scheduler_address(path: Path, log: Path, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists():
            try:
                return str(json.loads(path.read_text())["address"])
            except (ValueError, KeyError):
                pass  # being written
        time.sleep(0.1)
    raise RuntimeError(f"dask scheduler did not start: {log.read_text()[-2000:]}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Stop the process and whatever it started (its own session): politely, then not."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            break
        deadline = time.monotonic() + 20.0
        while time.monotonic() < deadline:
            process.poll()  # reap the leader, so that only live members keep the group
            try:
                os.killpg(process.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.1)
    process.wait()
