"""The classes behind the fourth round of issue 15, each tested as a pure function with
wordings of its own, none taken from the corpus: what a question about the world may use of
memory, questions about the user's here and now, orders to drop what was just said, reactions
and hedges that claim nothing, tastes stated as facts, consequences drawn for one's own conduct,
standing instructions asked as questions, one piece of work, and a day that a cause names."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from permem.classify import classify
from permem.extraction import Candidate
from permem.extraction import lexicon as lx
from permem.extraction.context import Conversations, antecedent
from permem.extraction.cues import Cue, select
from permem.extraction.modality import withdrawn
from permem.recall import RecallQuery, exclusion, is_factual_question
from permem.records import Kind, Message, Origin, Sensitivity, SourceRef, Status, UserMemory
from permem.stores.database import Database
from tests.conftest import message

ZONE = timezone(timedelta(hours=2))
TS = datetime(2026, 10, 8, 18, 30, tzinfo=ZONE)  # a Thursday


def _message(text: str, message_id: str = "m1", **fields: object) -> Message:
    fields.setdefault("account", "k.osei")
    return message("t", message_id, text=text, turn=1, ts=TS, conversation_id="c", **fields)


def _memory(claim: str, kind: Kind = Kind.PREFERENCE, **fields: object) -> UserMemory:
    values: dict[str, object] = {
        "tenant": "t", "subject": "k.osei", "account": "k.osei", "origin": Origin.USER_FACT,
        "kind": kind, "claim": claim, "source": SourceRef("m1", (0, len(claim))),
        "scope": "global", "purpose": "assistant", "observed_at": TS - timedelta(days=9),
        "valid_from": TS - timedelta(days=9), "valid_until": None, "confidence": 0.9,
        "sensitivity": Sensitivity.NONE, "topic": None,
    }  # fmt: skip
    values.update(fields)
    return UserMemory(**values)  # type: ignore[arg-type]


def _query(text: str, **fields: object) -> RecallQuery:
    values: dict[str, object] = {
        "query_id": "q", "tenant": "t", "actor": "k.osei", "subject": "k.osei",
        "purpose": "assistant", "scope": "global", "ts": TS, "text": text,
    }  # fmt: skip
    values.update(fields)
    return RecallQuery(**values)  # type: ignore[arg-type]


def _selected(text: str) -> list[str]:
    m = _message(text)
    return [m.text[s.start : s.end] for s in select(m)]


# ------------------------------------------------------------------ questions about the world


def test_a_question_about_the_world_uses_only_how_the_user_wants_answers() -> None:
    question = _query("does chewing gum take seven years to digest?")
    assert is_factual_question(question.text, question.subject)
    usable = [
        _memory("give me the one-line answer first, then the why"),
        _memory("metric for me, always", kind=Kind.INSTRUCTION),
        _memory("Spell things the British way, please", kind=Kind.INSTRUCTION),
    ]
    not_usable = [
        _memory("keep sugary snacks out of my meal plans", kind=Kind.INSTRUCTION),
        _memory("I never swallow gum", kind=Kind.CONSTRAINT),
        _memory("I drive a Corolla", kind=Kind.FACT),
        # How to answer, but drawn from a belief about the world: still a belief.
        _memory("I'm convinced doctors hide cures, so explain with that in mind"),
    ]
    for record in usable:
        assert exclusion(record, question, factual=True) is None, record.claim
    for record in not_usable:
        assert exclusion(record, question, factual=True) == "factual_question", record.claim
        assert exclusion(record, question, factual=False) is None, record.claim


def test_generic_causes_and_people_in_general_are_questions_about_the_world() -> None:
    for text in ("should people stretch before running?", "what causes hiccups?",
                 "where does the custom of tipping come from?", "what's the boiling point of oil?",
                 "do kids need naps after six?"):  # fmt: skip
        assert is_factual_question(text, "k.osei"), text


def test_a_question_about_the_users_here_and_now_is_not_about_the_world() -> None:
    for text in ("is Friday the 16th free for the dentist?", "is it warm enough tonight for a "
                 "picnic?", "how much paint for the whole kitchen?", "does the boiler need "
                 "servicing this month?", "is it too windy tomorrow to cycle?"):  # fmt: skip
        assert not is_factual_question(text, "k.osei"), text
    # A date in a question about the world keeps it one: "the 13th" is no day of the user's.
    assert is_factual_question("is a Friday the 13th really unluckier?", "k.osei")


# ------------------------------------------------------------------ saying nothing new


def test_an_order_to_drop_what_was_just_said_is_a_withdrawal() -> None:
    for text in ("ok, bin that rule then", "so forget it", "ditch that one please",
                 "fine, drop this idea"):  # fmt: skip
        assert withdrawn(text), text
    # One that says what holds instead is a retraction with a claim, not a withdrawal.
    assert not withdrawn("drop that, I'm fine with mushrooms now")
    assert not withdrawn("I dropped it off at the post office")


def test_a_reaction_to_the_assistant_claims_nothing_and_is_skipped_as_context() -> None:
    for text in ("huh, I didn't know that.", "Good to know!", "oh, fair enough", "news to me"):
        assert lx.PLEASANTRY.match(text), text
        assert _selected(text) == [], text
    said = "Keep my runs away from lunch, I get stitches. Oh, I had no idea. ok, scrap that rule"
    m = _message(said)
    claim = "ok, scrap that rule"
    start = said.index(claim)
    found = antecedent(m, start, start + len(claim), Conversations([m]))
    assert found is not None and "stitches" in found.text


def test_a_hedge_tag_claims_nothing_and_hedges_what_came_before() -> None:
    [hedged] = select(_message("I'm a size 9 in hiking boots. Could be wrong though."))
    assert Cue.HEDGE in hedged.cues
    assert hedged.message.text[hedged.start : hedged.end] == "I'm a size 9 in hiking boots."
    assert _selected("don't quote me on that") == []
    assert lx.BELIEF.search("I'm pretty sure landlords can't enter without notice")
    assert not lx.BELIEF.search("I'm sure my train is at six")


# ------------------------------------------------------------------ what the user keeps


def test_a_taste_stated_as_a_fact_is_the_speakers_taste() -> None:
    for text in (
        "Espresso is the only way to drink coffee, objectively.",
        "Paper maps beat apps, end of story.",
        "Mechanical keyboards are superior.",
    ):
        [sentence] = select(_message(text))
        assert Cue.TASTE in sentence.cues, text


def test_a_consequence_for_ones_own_conduct_is_kept() -> None:
    assert _selected("that's why I shower at night, so plan mornings around it")
    found = select(_message("Stretching fixes everything, I'm convinced, so keep it in my week"))
    assert found and all(Cue.OWN_CONDUCT in s.cues for s in found)


def test_a_standing_instruction_asked_as_a_question_is_kept() -> None:
    [asked] = select(_message("Could you write to me in Portuguese from now on?"))
    assert Cue.INSTRUCTION in asked.cues
    # A question about this one task sets that task's language only: a one-off, kept for its
    # session (permem.extraction.no_claim.format_of_one_piece), never a standing rule.
    [task] = select(_message("Could you write to my landlord in Portuguese?"))
    assert Cue.ONE_OFF in task.cues


def test_one_piece_of_work_is_a_one_off() -> None:
    for text in ("The form is for my aunt, so large print for this.",
                 "Formal tone for this letter only."):  # fmt: skip
        assert all(Cue.ONE_OFF in s.cues for s in select(_message(text))), text
    assert not lx.ONE_OFF.search("I use this for everything")


def test_a_piece_of_work_singled_out_however_it_is_worded_is_a_one_off() -> None:
    for text in ("For this one email, write it in French.",
                 "For this particular question, go into lots of detail.",
                 "For the note to my best friend, keep it casual.",
                 "US spelling for this grant bid only.",
                 "For the next meeting, keep the summary brief.",
                 "Made an exception at the wedding and had cake."):  # fmt: skip
        assert lx.ONE_OFF.search(text), text
    # A scope, a kind of piece in general, or a piece named as the subject is no one-off.
    for text in ("For this project, use British spelling.",
                 "For this client project, always use British spelling.",
                 "For the answers, be brief.",
                 "The report for the client is due Friday."):  # fmt: skip
        assert not lx.ONE_OFF.search(text), text


def test_what_a_named_day_brings_holds_that_day_only() -> None:
    said = "Strike on the trams on Saturday, so I'll drive to the market instead."
    m = _message(said)
    clause = "I'll drive to the market instead"
    start = said.index(clause)
    candidate = Candidate(
        message=m, start=start, end=start + len(clause), claim_start=start,
        claim_end=start + len(clause), kind=Kind.PREFERENCE, about=None, cues=frozenset(),
        topic=None, context=said,
    )  # fmt: skip
    found = classify(candidate)
    assert found.valid_from == datetime(2026, 10, 10, tzinfo=ZONE)
    assert found.valid_until == datetime(2026, 10, 11, tzinfo=ZONE)
    # No day in the cause: the consequence lasts.
    said = "The trams are unreliable, so I drive to the market."
    clause = "I drive to the market"
    start = said.index(clause)
    lasting = classify(
        Candidate(
            message=_message(said),
            start=start,
            end=start + len(clause),
            claim_start=start,
            claim_end=start + len(clause),
            kind=Kind.PREFERENCE,
            about=None,
            cues=frozenset(),
            topic=None,
            context=said,
        )  # fmt: skip
    )
    assert lasting.valid_until is None


# ------------------------------------------------------------------ sessions


def test_a_session_claim_serves_a_query_that_names_no_session_while_it_lasts() -> None:
    one_off = _memory(
        "large print for this", status=Status.SESSION_ONLY, session="s1",
        observed_at=TS - timedelta(hours=1), valid_from=TS - timedelta(hours=1),
        valid_until=TS + timedelta(hours=11),
    )  # fmt: skip
    assert exclusion(one_off, _query("draft the card"), factual=False) is None
    assert exclusion(one_off, _query("draft the card", session="s1"), factual=False) is None
    assert exclusion(one_off, _query("draft it", session="s2"), factual=False) == "other_session"
    later = _query("draft the card", ts=TS + timedelta(hours=12))
    assert exclusion(one_off, later, factual=False) == "expired"


# ------------------------------------------------------------------ endings


def test_a_farewell_and_a_lapsed_resolution_take_back() -> None:
    from permem.extraction.modality import called_off, retracts

    assert retracts("new phone from work today, goodbye android")
    assert retracts("bye-bye, old Vespa")
    assert not retracts("goodbye everyone!") and not retracts("I said goodbye to her")
    for text in ("honestly, that resolution lasted a week", "my new routine fizzled",
                 "the challenge went out the window"):  # fmt: skip
        assert called_off(text), text
    # A lapse that says what holds instead keeps its claim: a retraction, not a called-off plan.
    said = "who was I kidding, I still take the car"
    assert retracts(said) and not called_off(said)


def test_a_date_after_its_weekday_and_the_end_of_a_quarter_bound_a_claim() -> None:
    from permem.temporal import resolve

    said = datetime(2026, 6, 6, 12, 0, tzinfo=ZONE)  # a Saturday
    assert resolve("no takeaways till Monday the 22nd", said).valid_until == datetime(
        2026, 6, 23, tzinfo=ZONE
    )
    assert resolve("no takeaways till Monday", said).valid_until == datetime(
        2026, 6, 9, tzinfo=ZONE
    )
    assert resolve("on a budget until the end of next quarter", said).valid_until == datetime(
        2026, 10, 1, tzinfo=ZONE
    )
    assert resolve("on a budget until the end of the quarter", said).valid_until == datetime(
        2026, 7, 1, tzinfo=ZONE
    )


# ------------------------------------------------------------------ whom a claim is about


def test_a_named_housemate_and_shared_meals_are_not_the_users_own_rule() -> None:
    from permem.extraction.for_whom import ForWhom, claim_for_whom
    from permem.extraction.speaker_visitors import _VISITORS

    assert claim_for_whom("Noor, who shares the flat, avoids gluten") is ForWhom.OTHERS
    assert claim_for_whom("<PERSON>, my flatmate, is vegan") is ForWhom.OTHERS
    assert claim_for_whom("household meals have to be nut-free") is ForWhom.SHARED
    assert claim_for_whom("Pasta, my favourite, every Friday") is ForWhom.ANY
    assert _selected("Communal dinners must be halal.")
    # Visitors who greet as a group take over the account for the conversation.
    for text in ("Hello from the guests!", "hi, it's the tenants", "this is the new lodgers"):
        assert _VISITORS.fullmatch(text), text


# ------------------------------------------------------------------ what a correction names


def test_the_clause_that_takes_back_names_what_it_takes_back() -> None:
    from permem.pipeline_load import _named_by
    from permem.policy import reference_words

    said = "The Kindle thing is old, I read paperbacks now"
    assert _named_by("I read paperbacks now", said) == reference_words("Kindle")
    # A clause that points back leans on its context ("take it off" names the lassi), and a
    # finding names what it replaces by what it found: no narrower reading for either.
    assert _named_by("so sweet, take it off my list", "had the mango lassi again") is None
    assert _named_by("I'm a 56 frame", "oh and the shop measured me, I'm a 56 frame") is None


def test_when_someones_birthday_is_is_a_date_to_keep_not_a_one_off() -> None:
    [kept] = select(_message("Ana's birthday is the 3rd of May."))
    assert Cue.KEPT_DATE in kept.cues and Cue.ONE_OFF not in kept.cues
    [gift] = select(_message("I need a card for Ana's birthday, she loves foxes"))
    assert Cue.ONE_OFF in gift.cues


def test_a_mix_up_owned_and_a_thing_given_back_take_back() -> None:
    from permem.extraction.modality import retracts

    assert retracts("I muddled the dates: the dentist is the 9th, the 4th is the vet")
    assert retracts("the loan car went back to the dealer, I'm cycling again")
    assert not retracts("I went back to it after lunch")


def test_a_clause_beside_a_claim_its_topic_replaces_goes_with_it(
    db: Database,
) -> None:
    from permem.revisions import with_topic_siblings
    from permem.stores.database import register_tenant, tenant_transaction
    from permem.stores.memories import append_memories
    from permem.stores.sources import append_sources

    said = "I think in miles and Fahrenheit, I grew up near Denver"
    units = _memory("I think in miles and Fahrenheit", topic="units", tenant="acme",
                    source=SourceRef("m1", (0, 31)))  # fmt: skip
    beside = _memory("I grew up near Denver", kind=Kind.EVENT, tenant="acme",
                     source=SourceRef("m1", (33, len(said))))  # fmt: skip
    job = _memory("I teach at the college", topic="job", tenant="acme",
                  source=SourceRef("m1", (len(said) + 2, len(said) + 24)))  # fmt: skip
    metric = _memory("metric for me now", topic="units", tenant="acme",
                     source=SourceRef("m2", (0, 17)), observed_at=TS)  # fmt: skip
    with tenant_transaction(db.app, "acme") as conn:
        register_tenant(conn, "acme")
        append_sources(conn, [message("acme", "m1", text=said), message("acme", "m2")])
        append_memories(conn, [units, beside, job, metric])
        replaced = with_topic_siblings(conn, {units.id: metric.id})
    # The clause said beside the replaced one goes with it; one on a topic of its own stays.
    assert replaced == {units.id: metric.id, beside.id: metric.id}
