"""The classes behind the third corpus wave (issue 15), each tested as a pure function with
wordings of its own, none taken from the corpus: diets by food group, statements that add to a
topic, the claims of one message standing together, a clause that only says when, visitors at
the keyboard, and findings that overturn what was assumed."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from permem import policy
from permem.extraction.cues import Cue, select, sentences
from permem.extraction.for_whom import (
    ForWhom,
    claim_for_whom,
    names_others,
    request_for_whom,
    serves,
)
from permem.extraction.modality import finding, retracts
from permem.extraction.speakers import attribute
from permem.recall_choice import superseded_in_time
from permem.records import Kind, Message, Origin, Sensitivity, SourceRef, UserMemory
from permem.revisions import topic_key
from permem.temporal import resolve, single_day
from tests.conftest import message

ZONE = timezone(timedelta(hours=-3))
TS = datetime(2026, 9, 14, 20, 15, tzinfo=ZONE)


def _message(text: str, message_id: str = "m1", turn: int = 1, **fields: object) -> Message:
    fields.setdefault("account", "r.almeida")
    return message("t", message_id, text=text, turn=turn, ts=TS, conversation_id="c", **fields)


def _memory(
    claim: str, observed: datetime, message_id: str, span: tuple[int, int], **fields: object
) -> UserMemory:
    values: dict[str, object] = {
        "tenant": "t", "subject": "r.almeida", "account": "r.almeida",
        "origin": Origin.USER_FACT, "kind": Kind.FACT, "claim": claim,
        "source": SourceRef(message_id, span), "scope": "global", "purpose": "assistant",
        "observed_at": observed, "valid_from": observed, "valid_until": None,
        "confidence": 0.9, "sensitivity": Sensitivity.NONE, "topic": None,
    }  # fmt: skip
    values.update(fields)
    return UserMemory(**values)  # type: ignore[arg-type]


# ------------------------------------------------------------------ diets


def test_a_rule_of_what_one_eats_by_food_group_is_on_the_diet_topic() -> None:
    for text in ("Poultry's fine again for me", "Pork stays off my plate", "no dairy at all"):
        [sentence] = select(_message(text))
        assert sentence.topic == "diet" and Cue.DIET_RULE in sentence.cues, text
    # An allergy adds up with a diet, and a food named in a taste is no rule.
    for text in ("I'm allergic to shellfish, no shellfish ever", "I adore lamb tagine"):
        assert all(s.topic != "diet" for s in select(_message(text))), text


def test_a_statement_that_adds_to_its_topic_replaces_nothing() -> None:
    said = TS - timedelta(days=3)
    adds = _memory("I also speak Dutch", said, "m2", (0, 18), topic="reply_language")
    plain = _memory("I speak Dutch", said, "m2", (0, 13), topic="reply_language")
    assert policy.adds_to(adds.claim) and not policy.adds_to(plain.claim)
    assert topic_key(adds) is None and topic_key(plain) is not None


def test_the_claims_of_the_latest_message_stand_together_and_siblings_go_with_the_old() -> None:
    old_at, new_at = TS - timedelta(days=60), TS - timedelta(days=2)
    home = _memory("My home is Recife", old_at, "m1", (0, 17), topic="home")
    beside = _memory("I've lived here ten years", old_at, "m1", (19, 44))
    job = _memory("I work at the port", old_at, "m1", (46, 64), topic="job")
    moved = _memory("I live in Natal now", new_at, "m2", (0, 19), topic="home")
    also = _memory("it's near the beach", new_at, "m2", (21, 40), topic="home")
    added = _memory("I also keep a flat in Olinda", TS, "m3", (0, 28), topic="home")
    replaced = superseded_in_time([home, beside, job, moved, also, added])
    # Both claims of the latest message stand; the clause said beside the old home goes with
    # it, the claim on another topic stays; a claim that adds replaces nothing.
    assert replaced == {home.id, beside.id}


def test_the_shape_of_replies_is_one_topic() -> None:
    for text in (
        "Please make your answers short",
        "I want thorough explanations going forward",
        "Use bullet points from now on",
        "keep it brief",
        "write it in proper paragraphs",
    ):
        assert {s.topic for s in select(_message(text))} == {"reply_format"}, text
    # A length word says nothing of replies unless it measures one.
    for text in ("I'm short on cash this month", "It was a long week", "I love long hikes"):
        assert all(s.topic != "reply_format" for s in select(_message(text))), text
    # A rule for one piece of work replaces the standing rule only while it holds.
    standing = _memory(
        "Keep replies terse, no tables",
        TS - timedelta(days=20),
        "m1",
        (0, 29),
        kind=Kind.INSTRUCTION,
        topic="reply_format",
    )
    for_now = _memory(
        "For this essay I need long, detailed answers",
        TS,
        "m2",
        (0, 44),
        topic="reply_format",
        valid_until=TS + timedelta(hours=6),
    )
    assert superseded_in_time([standing, for_now]) == {standing.id}
    assert topic_key(for_now) is None and topic_key(standing) is not None


# ------------------------------------------------------------------ time and speakers


def test_a_clause_that_only_says_when_stays_with_the_clause_it_bounds() -> None:
    text = "fyi: from the 3rd until the 9th, I'm at my aunt's farm in Minas, so local means there"
    spans = [text[a:b] for a, b in sentences(text)]
    assert spans[0].startswith("fyi: from the 3rd until the 9th, I'm at my aunt's farm")
    # A clause with a statement of its own still splits off.
    other = "I moved in May, I love the new place"
    assert [other[a:b] for a, b in sentences(other)] == ["I moved in May", "I love the new place"]


def test_home_for_someone_is_the_home_topic() -> None:
    [sentence] = select(_message("Home for us is Porto Alegre"))
    assert sentence.topic == "home"


def test_visitors_at_the_holders_place_are_someone_else_typing() -> None:
    messages = [
        _message("hello! we're the guests in the garden flat for a few days", "m1", 1),
        _message("we don't do gluten and we'd like a quiet bar", "m2", 2),
    ]
    turns = attribute(messages)
    assert {key[1] for key in turns} == {"m1", "m2"}
    assert attribute([_message("I'm a guest at a wedding on Saturday, need shoes")]) == {}


# ------------------------------------------------------------------ findings


def test_a_finding_overturns_what_it_names() -> None:
    for text in (
        "the optician measured me: -2.5 in both eyes",
        "scan results: no fracture",
        "turns out it's lactose, not gluten",
        "the allergy test came back negative",
    ):
        assert finding(text) and retracts(text), text
    for text in ("I measure everything in grams", "the test is on Friday", "it turns on at six"):
        assert not finding(text), text
    # A quantity's unit names what it measures; a time of day names nothing.
    assert "#kg" in policy.reference_words("the clinic scale says 71kg") & policy.reference_words(
        "I weigh 68 kg"
    )
    assert not {w for w in policy.reference_words("up at 6am daily") if w.startswith("#")}


# ------------------------------------------------------------------ for whom


def test_whom_a_rule_and_a_request_are_for() -> None:
    assert claim_for_whom("just for me: chilli on everything") is ForWhom.SELF
    assert claim_for_whom("when I travel by myself I take night trains") is ForWhom.SELF
    assert claim_for_whom("whenever I order for clients it's the set menu") is ForWhom.OTHERS
    assert claim_for_whom("when I shop for both of us skip the dairy") is ForWhom.SHARED
    assert claim_for_whom("I adore anchovies") is ForWhom.ANY
    subject = "t.oyelaran"
    assert request_for_whom("book a hotel in Ghent for Priya", subject) is ForWhom.OTHERS
    assert request_for_whom("a present for my grandma", subject) is ForWhom.OTHERS
    assert request_for_whom("lunch for me and Kofi tomorrow", subject) is ForWhom.SHARED
    assert request_for_whom("a walk with my cousin on Saturday", subject) is ForWhom.SHARED
    assert request_for_whom("a hotel for Thursday", subject) is ForWhom.SELF
    assert request_for_whom("a table for Oyelaran at eight", subject) is ForWhom.SELF
    assert request_for_whom("what should I cook tonight?", subject) is ForWhom.SELF


def test_a_rule_serves_only_the_requests_it_is_for() -> None:
    assert serves(ForWhom.SELF, Kind.INSTRUCTION, ForWhom.SELF)
    assert not serves(ForWhom.SELF, Kind.INSTRUCTION, ForWhom.SHARED)
    assert not serves(ForWhom.OTHERS, Kind.INSTRUCTION, ForWhom.SELF)
    assert serves(ForWhom.OTHERS, Kind.INSTRUCTION, ForWhom.OTHERS)
    assert serves(ForWhom.SHARED, Kind.CONSTRAINT, ForWhom.SHARED)
    # The user's own taste is not applied to a request only for someone else; a standing
    # instruction still is.
    assert not serves(ForWhom.ANY, Kind.PREFERENCE, ForWhom.OTHERS)
    assert serves(ForWhom.ANY, Kind.INSTRUCTION, ForWhom.OTHERS)
    assert serves(ForWhom.ANY, Kind.PREFERENCE, ForWhom.SHARED)


def test_a_request_for_the_user_alone_uses_no_rule_that_names_someone_else() -> None:
    subject = "t.oyelaran"
    for text in ("plan a dinner just for me on Friday", "a film to watch alone tonight",
                 "a weekend trip by myself", "lunch for me alone"):  # fmt: skip
        assert request_for_whom(text, subject) is ForWhom.ALONE, text
    rule = "my flatmate is vegan, so dinners at home stay plant-based"
    assert names_others(rule)
    assert not names_others("I'm vegan, so dinners stay plant-based")
    assert not serves(claim_for_whom(rule), Kind.CONSTRAINT, ForWhom.ALONE, names_other=True)
    # Said the same way, it still serves the default request, and a rule of the user's own
    # serves the request for them alone.
    assert serves(claim_for_whom(rule), Kind.CONSTRAINT, ForWhom.SELF, names_other=True)
    assert serves(ForWhom.ANY, Kind.CONSTRAINT, ForWhom.ALONE, names_other=False)
    assert serves(ForWhom.SELF, Kind.PREFERENCE, ForWhom.ALONE)
    assert not serves(ForWhom.SHARED, Kind.CONSTRAINT, ForWhom.ALONE)


def test_a_habit_under_its_occasion_is_a_statement_not_a_question() -> None:
    [sentence] = select(_message("Whenever I order for clients it's the set menu"))
    assert Cue.DURABLE in sentence.cues
    assert select(_message("when I fly, what should I pack?")) == []


# ------------------------------------------------------------------ routines and days


def test_what_a_part_of_the_week_is_for_is_a_routine() -> None:
    for text in ("Thursday evenings are for choir", "weekends are for the allotment"):
        [sentence] = select(_message(text))
        assert Cue.ROUTINE in sentence.cues, text
    assert all(Cue.ROUTINE not in s.cues for s in select(_message("Thursdays are busy at work")))


def test_a_weekday_with_a_part_of_it_is_one_day() -> None:
    # TS is a Monday evening: "Wednesday night" is two days on, "every Wednesday night" none.
    day = single_day("fog forecast Wednesday night, so I'll drive instead", TS)
    assert day is not None and day[0].date() == (TS + timedelta(days=2)).date()
    assert single_day("I swim every Wednesday night", TS) is None


# ------------------------------------------------------------------ lapses and requests


def test_a_sentence_that_only_says_once_covers_what_the_message_said_before() -> None:
    text = "I smoked two cigarettes at my cousin's party last night. One-time thing!"
    cues = [s.cues for s in select(_message(text))]
    assert cues and all(Cue.ONE_OFF in c for c in cues)
    # Without the marker the same report is no one-off.
    alone = select(_message("I smoked two cigarettes at my cousin's party last night."))
    assert alone and all(Cue.ONE_OFF not in s.cues for s in alone)


def test_asked_to_be_remembered_about_oneself_is_kept() -> None:
    [sentence] = select(_message("after sunset on Fridays I switch my phone off, please remember"))
    assert Cue.REMEMBER_REQUEST in sentence.cues
    assert select(_message("please remember that")) == []


def test_a_checked_value_is_a_finding() -> None:
    assert finding("double-checked: the boiler is 14 years old")
    assert finding("the garden is 9 metres long according to the deeds")
    assert not finding("we checked in at noon")


def test_a_relation_word_that_qualifies_a_thing_names_no_one() -> None:
    [sentence] = select(_message("Answer me in Portuguese please, it's my mother tongue"))
    assert sentence.relation is None and Cue.THIRD_PARTY not in sentence.cues
    [sentence] = select(_message("it's my mother who can't eat gluten"))
    assert sentence.relation == "mother"


def test_a_topic_label_before_a_statement_leaves_the_statement() -> None:
    [sentence] = select(_message("For laptop stuff: I run Fedora on a ThinkPad."))
    assert Cue.DURABLE in sentence.cues
    # "-wise" labels the topic with or without its comma.
    for text in ("Coffee-wise, I only drink decaf.", "Car-wise I drive a hybrid Corolla."):
        [sentence] = select(_message(text))
        assert Cue.DURABLE in sentence.cues, text


def test_a_face_between_two_statements_ends_the_first() -> None:
    text = "Locked my keys in the car :( borrowing my neighbour's spare till Monday"
    spans = [text[a:b] for a, b in sentences(text)]
    assert spans == ["Locked my keys in the car :(", "borrowing my neighbour's spare till Monday"]
    # A face at the end, or before a full stop, changes nothing.
    alone = "I'm vegan :)"
    assert [alone[a:b] for a, b in sentences(alone)] == [alone]
    assert len(list(sentences("Lunch was great 🙂 I'm full"))) == 2


def test_a_rough_duration_still_bounds() -> None:
    validity = resolve("borrowing my sister's bike for about ten days", TS)
    assert validity.valid_until is not None
    assert validity.valid_until.date() == (TS + timedelta(days=10)).date()
