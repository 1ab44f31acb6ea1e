"""A change of speaker on an account (permem.extraction.speakers): someone other than the
holder typing gets a subject of their own, and the gate holds what they say.

The detection is tested directly over many wordings (introductions, disclaimers, devices that
are someone else's, children's ages in digits and words, relatives' permission, hand-backs,
and sentences that only look like one of them); then the wiring through extraction (real
spaCy), classification and the gate; and a nightly run on the real stores, read back through
recall.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from permem import nightly
from permem.classify import classify
from permem.extraction.rules import RuleExtractor
from permem.extraction.speakers import attribute, attribute_candidates, holder_names
from permem.policy import decide
from permem.recall import Recaller, parse_query
from permem.records import GateDecision, Message, Role, Sensitivity
from permem.runtime import runtime
from permem.settings import Settings
from tests.test_policy import BASE

TS = datetime(2026, 5, 4, 18, 0, tzinfo=UTC)


def conversation(
    *texts: str, account: str = "r.okafor", roles: dict[int, Role] | None = None, **extra: Any
) -> list[Message]:
    """One conversation of `account`, a minute between messages."""
    return [
        Message(
            message_id=f"m{i}",
            tenant="t",
            account=account,
            conversation_id="c1",
            turn=i,
            role=(roles or {}).get(i, Role.USER),
            text=text,
            ts=TS + timedelta(minutes=i),
            **extra,
        )  # fmt: skip
        for i, text in enumerate(texts)
    ]


def speakers(*texts: str, account: str = "r.okafor", **extra: Any) -> list[str | None]:
    """Who speaks at the end of each message (None: the holder)."""
    messages = conversation(*texts, account=account, **extra)
    turns = attribute(messages)
    found: list[str | None] = []
    for m in messages:
        turn = turns.get((m.tenant, m.message_id))
        found.append(turn.speaker_at(len(m.text)) if turn else None)
    return found


# --- detection, message by message ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        # Introductions naming someone else.
        ("Hey, it's Tobias here.", "r.okafor:tobias"),
        ("this is Anneliese", "r.okafor:anneliese"),
        ("It's Grace here", "r.okafor:grace"),  # a name that is also a word, announced
        ("Hello! Ines speaking", "r.okafor:ines"),
        ("my name is dmitri and I like chess", "r.okafor:dmitri"),
        ("Hi, I'm Soren!", "r.okafor:soren"),
        # A disclaimer that the holder is not typing, with and without a name.
        ("it's Yusuf not Rex", "r.okafor:yusuf"),
        ("Not Rex, sorry - this is Hana", "r.okafor:hana"),
        ("this isn't Rex", "r.okafor:guest"),
        # Someone else's device or account.
        ("borrowing his laptop for a sec", "r.okafor:guest"),
        ("Priya here, I'm on my uncle's tablet", "r.okafor:priya"),
        ("using my grandma's account", "r.okafor:guest"),
        ("my dad lets me use his phone on weekends", "r.okafor:guest"),
        ("my stepmom said I could use the computer", "r.okafor:guest"),
        # Someone's relative.
        ("I'm Rex's nephew", "r.okafor:guest"),
        ("hi, this is his wife", "r.okafor:guest"),
        # A name that is also a word, with something else saying someone else is typing.
        ("I'm Grace, borrowing my dad's laptop", "r.okafor:grace"),
        # A child's age, in digits and in words, or school year.
        ("I'm 9", "r.okafor:guest"),
        ("im seven years old", "r.okafor:guest"),
        ("I am fourteen", "r.okafor:guest"),
        ("i just turned 8!", "r.okafor:guest"),
        ("I'm in year 4", "r.okafor:guest"),
        ("I'm in 3rd grade", "r.okafor:guest"),
        # A lower-case name counts when the rest of the message says someone else is typing.
        ("heya its milo, im 11", "r.okafor:milo"),
        # Described, not named: by whose relative or carer the speaker is, in the first or
        # the third person, or by who typed the message.
        ("Hey, Priya's sister here, I'm a big fan of horror films", "r.okafor:guest"),
        ("Hi! I'm the babysitter, the kids want pizza", "r.okafor:guest"),
        ("it's Tom's little brother", "r.okafor:guest"),
        ("(typed by Emma's flatmate) I'm gluten intolerant", "r.okafor:guest"),
        ("Quick note from Dan's wife: I hate spicy food", "r.okafor:guest"),
        ("guest user here, I love jazz", "r.okafor:guest"),
        ("Not me typing, it's my brother", "r.okafor:guest"),
        # A device that is someone else's, said later in the fragment; a relative's leave.
        ("This is the cleaner, I'm using the family tablet", "r.okafor:guest"),
        ("hey it's Grandma on Lily's tablet", "r.okafor:guest"),
        ("Mum said I could use her phone. I hate mushrooms.", "r.okafor:guest"),
        # The holder hands over, naming who takes the keyboard by their relation.
        ("hey, my daughter Mia is on here now", "r.okafor:guest"),
        ("this is my son typing", "r.okafor:guest"),
        ("ok my little brother wants to ask something", "r.okafor:guest"),
        ("I'm passing the tablet to my niece", "r.okafor:guest"),
        ("handing over to my husband for a bit", "r.okafor:guest"),
        ("my partner's gonna be on here for a bit", "r.okafor:guest"),
        ("my grandma wants to say hi", "r.okafor:guest"),
        # School years in words, a teacher's class, a household role, leave to talk to the
        # assistant, a relative's device named alone, the holder disclaimed by relation.
        ("I'm in second grade", "r.okafor:guest"),
        ("I'm in year six", "r.okafor:guest"),
        ("I go to Oakwood Primary and I'm in Mrs Lee's class", "r.okafor:guest"),
        ("hi im the kid, my mom said i could ask you", "r.okafor:guest"),
        ("my mum's phone, I'm Sam", "r.okafor:sam"),
        ("not my mum typing, it's me Leo", "r.okafor:guest"),
        # Introduced on someone else's device, or signed at the top.
        ("It's Pedro using his login, no spicy food for me", "r.okafor:pedro"),
        ("Dan here on her laptop. I'm gluten free", "r.okafor:dan"),
        ("Quick note from Ines, Rex's flatmate: I can't stand chilli", "r.okafor:ines"),
        # Someone typing for the holder, and guests just arrived at the holder's place.
        ("This is Bea, Rex's carer, typing for him", "r.okafor:bea"),
        ("Helping my grandad with his tablet: he can't read small print", "r.okafor:guest"),
        ("I'm typing this on her behalf, she hurt her hand", "r.okafor:guest"),
        ("Hi! We've just checked in to the chalet for the week", "r.okafor:guest"),
        ("Hello from the couple renting the flat this weekend!", "r.okafor:guest"),
        ("Hiya, we've booked this place for 5 nights", "r.okafor:guest"),
        ("Morning! We're visiting for the week and staying at this cottage", "r.okafor:guest"),
        ("Guests in unit 4 here", "r.okafor:guest"),
        ("Hey, it's the Jensens, we've got the place till Friday", "r.okafor:guest"),
        ("Hello! Family of four here for the week", "r.okafor:guest"),
        ("Hi! We're the couple who booked this week", "r.okafor:guest"),
        # Visitors staying at the holder's place.
        ("we're the Airbnb guests, we love hiking", "r.okafor:guest"),
        ("we're staying in this flat till Sunday, we're vegetarian", "r.okafor:guest"),
    ],
)
def test_a_change_of_speaker_is_seen(text: str, subject: str) -> None:
    assert speakers(text) == [subject]


@pytest.mark.parametrize(
    "text",
    [
        "I'm 42 and I love hiking",  # an adult's age: the holder may say it
        "I am thirty-five",
        "this is my favourite recipe",  # not an introduction
        "It's Friday, so pizza night",
        "it's raining again",
        "I'm Rex, by the way",  # the holder's own name
        "Rex here",
        "I'm Vegan now",  # capitalised, but no name
        "I'm 16 weeks pregnant",  # a number, not an age
        "I'm 10 minutes away",
        "I'm 5 km from the station",
        "I borrowed my sister's laptop last year",  # a story, not who is typing now
        "I saw it on her phone yesterday",
        "my boss lets me use the company laptop",
        "I like Ana, not Bea",  # "not X" naming no holder
        "what's my dog called? it's Biscuit",  # "it's N" answering, not introducing
        "we watched a film and I'm Tired",
        "Hi, I'm Dr. Okafor's patient",  # a title, not a name
        "Carnivore here, steak every day",  # the holder describing themself
        "Insomniac here, so late answers are fine",
        "I'm Grace",  # a name that is also a word, with nothing else: not enough
        "it's her birthday on Friday",
        "I'm the guest speaker at a conference next week",
        "Note from my doctor: no running for a month",
        "Quick note from Rex: I'm off on Friday",  # the holder signing
        "it's Tuesday on the family calendar",
        "I'm helping my son with his homework",
        "We've just arrived at the hotel in Rome",
        "We stayed in a cabin here last year, loved it",
        "We're staying at my parents' place this weekend",
        "Our kids are staying here with us this week",
        "We've booked a table for 8 here in town",
        "We're here for you, mum",
        "We're the family in the photo on the fridge",
        "We've got the house to ourselves tonight",
        "I'm typing slowly today, sore thumb",
        "Lunch with Tom, Sara's husband, was fun",
        "we're staying in the flat in Lisbon this week, find us tapas",  # the holder's trip
        "I'm the babysitter for my sister's kids on Friday, plan easy meals",
        "I'm on her account page and can't find the settings",
        "typed by me, obviously",
        "the guests loved the lasagne, my recipe worked",
        # A relative talked about, not handed the keyboard.
        "my son wants to know why the sky is blue",
        "my husband is using the laptop so I'm on my phone",
        "my wife is writing a novel",
        "my son is typing up his homework",
        "my sister will take over the lease",
        "I'm giving my son a bike for his birthday",
        "my son is on here a lot, watch for kids topics",
        "I'm the kid of two doctors, so I know a bit about medicine",
        "my mum's phone is broken, so I'm calling her landline",
        "I'm in the second row at the concert",
    ],
)
def test_no_change_of_speaker(text: str) -> None:
    assert speakers(text) == [None]


def test_the_holder_s_name_comes_from_the_account_id() -> None:
    assert holder_names("rex.okafor@example.com") == (frozenset({"rex", "okafor"}), frozenset())
    assert holder_names("r.okafor") == (frozenset({"okafor"}), frozenset({"r"}))
    # An initial alone is the holder's only when nothing else says someone else is typing.
    assert speakers("Hi, it's Remy") == [None]
    assert speakers("Hi, it's Remy, borrowing the phone") == ["r.okafor:remy"]
    assert speakers("I'm Ana", account="ana") == [None]


def test_the_change_lasts_for_the_conversation_until_a_hand_back() -> None:
    assert speakers(
        "I'm trying to cut down on sugar",
        "hiya, Elif here, I'm 10",
        "I love chocolate cake",
        "and gummy bears",
        "ok it's Rex again",
        "I prefer savoury snacks",
    ) == [None, "r.okafor:elif", "r.okafor:elif", "r.okafor:elif", None, None]
    assert speakers("Jonas typing", "I like jazz", "back to me", "I like opera") == [
        "r.okafor:jonas", "r.okafor:jonas", None, None
    ]  # fmt: skip
    # A name the disclaimer gave is the holder's from then on: "it's Rex" hands back.
    assert speakers("this is Lior not Rex", "I like trains", "this is Rex") == [
        "r.okafor:lior", "r.okafor:lior", None
    ]  # fmt: skip


def test_the_change_starts_at_its_sentence_and_the_holder_keeps_what_came_before() -> None:
    [message] = conversation("I adore sushi. Oh, it's Dara typing now, Rex left. I hate fish.")
    turn = attribute([message])[(message.tenant, message.message_id)]
    assert turn.speaker_at(0) is None
    assert turn.speaker_at(message.text.index("I hate")) == "r.okafor:dara"


def test_other_conversations_and_explicit_subjects_are_untouched() -> None:
    first = conversation("not Rex, it's Sana", "I like kites")
    later = [replace(m, conversation_id="c2", message_id=f"n{m.turn}") for m in first]
    later = [replace(later[1], text="I like opera")]
    turns = attribute([*first, *later])
    assert ("t", "n1") not in turns
    # A line that names its subject (a shared-account profile) keeps it.
    profiled = conversation("hi it's Sana, I'm 9", "I like kites", subject="r.okafor:sana")
    assert attribute(profiled) == {}


def test_assistant_text_neither_starts_nor_ends_a_change() -> None:
    assert speakers(
        "Ravi here, borrowing the tablet", "Hi Ravi! Back to you, Rex.", "I like cricket",
        roles={1: Role.ASSISTANT},
    )[2] == "r.okafor:ravi"  # fmt: skip


# --- wiring: extraction, classification, gate ------------------------------------------------


def test_candidates_of_the_other_speaker_carry_their_subject(extractor: RuleExtractor) -> None:
    messages = conversation(
        "I really love spicy curries.",
        "hey it's Tomas, not Rex. im 9 years old. my mum said I can use the tablet",
        "I hate spicy food and I love plain rice",
    )
    candidates = attribute_candidates(messages, extractor.extract(messages))
    by_text = {c.claim_text: c for c in candidates}
    assert by_text["I really love spicy curries"].speaker is None
    assert by_text["I hate spicy food"].speaker == "r.okafor:tomas"
    assert by_text["I love plain rice"].speaker == "r.okafor:tomas"
    # Nothing that only says who is typing is left, under anyone.
    for text in by_text:
        assert "Tomas" not in text and "9 years" not in text and "tablet" not in text, text
    # The relative the child names is not the holder's relative.
    classified = {c.claim_text: classify(c) for c in candidates}
    assert classified["I hate spicy food"].subject == "r.okafor:tomas"
    assert classified["I hate spicy food"].other_speaker
    assert classified["I really love spicy curries"].subject == "r.okafor"
    assert not classified["I really love spicy curries"].other_speaker


def test_a_third_party_named_by_the_other_speaker_is_theirs(extractor: RuleExtractor) -> None:
    messages = conversation("Zeynep here, on my aunt's phone", "my brother hates mushrooms")
    [candidate] = attribute_candidates(messages, extractor.extract(messages))
    assert classify(candidate).subject == "r.okafor:zeynep:brother"


def test_what_the_helper_says_of_the_holder_by_name_is_the_holder_s(
    extractor: RuleExtractor,
) -> None:
    """Someone typing on the holder's behalf says so; what they say of the holder by name is
    the holder's, what they say of themselves stays theirs."""
    messages = conversation(
        "not Rex typing, this is Lena the niece, setting up the laptop for him",
        "Rex's coffee must always be decaf, please remember that.",
        "Rex never eats after 7, so always book early tables.",
        "I'm vegan myself but he isn't",
    )
    candidates = attribute_candidates(messages, extractor.extract(messages))
    by_text = {c.claim_text: c.speaker for c in candidates}
    about_rex = [text for text in by_text if text.startswith("Rex")]
    assert len(about_rex) == 2 and all(by_text[t] is None for t in about_rex), by_text
    assert by_text["I'm vegan myself but he isn't"] == "r.okafor:guest", by_text


