"""Classes of issue 15, eighth round, in wordings of our own (not the corpus's): a stay
anywhere for a while, windows said by their days, a decision drawn from a day's occasion,
changes that start later.

Each was found by crossing wordings of a class (stays x windows, causes x decisions x days,
start markers x states) through extraction and classification, not from single examples.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from permem.extraction.cues import Cue
from permem.extraction.labels import labelled_statement
from permem.extraction.modality import retracts
from permem.extraction.stays import away_for_a_while
from permem.logs import parse_message
from permem.runtime import shared_extractor
from permem.temporal import has_bound, has_window, span
from tests.conftest import days, read_claims, user_line
from tests.test_speakers import speakers

ZONE = timezone(timedelta(hours=2))
TS = datetime(2026, 6, 10, 19, 15, tzinfo=ZONE)  # a Wednesday evening


def _read(said: str) -> list[tuple[str, str | None, str | None, str | None]]:
    """(claim, topic, first day, day after the last) of each claim read from `said`."""
    return [(r.claim, r.topic, *days(r)) for r in read_claims(said, ts=TS)]


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("from 2 to 16 July", ("2026-07-02", "2026-07-17")),
        ("between 4 and 18 August", ("2026-08-04", "2026-08-19")),
        ("the week of the 22nd", ("2026-06-22", "2026-06-29")),
        ("the week of 3 August", ("2026-08-03", "2026-08-10")),
        ("July 3 to July 10", ("2026-07-03", "2026-07-11")),
        ("28 June - 4 July", ("2026-06-28", "2026-07-05")),
        ("from Fri 12 to Thu 25", ("2026-06-12", "2026-06-26")),
        ("Friday 12th to Thursday 25th", ("2026-06-12", "2026-06-26")),
    ],
)
def test_windows_said_by_their_days_are_spans(text: str, days: tuple[str, str]) -> None:
    found = span(text, TS)
    assert found is not None, text
    assert (found[0].date().isoformat(), found[1].date().isoformat()) == days


@pytest.mark.parametrize(
    "text", ["I work from 9 to 5", "between 10 and 12 people", "from 3 to 4 pm", "from 20 to 25"]
)
def test_hours_and_amounts_are_no_span_of_days(text: str) -> None:
    assert span(text, TS) is None


def test_a_weekend_said_as_a_stretch_and_this_week_are_windows() -> None:
    for text in ("over the long weekend", "the week of the 8th"):
        assert has_bound(text), text
    # "this week" is a window for a state said now, not the bound of a change that happened in
    # it ("got a MacBook this week" takes back what it replaces, for good).
    for text in ("this coming week", "this weekend", "for the rest of the month"):
        assert has_window(text), text
    for text in ("got a MacBook from IT this week", "a new teacher from this week"):
        assert not has_bound(text), text


@pytest.mark.parametrize(
    ("said", "days"),
    [
        ("I'll be in Porto next week.", ("2026-06-15", "2026-06-22")),
        ("We're on holiday in Crete from 2 to 16 July.", ("2026-07-02", "2026-07-17")),
        ("Between 4 and 18 August, I'm on a course in Bologna.", ("2026-08-04", "2026-08-19")),
        ("For the next fortnight, I'm at a trade fair in Hanover.", ("2026-06-10", "2026-06-24")),
        ("I'm working remotely from Seville this coming week.", ("2026-06-15", "2026-06-22")),
        ("The week of the 22nd, I'm visiting my gran in Tours.", ("2026-06-22", "2026-06-29")),
        ("We're on holiday in Crete in July.", ("2026-07-01", "2026-08-01")),
        ("July 3 to July 10, I'm at a workshop in Lund.", ("2026-07-03", "2026-07-11")),
        ("I'll be staying with my uncle in Ghent for the rest of the month.",
         ("2026-06-10", "2026-07-01")),
    ],
)  # fmt: skip
def test_a_stay_anywhere_for_a_while_is_where_the_user_is_then(
    said: str, days: tuple[str, str]
) -> None:
    read = _read(said)
    assert any(topic == "home" and (start, end) == days for _, topic, start, end in read), read


@pytest.mark.parametrize(
    "said",
    [
        "I'm a nurse in Leeds.",  # no bound: no stay
        "I'm interested in Rust.",
    ],
)
def test_a_place_without_a_window_is_no_stay(said: str) -> None:
    assert not away_for_a_while(said, TS)
    assert all(topic != "home" or end is None for _, topic, _, end in _read(said)), _read(said)


def test_a_stay_whose_start_is_not_read_is_no_stay() -> None:
    """Read from now, it would stand in for the home before it begins."""
    assert not away_for_a_while("I'll be in Ghent from the day after my exam until the 25th.", TS)
    assert away_for_a_while("I'll be in Ghent from the 12th to the 25th.", TS)


@pytest.mark.parametrize(
    ("said", "last"),
    [
        ("Heavy snow forecast for tomorrow. So I'm taking the tram to the office.", "2026-06-12"),
        ("The ferry is cancelled on Friday, so I'm driving round the bay.", "2026-06-13"),
        ("Roadworks outside my house Monday morning. So it's the train for me.", "2026-06-16"),
        ("There's a tube strike tomorrow, I'll cycle in.", "2026-06-12"),
    ],
)
def test_a_decision_drawn_from_a_days_occasion_holds_that_day(said: str, last: str) -> None:
    read = _read(said)
    decisions = [r for r in read if any(w in r[0] for w in ("tram", "driving", "train", "cycle"))]
    assert decisions and all(end is not None and end <= last for *_, end in decisions), read


@pytest.mark.parametrize(
    ("said", "first"),
    [
        ("As from the 20th I'm on the early shift.", "2026-06-20"),
        ("With effect from 1 September my office is the one in Delft.", "2026-09-01"),
        ("We're on a four-day week from 7 September.", "2026-09-07"),
    ],
)
def test_a_change_said_to_start_later_starts_then(said: str, first: str) -> None:
    read = _read(said)
    assert any(start == first and end is None for _, _, start, end in read), read


@pytest.mark.parametrize(
    "said",
    [
        "Part of me wants to go vegetarian.",
        "Half thinking of going pescatarian.",
        "I might quit my job at some point, who knows.",
    ],
)
def test_a_wish_only_partly_held_is_only_considered(said: str) -> None:
    candidates = shared_extractor().extract(
        [parse_message(user_line("m1", said, ts=TS.isoformat()))]
    )
    assert candidates and all(Cue.CONSIDERED in c.cues for c in candidates), candidates


@pytest.mark.parametrize(
    ("said", "change"),
    [
        ("We finally got a puppy!", True),
        ("I got the van on Saturday.", True),
        ("I got a cold.", False),
    ],
)
def test_a_possession_got_is_a_change(said: str, change: bool) -> None:
    assert retracts(said) is change


@pytest.mark.parametrize(
    ("said", "days"),
    [
        ("I'm off sugar over the next month.", 30),
        ("Gluten-free for the next couple of weeks, so no pasta.", 14),
    ],
)
def test_the_next_month_said_as_a_stretch_is_a_duration_not_next_month(
    said: str, days: int
) -> None:
    read = _read(said)
    assert read, said
    for _, _, start, end in read:
        assert end is not None and start == TS.date().isoformat(), read
        assert abs((datetime.fromisoformat(end).date() - TS.date()).days - days) <= 2, read


@pytest.mark.parametrize(
    ("said", "one_off"),
    [
        ("My reply to the council needs a formal tone.", True),
        ("For my answer to the recruiter I need bullet points, it's for a bank.", True),
        ("One thing: my letter to the bank needs British spelling.", True),
        ("For my emails to clients I need a formal tone.", False),  # a kind of thing: stands
    ],
)
def test_a_rule_for_ones_own_single_piece_is_a_one_off(said: str, one_off: bool) -> None:
    candidates = shared_extractor().extract(
        [parse_message(user_line("m1", said, ts=TS.isoformat()))]
    )
    assert candidates, said
    assert all((Cue.ONE_OFF in c.cues) is one_off for c in candidates), candidates


@pytest.mark.parametrize(
    ("said", "withdrawn_"),
    [
        ("really? TIL. ignore my rule then", True),
        ("ok, you convinced me, never mind the stretching", True),
        ("oh really? then don't bother with the stretching", True),
        ("okay then, no need for that rule", True),
        ("Never mind the stretching, I need a ride to the airport on Friday.", False),
    ],
)
def test_a_rule_let_go_once_conceded_is_withdrawn(said: str, withdrawn_: bool) -> None:
    candidates = shared_extractor().extract(
        [parse_message(user_line("m1", said, ts=TS.isoformat()))]
    )
    assert any(Cue.WITHDRAWN in c.cues for c in candidates) is withdrawn_, candidates


def test_a_new_value_after_a_change_is_no_one_else_typing() -> None:
    assert speakers("We switched energy suppliers, it's Octopus now.") == [None]
    assert speakers("hi, it's Tom now, Ana is asleep") == ["r.okafor:tom"]


@pytest.mark.parametrize(
    ("said", "stated"),
    [
        ("baking skills: none, I burn toast.", True),
        ("Monthly rent: 1,150 including bills.", True),
        ("Current setup: a borrowed Chromebook while mine is repaired.", True),
        ("my running routine: 8k before work, weekdays.", True),
        ("Heads up: the meeting moved.", False),  # announces what follows
        ("Quick question: is it 'affect' or 'effect'?", False),
        ("Recipe: two eggs, flour and milk.", False),  # content, not the speaker's
        ("Maya's teacher: Mr Osei.", False),  # someone else's
        ("For the grant bid: American spelling.", False),  # a topic label: judged as it stands
    ],
)
def test_a_label_and_its_value_is_a_statement_about_the_speaker(said: str, stated: bool) -> None:
    assert labelled_statement(said) is stated
    candidates = shared_extractor().extract(
        [parse_message(user_line("m1", said, ts=TS.isoformat()))]
    )
    if stated:
        assert candidates and Cue.DURABLE in candidates[0].cues, candidates
