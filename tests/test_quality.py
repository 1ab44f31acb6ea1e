"""The claim-batch suite on real Great Expectations: what passes, what fails and what it says.

Timing is not tested (it depends on the machine). Measured by hand on a shared 2-core machine:
a 10,000-row batch takes about 0.5 s, of which about 0.35 s is GX's fixed cost for the suite's
32 expectations (a 10-row batch costs nearly as much); building the context once takes ~0.1 s.
"""

from __future__ import annotations

import json
import re
import sys
import uuid
from collections.abc import Callable
from datetime import timedelta, timezone
from typing import Any

import pandas as pd
import pytest

from permem.quality import (
    BATCH_COLUMNS,
    IDENTIFIER_PATTERNS,
    SUITE_NAME,
    SUITE_VERSION,
    _claim_batch_definition,
    validate_batch,
)
from permem.records import Confirmation, Kind, Origin, Sensitivity, Status
from permem.stores.memories import memory_rows
from tests.conftest import T0, memory

SALT = b"quality-test-salt"
BATCH_ID = uuid.UUID("00000000-0000-4000-8000-00000000b001")
CLAIMS = (
    "is allergic to peanuts",
    "prefers meetings after 10:30",
    "flies to Lisbon on 2026-11-01 at 09:30",
    "uses Python 3.11 at work",
    "has 3 kids aged 4, 7 and 12",
    "reads ISBN 978-3-16-148410-0 in the evenings",
)
NOT_MATCHED = "expect_column_values_to_not_match_regex_list(claim)"


def claim_rows(count: int) -> list[dict[str, Any]]:
    """`count` valid rows as `append_memories` would insert them (uuid ids, aware datetimes)."""
    records = [
        memory(
            message_id=f"m{n}",
            claim=CLAIMS[n % len(CLAIMS)],
            origin=list(Origin)[n % len(Origin)],
            kind=list(Kind)[n % len(Kind)],
            sensitivity=list(Sensitivity)[n % len(Sensitivity)],
            confirmation=list(Confirmation)[n % len(Confirmation)],
            status=list(Status)[n % len(Status)],
            observed_at=T0 + timedelta(minutes=n),
            valid_from=T0 + timedelta(minutes=n),
            valid_until=T0 + timedelta(days=30) if n % 2 else None,
            confidence=(n % 11) / 10,
            policy_version="policy-1",
        )
        for n in range(count)
    ]
    return memory_rows(records, SALT, batch_id=BATCH_ID)


def claim_batch(count: int = 300) -> pd.DataFrame:
    return pd.DataFrame(claim_rows(count))


def failure_lines(frame: pd.DataFrame) -> tuple[str, ...]:
    validation = validate_batch(frame)
    assert not validation.success
    return validation.failures


def test_batch_columns_are_the_keys_of_a_memories_row() -> None:
    (row,) = memory_rows([memory(policy_version="policy-1")], SALT)
    assert tuple(row) == BATCH_COLUMNS


def test_a_valid_batch_passes() -> None:
    validation = validate_batch(claim_batch(300))
    assert validation.failures == ()
    assert validation.success
    assert validation.evaluated == len(validation.result["expectations"]) >= 30
    assert validation.result["suite_name"] == SUITE_NAME
    assert validation.result["suite_version"] == SUITE_VERSION
    json.dumps(validation.result)


def test_an_empty_batch_is_valid_without_running_gx() -> None:
    _claim_batch_definition.cache_clear()
    validation = validate_batch(pd.DataFrame(columns=list(BATCH_COLUMNS)))
    assert validation.success and validation.evaluated == 0 and validation.failures == ()
    assert _claim_batch_definition.cache_info().currsize == 0


def _set(column: str, value: object, row: int = 5) -> Callable[[pd.DataFrame], None]:
    def change(frame: pd.DataFrame) -> None:
        frame.loc[row, column] = value

    return change


def _duplicate_id(frame: pd.DataFrame) -> None:
    frame.loc[9, "id"] = frame.loc[4, "id"]


def _reversed_span(frame: pd.DataFrame) -> None:
    frame.loc[6, ["span_start", "span_end"]] = [23, 0]


