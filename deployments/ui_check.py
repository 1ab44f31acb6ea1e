"""Check that the Prefect UI shows permem's runs and artifacts, and save a screenshot of it.

    .venv/bin/python deployments/ui_check.py [--screenshot docs/prefect-ui.png]

1. starts `prefect server start` on 127.0.0.1 (a free port; SQLite in a temporary PREFECT_HOME);
2. starts `deployments/serve.py` against it, with permem's stores in a temporary PERMEM_HOME (the
   embedded PostgreSQL, or the database PERMEM_DATABASE_URL names) and examples/sample-log.jsonl
   as PERMEM_NIGHTLY_LOGS;
3. runs `nightly_extract/nightly`, then `forget/on-demand` for the log's first account, then
   `evaluate/on-demand` over a few scenarios of the generated corpus (`permem.corpus`, written
   into the work folder), through the API, and waits until all three are Completed;
4. opens the runs page, the nightly run's Artifacts tab, the artifacts page and the evaluate
   run's chart artifact in headless Chromium, driven over the DevTools protocol: the UI fills
   itself in from the API after the page has loaded, so a page counts as rendered once its text
   holds the runs' names and the artifact keys, and the chart once its PNG has been decoded
   (an image whose natural size is the chart's);
5. writes the runs page above the nightly run's artifacts and the evaluate chart as one PNG
   (`--screenshot`);
6. stops everything it started, and any process that still carries its PREFECT_HOME.

Exit 0 when every check passed; 1 with one line on standard error naming the check that failed;
2 when Chromium is missing (`apt-get install chromium`). Everything listens on 127.0.0.1 only.
With PERMEM_DATABASE_URL set, the sample tenant is written into that database and the account
forgotten again.
"""

from __future__ import annotations

import argparse
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
from contextlib import ExitStack
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the repo root: permem/

from permem.errors import CheckFailed, ConfigurationError  # noqa: E402

from ui_browser import VIEWPORT, Browser  # noqa: E402
from ui_processes import (  # noqa: E402
    Processes,
    _embedded_postgres,
    _processes,
    _say,
    strays,
)

__all__ = ["VIEWPORT", "check", "main", "strays"]

SAMPLE_LOG = ROOT / "examples" / "sample-log.jsonl"
DEFAULT_SCREENSHOT = ROOT / "docs" / "prefect-ui.png"
NIGHTLY = "nightly_extract/nightly"
FORGET = "forget/on-demand"
EVALUATE = "evaluate/on-demand"
# The evaluate run's datasets: one development-half variant of these corpus families, enough
# for every variant of the lifecycle evaluation to have queries, small enough to take seconds.
EVALUATE_FAMILIES = frozenset({"scope", "correction"})
# Decoded, the chart is wider than this: a broken or stripped image is not.
CHART_MIN_WIDTH = 400
# The connection to an existing database is the only part of the caller's permem settings the
# check uses; every other store lives in its own PERMEM_HOME.
PASSED_THROUGH = ("PERMEM_DATABASE_URL", "PERMEM_APP_ROLE", "PERMEM_APP_PASSWORD")


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
        datasets = _evaluation_corpus(workdir / "corpus")
        evaluate_params = {"datasets": [str(datasets)], "fail_on_gate": False}
        evaluate = _run(EVALUATE, {"params": evaluate_params}, processes, serve, timeout)
        _say(f"{EVALUATE} {evaluate.name} Completed")

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
        browser.show(
            f"{ui}/artifacts",
            ["forget-summary", "nightly-summary", "gx-batch-", "evaluate-chart", "evaluate-gate"],
        )
        chart = _chart_page(ui, evaluate.id, browser)
        _say("the runs page, the nightly and evaluate runs' artifacts and the chart show them")
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        screenshot.write_bytes(browser.stack([runs_page, artifacts_tab, chart]))
    return [f"{NIGHTLY} {nightly.name}", f"{FORGET} {forget.name}", f"{EVALUATE} {evaluate.name}"]


def _evaluation_corpus(folder: Path) -> Path:
    """A few generated scenarios for the evaluate run (the check must not need shared data)."""
    from permem import corpus

    written = corpus.generate(folder, half="dev", per_template=2, families=set(EVALUATE_FAMILIES))
    if not written:
        raise CheckFailed(f"the corpus has no scenario of {sorted(EVALUATE_FAMILIES)}")
    return folder


def _artifact_id(key: str, run_id: Any) -> Any:
    """The id of the artifact `key` that flow run `run_id` created."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import (
        ArtifactFilter,
        ArtifactFilterFlowRunId,
        ArtifactFilterKey,
    )

    wanted = ArtifactFilter(
        key=ArtifactFilterKey(any_=[key]), flow_run_id=ArtifactFilterFlowRunId(any_=[run_id])
    )
    with get_client(sync_client=True) as client:
        found = client.read_artifacts(artifact_filter=wanted)
    if not found:
        raise CheckFailed(f"flow run {run_id} has no artifact {key}")
    return found[0].id


def _chart_page(ui: str, run_id: Any, browser: Browser) -> bytes:
    """The evaluate run's Artifacts tab, then its chart artifact's page, once the chart's PNG is
    decoded there; a PNG of that page."""
    browser.show(
        f"{ui}/runs/flow-run/{run_id}?tab=Artifacts",
        ["evaluate-variants", "evaluate-strata", "evaluate-chart", "evaluate-gate"],
    )
    page = browser.show(
        f"{ui}/artifacts/artifact/{_artifact_id('evaluate-chart', run_id)}",
        ["Lift vs wrong personalization"],
        height=1100,
    )
    widths = browser.evaluate(
        "Array.from(document.images).filter(i => i.src.startsWith('data:image/png'))"
        ".map(i => i.complete ? i.naturalWidth : 0)"
    )
    if not widths or max(widths) < CHART_MIN_WIDTH:
        raise CheckFailed(
            f"the evaluate-chart artifact shows no decoded chart (PNG images' widths: {widths})"
        )
    return page


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


if __name__ == "__main__":
    sys.exit(main())
