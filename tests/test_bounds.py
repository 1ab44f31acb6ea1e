"""Bounds read by structure (permem.bounds, permem.temporal.GOVERNED): a marker says which end
a time phrase names and the phrase is read as a day whatever its words; a clause of time that
points at no day governs by reference; a plan starts when it is for, and the parse (not a word
list) says what is still to come. Wordings of our own, none taken from the corpus."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from permem import bounds
from permem.extraction.rules import RuleExtractor
from permem.records import Kind, Message, Role
from permem.temporal import GOVERNED, has_bound, resolve

ZONE = timezone(timedelta(hours=2))
TS = datetime(2026, 7, 12, 18, 0, tzinfo=ZONE)  # a Sunday evening


def _local(month: int, day: int, year: int = 2026) -> datetime:
    return datetime(year, month, day, tzinfo=ZONE)


@pytest.mark.parametrize(
    ("text", "until"),
    [
        ("I'm away until August the 3rd", _local(8, 4)),
        ("on call until around the 20th", _local(7, 21)),
        ("no takeout until this Thursday", _local(7, 17)),
        ("off alcohol until the new year", _local(1, 1, 2027)),
        ("I'm in Tokyo until 2027", _local(1, 1, 2027)),
        ("at my parents' for the next fortnight", TS + timedelta(weeks=2)),
        ("over the next three weeks I'm on a cut", TS + timedelta(weeks=3)),
        ("the next 10 days are madness", TS + timedelta(days=10)),
        # The marker opens an event, and the event's day ends the claim.
        ("until my exams finish on August 12, no social plans", _local(8, 13)),
        ("no drinks till the marathon on Friday", _local(7, 18)),
        # A feast named as the day: the next one, through its day (Easter moves every year).
        ("no sweets until Christmas", _local(12, 26)),
        ("I'm off sugar from this week until Easter", _local(3, 29, 2027)),
        ("on the night shift till Easter Sunday", _local(3, 29, 2027)),
    ],
)
def test_an_end_marker_and_any_wording_of_a_day_end_the_claim(text: str, until: datetime) -> None:
    assert has_bound(text)
    validity = resolve(text, TS)
    assert validity.valid_until == until, text
    assert validity.valid_from == TS


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("from next month I'm in Berlin", _local(8, 1)),
        ("starting next week I work nights", _local(7, 13)),
        ("after the 20th I'm back in the office", _local(7, 21)),
        ("in two weeks I start the new job", _local(7, 26)),
        ("from Christmas I'm working Tuesdays from home", _local(12, 25)),
    ],
)
def test_a_start_marker_and_any_wording_of_a_day_start_the_claim(
    text: str, start: datetime
) -> None:
    validity = resolve(text, TS)
    assert validity.valid_from == start, text
    assert validity.valid_until is None


@pytest.mark.parametrize(
    "text",
    [
        "from my sister, a tip: oat milk froths best",  # no word of time after the marker
        "until I'm back I'll keep it simple",  # a clause, not a day: GOVERNED reads it
        "away till 08/03",  # day-month or month-day: not guessed
        "meetings after 11, never first thing",  # an hour, not a day
        "deliveries after 6pm only",
        "from 6:30 I'm at the gym",
        "I've felt rough for the past few days",  # a stretch behind
        "for the coming weeks I'm on a cut",  # a stretch of no length
    ],
)
def test_what_names_no_day_bounds_nothing(text: str) -> None:
    validity = resolve(text, TS)
    assert validity.valid_until is None and validity.valid_from == TS, text
    assert bounds.end_day(text, TS) is None and bounds.start_day(text, TS) is None


@pytest.mark.parametrize(
    "text",
    [
        "no calls till it's over",
        "no calls until they leave",
        "no runs until the knee heals",
        "no calls while they're here",
        "whilst that's going on, nothing delivered",
        "no calls as long as it lasts",
        "for the duration, no takeout",
        "for those weeks, no takeout",
        "no oven recipes while the kitchen is out of action",
    ],
)
def test_a_clause_of_time_governs_by_reference(text: str) -> None:
    assert GOVERNED.search(text), text


@pytest.mark.parametrize(
    "text",
    [
        "until I say otherwise, metric",  # standing, not bounded
        "quick one before I forget: no peanuts",
        "I listen to lo-fi while I work",  # what the user does while working, every time
        "I sleep during the day",
        "until the end of May I'm away",  # a day, read by the patterns, not a reference
    ],
)
def test_what_is_no_clause_of_time_governs_nothing(text: str) -> None:
    assert not GOVERNED.search(text), text


def test_a_bound_said_before_reaches_the_clause_that_points_at_it() -> None:
    """The governed clause takes the bound of the sentence it points back to (classify reads
    the context with `resolve`): a wording of the bound the patterns alone did not read."""
    context = "My in-laws are staying with us until August the 3rd."
    assert GOVERNED.search("no work calls while they're here")
    assert resolve(context, TS).valid_until == _local(8, 4)


def test_a_change_from_now_on_names_no_bound() -> None:
    """ "From this week" says the change has started: it is no bound, so a retraction said
    with it still takes back what it names (pipeline_load reads `has_bound`)."""
    assert not has_bound("Felix has a new teacher from this week")
    assert not has_bound("meetings after 11 please")
    assert has_bound("I'm away until August the 3rd")
    assert has_bound("for the next fortnight I'm at my mum's")


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("we'll be relocating to Oslo after the summer", _local(9, 22)),  # when autumn starts
        ("I'm due to retire at the end of the year", _local(12, 31)),
        ("I'm set to begin my PhD in the new year", _local(1, 1, 2027)),
        ("my aim is to run a marathon in spring", _local(3, 20, 2027)),
        ("we plan to move in a couple of months", _local(9, 12)),
    ],
)
def test_a_plan_starts_when_it_is_for_whatever_words_name_it(text: str, start: datetime) -> None:
    assert resolve(text, TS, plan=True).valid_from == start, text
    assert resolve(text, TS).valid_from == TS  # a statement that is no plan keeps its time


def _kinds(extractor: RuleExtractor, text: str) -> list[Kind]:
    message = Message(
        tenant="t", message_id="m1", account="ada", conversation_id="c", turn=1,
        role=Role.USER, text=text, ts=TS,
    )  # fmt: skip
    return [c.kind for c in extractor.extract([message])]


@pytest.mark.parametrize(
    "text",
    [
        "We'll be relocating to Oslo after the summer.",
        "I'm due to retire at the end of the year.",
        "I'm set to begin my PhD in the new year.",
        "My aim is to run a marathon in spring.",
    ],
)
def test_what_the_parse_says_is_to_come_is_a_plan(extractor: RuleExtractor, text: str) -> None:
    assert _kinds(extractor, text) == [Kind.PLAN], text


@pytest.mark.parametrize(
    "text",
    [
        "I won't eat pork.",
        "I will be vegetarian from now on.",
        "I cycle to work every day.",
        # A commitment in the future tense holds from now.
        "I'll never eat meat again.",
        "I'll be vegetarian for good.",
    ],
)
def test_a_refusal_a_change_from_now_and_a_habit_are_no_plans(
    extractor: RuleExtractor, text: str
) -> None:
    assert Kind.PLAN not in _kinds(extractor, text), text
