"""The transition table, every pair, legal and illegal."""

import itertools

import pytest

from permem.errors import IllegalTransition
from permem.records import Confirmation, Status
from permem.states import (
    CONFIRMATION_TRANSITIONS,
    STATUS_TRANSITIONS,
    check_confirmation,
    check_status,
    is_usable,
)

LEGAL_STATUS = {
    ("active", "superseded"), ("active", "paused"), ("active", "expired"),
    ("active", "retracted"), ("active", "blocked"),
    ("session_only", "expired"), ("session_only", "retracted"), ("session_only", "blocked"),
    ("paused", "active"), ("paused", "expired"), ("paused", "retracted"), ("paused", "blocked"),
    ("superseded", "active"), ("superseded", "expired"), ("superseded", "blocked"),
    ("expired", "blocked"),
    ("retracted", "blocked"),
    ("blocked", "erased"),
}  # fmt: skip

LEGAL_CONFIRMATION = {
    ("unconfirmed", "pending"), ("unconfirmed", "confirmed"), ("unconfirmed", "rejected"),
    ("pending", "confirmed"), ("pending", "rejected"),
    ("confirmed", "pending"), ("confirmed", "rejected"),
}  # fmt: skip


def test_every_state_has_a_row() -> None:
    assert set(STATUS_TRANSITIONS) == set(Status)
    assert set(CONFIRMATION_TRANSITIONS) == set(Confirmation)


@pytest.mark.parametrize(("old", "new"), list(itertools.product(Status, Status)))
def test_status_transition(old: Status, new: Status) -> None:
    if (old.value, new.value) in LEGAL_STATUS:
        check_status(old, new)
    else:
        with pytest.raises(IllegalTransition, match=f"illegal status transition {old} -> {new}"):
            check_status(old, new)


@pytest.mark.parametrize(("old", "new"), list(itertools.product(Confirmation, Confirmation)))
def test_confirmation_transition(old: Confirmation, new: Confirmation) -> None:
    if (old.value, new.value) in LEGAL_CONFIRMATION:
        check_confirmation(old, new)
    else:
        with pytest.raises(IllegalTransition, match="illegal confirmation transition"):
            check_confirmation(old, new)


def test_erased_and_rejected_are_terminal() -> None:
    with pytest.raises(IllegalTransition, match=r"nothing \(terminal state\)"):
        check_status(Status.ERASED, Status.ACTIVE)
    assert not CONFIRMATION_TRANSITIONS[Confirmation.REJECTED]


def test_only_live_confirmed_or_unconfirmed_claims_are_usable() -> None:
    usable = {(s, c) for s in Status for c in Confirmation if is_usable(s, c)}
    assert usable == {
        (s, c)
        for s in (Status.ACTIVE, Status.SESSION_ONLY)
        for c in (Confirmation.UNCONFIRMED, Confirmation.CONFIRMED)
    }
