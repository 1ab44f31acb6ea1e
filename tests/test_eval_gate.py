"""The release gate: the shipped file loads; a clean report passes; a report that violates any
threshold fails, listing each violation; the command's exit codes."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interfaces.cli import app
from permem.errors import BadInput
from permem.eval.gate import DEFAULT_GATE, Gate, check, load_gate

GATE = Gate(
    version=7, variant="permem", wrong_rate_max=0.0, severe_max=0, leaks_max=0,
    p99_ms_max=200.0, lift_min={"default": 0.1, "scenarios": 0.5},
)  # fmt: skip


def _variant(**fields: Any) -> dict[str, Any]:
    return {
        "queries": 10, "hit_rate": 0.9, "lift": 0.6, "lift_ci": [0.4, 0.8], "wrong_rate": 0.0,
        "wrong_by_cause": {}, "severe": 0, "p50_ms": 30.0, "p99_ms": 90.0, "strata": {},
        **fields,
    }  # fmt: skip


def _report(**permem: Any) -> dict[str, Any]:
    figures = {"variants": {"none": _variant(lift=0.0), "permem": _variant(**permem)}, "leaks": 0}
    other = copy.deepcopy(figures)
    other["variants"]["permem"]["lift"] = 0.2
    return {**figures, "datasets": {"scenarios": figures, "prefeval/explicit": other}}


def test_the_shipped_gate_loads() -> None:
    gate = load_gate(DEFAULT_GATE)
    assert gate.version >= 1 and gate.variant == "permem"
    assert gate.wrong_rate_max == 0.0 and gate.severe_max == 0 and gate.leaks_max == 0
    assert gate.p99_ms_max > 0 and "default" in gate.lift_min


def test_a_clean_report_passes() -> None:
    assert check(GATE, _report()) == []


@pytest.mark.parametrize(
    ("permem", "violated"),
    [
        ({"wrong_rate": 0.05}, {("scenarios", "wrong_rate"), ("prefeval/explicit", "wrong_rate")}),
        ({"severe": 1}, {("scenarios", "severe"), ("prefeval/explicit", "severe")}),
        ({"p99_ms": 250.0}, {("scenarios", "p99_ms"), ("prefeval/explicit", "p99_ms")}),
        ({"lift": 0.3}, {("scenarios", "lift")}),  # prefeval/explicit has its own lift 0.2
    ],
)
def test_each_threshold_fails_a_violating_report(
    permem: dict[str, Any], violated: set[tuple[str, str]]
) -> None:
    found = check(GATE, _report(**permem))
    assert {(v.dataset, v.check) for v in found} == violated


def test_leaks_and_the_per_dataset_lift_minimum() -> None:
    report = _report()
    report["datasets"]["scenarios"]["leaks"] = 2
    report["datasets"]["prefeval/explicit"]["variants"]["permem"]["lift"] = 0.05
    found = {(v.dataset, v.check, v.value, v.limit) for v in check(GATE, report)}
    assert found == {("scenarios", "leaks", 2, 0), ("prefeval/explicit", "lift", 0.05, 0.1)}


def test_a_report_without_datasets_is_checked_whole_and_a_bad_one_is_refused() -> None:
    whole = {"variants": {"permem": _variant(severe=2)}, "leaks": 0}
    assert [(v.dataset, v.check) for v in check(GATE, whole)] == [("all", "severe")]
    with pytest.raises(BadInput, match="not a lifecycle report"):
        check(GATE, {"total": {}})
    with pytest.raises(BadInput, match="no `permem` variant"):
        check(GATE, {"variants": {"none": _variant()}})


def test_gate_files_are_validated(tmp_path: Path) -> None:
    bad = tmp_path / "gate.toml"
    bad.write_text("version = 1\n[thresholds]\nwrong_rate_max = 0\n")
    with pytest.raises(BadInput, match="not a valid gate"):
        load_gate(bad)
    with pytest.raises(BadInput, match="no gate file"):
        load_gate(tmp_path / "missing.toml")


def test_cli_exit_codes_and_the_violation_table(tmp_path: Path) -> None:
    runner = CliRunner()
    gate = tmp_path / "gate.toml"
    gate.write_text(
        "version = 3\nvariant = 'permem'\n[thresholds]\nwrong_rate_max = 0.0\nsevere_max = 0\n"
        "leaks_max = 0\np99_ms_max = 200.0\n[lift_min]\ndefault = 0.1\n"
    )
    clean, violating = tmp_path / "clean.json", tmp_path / "violating.json"
    clean.write_text(json.dumps(_report()))
    violating.write_text(json.dumps(_report(wrong_rate=0.1, severe=1)))
    ok = runner.invoke(app, ["eval", "gate", "--report", str(clean), "--gate", str(gate)])
    assert ok.exit_code == 0, ok.stderr
    assert "release gate v3: passed" in ok.stdout
    failed = runner.invoke(app, ["eval", "gate", "--report", str(violating), "--gate", str(gate)])
    assert failed.exit_code == 1
    assert "wrong_rate" in failed.stdout and "severe" in failed.stdout
    assert "4 release-gate threshold(s) violated" in failed.stderr
    as_json = runner.invoke(
        app, ["eval", "gate", "--report", str(violating), "--gate", str(gate), "--json"]
    )
    assert as_json.exit_code == 1
    assert len(json.loads(as_json.stdout)["violations"]) == 4
    neither = runner.invoke(app, ["eval", "gate"])
    assert neither.exit_code == 2
    unreadable = runner.invoke(app, ["eval", "gate", "--report", str(tmp_path / "no.json")])
    assert unreadable.exit_code == 2 and "cannot read the report" in unreadable.stderr
