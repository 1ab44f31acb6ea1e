"""Expiry at and around its boundaries, with the time always given explicitly."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa

from permem import policy
from permem.expiry import expire, expiry_reason
from permem.records import Confirmation, Sensitivity, Status
from permem.stores.database import Database, register_tenant, tenant_transaction
from permem.stores.memories import append_memories, list_memories
from permem.stores.schema import memory_events
from permem.stores.sources import append_sources
from permem.stores.vectors import VectorIndex
from tests.conftest import memory, message

AT = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def reason(**overrides: Any) -> str | None:
    fields: dict[str, Any] = {
        "status": "active", "purpose": "assistant", "sensitivity": Sensitivity.NONE,
        "confirmation": Confirmation.UNCONFIRMED, "observed_at": AT - timedelta(days=1),
        "valid_until": None, "session": None, "at": AT, "session_hours": 12.0,
    }  # fmt: skip
    fields.update(overrides)
    return expiry_reason(**fields)


def test_validity_ends_exactly_at_valid_until() -> None:
    assert reason(valid_until=AT) == "validity_ended"
    assert reason(valid_until=AT - timedelta(microseconds=1)) == "validity_ended"
    assert reason(valid_until=AT + timedelta(microseconds=1)) is None


def test_session_claims_end_with_their_session_or_after_the_hours() -> None:
    opened = {"status": "session_only", "session": "s1"}
    assert reason(**opened, observed_at=AT - timedelta(hours=12)) == "session_ended"
    assert reason(**opened, observed_at=AT - timedelta(hours=11, minutes=59)) is None
    assert reason(**opened, observed_at=AT - timedelta(hours=1), ended_sessions={"s1"}) == (
        "session_ended"
    )
    assert reason(**opened, observed_at=AT - timedelta(hours=1), ended_sessions={"s2"}) is None
    assert reason(**opened, observed_at=AT - timedelta(hours=2), session_hours=2) == (
        "session_ended"
    )
    # Only session-only claims end with a session.
    assert reason(session="s1", ended_sessions={"s1"}) is None


def test_retention_by_purpose_and_sensitivity() -> None:
    special = policy.retention("assistant", Sensitivity.SPECIAL)
    assert special == timedelta(days=365)
    assert reason(sensitivity=Sensitivity.SPECIAL, observed_at=AT - special) == "retention"
    assert reason(sensitivity=Sensitivity.SPECIAL, observed_at=AT - special + timedelta(1)) is None
    # Confirmed special-category claims keep the purpose's limit.
    assert (
        reason(
            sensitivity=Sensitivity.SPECIAL,
            confirmation=Confirmation.CONFIRMED,
            observed_at=AT - special - timedelta(days=1),
        )
        is None
    )
    # The tighter limit applies: marketing keeps 180 days even for a harmless claim.
    assert reason(purpose="marketing", observed_at=AT - timedelta(days=180)) == "retention"
    assert reason(purpose="marketing", observed_at=AT - timedelta(days=179)) is None
    assert reason(purpose="undeclared", observed_at=AT - timedelta(days=90)) == "retention"


def test_only_expirable_statuses_change() -> None:
    for status in ("expired", "retracted", "blocked"):
        assert reason(status=status, valid_until=AT - timedelta(days=1)) is None
    for status in ("active", "paused", "superseded", "session_only"):
        assert reason(status=status, valid_until=AT - timedelta(days=1)) == "validity_ended"


def test_expire_changes_the_stores_and_logs_events(db: Database, tmp_path: Any) -> None:
    index = VectorIndex(str(tmp_path / "lance"), 4)
    records = [
        memory(message_id="m1", claim="until friday", valid_until=AT),
        memory(message_id="m2", claim="still valid", valid_until=AT + timedelta(hours=1)),
        memory(message_id="m3", claim="tonight only", status=Status.SESSION_ONLY, session="s9",
               observed_at=AT - timedelta(hours=13), valid_from=AT - timedelta(hours=13)),
        memory(message_id="m4", claim="old offer taste", purpose="marketing",
               observed_at=AT - timedelta(days=200), valid_from=AT - timedelta(days=200)),
    ]  # fmt: skip
    with tenant_transaction(db.app, "acme") as conn:
        register_tenant(conn, "acme")
        append_sources(conn, [message(message_id=f"m{i}") for i in range(1, 5)])
        append_memories(conn, records)
    done = expire(db, index, at=AT)
    assert done.expired == {"validity_ended": 1, "session_ended": 1, "retention": 1}
    with tenant_transaction(db.app, "acme") as conn:
        status = {r.claim: r.status.value for r in list_memories(conn)}
        events = conn.execute(sa.select(memory_events.c.reason)).scalars().all()
    assert status == {
        "until friday": "expired", "still valid": "active", "tonight only": "expired",
        "old offer taste": "expired",
    }  # fmt: skip
    assert sorted(e.split(" at ")[0] for e in events) == [
        "retention", "session_ended", "validity_ended"
    ]  # fmt: skip
    # Idempotent: a second run at the same time changes nothing.
    assert sum(expire(db, index, at=AT).expired.values()) == 0
    # An hour later the second claim's validity is over too.
    assert expire(db, index, at=AT + timedelta(hours=1)).expired == {"validity_ended": 1}


def test_expire_refuses_a_naive_time(db: Database) -> None:
    with pytest.raises(Exception, match="timezone"):
        expire(db, None, at=datetime(2026, 6, 1))
