"""An attitude toward a change is no change (permem.extraction.attitudes): read from the
parse, with wordings of our own (none from the corpus)."""

from __future__ import annotations

from pathlib import Path

import pytest
from spacy.language import Language

from permem.extraction.attitudes import attitude_toward_change
from permem.nlp import load_pipeline
from permem.settings import Settings
from tests.conftest import ingest, recalled_claims, user_line


@pytest.fixture(scope="module")
def nlp() -> Language:
    return load_pipeline()


def _root(nlp: Language, text: str):  # type: ignore[no-untyped-def]
    return next(iter(nlp(text).sents)).root


@pytest.mark.parametrize(
    "text",
    [
        "we're weighing a move to Porto",  # the change as an object noun headed somewhere
        "been eyeing a move to Lyon",
        "mulling over a move to Leeds",  # ... as a prepositional object
        "half tempted to move to Porto, no idea yet",  # ... as a to-infinitive
        "I'd love to move to Kyoto",
        "daydreaming about relocating to Porto",  # ... as a gerund after a preposition
        "a move to Porto is on the cards",  # ... as the subject of "be"
    ],
)
def test_a_change_held_as_an_object_or_complement_is_an_attitude(nlp: Language, text: str) -> None:
    assert attitude_toward_change(_root(nlp, text)), text


@pytest.mark.parametrize(
    "text",
    [
        "I live in Porto",
        "I'm moving to Porto",  # the change is the main predicate
        "We moved to Porto last week",
        "I moved to Porto to be near my mum",
        "Started working at the bakery",  # aspect: begun
        "I've decided to move to Porto in May",  # settled: a plan, read as one elsewhere
        "I need to move to Porto for work",
        "Happy to say we moved to Porto",  # a complement with no destination of its own
        "I prefer to write in British English",
        "I switched to night shifts",
        "Home is Porto now",
    ],
)
def test_a_change_said_as_such_or_reported_as_begun_or_settled_is_not(
    nlp: Language, text: str
) -> None:
    assert not attitude_toward_change(_root(nlp, text)), text


def test_weighing_a_move_neither_is_stored_nor_replaces_where_the_user_lives(
    hashing: Settings, tmp_path: Path
) -> None:
    ingest(hashing, tmp_path / "log.jsonl", [
        user_line("m1", "I live in Halifax.", ts="2026-02-14T08:00:00Z", conversation_id="c1"),
        user_line("m2", "we're weighing a move to Porto", ts="2026-03-01T08:00:00Z",
                  conversation_id="c2"),
    ])  # fmt: skip
    found = recalled_claims(hashing, "find a dentist close to where I live")
    assert [c for c in found if "Halifax" in c or "Porto" in c] == ["I live in Halifax"]
