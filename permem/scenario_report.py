"""What a run of the scenario harness came to (`permem.scenarios`): each scenario's outcome,
the sums per family, and the causes of each miss and wrong personalization, read from what the
scenario's stores hold. Counts only come out of `HarnessReport.causes` and `wrong_kinds`, so a
held-apart half can be read this way."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from permem.records import Confirmation, Status, UserMemory

__all__ = ["HarnessReport", "Outcome", "ScenarioReport", "miss_cause", "wrong_cause"]


@dataclass
class Outcome:
    """What one scenario (or a family's scenarios together) came to."""

    queries: int = 0
    hits: int = 0
    misses: int = 0
    wrong: int = 0
    denied_mismatches: int = 0
    empty_mismatches: int = 0
    leaks: int = 0
    errors: int = 0

    def add(self, other: Outcome) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @property
    def failed(self) -> bool:
        """A wrong personalization or a leak: the harness's failing conditions."""
        return self.wrong > 0 or self.leaks > 0

    def as_json(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


@dataclass
class ScenarioReport:
    name: str
    families: list[str]
    outcome: Outcome = field(default_factory=Outcome)
    details: list[dict[str, Any]] = field(default_factory=list)  # one per problem
    not_run: str | None = None  # why the script stopped early

    def as_json(self) -> dict[str, Any]:
        return {
            "scenario": self.name,
            "families": self.families,
            **self.outcome.as_json(),
            "not_run": self.not_run,
            "details": self.details,
        }


@dataclass
class HarnessReport:
    scenarios: list[ScenarioReport]

    @property
    def total(self) -> Outcome:
        total = Outcome()
        for scenario in self.scenarios:
            total.add(scenario.outcome)
        return total

    @property
    def families(self) -> dict[str, Outcome]:
        """Outcomes per family; a scenario of several families counts in each."""
        grouped: dict[str, Outcome] = {}
        for scenario in self.scenarios:
            for family in scenario.families:
                grouped.setdefault(family, Outcome()).add(scenario.outcome)
        return dict(sorted(grouped.items()))

    @property
    def failed(self) -> bool:
        return self.total.failed

    def causes(self, family: str | None = None) -> dict[str, int]:
        """How many misses and wrong personalizations had each cause (`miss_cause`,
        `wrong_cause`), over every scenario or those of one family: counts only, no text, so a
        held-apart half can be read this way."""
        counted: dict[str, int] = {}
        for scenario in self.scenarios:
            if family is not None and family not in scenario.families:
                continue
            for detail in scenario.details:
                if "miss" in detail:
                    key = f"miss {detail['cause']}"
                elif "wrong_personalization" in detail:
                    key = f"wrong {detail['said']}, {detail['beside']}"
                else:
                    continue
                counted[key] = counted.get(key, 0) + 1
        return dict(sorted(counted.items()))

    def wrong_kinds(self) -> dict[str, int]:
        """How many wrong personalizations were of each record kind (fact, constraint, ...):
        counts only, like `causes`, so whether one kind of claim is the problem can be read off
        a held-apart half."""
        counted: Counter[str] = Counter(
            detail["kind"]
            for scenario in self.scenarios
            for detail in scenario.details
            if "wrong_personalization" in detail
        )
        return dict(sorted(counted.items()))

    def as_json(self) -> dict[str, Any]:
        return {
            "total": self.total.as_json(),
            "families": {name: o.as_json() for name, o in self.families.items()},
            "scenarios": [s.as_json() for s in self.scenarios],
        }


def miss_cause(stored: Sequence[UserMemory]) -> str:
    """Where a relevant message's claim stopped, read from what was stored of it: never
    stored (extraction or the gate), stored but held for confirmation, kept for its session
    only, superseded, or usable and still not returned (recall's filters or ranking)."""
    if not stored:
        return "not_stored"
    usable = [r for r in stored if r.status is Status.ACTIVE]
    if any(r.confirmation not in (Confirmation.PENDING, Confirmation.REJECTED) for r in usable):
        return "active_not_returned"
    if usable:
        return "held_for_confirmation"
    return "+".join(sorted({r.status.value for r in stored}))


def wrong_cause(
    wrong: UserMemory, returned: Sequence[str], relevant: Sequence[UserMemory]
) -> tuple[str, str]:
    """Whether a forbidden record was returned beside the relevant one or without it, and
    whether it was said before, after or between the relevant claims (`unknown` when none
    of them was stored): the first points at a choice among claims, the second says whether
    an old claim outlived its replacement or a later one took a place it should not."""
    relevant_ids = {r.source.message_id for r in relevant}
    beside = "beside_relevant" if relevant_ids & set(returned) else "without_relevant"
    if not relevant:
        return beside, "unknown"
    if all(wrong.observed_at < r.observed_at for r in relevant):
        return beside, "said_before"
    if all(wrong.observed_at > r.observed_at for r in relevant):
        return beside, "said_after"
    return beside, "said_between"
