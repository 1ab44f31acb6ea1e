"""The release gate: a lifecycle report checked against the thresholds of a versioned file.

`gate.toml` (beside this module, shipped with the package) declares, for the variant that
ships (`variant`, `permem`): the largest wrong-personalization rate, severe-harm count, leak
count and p99 latency allowed, and the smallest lift over `none` per dataset (`[lift_min]`, by
the dataset's name in the report; `default` for any other). Each dataset of the report is
checked on its own; a report of one dataset with no `datasets` entry is checked as a whole.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from permem.errors import BadInput

__all__ = ["DEFAULT_GATE", "Gate", "Violation", "check", "load_gate"]

DEFAULT_GATE = Path(__file__).with_name("gate.toml")


@dataclass(frozen=True, slots=True)
class Gate:
    version: int
    variant: str
    wrong_rate_max: float
    severe_max: int
    leaks_max: int
    p99_ms_max: float
    lift_min: dict[str, float]

    def lift_min_for(self, dataset: str) -> float:
        return self.lift_min.get(dataset, self.lift_min.get("default", 0.0))


@dataclass(frozen=True, slots=True)
class Violation:
    dataset: str
    check: str
    value: float
    limit: float

    def as_json(self) -> dict[str, Any]:
        return {"dataset": self.dataset, "check": self.check, "value": self.value,
                "limit": self.limit}  # fmt: skip


def load_gate(path: Path = DEFAULT_GATE) -> Gate:
    """The gate declared in `path` (BadInput when it is missing or malformed)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        limits = data["thresholds"]
        return Gate(
            version=int(data["version"]),
            variant=str(data.get("variant", "permem")),
            wrong_rate_max=float(limits["wrong_rate_max"]),
            severe_max=int(limits["severe_max"]),
            leaks_max=int(limits["leaks_max"]),
            p99_ms_max=float(limits["p99_ms_max"]),
            lift_min={str(k): float(v) for k, v in data.get("lift_min", {}).items()},
        )
    except FileNotFoundError:
        raise BadInput(f"no gate file at {path}") from None
    except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as exc:
        raise BadInput(f"{path}: not a valid gate ({exc})") from None


def _check_one(gate: Gate, name: str, figures: dict[str, Any]) -> list[Violation]:
    variants = figures.get("variants", {})
    if gate.variant not in variants:
        raise BadInput(f"the report has no `{gate.variant}` variant for {name}")
    v = variants[gate.variant]
    checks = [
        ("wrong_rate", float(v["wrong_rate"]), gate.wrong_rate_max, True),
        ("severe", float(v["severe"]), float(gate.severe_max), True),
        ("leaks", float(figures.get("leaks", 0)), float(gate.leaks_max), True),
        ("p99_ms", float(v["p99_ms"]), gate.p99_ms_max, True),
        ("lift", float(v["lift"]), gate.lift_min_for(name), False),
    ]
    return [
        Violation(name, check, value, limit)
        for check, value, limit, is_max in checks
        if (value > limit if is_max else value < limit)
    ]


def check(gate: Gate, report: dict[str, Any]) -> list[Violation]:
    """Every threshold `report` (`permem eval lifecycle --json`) violates, dataset by dataset."""
    if not isinstance(report, dict) or "variants" not in report:
        raise BadInput("not a lifecycle report: no `variants`")
    datasets = report.get("datasets") or {"all": report}
    found: list[Violation] = []
    for name, figures in datasets.items():
        found += _check_one(gate, name, figures)
    return found
