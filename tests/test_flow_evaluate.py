"""The evaluate flow as Prefect runs it: a real flow run over a hand-built scenario (its own
stores), the variant table, the strata, the chart (a PNG inline and as an image artifact) and
the release gate's verdict published as artifacts."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest

from permem.settings import Settings
from tests.test_eval_lifecycle import _case
from tests.test_flow_nightly import _artifacts

KEYS = [
    "evaluate-variants", "evaluate-strata", "evaluate-chart", "evaluate-chart-image",
    "evaluate-gate",
]  # fmt: skip


@pytest.fixture
def env(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Settings:
    monkeypatch.setenv("PERMEM_DATABASE_URL", settings.database_url or "")
    monkeypatch.setenv("PERMEM_HOME", str(settings.home))
    monkeypatch.setenv("PERMEM_EMBEDDER", "hashing")
    return settings


def test_evaluate_flow_publishes_the_table_the_chart_and_the_gate(
    prefect_server: str, env: Settings, tmp_path: Path
) -> None:
    from flows.evaluate import EvaluateParams, evaluate

    cases = _case(tmp_path)
    state = evaluate(EvaluateParams(datasets=[str(cases)]), return_state=True)
    assert state.is_completed(), state.message
    result = state.result()
    assert result["violations"] == [] and set(result["report"]["variants"]) >= {"history"}
    artifacts = _artifacts(KEYS, state.state_details.flow_run_id)
    assert set(artifacts) == set(KEYS)
    table = str(artifacts["evaluate-variants"].data)
    for variant in ("none", "explicit_profile", "history", "profile", "permem"):
        assert variant in table
    assert "incognito" in str(artifacts["evaluate-strata"].data)  # the control stratum
    chart = str(artifacts["evaluate-chart"].data)
    found = re.search(r"data:image/png;base64,([A-Za-z0-9+/=]+)", chart)
    assert found is not None
    assert base64.b64decode(found.group(1)).startswith(b"\x89PNG\r\n\x1a\n")
    assert str(artifacts["evaluate-chart-image"].data).startswith("data:image/png;base64,")
    assert "passed" in str(artifacts["evaluate-gate"].data)


def test_evaluate_flow_fails_on_a_violated_gate(
    prefect_server: str, env: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from flows import evaluate as module

    strict = tmp_path / "gate.toml"
    strict.write_text(
        "version = 9\n[thresholds]\nwrong_rate_max = 0.0\nsevere_max = 0\nleaks_max = 0\n"
        "p99_ms_max = 100000.0\n[lift_min]\ndefault = 0.99\n"
    )
    real = module.load_gate
    monkeypatch.setattr(module, "load_gate", lambda: real(strict))
    params = module.EvaluateParams(datasets=[str(_case(tmp_path))])
    state = module.evaluate(params, return_state=True)
    assert state.is_failed()
    assert "release gate v9: 1 threshold(s) violated" in str(state.message)
    gate = _artifacts(["evaluate-gate"], state.state_details.flow_run_id)["evaluate-gate"]
    assert "| cases | lift | 0.5 | 0.99 |" in str(gate.data)
