"""How the world is, read from the parse (permem.extraction.world_claims): a clause with a
generic subject that says nothing of the speaker, under or beside a frame of knowing or vouched
for by a tag, is a belief; the user's own life, tastes and norms are not. Wordings of our own,
none taken from the corpus; real spaCy, and through the extractor."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from spacy.language import Language

from permem.extraction.cues import Cue
from permem.extraction.rules import RuleExtractor
from permem.extraction.world_claims import world_claim
from permem.nlp import load_pipeline
from permem.records import Message, Role


@pytest.fixture(scope="module")
def nlp() -> Language:
    return load_pipeline()


@pytest.mark.parametrize(
    "text",
    [
        "I'm a firm believer that cold weather gives you colds",
        "As far as I know, bulls hate the colour red",
        "I was always taught that sugar makes kids hyper",
        "Lightning never strikes the same place twice, that's a fact",
        "I reckon vaccines cause more harm than good",
        "I've read that red wine is good for the heart",
        # Opinion and impression frames, an activity as subject, an evidential phrase.
        "My theory is that coffee dehydrates you",
        "I feel like electric cars are worse for the environment",
        "I've always been told that cracking your knuckles causes arthritis",
        "From what I've read, intermittent fasting is the healthiest diet",
        "Apparently microwaves destroy nutrients",
    ],
)
def test_a_claim_about_the_world_is_a_belief(nlp: Language, text: str) -> None:
    assert world_claim(nlp(text)), text


@pytest.mark.parametrize(
    "text",
    [
        "I think meetings should be short",  # a norm: how the user wants things
        "I think carbs make me tired",  # about the speaker
        "The kitchen is tiny",  # the user's own kitchen
        "I know my sister hates mushrooms",  # a relative, not the world
        "I'm sure the shop closes at 6",  # one shop
        "Dogs are my favourite animals",
        "As far as I know, my train leaves at 9",
        "Honestly, cheese makes everything better for me",
        "My view is that I should work less",
        "I feel like mornings are my most productive time",
        "Apparently my flight is delayed",
        "From what I've read, my condition needs a low-salt diet",
    ],
)
def test_the_user_s_own_life_tastes_and_norms_are_not(nlp: Language, text: str) -> None:
    assert not world_claim(nlp(text)), text


def test_the_extractor_marks_it_a_belief_the_gate_rejects(nlp: Language) -> None:
    message = Message(
        tenant="t", message_id="m1", account="ada", conversation_id="c", turn=1,
        role=Role.USER, text="As far as I know, bulls hate the colour red.",
        ts=datetime(2026, 5, 1, tzinfo=UTC),
    )  # fmt: skip
    candidates = RuleExtractor(nlp).extract([message])
    assert candidates and all(Cue.BELIEF in c.cues for c in candidates)


def test_a_verdict_of_taste_under_an_opinion_frame_stays_a_taste(nlp: Language) -> None:
    # "In my opinion, X is the best" judges a taste, not the world: kept as the user's.
    for text in ("In my opinion, dark chocolate is the best.", "I think oat milk is the best."):
        message = Message(
            tenant="t", message_id="m1", account="ada", conversation_id="c", turn=1,
            role=Role.USER, text=text, ts=datetime(2026, 5, 1, tzinfo=UTC),
        )  # fmt: skip
        [taste] = RuleExtractor(nlp).extract([message])
        assert Cue.TASTE in taste.cues and Cue.BELIEF not in taste.cues, text
