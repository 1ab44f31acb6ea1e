"""The arrival decision (`permem.arrivals`) and the subject of a claim, as pure functions."""

from __future__ import annotations

from datetime import timedelta

import pytest

from permem.arrivals import Arrival, ForgetRequest, Known, arrival_of, covering_request
from permem.classify import subject_of
from tests.conftest import T0, message


def _request(kind: str, target: str, hours: float = 1, rid: str = "r1") -> ForgetRequest:
    return ForgetRequest(rid, kind, target, T0 + timedelta(hours=hours))


@pytest.mark.parametrize(
    ("request_", "covered"),
    [
        (_request("subject", "alice"), True),  # written before the request
        (_request("subject", "alice", hours=0), True),  # written at the request: covered
        (_request("subject", "alice", hours=-1), False),  # written after it
        (_request("subject", "bob"), False),
        (_request("subject", "alice:tom"), False),  # another person of the account
        (_request("source", "m1", hours=-100), True),  # a source request, whenever it was made
        (_request("source", "m2"), False),
    ],
)
def test_which_requests_cover_a_late_message(request_: ForgetRequest, covered: bool) -> None:
    found = covering_request(message(), [request_])
    assert (found is request_) is covered


def test_the_account_holders_request_covers_the_accounts_persons() -> None:
    tom = message(subject="alice:tom")
    assert covering_request(tom, [_request("subject", "alice")]) is not None
    assert covering_request(tom, [_request("subject", "alice:tom")]) is not None
    assert covering_request(tom, [_request("subject", "alice:ann")]) is None


def test_the_latest_covering_subject_request_is_named() -> None:
    early, late = _request("subject", "alice", 1, "early"), _request("subject", "alice", 5, "late")
    assert covering_request(message(), [early, late]) is late
    assert covering_request(message(), [late, early]) is late


def test_arrival_order_and_reasons() -> None:
    m = message()
    assert arrival_of(m, "h", Known()) == (Arrival.NEW, None)
    assert arrival_of(m, "h", Known(processed={"m1": "h"})) == (Arrival.ALREADY_PROCESSED, None)
    arrival, reason = arrival_of(m, "h", Known(processed={"m1": "other"}))
    assert arrival is Arrival.CHANGED_CONTENT
    assert reason == "message_id m1 was processed before with other content"
    assert arrival_of(m, "h", Known(erased_sources={"m1"})) == (Arrival.ERASED_SOURCE, None)
    arrival, reason = arrival_of(m, "h", Known(requests=[_request("subject", "alice")]))
    assert arrival is Arrival.ERASED_ON_ARRIVAL
    assert reason == "message_id m1 erased on arrival: forget request r1"
    assert arrival_of(m, "h", Known(paused={"alice"})) == (Arrival.PAUSED, None)
    # A pause of the account holder covers their persons; a person's pause only them.
    tom = message(subject="alice:tom")
    assert arrival_of(tom, "h", Known(paused={"alice"}))[0] is Arrival.PAUSED
    assert arrival_of(tom, "h", Known(paused={"alice:tom"}))[0] is Arrival.PAUSED
    assert arrival_of(m, "h", Known(paused={"alice:tom"}))[0] is Arrival.NEW
    # Processed before wins: a message already stored is never set aside twice.
    both = Known(processed={"m1": "h"}, requests=[_request("subject", "alice")])
    assert arrival_of(m, "h", both)[0] is Arrival.ALREADY_PROCESSED


def test_a_message_subject_defaults_to_the_account_and_must_belong_to_it() -> None:
    assert message().subject == "alice"
    assert message(subject="alice:tom").subject == "alice:tom"
    for bad in ("bob", "alice:", "alicetom"):
        with pytest.raises(ValueError, match="subject"):
            message(subject=bad)


def test_a_third_party_stays_under_the_person_who_named_them() -> None:
    assert subject_of("alice", None) == "alice"
    assert subject_of("alice", "wife") == "alice:wife"
    assert subject_of("alice:tom", None) == "alice:tom"
    assert subject_of("alice:tom", "wife") == "alice:tom:wife"