@pytest.mark.parametrize(
    ("change", "failed"),
    [
        pytest.param(
            _set("source_message_id", None),
            "expect_column_values_to_not_be_null(source_message_id)",
            id="no source message",
        ),
        pytest.param(
            _set("policy_version", None),
            "expect_column_values_to_not_be_null(policy_version)",
            id="no policy version",
        ),
        pytest.param(
            _set("origin", "gossip"), "expect_column_values_to_be_in_set(origin)", id="bad origin"
        ),
        pytest.param(
            _set("status", "deleted"), "expect_column_values_to_be_in_set(status)", id="bad status"
        ),
        pytest.param(
            _set("confidence", 1.5),
            "expect_column_values_to_be_between(confidence)",
            id="confidence 1.5",
        ),
        pytest.param(
            _set("span_start", -1),
            "expect_column_values_to_be_between(span_start)",
            id="negative span start",
        ),
        pytest.param(
            _reversed_span,
            "expect_column_pair_values_a_to_be_greater_than_b(span_end, span_start)",
            id="span end before start",
        ),
        pytest.param(
            _set("valid_until", T0 - timedelta(days=1), row=3),
            "expect_column_pair_values_a_to_be_greater_than_b(valid_until, valid_from)",
            id="valid until before valid from",
        ),
        pytest.param(_duplicate_id, "expect_column_values_to_be_unique(id)", id="duplicate id"),
    ],
)
def test_each_violation_fails_and_names_its_expectation_and_column(
    change: Callable[[pd.DataFrame], None], failed: str
) -> None:
    frame = claim_batch(200)
    change(frame)
    lines = failure_lines(frame)
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"{failed}: "), lines
    assert " unexpected of 200 rows" in lines[0]


def test_a_failure_line_shows_the_unexpected_value() -> None:
    frame = claim_batch(50)
    frame.loc[2, "origin"] = "gossip"
    (line,) = failure_lines(frame)
    assert (
        line
        == "expect_column_values_to_be_in_set(origin): 1 unexpected of 50 rows, e.g. ['gossip']"
    )


def test_a_missing_or_unknown_column_fails_the_batch_instead_of_raising() -> None:
    frame = claim_batch(20).drop(columns=["tenant"]).assign(created_at=T0)
    lines = failure_lines(frame)
    (columns,) = [line for line in lines if line.startswith("expect_table_columns_to_match_set")]
    assert "missing columns ['tenant']" in columns
    assert "unexpected columns ['created_at']" in columns
    assert any(line.startswith("expect_column_values_to_not_be_null(tenant)") for line in lines)


def test_validity_is_compared_across_utc_offsets() -> None:
    frame = claim_batch(20)
    plus_two = timezone(timedelta(hours=2))
    ends = [(T0 + timedelta(days=1)).astimezone(plus_two) if n % 2 else None for n in range(20)]
    assert validate_batch(frame.assign(valid_until=pd.Series(ends, dtype=object))).success
    # 11:05+02:00 reads later than 09:06+00:00 but is earlier.
    ends[6] = (T0 + timedelta(minutes=5)).astimezone(plus_two)
    (line,) = failure_lines(frame.assign(valid_until=pd.Series(ends, dtype=object)))
    assert line.startswith(
        "expect_column_pair_values_a_to_be_greater_than_b(valid_until, valid_from): 1 unexpected"
    )


IDENTIFIERS = {
    "e-mail": "jane.doe+news@example.co.uk",
    "international phone": "+44 20 7946 0958",
    "US phone": "(415) 555-0132",
    "card": "4111 1111 1111 1111",
    "card with dashes": "4111-1111-1111-1111",
    "IBAN": "DE89 3704 0044 0532 0130 00",
    "SSN": "123-45-6789",
    "IPv4": "192.168.10.20",
    "URL with a token": "https://api.example.com/v1/hook?access_token=s3cr3tT0ken",
    "URL with credentials": "postgres://admin:hunter2@db.example.com/app",
}


@pytest.mark.parametrize("identifier", IDENTIFIERS.values(), ids=IDENTIFIERS.keys())
def test_an_identifier_in_a_claim_fails_without_being_repeated(identifier: str) -> None:
    frame = claim_batch(100)
    claim = f"can be reached at {identifier} after work"
    frame.loc[7, "claim"] = claim
    validation = validate_batch(frame)
    assert not validation.success
    (line,) = validation.failures
    assert line.startswith(f"{NOT_MATCHED}: 1 unexpected of 100 rows, rows ")
    assert str(frame.loc[7, "id"]) in line
    for text in (identifier, claim):
        assert text not in line
        assert text not in json.dumps(validation.result, ensure_ascii=False)
        assert text not in repr(validation.result)


