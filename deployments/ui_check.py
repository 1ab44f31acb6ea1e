"""Check that the Prefect UI shows permem's runs and artifacts, and save a screenshot of it.

    .venv/bin/python deployments/ui_check.py [--screenshot docs/prefect-ui.png]

1. starts `prefect server start` on 127.0.0.1 (a free port; SQLite in a temporary PREFECT_HOME);
2. starts `deployments/serve.py` against it, with permem's stores in a temporary PERMEM_HOME (the
   embedded PostgreSQL, or the database PERMEM_DATABASE_URL names) and examples/sample-log.jsonl
   as PERMEM_NIGHTLY_LOGS;
3. runs `nightly_extract/nightly`, then `forget/on-demand` for the log's first account, through
   the API, and waits until both are Completed;
4. opens the runs page, the nightly run's Artifacts tab and the artifacts page in headless
   Chromium, driven over the DevTools protocol: the UI fills itself in from the API after the
   page has loaded, so a page counts as rendered once its text holds the runs' names and the
   artifact keys;
5. writes the runs page above the nightly run's artifacts as one PNG (`--screenshot`);
6. stops everything it started, and any process that still carries its PREFECT_HOME.

Exit 0 when every check passed; 1 with one line on standard error naming the check that failed;
2 when Chromium is missing (`apt-get install chromium`). Everything listens on 127.0.0.1 only.
With PERMEM_DATABASE_URL set, the sample tenant is written into that database and the account
forgotten again.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from types import FrameType
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the repo root: permem/

from permem.errors import CheckFailed, ConfigurationError  # noqa: E402

SAMPLE_LOG = ROOT / "examples" / "sample-log.jsonl"
DEFAULT_SCREENSHOT = ROOT / "docs" / "prefect-ui.png"
NIGHTLY = "nightly_extract/nightly"
FORGET = "forget/on-demand"
# The connection to an existing database is the only part of the caller's permem settings the
# check uses; every other store lives in its own PERMEM_HOME.
PASSED_THROUGH = ("PERMEM_DATABASE_URL", "PERMEM_APP_ROLE", "PERMEM_APP_PASSWORD")
VIEWPORT = (1280, 800)
STARTED = time.monotonic()
SETTLED = 1.5  # seconds a page must look the same before its screenshot is taken
# As the machine notes start it: without the background-networking flags Chromium keeps calling
# Google's hosts, which this closed network refuses.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--mute-audio",
    "--force-device-scale-factor=1",
    # The run graph is WebGL; with no GPU, say so instead of relying on a deprecated fallback.
    "--enable-unsafe-swiftshader",
    f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}",
    "--remote-debugging-port=0",  # on 127.0.0.1; the port is read from DevToolsActivePort
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screenshot", type=Path, default=DEFAULT_SCREENSHOT, help="PNG to write")
    parser.add_argument("--logs", type=Path, default=SAMPLE_LOG, help="nightly log (JSON Lines)")
    parser.add_argument(
        "--workdir", type=Path, help="keep state and process logs here (default: a temp dir)"
    )
    parser.add_argument("--chromium", default="chromium", help="Chromium executable")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per flow run")
    args = parser.parse_args(argv)

    chromium = shutil.which(args.chromium)
    if chromium is None:
        print(f"ui_check: {args.chromium} not found (apt-get install chromium)", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, _stop_on_signal)
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="permem-ui-check-"))
    try:
        runs = check(
            chromium, workdir.resolve(), args.logs.resolve(), args.screenshot, args.timeout
        )
    except (CheckFailed, ConfigurationError) as exc:
        print(f"ui_check: {exc}", file=sys.stderr)
        return 1
    finally:
        if args.workdir is None:
            shutil.rmtree(workdir, ignore_errors=True)
    _say(
        f"ok: {', '.join(runs)} Completed and shown with their artifacts; "
        f"{args.screenshot} ({args.screenshot.stat().st_size // 1024} KB)"
    )
    return 0


def _say(message: str) -> None:
    print(f"ui_check: [{time.monotonic() - STARTED:3.0f} s] {message}", flush=True)


def _stop_on_signal(signum: int, frame: FrameType | None) -> None:
    signal.signal(signum, signal.SIG_IGN)  # a second signal must not cut the clean-up short
    raise CheckFailed(f"stopped by {signal.Signals(signum).name}")


def check(chromium: str, workdir: Path, logs: Path, screenshot: Path, timeout: float) -> list[str]:
    """Run the whole check; return the runs' names. Raises `CheckFailed` naming what failed."""
    lines = logs.read_text().splitlines()
    if not lines:
        raise CheckFailed(f"{logs} is empty: the nightly run needs a conversation log")
    first = json.loads(lines[0])
    port = _free_port()
    api = f"http://127.0.0.1:{port}/api"
    env = _environment(workdir, api, logs)
    with ExitStack() as stack:
        if "PERMEM_DATABASE_URL" not in env:
            # Started before this process takes on the check's PREFECT_HOME: the clean-up's sweep
            # of processes carrying it must leave PostgreSQL to its own orderly stop.
            stack.enter_context(_embedded_postgres(Path(env["PERMEM_HOME"])))
        # This process talks to the same server, and never to the caller's profile.
        for name in [k for k in os.environ if k.startswith("PREFECT_")]:
            del os.environ[name]
        os.environ.update({k: v for k, v in env.items() if k.startswith("PREFECT_")})
        processes = stack.enter_context(_processes(workdir, env))
        server = processes.start(
            "server", [_prefect(), "server", "start", "--host", "127.0.0.1", "--port", str(port)]
        )
        _wait_for_api(api, processes, server)
        _say(f"Prefect server on http://127.0.0.1:{port}, SQLite in {env['PREFECT_HOME']}")
        serve = processes.start("serve", [sys.executable, str(ROOT / "deployments" / "serve.py")])
        nightly = _run(NIGHTLY, {}, processes, serve, timeout)
        _say(f"{NIGHTLY} {nightly.name} Completed")
        target = {
            "tenant": first["tenant"],
            "subject": first["account"],
            "requested_by": "ui_check",
        }
        forget = _run(FORGET, {"params": target}, processes, serve, timeout)
        _say(f"{FORGET} {forget.name} Completed")

        ui = f"http://127.0.0.1:{port}/v2"  # the UI Prefect 3.9 opens by default
        browser = Browser.start(processes, chromium, workdir / "chromium")
        stack.callback(browser.connection.close)
        # Tall enough for both rows of the run list, and for the first row of artifact cards.
        runs_page = browser.show(
            f"{ui}/runs",
            [nightly.name, forget.name, "nightly_extract", "forget", "Completed"],
            height=1000,
        )
        artifacts_tab = browser.show(
            f"{ui}/runs/flow-run/{nightly.id}?tab=Artifacts",
            ["nightly-summary", "nightly-gate-reasons", "nightly-quarantine", "gx-batch-"],
            height=960,
        )
        browser.show(f"{ui}/artifacts", ["forget-summary", "nightly-summary", "gx-batch-"])
        _say("the runs page, the nightly run's artifacts and the artifacts page show them")
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        screenshot.write_bytes(browser.stack([runs_page, artifacts_tab]))
    return [f"{NIGHTLY} {nightly.name}", f"{FORGET} {forget.name}"]


