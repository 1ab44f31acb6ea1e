"""The classes behind the seventh round of issue 15, each tested as a pure function with
wordings of its own, none taken from the corpus: spans named by halves, month pairs and lengths
from a day; stays at someone's place; visitors at a lodging; a rule for one piece of work;
rules for what the assistant sends said bare or asked; stand-ins used while the usual thing is
away; what starts after a day its own sentence names; trials only thought of."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from permem import controls
from permem.extraction import lexicon as lx
from permem.extraction.cues import Cue, select
from permem.extraction.modality import retracts
from permem.occasions import MAKESHIFT_DAYS, makeshift_end
from permem.records import Message, Status
from permem.request_time import periods
from permem.runtime import runtime
from permem.settings import Settings
from permem.temporal import resolve, span
from tests.conftest import ingest, message, read_claims, recalled_claims, user_line
from tests.test_speakers import speakers

ZONE = timezone(timedelta(hours=-4))
TS = datetime(2026, 6, 10, 9, 15, tzinfo=ZONE)  # a Wednesday


def _message(text: str) -> Message:
    return message("t", "m1", text=text, turn=1, ts=TS, conversation_id="c", account="l.moreau")


def _days(found: tuple[datetime, datetime | None] | None) -> tuple[str, str | None] | None:
    if found is None:
        return None
    start, end = found
    return start.date().isoformat(), None if end is None else end.date().isoformat()


def _read(said: str) -> dict[str, tuple[datetime, datetime | None]]:
    return {r.claim: (r.valid_from, r.valid_until) for r in read_claims(said, ts=TS)}


# ------------------------------------------------------------------ spans


@pytest.mark.parametrize(
    ("said", "days"),
    [
        ("I'm at the coast for the first half of September.", ("2026-09-01", "2026-09-16")),
        ("We're away the second half of July.", ("2026-07-16", "2026-08-01")),
        ("I'm in Turin the last fortnight of August.", ("2026-08-18", "2026-09-01")),
        ("October and November I'm teaching in Graz.", ("2026-10-01", "2026-12-01")),
        ("I'm lodging with a friend for ten days from the 20th.", ("2026-06-20", "2026-06-30")),
        ("For a week starting Monday I'm on call.", ("2026-06-15", "2026-06-22")),
        ("I'm minding my niece's flat in Bari the 21st-27th.", ("2026-06-21", "2026-06-28")),
        ("Early July to mid-August I'm renting in Split.", ("2026-07-01", "2026-08-21")),
        ("The week after next I'm dog-sitting in Ghent.", ("2026-06-22", "2026-06-29")),
        ("Over Christmas I'm at my sister's in Cork.", ("2026-12-24", "2026-12-27")),
        ("During the Easter holidays we're at the coast.", ("2027-03-26", "2027-03-30")),
    ],
)
def test_halves_month_pairs_and_lengths_from_a_day_are_spans(
    said: str, days: tuple[str, str]
) -> None:
    assert _days(span(said, TS)) == days, said


def test_counts_and_hours_are_no_span_of_days() -> None:
    for said in (
        "I work 9-5 on weekdays.",
        "Delivery takes 2-3 days.",
        "Feed the cat 2 to 3 times.",
    ):
        assert span(said, TS) is None, said


def test_a_stay_starts_on_its_first_day_not_when_it_is_said() -> None:
    # Said on a Wednesday: the coming weekend.
    [(start, end)] = _read("Next weekend I'm house-sitting in Annecy.").values()
    assert start.date().isoformat() == "2026-06-13"
    assert end is not None and end.date().isoformat() == "2026-06-15"


def test_a_span_said_of_a_change_for_good_is_when_it_starts() -> None:
    found = resolve("From the first week of August I work nights permanently.", TS)
    assert found.valid_from.date().isoformat() == "2026-08-01" and found.valid_until is None


def test_a_clock_time_in_the_morning_names_no_day() -> None:
    assert periods("I'd like the digest at 8 in the morning.", TS.replace(hour=20)) == []
    # Said in the evening, "the morning" alone is tomorrow's.
    assert periods("Remind me in the morning.", TS.replace(hour=20)) != []


# ------------------------------------------------------------------ stays elsewhere


def test_a_stay_at_someones_place_or_a_rental_is_where_the_user_is() -> None:
    for text in ("I'm at my aunt's in Galway over Easter.",
                 "We're at a friend's flat in Nantes this week.",
                 "Renting a chalet in Zermatt for the ski week.",
                 "In September I'm staying in Kraków."):  # fmt: skip
        cues, topic = _topic(text)
        assert topic == "home", text
    for text in ("Can the roundup be moved to the evening?",
                 "I'd like the call moved to next Tuesday."):  # fmt: skip
        assert _topic(text)[1] != "home", text


def _topic(text: str) -> tuple[frozenset[Cue], str | None]:
    found = select(_message(text))
    return (found[0].cues, found[0].topic) if found else (frozenset(), None)


def test_a_stay_in_a_named_month_lasts_that_month() -> None:
    [(start, end)] = _read("In September I'm staying with my brother in Kraków.").values()
    assert start.date().isoformat() == "2026-09-01"
    assert end is not None and end.date().isoformat() == "2026-10-01"


def test_a_span_before_the_statement_stays_with_it() -> None:
    [(start, end)] = _read(
        "Over the school holidays, August and September, I'm at my dad's in Leeds."
    ).values()
    assert (start.date().isoformat(), end and end.date().isoformat()) == (
        "2026-08-01",
        "2026-10-01",
    )


# ------------------------------------------------------------------ visitors


_GUEST, _HOLDER = "r.okafor:guest", None


@pytest.mark.parametrize(
    ("text", "speaker"),
    [
        ("Hello, the Okafor family here, we're in your cottage till Friday.", _GUEST),
        ("hi! we are the couple who checked into the loft yesterday", _GUEST),
        ("Greetings from the guests in the garden flat!", _GUEST),
        ("it's the people from room 7, quick question", _GUEST),
        ("we're on holiday in your cabin for a few nights", _GUEST),
        ("we are the people who booked the cabin", _GUEST),
        # The holder's own guests, trip or home.
        ("We have friends staying in the spare room this weekend.", _HOLDER),
        ("We booked the cabin in Tromsø for March.", _HOLDER),
        ("Our guests in the annex leave on Sunday.", _HOLDER),
        ("We're renting the flat above the bakery, it's tiny.", _HOLDER),
        ("Our family here is four, two adults and two kids.", _HOLDER),
    ],
)
def test_visitors_at_a_lodging_speak_for_themselves(text: str, speaker: str | None) -> None:
    said = speakers(text, "We don't eat pork and we've hired bikes.")
    assert said[-1] == speaker, said


# ------------------------------------------------------------------ one piece of work


@pytest.mark.parametrize(
    ("text", "one_off"),
    [
        # A piece the sentence opens on, or points back to with "in it".
        ("This letter is for my landlord in Quebec, so write it in French.", True),
        ("That speech needs to be in plain English, it's for the kids.", True),
        ("Put the recipe in cups for this one.", True),
        # An order to make one piece for someone.
        ("Draft my answer to the council in Welsh, they asked for it.", True),
        ("Compose a note to my neighbour in Italian please.", True),
        ("The invitation to the Lyon office needs to be in French.", True),
        # A scope, a kind of thing, a standing rule.
        ("This app is for work, keep it formal.", False),
        ("Write everything in French.", False),
        ("Write my emails to clients in French.", False),
        ("Always reply to me in Italian.", False),
        ("The report for the client is due Friday.", False),
    ],
)
def test_a_rule_for_one_piece_of_work_is_a_one_off(text: str, one_off: bool) -> None:
    assert bool(lx.ONE_OFF.search(text)) is one_off, text


def test_a_statement_before_a_question_is_a_clause_of_its_own() -> None:
    found = select(_message("Just this once I want the long version: why is the sky blue?"))
    assert [s.text for s in found] == ["Just this once I want the long version"], found
    assert Cue.ONE_OFF in found[0].cues
    # A condition belongs to its question: nothing bought, nothing taken back.
    said = "lol hypothetically, if I bought a bike, where would I even keep it?"
    assert not any(Cue.RETRACTION in s.cues for s in select(_message(said)))


# ------------------------------------------------------------------ what the assistant sends


def test_a_rule_for_what_is_sent_said_bare_wanted_or_asked_is_an_instruction() -> None:
    for text in ("Weekly recap at 6pm please.",
                 "I want my briefing at 6:45.",
                 "Could the digest arrive at noon instead?"):  # fmt: skip
        found = select(_message(text))
        assert found and Cue.INSTRUCTION in found[0].cues, text
    assert retracts("Could the digest arrive at noon instead?")
    assert not retracts("Could you tell me what time it is?")
    assert not select(_message("The report should be done by Friday please."))


# ------------------------------------------------------------------ stand-ins


def test_a_stand_in_lasts_a_repairs_length_or_the_days_said() -> None:
    for text in ("Using my brother's old Kindle until mine is fixed.",
                 "On a loaner laptop this week.",
                 "My bike is in for repair, so I'm on a spare one."):  # fmt: skip
        assert makeshift_end(text, TS) == TS + timedelta(days=MAKESHIFT_DAYS), text
    said = "I'm on a backup phone, mine should be back in five days."
    assert makeshift_end(said, TS) == TS + timedelta(days=5)
    for text in ("I use a spare room as an office every day.", "I ride a road bike."):
        assert makeshift_end(text, TS) is None, text


def test_a_stand_in_leaves_the_usual_thing_in_use_after_it_through_the_stores(
    settings: Settings, tmp_path: Path
) -> None:
    lines = [
        user_line("m1", "My laptop is a ThinkPad, a small one.", ts="2026-03-01T09:00:00+00:00"),
        user_line("m2", "The ThinkPad is in for repair, I'm on a borrowed MacBook till it's back.",
                  turn=2, ts="2026-03-10T09:00:00+00:00"),
    ]  # fmt: skip
    ingest(settings, tmp_path / "log.jsonl", lines)
    stored = {r.source.message_id: r for r in controls.inspect(runtime(settings).db, "acme")}
    assert stored["m1"].status is Status.ACTIVE, stored
    later = recalled_claims(settings, "how do I install a printer on my laptop?",
                            ts="2026-05-02T12:00:00Z")  # fmt: skip
    assert any("small one" in c for c in later) and not any("MacBook" in c for c in later), later


# ------------------------------------------------------------------ after the day it names


def test_what_comes_after_a_day_its_sentence_names_starts_then_and_lasts() -> None:
    read = _read("The pool closes on 1 July, after which I'll swim in the lake.")
    [(start, end)] = [v for claim, v in read.items() if "lake" in claim]
    assert start.date().isoformat() == "2026-07-01" and end is None, read


# ------------------------------------------------------------------ trials only thought of


def test_a_trial_only_thought_of_is_considered() -> None:
    for text in ("A colleague asked me to join her running club, might give it a go.",
                 "I've been reading about sourdough baking, maybe someday.",
                 "My dad wants me to try Dry January, not sure yet."):  # fmt: skip
        found = select(_message(text))
        assert found and all(Cue.CONSIDERED in s.cues for s in found), text
    found = select(_message("I might be late tonight."))
    assert not any(Cue.CONSIDERED in s.cues for s in found)


def test_wanted_but_not_bought_is_only_considered() -> None:
    for text in ("I keep looking at used Vespas but I haven't bought one.",
                 "Been eyeing a standing desk for ages, can't justify it."):  # fmt: skip
        found = select(_message(text))
        assert all(Cue.CONSIDERED in s.cues for s in found), text


# ------------------------------------------------------------------ acquisitions


def test_a_thing_collected_or_picked_up_is_a_change_and_its_day_is_past() -> None:
    for text in ("We picked up the van on Saturday, it's electric.",
                 "I collected my new bike yesterday."):  # fmt: skip
        assert retracts(text), text
    read = _read("We picked up the van on Monday, it's electric.")
    [(start, end)] = read.values()
    assert end is None, read  # the Monday is gone; what it brought lasts


# ------------------------------------------------------------------ for whom, said first


def test_whom_a_clause_is_for_said_first_stays_with_it() -> None:
    from permem.extraction.for_whom import ForWhom, claim_for_whom

    found = select(_message("Me personally, I always take the night train."))
    assert [s.text for s in found] == ["Me personally, I always take the night train."], found
    assert claim_for_whom(found[0].text) is ForWhom.SELF
    # A clause of its own after a lead that says more is still split.
    found = select(_message("My partner hates trains, I always take the night train."))
    assert len(found) == 2, found
