"""The Prefect UI, in headless Chromium, shows permem's runs and artifacts: deployments/ui_check.py
end to end (a Prefect server, serve.py, a nightly, a forget and an evaluate run, the pages, the
evaluate chart decoded, a screenshot), with nothing left running afterwards."""

from __future__ import annotations

import os
import shutil
import signal
import struct
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "deployments"))

import ui_check  # noqa: E402  (deployments/ui_check.py)

CHROMIUM = shutil.which("chromium")


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")
def test_prefect_ui_shows_the_runs_and_their_artifacts(database_url: str, tmp_path: Path) -> None:
    screenshot = tmp_path / "prefect-ui.png"
    work = tmp_path / "ui-check"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_", "PERMEM_"))}
    env["PERMEM_DATABASE_URL"] = database_url
    check = subprocess.Popen(
        [sys.executable, str(ROOT / "deployments" / "ui_check.py"), "--screenshot",
         str(screenshot), "--workdir", str(work), "--timeout", "120"],
        env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        out, err = check.communicate(timeout=360)
    except subprocess.TimeoutExpired:
        check.terminate()  # the script stops everything it started, then exits 1
        out, err = check.communicate(timeout=90)
    finally:
        if check.poll() is None:
            check.kill()
            check.communicate()
        # Whatever survived (the script killed before its clean-up) carries its PREFECT_HOME.
        left = ui_check.strays((work / "prefect").resolve())
        for pid in left:
            os.kill(pid, signal.SIGKILL)

    assert check.returncode == 0, f"{err.strip() or out.strip()} (process logs in {work})"
    assert "ok:" in out and "forget/on-demand" in out and "evaluate/on-demand" in out
    assert not left, f"processes left running: {left}"
    png = screenshot.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])  # IHDR, right after the signature
    assert width == ui_check.VIEWPORT[0] and height > 2 * ui_check.VIEWPORT[1]
    assert len(png) > 50_000  # two rendered pages, not a blank one
