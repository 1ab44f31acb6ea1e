"""Classes of issue 15 crossed in wordings of our own, through extraction and classification.

Each grid crosses the wordings of a class (stays x windows, causes x decisions x days, start
markers x new states, ...; the word lists are in benchmarks/grids/, written for this apart
from the scenario corpus) and checks every sentence against what the class says it means: a
stay is where the user is for its window, a decision drawn from a day's occasion holds that
day, a change said to start later starts then, a wish only weighed is no fact, a rule for
one piece is a one-off. No database: the extractor and `classify_all` only, at a fixed
message time (Wednesday 2026-06-10, UTC+2). Prints, per grid, how many sentences fail and the
first of them, and appends that to benchmarks/results/class_grids.txt. Run by hand:

    .venv/bin/python benchmarks/class_grids.py [--show N]

A failing sentence is a class not yet held, not a test: the grid measures, it does not gate.
"""

from __future__ import annotations

import argparse
import itertools
import subprocess
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

from permem.classify import classify_all
from permem.extraction.speakers import attribute, attribute_candidates
from permem.logs import parse_message
from permem.runtime import shared_extractor

GRIDS = Path(__file__).resolve().parent / "grids"
RESULTS = Path(__file__).resolve().parent / "results" / "class_grids.txt"
TS = datetime(2026, 6, 10, 19, 15, tzinfo=timezone(timedelta(hours=2)))  # a Wednesday evening

Read = list[tuple[str, str | None, frozenset[str], datetime, datetime | None]]


def read(text: str) -> Read:
    """(claim, topic, cues, valid_from, valid_until) of each claim read from `text`."""
    line = {"message_id": "m1", "tenant": "grid", "account": "ana", "conversation_id": "c",
            "turn": 1, "role": "user", "text": text, "ts": TS.isoformat()}  # fmt: skip
    found = shared_extractor().extract([parse_message(line)])
    return [
        (c.claim_text, c.topic, frozenset(x.value for x in c.cues), k.valid_from, k.valid_until)
        for c, k in zip(found, classify_all(found), strict=True)
    ]


def rows(name: str) -> list[list[str]]:
    lines = (GRIDS / name).read_text(encoding="utf-8").splitlines()
    return [line.split("|") for line in lines if line.strip()]


def both_orders(state: str, window: str) -> Iterator[str]:
    yield f"{state} {window}."
    yield f"{_capital(window)}, {state[0].lower()}{state[1:]}."


def _capital(text: str) -> str:
    return text[0].upper() + text[1:]


def _day(value: datetime | None) -> str | None:
    return None if value is None else value.date().isoformat()


def stays() -> Iterator[tuple[str, bool]]:
    for (state,), (window,) in itertools.product(rows("stays.txt"), rows("windows.txt")):
        for text in both_orders(state, window):
            ok = any(t == "home" and u is not None and u > TS for _, t, _, _, u in read(text))
            yield text, ok


def window_days() -> Iterator[tuple[str, bool]]:
    states = ("I'll be in Madrid", "we're on holiday in Sicily", "I'm house-sitting in Bergen")
    for (window, start, end), state in itertools.product(rows("window_days.txt"), states):
        for text in both_orders(state, window):
            want = ("home", start, end)
            yield text, any((t, _day(f), _day(u)) == want for _, t, _, f, u in read(text))


def decisions() -> Iterator[tuple[str, bool]]:
    grid = itertools.product(rows("causes.txt"), rows("decisions.txt"), rows("days.txt"))
    for (cause,), (decision,), (day, last) in grid:
        said = cause.replace("{D}", day)
        for text in (f"{said}, {decision}.", f"{said}. {decision[0].upper()}{decision[1:]}."):
            claims = [r for r in read(text) if decision.split()[-1] in r[0] or "bus" in r[0]]
            yield (
                text,
                bool(claims) and all((u := _day(r[4])) is not None and u <= last for r in claims),
            )


def starts() -> Iterator[tuple[str, bool]]:
    grid = itertools.product(rows("start_markers.txt"), rows("new_states.txt"))
    for (marker, day), (state,) in grid:
        for text in (f"{marker} {state}.", f"{_capital(state)} {marker[0].lower()}{marker[1:]}."):
            yield text, any(_day(f) == day and u is None for *_, f, u in read(text))


def weighing() -> Iterator[tuple[str, bool]]:
    for (marker,), (base, ing) in itertools.product(rows("weighing.txt"), rows("weighed.txt")):
        text = _capital(marker.replace("{X}", base).replace("{Xing}", ing))
        yield text, all({"considered", "hypothetical"} & cues for _, _, cues, _, _ in read(text))