def _environment(workdir: Path, api: str, logs: Path) -> dict[str, str]:
    """The children's environment: the caller's, without its Prefect profile or permem stores."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_", "PERMEM_"))}
    env.update({k: os.environ[k] for k in PASSED_THROUGH if os.environ.get(k)})
    env.update({
        "PREFECT_HOME": str(workdir / "prefect"),  # SQLite database, UI bundle, profiles
        "PREFECT_API_URL": api,
        "PREFECT_UI_API_URL": api,  # otherwise the UI asks http://127.0.0.1:4200/api
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PREFECT_SERVER_UI_SHOW_PROMOTIONAL_CONTENT": "false",
        "PREFECT_RUNNER_POLL_FREQUENCY": "2",  # serve picks a run up within 2 s, not 10
        # No scheduled runs: an hourly expiry due during the check would crowd the runs page.
        "PREFECT_SERVER_SERVICES_SCHEDULER_ENABLED": "false",
        "PERMEM_HOME": str(workdir / "permem"),
        "PERMEM_EMBEDDER": "hashing",  # the check is about the UI, not about embeddings
        "PERMEM_NIGHTLY_LOGS": str(logs),
    })  # fmt: skip
    return env


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _prefect() -> str:
    beside = Path(sys.executable).with_name("prefect")
    return str(beside) if beside.exists() else shutil.which("prefect") or "prefect"


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


def _get(url: str, timeout: float = 2) -> bytes:
    # No proxy: everything the check talks to is on 127.0.0.1.
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(url, timeout=timeout) as response:
        return bytes(response.read())


def _wait_for_api(api: str, processes: Processes, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while True:
        processes.check_alive(server)
        try:
            if _get(f"{api}/health") == b"true":
                return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise CheckFailed(f"the Prefect server did not answer {api}/health within 120 s")
        time.sleep(0.5)


def _run(
    name: str,
    parameters: dict[str, Any],
    processes: Processes,
    serve: subprocess.Popen[bytes],
    timeout: float,
) -> Any:
    """Start a run of deployment `name` through the API once serve has registered it; return
    the flow run when it is Completed."""
    from prefect.client.orchestration import get_client
    from prefect.deployments import run_deployment
    from prefect.exceptions import ObjectNotFound

    with get_client(sync_client=True) as client:
        deadline = time.monotonic() + 120
        while True:
            processes.check_alive(serve)
            try:
                client.read_deployment_by_name(name)
                break
            except ObjectNotFound:
                if time.monotonic() > deadline:
                    raise CheckFailed(f"serve.py did not register {name} within 120 s") from None
                time.sleep(1)
        run: Any = run_deployment(name, parameters=parameters, timeout=0)  # sync: a FlowRun
        deadline = time.monotonic() + timeout
        while True:
            processes.check_alive(serve)
            run = client.read_flow_run(run.id)
            if run.state is not None and run.state.is_final():
                break
            if time.monotonic() > deadline:
                state = run.state.name if run.state else "no state"
                raise CheckFailed(f"{name} run {run.name} still {state} after {timeout:.0f} s")
            time.sleep(1)
    if not run.state.is_completed():
        raise CheckFailed(f"{name} run {run.name} ended {run.state.name}: {run.state.message}")
    return run


class Browser:
    """Headless Chromium, driven over the DevTools protocol (a websocket on 127.0.0.1)."""

    def __init__(self, connection: Any, session: str) -> None:
        self.connection = connection
        self.session = session
        self.calls = 0

    @classmethod
    def start(cls, processes: Processes, chromium: str, profile: Path) -> Browser:
        from websockets.sync.client import connect

        active_port = profile / "DevToolsActivePort"  # "<port>\n<browser websocket path>"
        active_port.unlink(missing_ok=True)  # left by an earlier run in the same --workdir
        process = processes.start(
            "chromium", [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "about:blank"]
        )
        deadline = time.monotonic() + 60
        while not active_port.exists() or len(active_port.read_text().splitlines()) < 2:
            processes.check_alive(process)
            if time.monotonic() > deadline:
                raise CheckFailed("chromium did not open its DevTools port within 60 s")
            time.sleep(0.2)
        port, path = active_port.read_text().splitlines()[:2]
        connection = connect(f"ws://127.0.0.1:{port}{path}", proxy=None, max_size=None)
        browser = cls(connection, "")
        target = browser.call("Target.createTarget", url="about:blank")["targetId"]
        browser.session = browser.call("Target.attachToTarget", targetId=target, flatten=True)[
            "sessionId"
        ]
        browser.resize(*VIEWPORT)
        return browser

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one command (to the page once attached) and return its result."""
        self.calls += 1
        message: dict[str, Any] = {"id": self.calls, "method": method, "params": params}
        if self.session:
            message["sessionId"] = self.session
        self.connection.send(json.dumps(message))
        while True:  # events arrive in between; they are not needed
            reply = json.loads(self.connection.recv(timeout=60))
            if reply.get("id") == self.calls:
                if "error" in reply:
                    raise CheckFailed(f"chromium: {method} failed: {reply['error']}")
                return dict(reply["result"])

    def evaluate(self, expression: str) -> Any:
        found = self.call(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in found:
            raise CheckFailed(f"chromium: {expression[:60]}: {found['exceptionDetails']['text']}")
        return found["result"].get("value")

    def _holds(self, expression: str) -> bool:
        try:
            return bool(self.evaluate(expression))
        except CheckFailed:  # the new page is still being swapped in
            return False

    def resize(self, width: int, height: int) -> None:
        self.call(
            "Emulation.setDeviceMetricsOverride",
            width=width, height=height, deviceScaleFactor=1, mobile=False,
        )  # fmt: skip

    def show(
        self, url: str, expected: list[str], height: int = VIEWPORT[1], timeout: float = 60
    ) -> bytes:
        """Open `url`, wait until its text holds every string of `expected` and it looks the
        same for `SETTLED` seconds; return a PNG of it, `height` pixels tall."""
        self.resize(VIEWPORT[0], height)
        navigated = self.call("Page.navigate", url=url)
        if navigated.get("errorText"):
            raise CheckFailed(f"chromium could not open {url}: {navigated['errorText']}")
        deadline = time.monotonic() + timeout
        text, shot, same_since = "", "", time.monotonic()
        while True:
            # The text says the data has arrived; the run graph and the charts are drawn on
            # canvases after it, so the pixels must stop changing too.
            try:
                text = self.evaluate("document.body ? document.body.innerText : ''") or ""
                missing = [e for e in expected if e not in text]
                latest = "" if missing else self.call("Page.captureScreenshot")["data"]
            except CheckFailed:  # the new page is still being swapped in
                missing, latest = expected, ""
            now = time.monotonic()
            if latest and latest == shot:
                if now - same_since >= SETTLED:
                    return base64.b64decode(shot)
            else:
                shot, same_since = latest, now
            if now > deadline:
                if shot:  # shown, but something keeps moving: take it as it is
                    return base64.b64decode(shot)
                shown = " ".join(text.split())[:160]
                raise CheckFailed(
                    f"{url} did not show {', '.join(missing)} within {timeout:.0f} s "
                    f"(it shows: {shown!r})"
                )
            time.sleep(0.3)

    def stack(self, pngs: list[bytes]) -> bytes:
        """The PNGs one above the other, with a thin rule between, as one PNG."""
        images = "".join(
            f'<img style="display:block;margin-bottom:4px" src="data:image/png;base64,'
            f'{base64.b64encode(png).decode()}">'
            for png in pngs
        )
        page = f'<html><body style="margin:0;background:#9ca3af">{images}</body></html>'
        self.call(
            "Page.navigate", url=f"data:text/html;base64,{base64.b64encode(page.encode()).decode()}"
        )
        deadline = time.monotonic() + 30
        ready = (
            f"document.images.length === {len(pngs)} && "
            "[...document.images].every(i => i.complete && i.naturalWidth > 0)"
        )
        while not self._holds(ready):
            if time.monotonic() > deadline:
                raise CheckFailed("chromium did not lay out the stacked screenshot within 30 s")
            time.sleep(0.2)
        height = int(self.evaluate("document.body.scrollHeight")) - 4  # no rule after the last
        self.resize(VIEWPORT[0], height)
        return base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"])


if __name__ == "__main__":
    sys.exit(main())
