"""Arrangements and what takes them back (issue 15), each tested with wordings of its own, none
taken from the corpus: a tentative arrangement gives way to a settled one about the same thing
(`recall_choice.settled`); a plan replaces nothing until it happened (`replaced_from_start`);
a conclusion drawn from a question is no claim (`extraction.cues`); a retraction names a
compound word by the name heading it (`revisions.names_any`); a possession given up takes
back what named it (`modality.retracts`)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from permem import policy
from permem.extraction.cues import Cue, select
from permem.extraction.modality import retracts
from permem.recall_choice import replaced_from_start, settled
from permem.records import Kind, Sensitivity, SourceRef, UserMemory
from permem.revisions import brands_of, names_any
from permem.settings import Settings
from tests.conftest import ingest, memory, message, recalled_claims, user_line

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _said(claim: str, days: int, kind: Kind, **fields: object) -> UserMemory:
    """Ana's claim of `kind`, said `days` after T0 in a message of its own."""
    observed = T0 + timedelta(days=days)
    values: dict[str, object] = {
        "tenant": "t", "subject": "ana", "account": "ana", "kind": kind, "claim": claim,
        "observed_at": observed, "valid_from": observed, "sensitivity": Sensitivity.NONE,
        "source": SourceRef(f"m-{uuid.uuid4().hex[:6]}", (0, len(claim))),
    }  # fmt: skip
    return memory(**{**values, **fields})


# ------------------------------------------------------------- tentative, then settled


@pytest.mark.parametrize(
    ("tentative", "kind", "settled_later"),
    [
        (
            "we're hoping to get the roof redone in April, probably",
            Kind.EVENT,
            "Roof repair booked for May 9th",
        ),
        (
            "might take the night ferry to Bilbao on the 3rd",
            Kind.PLAN,
            "got seats on the 10:00 ferry to Bilbao",
        ),
        (
            "thinking about getting a rowing machine this year",
            Kind.PLAN,
            "the rowing machine arrived today",
        ),
    ],
)
def test_a_tentative_arrangement_gives_way_to_a_settled_one_about_the_same_thing(
    tentative: str, kind: Kind, settled_later: str
) -> None:
    old = _said(tentative, 0, kind)
    new = _said(settled_later, 9, Kind.EVENT)
    assert settled([old, new]) == {old.id}


def test_what_is_not_settled_or_not_the_same_thing_replaces_nothing() -> None:
    old = _said("we might repaint the hallway in June, fingers crossed", 0, Kind.PLAN)
    # Still hedged: nothing is settled.
    hedged = _said("maybe the hallway gets painted in July instead", 5, Kind.EVENT)
    assert settled([old, hedged]) == set()
    # Another arrangement, sharing only the month: the calendar names when, not what.
    other = _said("the boiler service is fixed for June 14th", 5, Kind.EVENT)
    assert settled([old, other]) == set()
    # Something added to it replaces nothing.
    added = _said("also booked a hallway carpet fitting", 5, Kind.EVENT)
    assert settled([old, added]) == set()
    # A standing fact is no arrangement, and said earlier it is not replaced by one.
    fact = _said("the hallway is painted grey", 0, Kind.FACT)
    done = _said("hallway painting done on Saturday", 5, Kind.EVENT)
    assert settled([fact, done]) == set()
    # Another subject's plan is theirs.
    theirs = _said("might repaint the hallway", 0, Kind.PLAN, subject="ana:bo")
    assert settled([theirs, done]) == set()


def test_a_plan_announced_for_later_replaces_nothing_until_it_happened() -> None:
    home = _said("I live in Tromsø, near the harbour", 0, Kind.FACT)
    start = T0 + timedelta(days=60)
    plan = _said("planning to move to Bergen in May", 10, Kind.PLAN, valid_from=start)
    assert replaced_from_start([home, plan]) == set()
    change = _said("From May I live in Bergen, by the fish market", 10, Kind.FACT, valid_from=start)
    assert replaced_from_start([home, change]) == {home.id}
    # A plan said as settled is a change like any other.
    firm = _said("I move to Bergen on May 2nd, we live there from then", 10, Kind.PLAN,
                 valid_from=start)  # fmt: skip
    assert replaced_from_start([home, firm]) == {home.id}


# ------------------------------------------------------------- conclusions from questions


def _cues(text: str) -> dict[str, frozenset[Cue]]:
    found = select(message("t", "m1", text=text, account="ana", ts=T0))
    return {text[s.start : s.end]: s.cues for s in found}


def test_a_conclusion_drawn_from_a_question_is_no_claim() -> None:
    cues = _cues(
        "Landlords must fix heating within a week, don't they? So I'm allowed to withhold rent."
    )
    assert any(Cue.HYPOTHETICAL in c for text, c in cues.items() if "withhold" in text), cues
    cues = _cues("Students get free museum entry here, right? Therefore I'm covered.")
    assert any(Cue.HYPOTHETICAL in c for text, c in cues.items() if "covered" in text), cues


def test_a_conclusion_from_a_statement_or_a_question_without_one_stays() -> None:
    cues = _cues("My knee is bad. So I avoid running downhill.")
    assert cues and not any(Cue.HYPOTHETICAL in c for c in cues.values()), cues
    cues = _cues("Tips are optional in Japan, right? So I never tip there.")
    assert cues and not any(Cue.HYPOTHETICAL in c for c in cues.values()), cues
    cues = _cues("Is it warm out? I hate wearing a coat.")
    assert cues and not any(Cue.HYPOTHETICAL in c for c in cues.values()), cues


# ------------------------------------------------------------- compound words


def test_a_retraction_names_a_compound_word_by_the_name_heading_it() -> None:
    def names(retraction: str, claim: str) -> bool:
        words = policy.reference_words
        return names_any(words(retraction), words(claim), brands_of(retraction))

    assert names("so the Surface died on me", "I take notes on a surfacebook")
    assert names("I gave the Mac back", "I code on a macbook")
    # Only a name the user wrote heads a compound: "last week" names no "weekend", and a
    # derived word is no compound (a pension is no kind of Pen).
    assert not names("sold the bass last week", "weekends are for sailing")
    assert not names("lost my Pen again", "my pension pays the rent")
    # Shared words name as before.
    assert names("no more bikes", "I cycle to work, bike is my thing")


# ------------------------------------------------------------- through the stores


def test_a_firmed_up_date_replaces_the_rough_one_through_the_stores(
    settings: Settings, tmp_path: Path
) -> None:
    """Recall on the real stores serves the settled arrangement and not the tentative one."""
    ingest(
        settings,
        tmp_path / "log.jsonl",
        [
            user_line("m1", "We're hoping to have the kitchen refit in May, fingers crossed.",
                      ts="2026-03-02T10:00:00Z"),
            user_line("m2", "We've booked the kitchen refit for June 8th.", turn=1,
                      ts="2026-03-20T10:00:00Z"),
        ],
    )  # fmt: skip
    claims = recalled_claims(settings, "remind me before the kitchen refit", "2026-05-10T10:00:00Z")
    assert any("June 8th" in c for c in claims), claims
    assert not any("fingers crossed" in c or "in May" in c for c in claims), claims


def test_a_possession_given_up_takes_back_what_named_it() -> None:
    for said in ("I gave the Surface back to the school", "we returned the loaner Volvo",
                 "I handed my old Kindle away to a cousin"):  # fmt: skip
        assert retracts(said), said
    for said in ("I gave him a lift back home", "she gave me my charger back",
                 "I returned home late"):  # fmt: skip
        assert not retracts(said), said