def test_the_gate_holds_the_other_speaker_s_claims() -> None:
    held = decide(replace(BASE, other_speaker=True))
    assert held.decision is GateDecision.CONFIRM and held.reasons[0] == "other_speaker"
    # Not even a remember request or a one-off makes it usable.
    for changes in ({"requested": True}, {"one_off": True}):
        outcome = decide(replace(BASE, other_speaker=True, **changes))  # type: ignore[arg-type]
        assert outcome.decision is GateDecision.CONFIRM, changes
    special = decide(
        replace(
            BASE,
            other_speaker=True,
            sensitivity=Sensitivity.SPECIAL,
            categories=frozenset({"health"}),
        )  # fmt: skip
    )
    assert special.decision is GateDecision.CONFIRM and "other_speaker" in special.reasons
    # Rejections still reject.
    assert decide(replace(BASE, other_speaker=True, content_words=0)).reasons == ("nothing_left",)
    assert decide(BASE).decision is GateDecision.ACCEPT


# --- end to end: a nightly run on the real stores, read back through recall -------------------


def _line(mid: str, conversation_id: str, minute: int, text: str) -> str:
    return json.dumps({
        "message_id": mid, "tenant": "acme", "account": "ana", "conversation_id": conversation_id,
        "turn": minute, "role": "user", "text": text,
        "ts": f"2026-04-0{1 if conversation_id == 'c1' else 3}T17:{minute:02d}:00Z",
    })  # fmt: skip