def test_identifier_rows_are_named_by_position_when_the_batch_has_no_ids() -> None:
    frame = claim_batch(30).drop(columns=["id"])
    frame.loc[4, "claim"] = "mail bob@example.org"
    validation = validate_batch(frame)
    line = next(line for line in validation.failures if line.startswith(NOT_MATCHED))
    assert line == f"{NOT_MATCHED}: 1 unexpected of 30 rows, rows ['4']"
    assert "bob@example.org" not in json.dumps(validation.result)


def test_identifiers_are_found_in_non_ascii_claims() -> None:
    # Non-ASCII text sends every pattern through Python's `re` rather than pyarrow's RE2.
    frame = claim_batch(40)
    frame.loc[1, "claim"] = "Müllers Adresse: mueller@example.de"
    frame.loc[2, "claim"] = "zahlt mit Karte 4111 1111 1111 1111 für Reisen"
    (line,) = failure_lines(frame)
    assert line.startswith(f"{NOT_MATCHED}: 2 unexpected of 40 rows")


def test_redaction_placeholders_do_not_match() -> None:
    frame = claim_batch(20)
    frame["claim"] = [
        "call <PHONE_NUMBER> or write to <EMAIL_ADDRESS>",
        "<PERSON> lives in <LOCATION> since <DATE_TIME>",
        "pays with <CREDIT_CARD> from <IBAN_CODE>",
        "SSN <US_SSN>, home server <IP_ADDRESS>, dashboard <URL>",
    ] * 5
    assert validate_batch(frame).success


@pytest.mark.parametrize(
    "harmless",
    [
        "follows @alice on social media",
        "reads https://example.com/docs?page=2&lang=en",
        "ran 10 000 meters on 2026-11-01 09:30",
        "keeps version 1.2.3 of the app",
        "scored +10 points",
        "PIN length is 4 digits, room 1204",
    ],
)
def test_ordinary_claims_do_not_match(harmless: str) -> None:
    frame = claim_batch(10)
    frame.loc[0, "claim"] = harmless
    assert validate_batch(frame).success


def test_every_identifier_pattern_is_exercised() -> None:
    hit = {
        index
        for index, pattern in enumerate(IDENTIFIER_PATTERNS)
        for identifier in IDENTIFIERS.values()
        if re.search(pattern, identifier)
    }
    assert hit == set(range(len(IDENTIFIER_PATTERNS)))


def test_the_gx_objects_are_built_once_and_reused() -> None:
    _claim_batch_definition.cache_clear()
    first = validate_batch(claim_batch(20))
    second = validate_batch(claim_batch(20))
    assert first.success and second.success
    info = _claim_batch_definition.cache_info()
    assert (info.misses, info.hits) == (1, 1)


def test_validation_prints_and_logs_nothing(
    capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    _claim_batch_definition.cache_clear()
    frame = claim_batch(50)
    frame.loc[3, "confidence"] = 2.0
    validate_batch(frame)
    validate_batch(claim_batch(50))
    assert capsys.readouterr() == ("", "")
    assert [r for r in caplog.records if r.levelname not in ("DEBUG", "INFO")] == []


_NETWORK_EVENTS = frozenset(
    {"socket.connect", "socket.getaddrinfo", "socket.gethostbyname", "urllib.Request"}
)
_network_seen: list[str] = []
_network_watch: list[bool] = []


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if _network_watch and event in _NETWORK_EVENTS:
        _network_seen.append(event)


# An audit hook only observes (it cannot be removed); it records nothing outside the test below.
sys.addaudithook(_audit)


def test_building_and_running_the_suite_does_not_touch_the_network() -> None:
    _claim_batch_definition.cache_clear()
    _network_seen.clear()
    _network_watch.append(True)
    try:
        validate_batch(claim_batch(20))
    finally:
        _network_watch.clear()
    assert _network_seen == []


def test_result_ids_are_strings_of_the_batch_ids() -> None:
    frame = claim_batch(20)
    frame.loc[11, "kind"] = "rumour"
    validation = validate_batch(frame)
    (entry,) = [e for e in validation.result["expectations"] if not e["success"]]
    (row,) = entry["result"]["partial_unexpected_index_list"]
    assert uuid.UUID(row["id"]) == frame.loc[11, "id"]
