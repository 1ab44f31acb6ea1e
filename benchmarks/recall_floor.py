"""Part 3 of the recall benchmark: the relevance floor's trade-off (`benchmarks/recall.py`).

The dev sets are answered once with no floor (`recall_quality`, keeping every answer's scores).
A floor F then returns exactly the records of that answer scoring at least F: recall ranks
best first and applies the floor to the ranked list before cutting it to k, so every candidate
floor is scored from the one run. Per floor: recall@5 of each set with relevant turns, and the
share of the unanswerable queries (LoCoMo's, and PrefEval's cross-subject ones) answered with
nothing. The floor chosen is, of those that keep every set's recall@5 within `TOLERANCE` of its
value without a floor, the lowest that answers the most unanswerable queries with nothing (none
when no floor answers more than no floor does).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from recall_quality import Answered, quality_part

# The recall@5 a floor may cost on any one dev set (a share: 0.01 is one point).
TOLERANCE = 0.01
FLOORS = [round(0.01 * step, 2) for step in range(-10, 61)]
NO_FLOOR = float("-inf")


def recall_at_5(answers: Sequence[Answered], floor: float) -> float | None:
    """Share of the queries with relevant turns that have one among the first 5 records
    scoring at least `floor` (None: no such query)."""
    judged = [a for a in answers if a.relevant]
    if not judged:
        return None
    hits = sum(
        bool({s for s, score in a.returned[:5] if score >= floor} & a.relevant) for a in judged
    )
    return hits / len(judged)


def answered_empty(answers: Sequence[Answered], floor: float) -> float | None:
    """Share of the unanswerable queries (no relevant turn) that get no record scoring at
    least `floor` (None: no such query)."""
    unanswerable = [a for a in answers if not a.relevant]
    if not unanswerable:
        return None
    empty = sum(all(score < floor for _, score in a.returned) for a in unanswerable)
    return empty / len(unanswerable)


def choose_floor(kept: Mapping[str, Sequence[Answered]], floors: Sequence[float]) -> float | None:
    """Of the `floors` that cost no set more than `TOLERANCE` of its recall@5 (against no
    floor), the lowest that answers the most unanswerable queries with nothing; None when no
    floor answers more of them than no floor does."""

    def empty(floor: float) -> int:
        return sum(
            sum(bool(not a.relevant and all(s < floor for _, s in a.returned)) for a in answers)
            for answers in kept.values()
        )

    def affordable(floor: float) -> bool:
        for answers in kept.values():
            base, now = recall_at_5(answers, NO_FLOOR), recall_at_5(answers, floor)
            if base is not None and now is not None and base - now > TOLERANCE + 1e-9:
                return False
        return True

    within = [f for f in sorted(floors) if affordable(f)]
    if not within or max(map(empty, within)) <= empty(NO_FLOOR):
        return None
    best = max(map(empty, within))
    return next(f for f in within if empty(f) == best)


def sweep_table(kept: Mapping[str, Sequence[Answered]], floors: Sequence[float]) -> str:
    """One line per floor: recall@5 of each set, answered-empty share of each unanswerable
    set, with the chosen floor marked."""
    chosen = choose_floor(kept, floors)
    recall_sets = [n for n, a in kept.items() if recall_at_5(a, NO_FLOOR) is not None]
    empty_sets = [n for n, a in kept.items() if answered_empty(a, NO_FLOOR) is not None]
    lines = [
        "    floor | "
        + " | ".join(f"recall@5 {n}" for n in recall_sets)
        + " | "
        + " | ".join(f"answered empty {n}" for n in empty_sets)
        + "\n"
    ]
    for floor in [None, *floors]:
        at = NO_FLOOR if floor is None else floor
        cells = [f"{recall_at_5(kept[n], at):.3f}" for n in recall_sets]
        cells += [f"{answered_empty(kept[n], at):.3f}" for n in empty_sets]
        mark = "  <- chosen" if floor == chosen else ""
        if floor is None and chosen is None:
            mark = "  <- chosen: no floor answers more unanswerable queries with nothing"
        label = "none" if floor is None else f"{floor:.2f}"
        lines.append(f"    {label:>5} | " + " | ".join(cells) + mark + "\n")
    return "".join(lines)


def floor_part(
    server: str, root: Path, only: Sequence[str] | None, report: Callable[[str], None]
) -> None:
    """Answer the dev sets without a floor, then report the sweep and the floor chosen."""
    kept: dict[str, list[Answered]] = {}
    quality_part(server, root, only, report, kept)
    if not kept:
        report("  floor: no dev set answered; no sweep\n")
        return
    report(
        f"  relevance floor sweep (on the blended recall score; chosen: of the floors costing no "
        f"set more than {TOLERANCE:.2f} of recall@5, the lowest answering the most unanswerable "
        f"queries with nothing):\n" + sweep_table(kept, FLOORS)
    )
