"""The time a request is about (`permem.request_time`), claims about one occasion
(`permem.occasions`) and a new state said in place of the old (`modality.changed_state`): pure
functions first, each with wordings of its own, then each through the nightly flow and recall on
the real stores."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from permem.classify import classify_all
from permem.extraction.cues import sentences
from permem.extraction.modality import changed_state, retracts, takes_back
from permem.logs import parse_message
from permem.nlp import load_pipeline
from permem.occasions import occasion
from permem.request_time import about, periods
from permem.runtime import shared_extractor
from permem.settings import Settings
from tests.conftest import ingest, recalled_claims, user_line

ZONE = timezone(timedelta(hours=2))
FRIDAY = datetime(2026, 6, 12, 17, 30, tzinfo=ZONE)  # a Friday afternoon
MONDAY_NIGHT = datetime(2026, 6, 8, 22, 0, tzinfo=ZONE)


def _day(text: str, ts: datetime = FRIDAY) -> tuple[date, date]:
    window = about(text, ts)
    return window.start.date(), window.last.date()


@pytest.mark.parametrize(
    ("request_text", "first", "last"),
    [
        ("can I fit a haircut in next Tuesday?", date(2026, 6, 16), date(2026, 6, 16)),
        ("what's on for me tomorrow", date(2026, 6, 13), date(2026, 6, 13)),
        ("plan my weekend", date(2026, 6, 13), date(2026, 6, 14)),
        ("book something for June 20th", date(2026, 6, 20), date(2026, 6, 20)),
        ("is Thursday the 25th good for a dentist visit?", date(2026, 6, 25), date(2026, 6, 25)),
        ("draft my schedule for next week", date(2026, 6, 15), date(2026, 6, 21)),
        ("what should I cook tonight?", date(2026, 6, 12), date(2026, 6, 12)),
    ],
)
def test_a_request_is_about_the_days_it_names(request_text: str, first: date, last: date) -> None:
    assert _day(request_text) == (first, last)


@pytest.mark.parametrize(
    "request_text",
    ["what should I cook?", "suggest a gym routine for Mondays", "what did I do last Saturday?"],
)
def test_a_request_that_names_no_day_to_come_is_about_its_own_moment(request_text: str) -> None:
    window = about(request_text, FRIDAY)
    assert window.is_now and window.start == FRIDAY


def test_a_request_today_opens_at_its_own_time_not_at_midnight() -> None:
    window = about("anything I should know for today?", FRIDAY)
    assert window.start == FRIDAY
    assert window.last.date() == FRIDAY.date() and not window.is_now


def test_periods_read_lists_ranges_and_the_weekend_of_a_day() -> None:
    assert periods("my nieces stay with me on July 3rd and 4th", FRIDAY) == [
        (date(2026, 7, 3), date(2026, 7, 4))
    ]
    # The 20th of June 2026 is a Saturday: its weekend is the 20th and the 21st.
    assert periods("I'm house-sitting the weekend of the 20th", FRIDAY) == [
        (date(2026, 6, 20), date(2026, 6, 21))
    ]
    # "the morning" said late at night is the next morning; said before noon, this one.
    assert periods("hail expected in the morning", MONDAY_NIGHT) == [
        (date(2026, 6, 9), date(2026, 6, 9))
    ]
    assert periods("hail expected in the morning", MONDAY_NIGHT.replace(hour=7)) == [
        (date(2026, 6, 8), date(2026, 6, 8))
    ]


@pytest.fixture(scope="module")
def nlp():  # type: ignore[no-untyped-def]
    return load_pipeline()


@pytest.mark.parametrize(
    ("said", "last_day"),
    [
        ("I'm minding my neighbour's parrot on June 18th and 19th", date(2026, 6, 19)),
        ("the gym is closed this week, so I'll run outside", date(2026, 6, 14)),
        ("my brother's crashing on my sofa the weekend of the 27th", date(2026, 6, 28)),
        ("rain all day tomorrow, so I'll drive to the office", date(2026, 6, 13)),
        # The present tense of a relative clause tells no schedule.
        ("at my gran's on Sunday I'll eat whatever she cooks", date(2026, 6, 14)),
    ],
)
def test_a_claim_about_one_occasion_holds_until_it_is_over(nlp, said: str, last_day: date) -> None:  # type: ignore[no-untyped-def]
    found = occasion(said, FRIDAY, doc=nlp(said))
    assert found is not None
    assert found[0] >= FRIDAY
    assert found[1] == datetime.combine(last_day + timedelta(days=1), datetime.min.time(), ZONE)


@pytest.mark.parametrize(
    "said",
    [
        "choir practice is on Thursday, I never skip it",  # a schedule: simple present
        "the rent goes out on the 3rd",  # a monthly date
        "every Sunday I call my grandmother",  # a habit
        "my sister's birthday is July 9th",  # kept every year
        "from June 22nd I'm working nights",  # a lasting change
        "I start at the new clinic next Monday",  # a lasting change
        "we picked up the puppy on the 2nd",  # the past
        "I had a migraine yesterday",  # the past
        "I prefer window seats",  # no day at all
    ],
)
def test_schedules_changes_the_past_and_no_day_are_not_occasions(nlp, said: str) -> None:  # type: ignore[no-untyped-def]
    assert occasion(said, FRIDAY, doc=nlp(said)) is None


def test_without_a_parse_only_words_that_point_at_one_period_count() -> None:
    assert occasion("no swimming this weekend", FRIDAY) is not None
    assert occasion("swimming lessons on Thursday", FRIDAY) is None


def test_an_occasion_and_a_request_about_another_day_through_the_stores(
    settings: Settings, tmp_path: Path
) -> None:
    """The skipped session is not used for a day after it; the weekly one is."""
    ingest(
        settings,
        tmp_path / "log.jsonl",
        [
            user_line("m1", "My pottery class is on Tuesday evenings, every week.",
                      ts="2026-06-01T09:00:00+02:00"),
            user_line("m2", "no pottery this week, the studio is closed, so I'm free Tuesday.",
                      turn=1, ts="2026-06-08T09:00:00+02:00"),
        ],
    )  # fmt: skip
    this_week = recalled_claims(
        settings, "am I free on Tuesday evening?", ts="2026-06-08T12:00:00+02:00"
    )
    assert any("studio is closed" in c or "free Tuesday" in c for c in this_week), this_week
    next_week = recalled_claims(
        settings, "am I free next Tuesday evening?", ts="2026-06-12T12:00:00+02:00"
    )
    assert next_week, "the weekly class is still there"
    assert not any("studio is closed" in c or "free Tuesday" in c for c in next_week), next_week


# ------------------------------------------------------------- a new state in place of the old


@pytest.mark.parametrize(
    "said",
    [
        "Noor does judo on Tuesdays now instead.",
        "the rent leaves my account on the 3rd these days",
        "My reading is all on paper now.",
        "Ilse's piano teacher is Mr Okafor from this week.",
        "the kitchen refit got pushed back to October",
    ],
)
def test_a_new_state_said_in_place_of_the_old_is_a_revision(said: str) -> None:
    assert changed_state(said) and retracts(said)
    # It says what holds now; it takes nothing back by itself (`Retraction.specific`).
    assert not takes_back(said)


@pytest.mark.parametrize(
    "said",
    [
        "I'm on the train right now",
        "just now I saw a fox",
        "is the pool open now?",
        "I've been vegan for years until now",
        "Noor does judo on Tuesdays",
    ],
)
def test_a_moment_a_question_or_a_plain_schedule_is_no_revision(said: str) -> None:
    assert not changed_state(said)


def test_a_new_state_without_an_i_replaces_the_old_through_the_stores(
    settings: Settings, tmp_path: Path
) -> None:
    ingest(
        settings,
        tmp_path / "log.jsonl",
        [
            user_line("m1", "Noor's swimming lesson is on Monday afternoons.",
                      ts="2026-05-04T09:00:00+02:00"),
            user_line("m2", "Noor does judo on Tuesday afternoons now instead.",
                      turn=1, ts="2026-06-01T09:00:00+02:00"),
        ],
    )  # fmt: skip
    claims = recalled_claims(
        settings, "which afternoon is Noor busy after school?", ts="2026-06-20T12:00:00+02:00"
    )
    assert any("judo" in c for c in claims), claims
    assert not any("swimming" in c for c in claims), claims


@pytest.mark.parametrize(
    ("said", "claim_word", "last_day"),
    [
        ("In case it rains tomorrow, I'll take the bus.", "bus", date(2026, 6, 13)),
        ("Because of the marathon on Sunday, I'm skipping alcohol.", "alcohol", date(2026, 6, 14)),
    ],
)
def test_a_clause_holds_for_the_occasion_the_rest_of_its_sentence_names(
    said: str, claim_word: str, last_day: date
) -> None:
    """The claim was cut from the clause that names its occasion: it still holds for it only."""
    message = parse_message(user_line("m1", said, ts=FRIDAY.isoformat()))
    candidates = [c for c in shared_extractor().extract([message]) if claim_word in c.claim_text]
    assert len(candidates) == 1
    [found] = classify_all(candidates)
    end = datetime.combine(last_day + timedelta(days=1), datetime.min.time(), ZONE)
    assert found.valid_until == end


@pytest.mark.parametrize(
    "said", ["I take the bus when it rains.", "I'm vegan, as my whole family is."]
)
def test_a_clause_without_an_occasion_beside_it_stays_open(said: str) -> None:
    message = parse_message(user_line("m1", said, ts=FRIDAY.isoformat()))
    candidates = shared_extractor().extract([message])
    assert candidates
    assert all(c.valid_until is None for c in classify_all(candidates))


def test_a_time_named_before_a_restart_belongs_to_the_second_statement() -> None:
    text = "I'm vegetarian, and tomorrow I'm at my mum's."
    assert [text[a:b] for a, b in sentences(text)] == [
        "I'm vegetarian",
        "and tomorrow I'm at my mum's.",
    ]
    message = parse_message(user_line("m1", text, ts=FRIDAY.isoformat()))
    [diet] = [c for c in shared_extractor().extract([message]) if "vegetarian" in c.claim_text]
    [found] = classify_all([diet])
    assert found.valid_until is None


@pytest.mark.parametrize(
    ("said", "moves"),
    [
        # The later claim points back ("there"): both describe the coming change.
        ("I got the job in Montreal! As of November 1st I'll be living there.", True),
        # Said beside it, a statement keeps its own start.
        ("I'm vegan and next month I start a new job.", False),
        ("No calls before 10, and on Friday I'm off entirely.", False),
    ],
)
def test_a_later_start_moves_only_the_claim_it_points_back_at(said: str, moves: bool) -> None:
    message = parse_message(user_line("m1", said, ts=FRIDAY.isoformat()))
    candidates = shared_extractor().extract([message])
    found = classify_all(candidates)
    first = found[0]
    assert max(k.valid_from for k in found) > FRIDAY
    read = [(c.claim_text, k.valid_from) for c, k in zip(candidates, found, strict=True)]
    assert (first.valid_from > FRIDAY) is moves, read
