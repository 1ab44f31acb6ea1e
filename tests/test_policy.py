"""Every rule of the write gate, on hand-built inputs (the gate is a pure function)."""

from dataclasses import replace

import pytest

from permem import policy
from permem.extraction import Cue
from permem.policy import GateInput, decide
from permem.records import Confirmation, GateDecision, Kind, Origin, Role, Sensitivity, Status

BASE = GateInput(
    role=Role.USER,
    incognito=False,
    kind=Kind.PREFERENCE,
    cues=frozenset({Cue.FIRST_PERSON, Cue.DURABLE}),
    origin=Origin.USER_FACT,
    subject="alice",
    purpose="assistant",
    sensitivity=Sensitivity.NONE,
    categories=frozenset(),
    requested=False,
    passing_mention=False,
    one_off=False,
    redacted=False,
    secret=False,
    shortened=False,
    content_words=3,
    source_erased=False,
    hash_erased=False,
    subject_paused=False,
)


def _decide(**changes: object) -> policy.GateOutcome:
    return decide(replace(BASE, **changes))  # type: ignore[arg-type]


def test_plain_preference_is_accepted() -> None:
    outcome = _decide()
    assert outcome.decision is GateDecision.ACCEPT and outcome.status is Status.ACTIVE
    assert policy.confirmation_for(outcome, requested=False) is Confirmation.UNCONFIRMED


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"incognito": True}, "incognito"),
        ({"subject_paused": True}, "subject_paused"),
        ({"source_erased": True}, "erased_previously"),
        ({"hash_erased": True}, "erased_previously"),
        ({"role": Role.ASSISTANT}, "not_user_evidence"),
        ({"role": Role.SYSTEM}, "not_user_evidence"),
        ({"role": Role.DOCUMENT, "cues": frozenset({Cue.PLANTED})}, "planted_instruction"),
        ({"role": Role.TOOL, "cues": frozenset({Cue.PLANTED})}, "planted_instruction"),
        (
            {"role": Role.IMPORT, "cues": frozenset({Cue.PLANTED, Cue.IMPORT_FIELD})},
            "planted_instruction",
        ),
        ({"role": Role.DOCUMENT}, "untrusted_content"),
        ({"role": Role.IMPORT, "cues": frozenset()}, "untrusted_content"),
        ({"cues": frozenset({Cue.BELIEF, Cue.FIRST_PERSON})}, "belief_about_world"),
        ({"kind": Kind.PLAN, "cues": frozenset({Cue.PLAN, Cue.HEDGE})}, "hedged_plan"),
        (
            {"origin": Origin.INFERRED_PROFILE, "sensitivity": Sensitivity.PERSONAL},
            "inferred_sensitive",
        ),
        ({"content_words": 0, "redacted": True}, "nothing_left"),
        (
            {"sensitivity": Sensitivity.SPECIAL, "passing_mention": True, "kind": Kind.EVENT},
            "sensitive_passing_mention",
        ),
    ],
)
def test_rejections(changes: dict[str, object], reason: str) -> None:
    outcome = _decide(**changes)
    assert outcome.decision is GateDecision.REJECT
    assert outcome.reasons[0] == reason
    assert not outcome.stored


def test_rules_apply_in_order_incognito_first() -> None:
    outcome = _decide(incognito=True, role=Role.DOCUMENT, cues=frozenset({Cue.PLANTED}))
    assert outcome.reasons == ("incognito",)


def test_assistant_recap_never_becomes_a_user_fact_even_if_it_looks_like_one() -> None:
    outcome = _decide(role=Role.ASSISTANT, origin=Origin.USER_FACT, requested=True)
    assert outcome.decision is GateDecision.REJECT


def test_special_category_goes_to_confirmation_unless_requested() -> None:
    special = {"sensitivity": Sensitivity.SPECIAL, "categories": frozenset({"health"})}
    pending = _decide(**special)
    assert pending.decision is GateDecision.CONFIRM
    assert pending.reasons[:2] == ("special_category", "categories:health")
    assert policy.confirmation_for(pending, requested=False) is Confirmation.PENDING
    requested = _decide(**special, requested=True)
    assert requested.decision is GateDecision.ACCEPT
    assert "remember_requested" in requested.reasons
    assert policy.confirmation_for(requested, requested=True) is Confirmation.CONFIRMED


def test_requested_passing_mention_is_kept() -> None:
    outcome = _decide(
        sensitivity=Sensitivity.SPECIAL, passing_mention=True, kind=Kind.EVENT, requested=True
    )
    assert outcome.decision is GateDecision.ACCEPT


def test_personal_data_needs_a_purpose_that_needs_it() -> None:
    finance = {"sensitivity": Sensitivity.PERSONAL, "categories": frozenset({"finance"})}
    assert _decide(**finance).decision is GateDecision.CONFIRM
    assert _decide(**finance, purpose="budget_coach").decision is GateDecision.ACCEPT
    # A surface of its own (an undeclared purpose) is isolated: what the user tells it stays
    # there, so it is kept without asking; a declared purpose that does not need it asks.
    assert _decide(**finance, purpose="undeclared_surface").decision is GateDecision.ACCEPT
    assert _decide(**finance, purpose="marketing").decision is GateDecision.CONFIRM
    both = {"sensitivity": Sensitivity.PERSONAL, "categories": frozenset({"finance", "age"})}
    assert _decide(**both, purpose="budget_coach").decision is GateDecision.CONFIRM


def test_one_off_is_session_only() -> None:
    outcome = _decide(one_off=True, cues=frozenset({Cue.ONE_OFF}))
    assert outcome.decision is GateDecision.SESSION_ONLY
    assert outcome.status is Status.SESSION_ONLY


def test_firm_plan_is_stored_as_a_plan_not_a_fact() -> None:
    outcome = _decide(kind=Kind.PLAN, cues=frozenset({Cue.PLAN}))
    assert outcome.decision is GateDecision.ACCEPT
    assert "plan_not_current_fact" in outcome.reasons


def test_redacted_and_shortened_claims_say_so() -> None:
    assert _decide(redacted=True, shortened=True).decision is GateDecision.REDACT
    assert _decide(shortened=True).decision is GateDecision.SHORTEN
    assert _decide(redacted=True).reasons == ("direct_identifier_redacted",)


def test_imported_field_is_kept_as_unconfirmed_evidence() -> None:
    outcome = _decide(role=Role.IMPORT, cues=frozenset({Cue.IMPORT_FIELD}), origin=Origin.IMPORTED)
    assert outcome.decision is GateDecision.ACCEPT
    assert "imported_unconfirmed" in outcome.reasons


def test_content_words_ignore_placeholders_and_filler() -> None:
    assert policy.content_words("text me at <PHONE_NUMBER> please") == 1
    assert policy.content_words("<PERSON> <EMAIL_ADDRESS>") == 0
    assert policy.content_words("I prefer mornings") == 2


def test_every_declared_purpose_has_a_description() -> None:
    assert all(p.description for p in policy.PURPOSES.values())
    assert policy.POLICY_VERSION
