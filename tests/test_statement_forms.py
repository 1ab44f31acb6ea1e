"""Forms of a standing statement the cue pass must not miss (issue 15), with wordings of its
own, none taken from the corpus: the user's thing named by what it is ("Jazz is my music"),
what the user's things must be ("my runs should be short"), and such a clause after a request
in the same sentence ("Give me crime novels, Scandi noir is my thing")."""

from __future__ import annotations

from pathlib import Path

import pytest

from permem.extraction.cues import Cue, select
from permem.settings import Settings
from tests.conftest import ingest, message, recalled_claims, user_line


def _selected(text: str) -> dict[str, frozenset[Cue]]:
    found = select(message("t", "m1", text=text, account="ana"))
    return {text[s.start : s.end]: s.cues for s in found}


@pytest.mark.parametrize(
    "said",
    [
        "Bluegrass is my music, banjo most of all.",
        "Porto is our city for weekends away.",
        "Oolong is my default tea.",
        "My lunches should be light, salads or soup.",
        "our holidays have to be somewhere warm",
    ],
)
def test_the_users_thing_named_by_what_it_is_or_must_be_is_a_standing_statement(
    said: str,
) -> None:
    cues = _selected(said)
    assert any(Cue.DURABLE in c and Cue.FIRST_PERSON in c for c in cues.values()), cues


@pytest.mark.parametrize(
    "said",
    [
        "This is my question about the invoice.",
        "What is my balance?",
        "That's my point exactly.",
        "It's my turn to cook.",
    ],
)
def test_a_pointer_or_a_question_about_the_users_thing_is_none(said: str) -> None:
    cues = _selected(said)
    assert not any(Cue.DURABLE in c for c in cues.values()), cues


def test_a_statement_after_a_request_in_one_sentence_is_its_own_clause() -> None:
    cues = _selected("Find me a crime novel, Scandi noir is my thing.")
    assert "Scandi noir is my thing." in cues, cues
    # A request alone stays a request.
    assert _selected("Find me a crime novel, something short.") == {}


def test_a_taste_named_by_what_it_is_reaches_recall_through_the_stores(
    settings: Settings, tmp_path: Path
) -> None:
    ingest(
        settings,
        tmp_path / "log.jsonl",
        [user_line("m1", "Recommend me a podcast, true crime is my genre.")],
    )
    claims = recalled_claims(settings, "what podcast should I try next?")
    assert any("true crime is my genre" in c for c in claims), claims