def durations() -> Iterator[tuple[str, bool]]:
    for (span, days), (rule,) in itertools.product(rows("durations.txt"), rows("restrictions.txt")):
        text = _capital(rule.replace("{D}", span))
        bounds = [int(n) for n in days.split("-")]
        low, high = bounds[0], bounds[-1]
        found = read(text)
        yield (
            text,
            bool(found)
            and all(u is not None and low - 1 <= (u - TS).days <= high + 1 for *_, u in found),
        )


def pieces() -> Iterator[tuple[str, bool]]:
    grid = itertools.product(rows("piece_rules.txt"), rows("pieces.txt"), rows("formats.txt"))
    for (rule,), (piece,), (form,) in grid:
        text = _capital(rule.replace("{piece}", piece).replace("{fmt}", form))
        yield text, all("one_off" in cues for _, _, cues, _, _ in read(text))


def kept_dates() -> Iterator[tuple[str, bool]]:
    grid = itertools.product(rows("kept_owners.txt"), rows("kept_forms.txt"), rows("kept_days.txt"))
    for (owner,), (form,), (day,) in grid:
        text = _capital(form.replace("{O}", owner).replace("{D}", day)) + "."
        found = read(text)
        yield (
            text,
            bool(found)
            and all(
                "kept_date" in cues and u is None and _day(f) == TS.date().isoformat()
                for _, _, cues, f, u in found
            ),
        )


def charges() -> Iterator[tuple[str, bool]]:
    for (charge,), (window, last) in itertools.product(
        rows("charges.txt"), rows("charge_windows.txt")
    ):
        for text in both_orders(charge, window):
            found = read(text)
            yield text, bool(found) and all(_day(u) == last for *_, u in found)


def described() -> Iterator[tuple[str, bool]]:
    for (what,), tail in itertools.product(
        rows("described.txt"), (" here.", " here, just so you know.")
    ):
        text = f"{what}{tail}"
        yield text, any("first_person" in cues for _, _, cues, _, _ in read(text))


def task_formats() -> Iterator[tuple[str, bool]]:
    grid = itertools.product(rows("task_rules.txt"), rows("pieces.txt"), rows("task_formats.txt"))
    for (rule,), (piece,), (form,) in grid:
        text = _capital(rule.replace("{piece}", piece).replace("{fmt}", form))
        found = read(text)
        yield text, bool(found) and all("one_off" in cues for _, _, cues, _, _ in found)


def visitors() -> Iterator[tuple[str, bool]]:
    for (opener,) in rows("visitor_openers.txt"):
        text = f"{opener} We love spicy food and we don't drive."
        line = {"message_id": "m1", "tenant": "grid", "account": "ana", "conversation_id": "c",
                "turn": 1, "role": "user", "text": text, "ts": TS.isoformat()}  # fmt: skip
        messages = [parse_message(line)]
        turns = attribute(messages)  # who types, read as the nightly run reads it
        found = attribute_candidates(messages, shared_extractor().extract(messages), turns)
        yield text, bool(found) and all(c.speaker is not None for c in found)


def assumed() -> Iterator[tuple[str, bool]]:
    for (marker,), (rule,) in itertools.product(
        rows("assumption_markers.txt"), rows("world_rules.txt")
    ):
        text = _capital(marker.replace("{R}", rule)) + "."
        yield text, all("belief" in cues for _, _, cues, _, _ in read(text))


CHECKS: dict[str, tuple[str, Callable[[], Iterator[tuple[str, bool]]]]] = {
    "stays": ("a stay anywhere with a window is where the user is (topic home, an end)", stays),
    "window_days": ("a stay's window is read from its first to its last day", window_days),
    "decisions": ("a decision drawn from a day's occasion holds that day", decisions),
    "starts": ("a change said to start later starts then and lasts", starts),
    "weighing": ("a wish only weighed is considered, never a fact", weighing),
    "durations": ("a restriction for a stretch lasts the stretch", durations),
    "pieces": ("a rule for one piece of work is a one-off", pieces),
    "kept_dates": ("a date kept for someone is kept, its day no window of the claim", kept_dates),
    "charges": ("a charge for a window (a pet, a house, kids) ends with it", charges),
    "described": ("'<what I am> here' is a statement of the speaker's", described),
    "task_formats": ("a task that sets its own format is a one-off for it", task_formats),
    "visitors": ("what visitors on the holder's device say is not the holder's", visitors),
    "assumed": ("a rule of the world taken for granted is a belief", assumed),
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", type=int, default=5, help="failing sentences shown per grid")
    args = parser.parse_args(argv)
    code = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    lines = [f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC  class grids, code {code or '?'}"]
    for name, (what, check) in CHECKS.items():
        results = list(check())
        failing = [text for text, ok in results if not ok]
        lines.append(f"  {name:<12} {len(failing):>4} of {len(results):>4} fail  ({what})")
        lines += [f"      {text}" for text in failing[: args.show]]
    print("\n".join(lines))
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n\n")


if __name__ == "__main__":
    main()
