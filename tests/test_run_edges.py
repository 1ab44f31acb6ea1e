"""The edges of running unattended: one nightly run at a time per database, and expected
failures that print one line (no Prefect traceback) with the contract's exit code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from permem import controls
from permem.settings import Settings
from permem.stores.database import exclusive_run, open_database

LOG_LINE = {
    "message_id": "m1",
    "tenant": "acme",
    "account": "alice",
    "conversation_id": "c1",
    "turn": 1,
    "role": "user",
    "text": "Please always answer in metric units.",
    "ts": "2026-11-01T09:00:00+00:00",
}


def _permem(settings: Settings, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PERMEM_DATABASE_URL": settings.database_url or "",
        "PERMEM_HOME": str(settings.home),
        "PERMEM_EMBEDDER": "hashing",
    }
    return subprocess.run(
        [sys.executable, "-m", "interfaces.cli", *args], capture_output=True, text=True, env=env,
        timeout=600,
    )  # fmt: skip


def test_a_second_nightly_run_exits_0_while_another_holds_the_lock(
    settings: Settings, tmp_path: Path
) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps(LOG_LINE) + "\n")
    upgraded = _permem(settings, "db", "upgrade")
    assert upgraded.returncode == 0, upgraded.stderr
    db = open_database(settings)
    try:
        with exclusive_run(db, "permem.nightly") as held:
            assert held
            # A second holder in this database is refused while the first holds it.
            with exclusive_run(db, "permem.nightly") as second:
                assert not second
            run = _permem(settings, "nightly", "--logs", str(log))
        assert run.returncode == 0, run.stderr
        assert "another nightly run holds the lock" in run.stderr
        assert "Traceback" not in run.stderr
        assert controls.inspect(db, "acme") == []  # the locked-out run stored nothing
        # Once the lock is free, the same command does the work.
        again = _permem(settings, "nightly", "--logs", str(log), "--json")
        assert again.returncode == 0, again.stderr
        assert json.loads(again.stdout)["counts"]["stored"] == 1
    finally:
        db.dispose()


def test_an_expected_failure_inside_a_flow_prints_one_line(settings: Settings) -> None:
    assert _permem(settings, "db", "upgrade").returncode == 0
    result = _permem(settings, "backup", "--tenant", "no-such-tenant")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("permem: ") and "no-such-tenant" in lines[0]
