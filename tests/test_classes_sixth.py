"""The classes behind the sixth round of issue 15, each tested as a pure function with wordings
of its own, none taken from the corpus: exceptions made once ("for once", "just for the
wedding"), orders that last as long as the situation said beside them, and states planned for
a span."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from permem import controls
from permem.classify import classify_all
from permem.extraction import lexicon as lx
from permem.extraction.cues import Cue, select
from permem.logs import parse_message
from permem.policy import decide
from permem.records import Confirmation, GateDecision, Kind, Message, Sensitivity, Status
from permem.runtime import runtime, shared_extractor
from permem.settings import Settings
from permem.temporal import resolve
from tests.conftest import ingest, message, read_claims, recalled_claims, user_line
from tests.test_policy import BASE

ZONE = timezone(timedelta(hours=2))
TS = datetime(2026, 10, 8, 18, 30, tzinfo=ZONE)  # a Thursday


def _message(text: str, message_id: str = "m1", **fields: object) -> Message:
    fields.setdefault("account", "k.osei")
    return message("t", message_id, text=text, turn=1, ts=TS, conversation_id="c", **fields)


# ------------------------------------------------------------------ exceptions made once


def test_what_is_done_for_once_or_just_for_one_occasion_is_a_one_off() -> None:
    for text in ("We're grilling on Saturday and I'll have a burger for once.",
                 "Only for the Christmas dinner, I'll eat turkey with everyone.",
                 "Just for my cousin's wedding I'm drinking champagne."):  # fmt: skip
        assert all(Cue.ONE_OFF in s.cues for s in select(_message(text))), text
    # A standing rule for a kind of thing, a habit counted in "once", a purpose: no occasion.
    for text in ("Only for work emails, use my formal signature.",
                 "I swim once a week.",
                 "I knit just for fun.",
                 "Salad only for lunch, please."):  # fmt: skip
        assert not lx.ONE_OFF.search(text), text


# ------------------------------------------------------------------ orders beside a situation


def _read(
    *said: str, apart: timedelta = timedelta(minutes=1)
) -> dict[str, tuple[datetime, datetime | None]]:
    """Each claim of the messages `said` (one conversation, the first at TS, the next `apart`
    later) with its validity."""
    return {r.claim: (r.valid_from, r.valid_until) for r in read_claims(*said, ts=TS, apart=apart)}


def _of(
    read: dict[str, tuple[datetime, datetime | None]], words: str
) -> tuple[datetime, datetime | None]:
    [validity] = [v for claim, v in read.items() if words in claim]
    return validity


@pytest.mark.parametrize(
    ("said", "order", "situation"),
    [
        # The situation first, the order its consequence.
        ("I'm off on sick leave until the end of the month. Don't send me any work tasks.",
         "work tasks", "sick leave"),
        ("My ankle is in a boot for the next three weeks. Skip anything with running.",
         "Skip", "ankle"),
        # A day named before the speaker: the situation is read, and bounds the order.
        ("Tomorrow I'm in court all day. No meetings please.", "meetings", "court"),
        # The order first, the situation after it as its reason.
        ("Use Lisbon time for my reminders, I'm in Portugal until the 18th.",
         "Lisbon time", "Portugal"),
    ],
)  # fmt: skip
def test_an_order_beside_a_passing_situation_lasts_as_long_as_it(
    said: str, order: str, situation: str
) -> None:
    read = _read(said)
    state = _of(read, situation)
    assert state[1] is not None, read
    assert _of(read, order) == (max(TS, state[0]), state[1]), read


@pytest.mark.parametrize(
    ("said", "order"),
    [
        # Standing in words, or said beside the situation rather than because of it.
        ("I'm in Oslo until Friday. Always give temperatures in Celsius.", "Celsius"),
        ("I'm at a conference until Thursday. By the way, no emojis in replies.", "emojis"),
        # The user's own condition is no consequence of the trip.
        ("I'm in Rome until the 20th. I can't eat shellfish.", "shellfish"),
        # A rule with another thing said after it.
        ("Keep replies short, and next week I'm away at a wedding.", "replies"),
    ],
)  # fmt: skip
def test_an_order_said_for_good_or_beside_the_situation_stays_open(said: str, order: str) -> None:
    read = _read(said)
    assert _of(read, order)[1] is None, read


def test_a_state_planned_for_a_span_lasts_the_span_and_so_does_its_order() -> None:
    read = _read("Next week I'm on a silent retreat. No messages please.")
    retreat, order = _of(read, "retreat"), _of(read, "messages")
    # The Thursday's next week: Monday 12 October to the end of Sunday 18 October.
    assert retreat[0].date().isoformat() == "2026-10-12"
    assert retreat[1] is not None and retreat[1].date().isoformat() == "2026-10-19"
    assert order == retreat
    # A change planned for a day still lasts: only a state is bounded by its span.
    assert _of(_read("I'm moving to Leeds next week."), "Leeds")[1] is None


def test_the_situation_of_the_users_message_just_before_bounds_the_order() -> None:
    situation = "I'm off work until the end of November, the twins are here!"
    read = _read(situation, "So please don't book me any work calls.")
    state = _of(read, "off work")
    assert state[1] is not None and state[1].date().isoformat() == "2026-12-01", read
    assert _of(read, "work calls")[1] == state[1], read
    # Hours later, in the same conversation, the order is said on its own.
    read = _read(situation, "Please don't book me any work calls.", apart=timedelta(hours=5))
    assert _of(read, "work calls")[1] is None, read


# ------------------------------------------------------------------ an update of a claim in use


def test_personal_data_not_needed_is_confirmed_first_unless_it_replaces_a_claim_in_use() -> None:
    personal = replace(
        BASE, kind=Kind.FACT, sensitivity=Sensitivity.PERSONAL, categories=frozenset({"finance"})
    )
    assert decide(personal).decision is GateDecision.CONFIRM
    updated = decide(replace(personal, replaces_usable=True))
    assert updated.decision is GateDecision.ACCEPT
    assert "replaces_usable_claim" in updated.reasons
    # Someone else typing on the account is confirmed first whatever it replaces.
    other = decide(replace(personal, replaces_usable=True, other_speaker=True))
    assert other.decision is GateDecision.CONFIRM


def test_only_the_users_own_claim_that_adds_nothing_replaces_on_its_topic() -> None:
    from permem.policy import replaces_on_topic
    from permem.records import Origin

    said = "I get paid on the 1st now."
    assert replaces_on_topic("payday", said, Origin.USER_FACT)
    assert not replaces_on_topic("payday", said, Origin.IMPORTED)
    assert not replaces_on_topic("payday", "I also get a bonus on the 15th.", Origin.USER_FACT)
    assert not replaces_on_topic(None, said, Origin.USER_FACT)


@pytest.mark.parametrize("nights", [1, 2])
def test_an_update_of_a_payday_in_use_replaces_it_through_the_stores(
    settings: Settings, tmp_path: Path, nights: int
) -> None:
    """Said in one night, or the update a night after the claim in use (read from the store)."""
    lines = [
        user_line("m1", "Salary day for me is the 20th, so plan bills after it.",
                  ts="2026-03-01T09:00:00+00:00"),
        user_line("m2", "They moved our payroll, I get paid on the 1st of the month now.",
                  turn=2, ts="2026-03-10T09:00:00+00:00"),
    ]  # fmt: skip
    if nights == 1:
        ingest(settings, tmp_path / "log.jsonl", lines)
    else:
        ingest(settings, tmp_path / "first.jsonl", lines[:1])
        ingest(settings, tmp_path / "second.jsonl", lines[1:])
    stored = controls.inspect(runtime(settings).db, "acme")
    [old] = [r for r in stored if "20th" in r.claim]
    [new] = [r for r in stored if "1st" in r.claim]
    assert old.status is Status.SUPERSEDED, stored
    assert new.status is Status.ACTIVE and new.confirmation is Confirmation.UNCONFIRMED, stored
    recalled = recalled_claims(settings, "when should the rent go out?", ts="2026-03-20T12:00:00Z")
    assert any("1st" in c for c in recalled) and not any("20th" in c for c in recalled), recalled


def test_the_same_update_said_alone_waits_for_confirmation(
    settings: Settings, tmp_path: Path
) -> None:
    line = user_line("m2", "They moved our payroll, I get paid on the 1st of the month now.")
    ingest(settings, tmp_path / "log.jsonl", [line])
    stored = controls.inspect(runtime(settings).db, "acme")
    [new] = [r for r in stored if "1st" in r.claim]
    assert new.confirmation is Confirmation.PENDING, stored


# ------------------------------------------------------------------ a stretch of time that is over


@pytest.mark.parametrize(
    "said",
    [
        "All through March my car was in the garage, so I took the tram every day.",
        "Last week I worked late every single day because of the audit.",
        "I couldn't lift anything for the first three weeks of September after the operation.",
    ],
)
def test_how_things_were_for_a_stretch_that_is_over_is_history(said: str) -> None:
    # Said on a Thursday in October: every stretch named is over.
    read = _read(said)
    assert read, said
    for valid_from, valid_until in read.values():
        assert valid_until is not None and valid_until <= TS, read
        assert valid_from <= TS, read


@pytest.mark.parametrize(
    "said",
    [
        "I moved to Leeds in March.",  # a change said in the past: no stretch
        "I've been vegan for six years.",  # still so
        "I walk to work every day.",  # a habit now
        "Last month I started cycling to work every day and I still do.",
    ],
)
def test_a_change_in_the_past_or_what_still_holds_is_no_history(said: str) -> None:
    read = _read(said)
    assert read, said
    assert any(until is None for _, until in read.values()), read


def test_a_time_named_before_the_speaker_leaves_the_statement_to_be_read() -> None:
    for said in ("All of November I'm renting a cabin in Tromsø.",
                 "In December I'm staying with my aunt in Porto."):  # fmt: skip
        [(valid_from, _)] = _read(said).values()
        assert valid_from.month in (11, 12), said


# ------------------------------------------------------------------ a change for part of a month


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("We're relocating to Galway at the start of November.", "2026-11-01"),
        ("I'm switching to the night shift mid-December.", "2026-12-15"),
        ("We move to Cork at the end of January.", "2027-01-25"),
    ],
)
def test_a_change_for_part_of_a_month_starts_then(said: str, day: str) -> None:
    assert resolve(said, TS).valid_from.date().isoformat() == day
    # No change and no plan: a month's part is how the user likes things, not a start.
    assert resolve("I love early November walks.", TS).valid_from == TS


# ------------------------------------------------------------------ sure of how the world is


def _cues(text: str) -> list[frozenset[Cue]]:
    message = parse_message(user_line("m1", text, ts=TS.isoformat()))
    return [c.cues for c in shared_extractor().extract([message])]


def test_being_sure_of_a_rule_of_the_world_is_a_belief_however_it_parses() -> None:
    for text in ("I'm certain hobby sales under 3,000 are tax-free.",
                 "I'm quite certain second-hand car sales never need a receipt.",
                 "I'm fairly confident freelancers don't pay tax on the first 10k."):  # fmt: skip
        found = _cues(text)
        assert found and all(Cue.BELIEF in cues for cues in found), (text, found)
    # Sure of something about themself or their own: no belief about the world.
    for text in ("I'm certain I left my keys at work.", "I'm sure my sister is vegan.",
                 "I'm confident in my Spanish."):  # fmt: skip
        assert not any(Cue.BELIEF in cues for cues in _cues(text)), text


# ------------------------------------------------------------------ only being weighed


def test_a_sentence_that_ends_undecided_about_it_is_only_considered() -> None:
    for text in ("My brother keeps pushing me towards paleo, I'm mulling it over.",
                 "Half tempted to go dairy-free like my flatmate.",
                 "Switching to night shifts, I haven't made up my mind."):  # fmt: skip
        found = select(_message(text))
        assert found and all(Cue.CONSIDERED in s.cues for s in found), text
    # What the user is is not weighed because another thing is ("thinking about going vegan"
    # weighs the change, not the diet said before it).
    said = _message("I'm vegetarian, and I'm thinking about going vegan.")
    [diet] = [s for s in select(said) if "vegetarian" in said.text[s.start : s.end]]
    assert Cue.CONSIDERED not in diet.cues


# ------------------------------------------------------------------ moving an arrangement


def test_an_order_that_moves_an_arrangement_takes_the_old_one_back() -> None:
    from permem.extraction.modality import retracts

    for text in ("Actually, move the newsletter to Friday mornings.",
                 "Switch my reminders to 8am please.",
                 "Push the weekly call back to Thursdays.",
                 "In this workspace I'd prefer the stand-up later, around 11.",
                 "For this app only, the digest should come at 9 in the evening."):  # fmt: skip
        assert retracts(text), text
    assert not retracts("In this app I also want a weekly digest.")
    for text in ("Move to the next question.", "Can you change the subject?"):
        assert not retracts(text), text


def test_a_moved_arrangement_replaces_the_old_one_through_the_stores(
    settings: Settings, tmp_path: Path
) -> None:
    lines = [
        user_line("m1", "Send me the weekly digest on Monday mornings.",
                  ts="2026-03-01T09:00:00+00:00"),
        user_line("m2", "Actually, move the digest to Friday afternoons.", turn=2,
                  ts="2026-03-10T09:00:00+00:00"),
    ]  # fmt: skip
    ingest(settings, tmp_path / "log.jsonl", lines)
    stored = {r.source.message_id: r for r in controls.inspect(runtime(settings).db, "acme")}
    assert stored["m1"].status is Status.SUPERSEDED, stored
    assert stored["m2"].status is Status.ACTIVE, stored


def test_a_change_to_come_is_not_taken_back_by_its_own_message(
    settings: Settings, tmp_path: Path
) -> None:
    """The clause beside a change said for later ("..., I've bought a season pass") takes
    nothing back from the change itself."""
    line = user_line(
        "m1",
        "Starting in December I'll be going to the lido instead, I've bought a season pass.",
        ts="2026-10-08T09:00:00+00:00",
    )
    ingest(settings, tmp_path / "log.jsonl", [line])
    stored = controls.inspect(runtime(settings).db, "acme")
    [lido] = [r for r in stored if "lido" in r.claim]
    assert lido.status is Status.ACTIVE, stored
    assert lido.valid_from.month == 12, lido


def test_an_order_to_drop_the_rule_after_an_acknowledgement_is_a_withdrawal() -> None:
    from permem.extraction.modality import withdrawn

    for text in ("fair enough, forget that rule", "huh, TIL. scrap that one then",
                 "ok never mind that rule"):  # fmt: skip
        assert withdrawn(text), text
    for text in ("I never forget that rule", "I love it, drop that one and keep the rest"):
        assert not withdrawn(text), text


# ------------------------------------------------------------------ a stay elsewhere for a span


@pytest.mark.parametrize(
    ("said", "first", "end"),
    [
        ("I'm spending December at my in-laws' in Cork.", "2026-12-01", "2027-01-01"),
        ("For the first two weeks of November I'm working from our Madrid office.",
         "2026-11-01", "2026-11-15"),
        ("From December 12 to December 20 I'll be at my sister's in Ghent.",
         "2026-12-12", "2026-12-21"),
    ],
)  # fmt: skip
def test_a_stay_elsewhere_for_a_span_is_where_the_user_is_for_that_span(
    said: str, first: str, end: str
) -> None:
    message = parse_message(user_line("m1", said, ts=TS.isoformat()))
    [candidate] = shared_extractor().extract([message])
    [found] = classify_all([candidate])
    assert candidate.topic == "home", candidate
    assert found.valid_from.date().isoformat() == first
    assert found.valid_until is not None and found.valid_until.date().isoformat() == end


def test_of_two_minds_in_any_words_is_only_considered() -> None:
    for text in ("Keto has been on my mind lately.",
                 "I keep going back and forth on going dairy-free.",
                 "Wondering whether to go pescatarian.",
                 "My brother wants me to do a juice fast, I told him I'd see."):  # fmt: skip
        found = select(_message(text))
        assert found and all(Cue.CONSIDERED in s.cues for s in found), text
    for text in ("I'm vegan, it's always on my mind when I shop.",
                 "I'd see a physio about my knee if I were you."):  # fmt: skip
        assert not any(Cue.CONSIDERED in s.cues for s in select(_message(text))), text


# ------------------------------------------------------------------ the user's own, said so


def test_a_rule_said_as_the_users_own_serves_no_request_for_someone_else() -> None:
    from permem.extraction.for_whom import ForWhom, claim_for_whom, request_for_whom, serves

    request = request_for_whom("which Friday flight to Bergen is best for Tomasz?", "n.jankowski")
    assert request is ForWhom.OTHERS
    for claim in ("Personally I always grab an aisle seat and the last flight out.",
                  "For my own travel: window seat, hand luggage only.",
                  "I personally avoid red-eye flights."):  # fmt: skip
        assert claim_for_whom(claim) is ForWhom.SELF, claim
        assert not serves(claim_for_whom(claim), Kind.FACT, request), claim
        assert serves(claim_for_whom(claim), Kind.FACT, ForWhom.SELF), claim
    assert claim_for_whom("I take my own bags everywhere.") is ForWhom.ANY


def test_where_the_user_lives_or_stays_is_read_in_more_words() -> None:
    home = lx.TOPICS["home"]
    for text in ("Just finished unpacking in our new flat in Bristol!",
                 "From the 1st of March that's home, so use Leeds for anything local then.",
                 "I'm house-sitting for my cousin in Bergen all of next month.",
                 "Working out of the Oslo office, so local means Oslo then."):  # fmt: skip
        assert home.search(text), text
    assert not home.search("I'm home by six on weekdays.")


def test_a_wish_for_some_day_is_only_considered() -> None:
    for text in ("One day, when money allows, I'd love a Leica.",
                 "Someday I'd like a little boat.",
                 "Floating the idea of moving to Porto, nothing firm."):  # fmt: skip
        found = select(_message(text))
        assert found and all(Cue.CONSIDERED in s.cues for s in found), text
    for text in ("One day a week I work from home.", "I'd love a coffee, black please."):
        assert not any(Cue.CONSIDERED in s.cues for s in select(_message(text))), text


def test_a_thing_bought_or_sold_is_a_change_that_takes_back_what_was_said_of_it() -> None:
    from permem.extraction.modality import retracts

    for text in ("We bought the car!", "I finally adopted a dog.", "We sold our old sofa."):
        found = select(_message(text))
        assert found and all(Cue.PAST in s.cues for s in found), text
        assert retracts(text), text
    # Getting something is too common a verb to take anything back by.
    assert not retracts("I got the message.")


def test_a_rule_for_what_the_assistant_sends_said_of_the_thing_is_an_instruction() -> None:
    for text in ("Replies should be short.", "The digest needs to arrive before 8.",
                 "For this app only, the summary should come at 9 in the evening."):  # fmt: skip
        found = select(_message(text))
        assert found and all(Cue.INSTRUCTION in s.cues for s in found), text
    assert not any(
        Cue.INSTRUCTION in s.cues for s in select(_message("The report should be done by Friday."))
    )


def test_a_state_planned_for_the_whole_next_month_lasts_that_month() -> None:
    [(start, end)] = _read("Next month I'm looking after my aunt's house in Perth.").values()
    assert start.date().isoformat() == "2026-11-01"
    assert end is not None and end.date().isoformat() == "2026-12-01"
    # A change from next month on lasts.
    [(start, end)] = _read("From next month I'm living in Perth.").values()
    assert start.date().isoformat() == "2026-11-01" and end is None
