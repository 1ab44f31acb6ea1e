"""The UI check's processes: each child in a session of its own, stopped in the reverse order of
start, and whatever escaped its group found by its PREFECT_HOME; the embedded PostgreSQL held
for the flow runs (`deployments/ui_check.py`)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

# Imported by ui_check.py, which puts the repo root on sys.path first.
from permem.errors import CheckFailed

ROOT = Path(__file__).resolve().parents[1]
STARTED = time.monotonic()


def _say(message: str) -> None:
    print(f"ui_check: [{time.monotonic() - STARTED:3.0f} s] {message}", flush=True)


@contextmanager
def _embedded_postgres(home: Path) -> Iterator[None]:
    """Start the embedded PostgreSQL of `home` and hold it, so the flow runs join one server
    (each would otherwise start and stop its own); stop it at the end."""
    from permem.settings import Settings
    from permem.stores.embedded import start_embedded, stop_embedded

    pgdata = Settings(home=home).embedded_pgdata
    start_embedded(pgdata)
    try:
        yield
    finally:
        try:
            stop_embedded(pgdata)
        except Exception:  # pgserver raises bare psutil and subprocess errors
            pass
        # A flow run that was killed still holds a handle, so the server may outlive the call.
        pidfile = pgdata / "postmaster.pid"
        if pidfile.exists():
            pid = int(pidfile.read_text().split()[0])
            _signal(pid, signal.SIGINT)  # PostgreSQL's fast shutdown
            _wait_gone(pid, 30)


class Processes:
    """Child processes, each in a session of its own, stopped in the reverse order of start."""

    def __init__(self, workdir: Path, env: dict[str, str]) -> None:
        self.workdir = workdir
        self.env = env
        self.started: list[tuple[subprocess.Popen[bytes], IO[bytes]]] = []

    def start(self, name: str, argv: list[str]) -> subprocess.Popen[bytes]:
        log = (self.workdir / f"{name}.log").open("wb")
        process = subprocess.Popen(
            argv, env=self.env, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        self.started.append((process, log))
        return process

    def check_alive(self, process: subprocess.Popen[bytes]) -> None:
        """Raise `CheckFailed` with the last line of its log if `process` has exited."""
        if process.poll() is None:
            return
        log = next(log for p, log in self.started if p is process)
        lines = Path(log.name).read_text(errors="replace").strip().splitlines()
        raise CheckFailed(
            f"{Path(log.name).stem} exited with code {process.returncode}: "
            f"{lines[-1] if lines else 'no output'} (log: {log.name})"
        )

    def stop_all(self) -> None:
        for process, log in reversed(self.started):
            _stop_group(process)
            log.close()
        # Whatever escaped its group (a flow run in a session of its own) still carries the
        # check's PREFECT_HOME.
        left = strays(Path(self.env["PREFECT_HOME"]))
        for pid in left:
            _signal(pid, signal.SIGKILL)
        if left:
            _say(f"killed {len(left)} process(es) left behind: {left}")


@contextmanager
def _processes(workdir: Path, env: dict[str, str]) -> Iterator[Processes]:
    workdir.mkdir(parents=True, exist_ok=True)
    processes = Processes(workdir, env)
    try:
        yield processes
    finally:
        processes.stop_all()


def _stop_group(process: subprocess.Popen[bytes], grace: float = 30) -> None:
    """SIGTERM to the process's group (serve pauses its deployments through the API, so the
    server must still be up), SIGKILL to whatever is left after `grace` seconds."""
    _signal(process.pid, signal.SIGTERM, group=True)
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        pass
    _signal(process.pid, signal.SIGKILL, group=True)
    process.wait()


def _signal(pid: int, signum: int, group: bool = False) -> None:
    try:
        os.killpg(pid, signum) if group else os.kill(pid, signum)
    except (ProcessLookupError, PermissionError):
        pass


def _wait_gone(pid: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
        time.sleep(0.2)


def strays(prefect_home: Path) -> list[int]:
    """Processes other than this one whose PREFECT_HOME starts with `prefect_home` (Linux:
    read from /proc)."""
    marker = f"PREFECT_HOME={prefect_home}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if any(v.startswith(marker) for v in environ.split(b"\0")):
            found.append(int(entry.name))
    return found
