"""The classes behind the fifth round of issue 15, each tested with wordings of its own (none
taken from the corpus): a period named in one sentence and pointed at from the next ("from
then on", "until they're over", "for now" before a change to come), and a sentence that only
says how long the one before it lasts."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from permem.classify import classify
from permem.extraction import Candidate
from permem.extraction.rules import RuleExtractor
from permem.governed import governed, period
from permem.records import Message, Role
from permem.temporal import Validity

ZONE = timezone(timedelta(hours=-5))
TS = datetime(2026, 2, 10, 9, 0, tzinfo=ZONE)  # a Tuesday


def _at(day: str) -> datetime:
    return datetime.fromisoformat(day).replace(tzinfo=ZONE)


def _claims(extractor: RuleExtractor, text: str) -> dict[str, Candidate]:
    said = Message(
        message_id="m", tenant="t", account="l.moreau", conversation_id="c", turn=1,
        role=Role.USER, text=text, ts=TS,
    )  # fmt: skip
    return {c.claim_text: c for c in extractor.extract([said])}


def test_the_period_a_sentence_names() -> None:
    assert period("my exams are in June", TS) == (_at("2026-06-01"), _at("2026-07-01"))
    assert period("From April I'm based in Lyon", TS) == (_at("2026-04-01"), None)
    assert period("I'm off work until the 20th", TS) == (TS, _at("2026-02-21"))
    assert period("I like tea", TS) is None


def test_a_phrase_pointing_back_takes_the_end_of_the_period_it_names() -> None:
    own = Validity(TS, None)
    exams = "my exams are in June"
    # Until it is over: from now to its end.
    assert governed("until they're over, no parties", exams, own, TS) == Validity(
        TS, _at("2026-07-01")
    )
    # From then on: from its start, open.
    move = "From April I'm based in Lyon"
    assert governed("use Lyon for local things from then on", move, own, TS) == Validity(
        _at("2026-04-01"), None
    )
    # For now, before a change that starts later: until it starts.
    assert governed("for now I'm still in Nantes", move, own, TS) == Validity(TS, _at("2026-04-01"))
    # After that: from its end.
    assert governed("after that, book whatever you like", exams, own, TS) == Validity(
        _at("2026-07-01"), None
    )
    # A context that names no period changes nothing.
    assert governed("until then, no calls", "I like tea", own, TS) == own


def test_pointed_at_from_the_next_sentence_in_the_pipeline(extractor: RuleExtractor) -> None:
    found = _claims(extractor, "My exams are in June. Until they're over, no social plans please.")
    rule = classify(found["Until they're over, no social plans please"])
    assert (rule.valid_from, rule.valid_until) == (TS, _at("2026-07-01"))
    found = _claims(
        extractor, "From April I'm based in Lyon. Use Lyon for anything local from then on"
    )
    local = classify(found["Use Lyon for anything local from then on"])
    assert (local.valid_from, local.valid_until) == (_at("2026-04-01"), None)


def test_a_sentence_that_only_says_how_long_belongs_to_the_claim_before_it(
    extractor: RuleExtractor,
) -> None:
    said = "Starting the 15th I'm doing a juice cleanse. It runs for ten days."
    [cleanse] = _claims(extractor, said).values()
    assert cleanse.claim_text == said.rstrip(".")
    found = classify(cleanse)
    assert (found.valid_from, found.valid_until) == (_at("2026-02-15"), _at("2026-02-25"))
    # A sentence that says more than how long is a claim of its own, or none.
    kept = _claims(extractor, "I'm doing a juice cleanse. It tastes awful but I love it.")
    assert "I'm doing a juice cleanse" in kept


def test_a_month_named_as_the_stretch_a_change_lasts(extractor: RuleExtractor) -> None:
    # "for January", "a dry January": that month, start to end; before it, not yet.
    for text in ("I'm going vegan for January", "I'm doing a dry January"):
        [said] = _claims(extractor, text).values()
        found = classify(said)
        assert (found.valid_from, found.valid_until) == (_at("2027-01-01"), _at("2027-02-01"))
    # A day of the month is a day, not the month.
    assert period("I'm away for May 3", TS) != (_at("2026-05-01"), _at("2026-06-01"))