LOG = [
    ("h1", "c1", 0, "I'm trying to eat more leafy greens, kale especially."),
    ("k1", "c2", 0, "hello!! its Mira, not Ana — I'm eight"),
    ("k2", "c2", 1, "I only eat chicken nuggets and I hate kale."),
    ("k3", "c2", 2, "please remember I love strawberry milkshakes"),
]


def test_nightly_files_the_other_speaker_apart_and_recall_serves_only_the_holder(
    settings: Settings, tmp_path: Path
) -> None:
    configured = settings.model_copy(update={"embedder": "hashing"})
    log = tmp_path / "log.jsonl"
    log.write_text("\n".join(_line(*row) for row in LOG) + "\n")
    nightly.run(configured, log)

    engine = sa.create_engine(configured.database_url or "", poolclass=sa.NullPool)
    try:
        with engine.connect() as conn:
            stored = [dict(r) for r in conn.execute(sa.text(
                "SELECT subject, claim, confirmation, source_message_id FROM memories"
            )).mappings()]  # fmt: skip
            reasons = [r for (r,) in conn.execute(sa.text(
                "SELECT reasons FROM gate_decisions WHERE source_message_id LIKE 'k%'"
            ))]  # fmt: skip
    finally:
        engine.dispose()
    holder = [r for r in stored if r["subject"] == "ana"]
    assert [r["source_message_id"] for r in holder] == ["h1"], stored
    other = [r for r in stored if r["source_message_id"].startswith("k")]
    assert other and all(r["subject"] == "ana:mira" for r in other), other
    assert all(r["confirmation"] == "pending" for r in other), other
    assert not any("Mira" in r["claim"] or "eight" in r["claim"] for r in stored), stored
    assert reasons and all("other_speaker" in r for r in reasons), reasons

    rt = runtime(configured)
    query = {
        "query_id": "q", "tenant": "acme", "actor": "ana", "subject": "ana",
        "purpose": "assistant", "scope": "global", "ts": "2026-04-10T12:00:00Z",
        "text": "what should I eat for dinner? kale, nuggets or a milkshake?", "k": 20,
    }  # fmt: skip
    answer = Recaller(rt.db, rt.index, rt.embedder).recall(parse_query(query))
    claims = [r.record.claim for r in answer.records]
    assert any("leafy greens" in c for c in claims), claims
    assert not any("nuggets" in c or "milkshake" in c for c in claims), claims
    # Nor is anything held served to the other speaker before it is confirmed.
    answer = Recaller(rt.db, rt.index, rt.embedder).recall(
        parse_query({**query, "subject": "ana:mira"})
    )
    assert answer.records == [] or not any("nuggets" in r.record.claim for r in answer.records)
