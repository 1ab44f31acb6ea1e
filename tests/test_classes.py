"""The classes behind the second corpus wave (issue 15), each tested as a pure function with
wordings of its own, none taken from the corpus: things for another person, one-time tasks,
questions about the world, beliefs about oneself, dated imports, signatures and hand-backs,
dated changes, leaving a state, plans called off, intentions, past habits, single days,
clauses said together, and what a retraction or a rule names."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta, timezone

from permem import policy
from permem.classify import classify
from permem.extraction import Candidate
from permem.extraction import lexicon as lx
from permem.extraction.cues import Cue, select
from permem.extraction.directives import standing_directive
from permem.extraction.imports import as_of_in_text, dates_the_export
from permem.extraction.modality import called_off, considered, corrects_previous, retracts
from permem.extraction.speakers import attribute
from permem.recall import RecallQuery, exclusion, is_factual_question
from permem.recall_choice import replaced_from_start, with_siblings
from permem.records import Kind, Message, Origin, Sensitivity, SourceRef, UserMemory
from permem.temporal import single_day
from tests.conftest import message

ZONE = timezone(timedelta(hours=9))
TS = datetime(2026, 5, 4, 23, 30, tzinfo=ZONE)  # Monday, late evening local (UTC is Monday)


def _message(text: str, message_id: str = "m1", turn: int = 1, **fields: object) -> Message:
    fields.setdefault("account", "p.okafor")
    return message("t", message_id, text=text, turn=turn, ts=TS, conversation_id="c", **fields)


def _cues(text: str) -> list[frozenset[Cue]]:
    return [s.cues for s in select(_message(text))]


def _memory(claim: str, observed: datetime, **fields: object) -> UserMemory:
    values: dict[str, object] = {
        "tenant": "t", "subject": "p.okafor", "account": "p.okafor",
        "origin": Origin.USER_FACT, "kind": Kind.FACT, "claim": claim,
        "source": SourceRef(f"m-{uuid.uuid4().hex[:6]}", (0, len(claim))), "scope": "global",
        "purpose": "assistant", "observed_at": observed, "valid_from": observed,
        "valid_until": None, "confidence": 0.9, "sensitivity": Sensitivity.NONE,
    }  # fmt: skip
    values.update(fields)
    return UserMemory(**values)  # type: ignore[arg-type]


# ------------------------------------------------------------------ one-offs and tasks


def test_something_for_another_person_is_their_taste_for_this_once() -> None:
    for text in (
        "Looking for a gluten-free birthday cake for my nephew, he's obsessed with dinosaurs.",
        "I need a playlist for my dad's retirement party, he loves Motown.",
        "Could use ideas for my wife's anniversary dinner, she adores Thai food.",
    ):
        assert all(Cue.ONE_OFF in cues for cues in _cues(text)), text
    # Cooking for one's family every day is the user's own standing constraint.
    assert not lx.FOR_A_RELATION.search("I cook for my kids most nights, so nothing too spicy")


def test_something_for_a_gathering_of_others_is_for_this_once() -> None:
    """Whoever the gathering is of: the office, a team, a school (not a named relation)."""
    for text in (
        "Ordering for the office party: a mix of meat and veggie options",
        "cooking for our team potluck, something nut-free",
        "I need snacks for the school fete",
    ):
        assert all(Cue.ONE_OFF in cues for cues in _cues(text)), text
    assert not lx.FOR_A_RELATION.search("I always bring my own lunch to work")
    assert not lx.FOR_A_RELATION.search("I'm going to the party on Friday")


def test_making_one_named_thing_now_is_no_standing_directive() -> None:
    assert not standing_directive("Draft the refund request to the landlord as firmly as you can")
    assert not standing_directive("write the toast for Saturday")
    # A kind of thing, a state to keep, or a thing that recurs stays standing.
    assert standing_directive("write all the commit messages in the imperative mood")
    assert standing_directive("keep the thermostat low")
    assert standing_directive("put the key takeaway first in every summary")


# ------------------------------------------------------------------ questions and beliefs


def test_questions_about_what_is_known_are_factual() -> None:
    assert is_factual_question("what does the evidence say about intermittent fasting?")
    assert is_factual_question("how do glaciers move?")
    assert is_factual_question("is there any proof that vitamin C stops colds?")
    assert not is_factual_question("how do I fix a squeaky door?")
    assert not is_factual_question("how do you make a flat white?")


def test_a_belief_about_oneself_never_answers_a_factual_question() -> None:
    belief = _memory("I'm convinced I think better after a cold plunge", TS)
    query = RecallQuery("q", "t", "p.okafor", "p.okafor", "assistant", "global",
                        TS + timedelta(days=1), "does cold water improve thinking?")  # fmt: skip
    assert exclusion(belief, query, factual=True) == "factual_question"
    assert exclusion(belief, query, factual=False) is None
    assert lx.SELF_BELIEF.search("long walks work wonders for me")


# ------------------------------------------------------------------ imports


def test_a_free_text_import_line_can_date_the_export() -> None:
    now = datetime(2026, 5, 1, tzinfo=UTC)
    assert dates_the_export("Snapshot taken 3 March 2022 by shopwise")
    assert as_of_in_text("Records exported on 2021-11-09 from the old app", now) == datetime(
        2021, 11, 9, tzinfo=UTC
    )
    assert as_of_in_text("Favourite team: the Lions since 2019", now) is None
    assert not dates_the_export("I updated my address yesterday")


# ------------------------------------------------------------------ speakers


def test_a_signature_names_who_typed_and_the_holder_can_take_the_keyboard_back() -> None:
    def turns(account: str, *texts: str) -> dict[str, tuple[tuple[int, str | None], ...]]:
        messages = [_message(t, f"m{i}", i, account=account) for i, t in enumerate(texts, 1)]
        return {key[1]: turn.changes for key, turn in attribute(messages).items()}

    found = turns("d.mensah", "peanut butter on everything for me pls - Kwame (Dede's brother)",
                  "ok it's Dede back now. I'm off dairy")  # fmt: skip
    assert found["m1"][-1] == (0, "d.mensah:kwame") and found["m2"][-1][1] is None
    found = turns("s.ito", "Not Saki today, it's Ren, the boyfriend. Extra hot sauce for me.")
    assert found["m1"][-1][1] == "s.ito:ren"
    assert turns("s.ito", "Cheers - Saki", "I love jazz") == {}


# ------------------------------------------------------------------ time


def test_a_dated_change_is_a_statement_behind_its_time_adverbial() -> None:
    for text in ("From the 2nd of June my studio is the one above the bakery.",
                 "Starting next month I'm changing to the night team."):  # fmt: skip
        assert any(Cue.DURABLE in cues for cues in _cues(text)), text
    assert not lx.MY_THING_IS.match("my question is about taxes")


def test_one_day_of_its_own_holds_that_local_day_only() -> None:
    # Late on Monday local time: "the day after tomorrow" is local Wednesday.
    start, end = single_day("no deliveries the day after tomorrow", TS, told=False) or (TS, TS)
    assert (start, end) == (datetime(2026, 5, 6, tzinfo=ZONE), datetime(2026, 5, 7, tzinfo=ZONE))
    assert single_day("no calls on the 12th", TS, told=False) is not None
    assert single_day("no calls on Thursdays", TS, told=False) is None
    assert single_day("I start at the new school tomorrow", TS, told=False) is None
    # Said of the past: "picked it up on Friday" is no day the claim holds for; "I've got
    # jury duty on Friday" is a day to come.
    assert single_day("we picked up the puppy on Friday", TS) is None
    assert single_day("I've got a dentist appointment on Friday", TS) is not None
    # A label before a rule leaves the rule ("Heads up: ..."), and a sentence that opens by
    # pointing back takes the message before it as context.
    assert select(_message("Heads up: no deliveries a week from tomorrow, please"))
    message = _message("Tomorrow is my graduation. So please, no meetings that day.")
    clause = "no meetings that day"
    start_at = message.text.index(clause)
    candidate = Candidate(
        message=message, start=start_at, end=start_at + len(clause), claim_start=start_at,
        claim_end=start_at + len(clause), kind=Kind.INSTRUCTION, about=None, cues=frozenset(),
        topic=None, context="Tomorrow is my graduation.",
    )  # fmt: skip
    found = classify(candidate)
    assert found.valid_from == datetime(2026, 5, 5, tzinfo=ZONE)
    assert found.valid_until == datetime(2026, 5, 6, tzinfo=ZONE)


def test_a_change_announced_for_later_replaces_what_it_names_from_its_start() -> None:
    old = _memory("I swim at the leisure centre pool", TS - timedelta(days=40))
    lunch = _memory("I go before work", TS - timedelta(days=40))
    lunch = _memory("I go before work", lunch.observed_at, source=SourceRef(
        old.source.message_id, (len(old.claim) + 2, len(old.claim) + 2 + 16)))  # fmt: skip
    start = TS + timedelta(days=10)
    change = _memory("From the 15th my pool is the lido by the river", TS, valid_from=start)
    added = _memory("From the 15th I'm also doing pilates", TS, valid_from=start)
    assert replaced_from_start([old, lunch, change, added]) == {old.id, lunch.id}
    bounded = _memory("no pool on the 15th", TS, valid_from=start, valid_until=start + timedelta(1))
    assert replaced_from_start([old, bounded]) == set()
    # Clauses of one sentence go together; another message's claims do not.
    a, b, c = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    claims = [(a, "m1", 0, 20), (b, "m1", 22, 40), (c, "m2", 0, 10)]
    assert with_siblings({a}, claims) == {a, b}


def test_plans_intentions_past_habits_and_called_off_plans() -> None:
    assert considered("toying with the idea of a sabbatical, we'll see")
    assert called_off("Not selling the van after all, the buyer vanished")
    assert called_off("change of plans: no Paris trip")
    assert retracts("we left the choir in March")
    assert lx.INTENTION.search("planning to repaint the flat in October")
    assert lx.PAST_HABIT.search("back at college I lived on instant noodles")
    assert not lx.PAST_HABIT.search("I play chess every evening")
    assert corrects_previous("hmm no, make that Thursday")


def test_what_a_retraction_and_a_rule_name() -> None:
    assert {"10k", "swim"} <= policy.retracted_words("The 10k thing is old, I swim now")
    assert "lassi" in policy.retracted_words("scratch that", "had the mango lassi again")
    assert policy.ruled_out_words("only walking from now on, no cycling, no squash") >= {
        "cycl", "squash"
    }  # fmt: skip
    assert policy.ruled_out_words("no cycling when it's icy") == frozenset()
    assert policy.reference_words("I cycled to work") & policy.reference_words("cycle routes")


def test_a_sentence_that_opens_by_pointing_back_leans_on_the_message_before() -> None:
    from permem.extraction.context import Conversations, antecedent

    first = _message("Block out the 14th for me.", "m1", 1)
    second = _message("That date is our move, I'm unreachable all day", "m2", 2)
    start = second.text.index("I'm")
    found = antecedent(second, start, len(second.text), Conversations([first, second]))
    assert found is not None and found.message_id == "m1" and "14th" in found.text


def test_a_withdrawal_takes_back_and_states_nothing_new() -> None:
    from permem.extraction.modality import withdrawn

    for text in (
        "I got that completely wrong",
        "disregard what I told you about the piano lessons",
        "my mistake",
        "forget what I wrote about Sundays",
    ):
        assert withdrawn(text) and retracts(text), text
        assert all(Cue.WITHDRAWN in cues for cues in _cues(text)), text
    # One that states the new value says more: it is a retraction, kept as a claim.
    assert not withdrawn("forget what I said, I'm at the pool on Sundays now")
    assert not withdrawn("I was mistaken about the date, it's the 9th")


def test_a_new_value_set_against_the_old_is_kept_without_an_i() -> None:
    for text in (
        "the rent is 900 now, not 850",
        "piano lessons are Wednesdays these days, not Fridays",
    ):
        (cues,) = _cues(text)
        assert Cue.NEW_NOT_OLD in cues, text
    assert policy.ruled_out_words("the rent is 900 now, not 850") == {"850"}
    assert _cues("the rent is due on the 1st") == []


def test_quantifiers_name_no_referent() -> None:
    named = policy.retracted_words("I cancelled every gym class, the whole lot")
    assert "every" not in named and "whole" not in named and "gym" in named
    assert not named & policy.reference_words("I cycle to work every day")


def test_a_span_named_by_both_ends_or_a_whole_month_bounds_the_claim() -> None:
    from permem.temporal import resolve

    local = TS.date()  # Monday 2026-05-04, zone +09:00
    away = resolve("between Sunday the 10th and the 16th we're at the cabin", TS)
    assert (away.valid_from.date(), away.valid_until) == (
        local.replace(day=10),
        datetime(2026, 5, 17, tzinfo=ZONE),
    )
    wrapping = resolve("I'm at a conference from the 30th to the 2nd", TS)
    assert (wrapping.valid_from.date(), wrapping.valid_until) == (
        local.replace(day=30),
        datetime(2026, 6, 3, tzinfo=ZONE),
    )
    june = resolve("renting a place in Porto throughout June", TS)
    assert (june.valid_from, june.valid_until) == (
        datetime(2026, 6, 1, tzinfo=ZONE),
        datetime(2026, 7, 1, tzinfo=ZONE),
    )
    assert resolve("I'm at the studio from Monday to Friday", TS).valid_until is None
    assert resolve("I work from home to save time", TS).valid_until is None


def test_a_stay_elsewhere_is_on_the_home_topic() -> None:
    [sentence] = select(_message("I'm flat-sitting for a friend in Utrecht next week"))
    assert sentence.topic == "home"
