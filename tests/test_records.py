from datetime import timedelta

import pytest

from permem.records import SourceRef
from tests.conftest import T0, memory


def test_inspect_line_has_recall_fields_and_lifecycle_fields() -> None:
    line = memory().as_json()
    assert set(line) >= {
        "id", "subject", "claim", "origin", "scope", "purpose", "sensitivity", "confidence",
        "valid_from", "valid_until", "source", "status", "confirmation", "supersedes",
        "observed_at",
    }  # fmt: skip
    assert line["source"] == {"message_id": "m1", "span": [0, 23]}
    assert line["status"] == "active" and line["confirmation"] == "unconfirmed"


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"claim": ""}, "claim must not be empty"),
        ({"subject": ""}, "subject must not be empty"),
        ({"confidence": 1.5}, "confidence must be within 0..1"),
        ({"observed_at": T0.replace(tzinfo=None)}, "timezone-aware"),
        ({"valid_until": T0 - timedelta(days=1)}, "valid_until must not be before"),
    ],
)
def test_invalid_records_are_refused(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        memory(**overrides)


def test_source_span_must_be_ordered() -> None:
    with pytest.raises(ValueError, match="start <= end"):
        SourceRef("m1", (5, 2))
