"""Deployments: every entrypoint imports and builds its deployment with its schedule; the
served on-demand `forget` deployment completes a run started through the Prefect API; the
`expire` and `status` commands work against a real server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from prefect.flows import load_flow_from_entrypoint
from typer.testing import CliRunner

from interfaces.cli import app
from permem import controls, nightly
from permem.runtime import close_all, runtime
from permem.settings import Settings
from tests.test_forget import TENANT, _write_log

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "deployments"))

import serve  # noqa: E402  (deployments/serve.py)


def test_every_served_deployment_builds_with_its_schedule() -> None:
    built = {(d.flow_name, d.name): d for d in serve.deployments()}
    assert set(built) == set(serve.SCHEDULES)
    for (flow, name), deployment in built.items():
        cron = serve.SCHEDULES[(flow, name)]
        crons = [s.schedule.cron for s in deployment.schedules]  # type: ignore[union-attr]
        assert crons == ([cron] if cron else [])
        assert "permem" in deployment.tags
        # Default parameters are valid for the flow (the UI's form starts from them).
        entrypoint = deployment.entrypoint or ""
        loaded = load_flow_from_entrypoint(str(ROOT / entrypoint.split(str(ROOT) + "/")[-1]))
        assert loaded.name == flow
        if deployment.parameters:
            loaded.validate_parameters(deployment.parameters)
    assert not built[("forget", "on-demand")].schedules  # deletion runs only on demand
    assert not built[("evaluate", "on-demand")].schedules
    assert [s.schedule.cron for s in built[("evaluate", "weekly")].schedules] == ["0 6 * * 1"]  # type: ignore[union-attr]


def test_prefect_yaml_declares_the_same_deployments_and_each_entrypoint_loads(
    tmp_path: Path,
) -> None:
    declared = yaml.safe_load((ROOT / "deployments" / "prefect.yaml").read_text())
    found = {}
    for entry in declared["deployments"]:
        flow = load_flow_from_entrypoint(str(ROOT / entry["entrypoint"]))
        crons = [s["cron"] for s in entry.get("schedules", [])]
        found[(flow.name, entry["name"])] = crons
        parameters = json.loads(
            json.dumps(entry.get("parameters", {}))
            .replace("{{ $PERMEM_NIGHTLY_LOGS }}", str(tmp_path))
            .replace("{{ $PERMEM_EVAL_DATASETS }}", str(tmp_path))
        )
        if parameters:
            flow.validate_parameters(parameters)
        assert entry["work_pool"]["name"] == "permem"
    expected = {key: ([cron] if cron else []) for key, cron in serve.SCHEDULES.items()}
    assert found == expected


@pytest.fixture
def loaded(settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Settings:
    monkeypatch.setenv("PERMEM_DATABASE_URL", settings.database_url or "")
    monkeypatch.setenv("PERMEM_HOME", str(settings.home))
    monkeypatch.setenv("PERMEM_EMBEDDER", "hashing")
    configured = settings.model_copy(update={"embedder": "hashing"})
    nightly.run(configured, _write_log(tmp_path / "log.jsonl"))
    return configured


def test_served_forget_deployment_completes_a_run_started_through_the_api(
    prefect_server: str, loaded: Settings, tmp_path: Path
) -> None:
    from prefect.deployments import run_deployment

    env = {
        **os.environ,
        "PREFECT_API_URL": prefect_server,
        "PERMEM_DATABASE_URL": loaded.database_url or "",
        "PERMEM_HOME": str(loaded.home),
        "PERMEM_EMBEDDER": "hashing",
        "PERMEM_NIGHTLY_LOGS": str(tmp_path),
        "PREFECT_LOGGING_LEVEL": "WARNING",
    }
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "deployments" / "serve.py")],
        env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        run = _run_when_served(
            run_deployment,
            "forget/on-demand",
            {"params": {"tenant": TENANT, "subject": "ana", "requested_by": "ana"}},
            server,
        )
        assert run.state is not None and run.state.is_completed(), run.state
    finally:
        server.terminate()
        server.wait(timeout=30)
        assert server.stderr is not None
        server.stderr.close()
    close_all()
    assert {r.subject for r in controls.inspect(runtime(loaded).db, TENANT)} == {"ben"}


def _run_when_served(run: Any, name: str, parameters: dict[str, Any], server: Any) -> Any:
    """Start a run of `name` once the serve process has registered it; wait for its end."""
    deadline = time.monotonic() + 120
    while True:
        if server.poll() is not None:
            raise AssertionError(f"serve exited: {server.stderr.read().decode()[-2000:]}")
        try:
            return run(name, parameters=parameters, timeout=180)
        except Exception as exc:  # the deployment is not registered yet
            if time.monotonic() > deadline:
                raise AssertionError(f"{name} never became available: {exc}") from exc
            time.sleep(2)


def test_expire_and_status_commands_against_a_server(
    prefect_server: str, loaded: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PREFECT_API_URL", prefect_server)
    runner = CliRunner()
    expired = runner.invoke(app, ["expire", "--at", "2030-01-01T00:00:00Z", "--json"])
    assert expired.exit_code == 0, expired.stderr
    report = json.loads(expired.stdout)
    assert report["expired"] == 5 and report["by_reason"] == {"retention": 5}
    naive = runner.invoke(app, ["expire", "--at", "2030-01-01T00:00:00"])
    assert naive.exit_code == 2 and "timezone" in naive.stderr
    status = runner.invoke(app, ["status", "--json"])
    assert status.exit_code == 0, status.stderr
    found = json.loads(status.stdout)
    assert found["flows"]["last_runs"]["expire_memories"]["state"] == "Completed"
    assert found["tenants"][TENANT]["pending_confirmations"] == 0
    human = runner.invoke(app, ["status"])
    assert human.exit_code == 0 and "expire_memories" in human.stdout
