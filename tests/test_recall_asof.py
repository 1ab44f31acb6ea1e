"""Recall judges a claim as it stood at the request's time (permem.recall_asof): a replacement
said after the request neither serves it nor hides what it replaced; a replacement said before
it does; erasing the replacement brings nothing back for later requests. Wordings of our own."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa

from permem import controls
from permem.forget import Target, TargetKind, block, erase
from permem.records import Status
from permem.runtime import runtime
from permem.settings import Settings
from permem.stores.database import tenant_transaction
from permem.stores.schema import memories
from tests.conftest import ingest, recalled_claims, user_line

OLD = "I live in Halifax."
NEW = "Update: we moved, I live in Bologna now, got the keys on Monday."
ASK = "find a dentist close to where I live"
HALIFAX, BOLOGNA = "I live in Halifax", "I live in Bologna now, got the keys on Monday"
BEFORE, AFTER = "2026-03-24T10:00:00-07:00", "2026-05-05T11:00:00-07:00"


def _stored(settings: Settings, tmp_path: Path) -> dict[str, Status]:
    ingest(settings, tmp_path / "log.jsonl", [
        user_line("m1", OLD, ts="2026-02-14T08:00:00-08:00", conversation_id="c1"),
        user_line("m2", NEW, ts="2026-04-29T19:00:00-07:00", conversation_id="c2"),
    ])  # fmt: skip
    return {r.claim: r.status for r in controls.inspect(runtime(settings).db, "acme", "ana")}


def _home(settings: Settings, ts: str) -> list[str]:
    return [c for c in recalled_claims(settings, ASK, ts=ts) if "live in" in c]


def test_a_replacement_said_after_the_request_does_not_hide_what_it_replaced(
    hashing: Settings, tmp_path: Path
) -> None:
    statuses = _stored(hashing, tmp_path)
    assert statuses[HALIFAX] is Status.SUPERSEDED  # stored history: the move replaced it
    rt = runtime(hashing)
    with tenant_transaction(rt.db.app, "acme") as conn:
        said = dict(conn.execute(sa.select(memories.c.claim, memories.c.superseded_from)).all())
    assert said[HALIFAX] == datetime.fromisoformat("2026-04-29T19:00:00-07:00")
    assert _home(hashing, BEFORE) == [HALIFAX]  # before the move was said, Halifax stood
    assert _home(hashing, AFTER) == [BOLOGNA]
    # The stored status is unchanged by the reading.
    assert {r.claim: r.status for r in controls.inspect(runtime(hashing).db, "acme", "ana")} == (
        statuses
    )


def test_an_erased_replacement_brings_back_nothing_it_replaced_for_later_requests(
    hashing: Settings, tmp_path: Path
) -> None:
    _stored(hashing, tmp_path)
    rt = runtime(hashing)
    now = datetime(2026, 5, 1, tzinfo=UTC)
    block(rt.db, "acme", Target(TargetKind.SOURCE, "m2"), actor="ana", now=now)  # the move
    erase(rt.db, rt.index, "acme", now=now)
    with tenant_transaction(rt.db.app, "acme") as conn:
        assert conn.execute(sa.select(memories.c.source_message_id)).scalars().all() == ["m1"]
    assert _home(hashing, AFTER) == []  # Halifax stays replaced
    assert _home(hashing, BEFORE) == [HALIFAX]  # as it stood before the move was said
