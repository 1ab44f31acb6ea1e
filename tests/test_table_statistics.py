"""Planner statistics refreshed while a night loads (permem.table_statistics), on a real
PostgreSQL: when a refresh is due, that it reaches the tables, that a failed refresh lets the
night go on, and that a night with refreshes stores what one without stores."""

from __future__ import annotations

import dataclasses
import logging
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from permem import nightly
from permem.settings import Settings
from permem.stores.database import Database
from permem.table_statistics import ANALYZED_TABLES, StatisticsRefresh
from tests.conftest import sql_rows, user_line, write_jsonl


def analyze_counts(owner: sa.Engine, expected: int) -> dict[str, int]:
    """How often each analysed table has been analysed by hand (pg_stat_user_tables), read
    until every count is `expected` or five seconds have passed: a backend reports its
    statistics when it ends, a moment after the refresh's connection closes."""
    deadline = time.monotonic() + 5
    while True:
        with owner.connect() as conn:
            rows = conn.execute(
                sa.text("SELECT relname, analyze_count FROM pg_stat_user_tables")
            ).all()
        counts = {name: count for name, count in rows if name in ANALYZED_TABLES}
        if all(c == expected for c in counts.values()) or time.monotonic() > deadline:
            return counts
        time.sleep(0.1)


def test_a_refresh_is_due_after_min_rows_then_after_the_growth_share(
    db: Database, owner: sa.Engine
) -> None:
    refresh = StatisticsRefresh(db, growth=0.5, min_rows=10)
    assert not refresh.stored(9)  # 9 < 10 rows
    assert refresh.stored(1)  # 10 rows: the first refresh (the table held nothing)
    assert refresh.refreshes == 1
    # Now 10 claims are held: the next refresh needs max(10, 0.5 * 10) = 10 more rows.
    assert not refresh.stored(9)
    assert refresh.stored(1)
    # 20 held: max(10, 0.5 * 20) = 10 more; at 30 held, 15 more.
    assert refresh.stored(10)
    assert not refresh.stored(14)
    assert refresh.stored(1)
    assert refresh.refreshes == 4
    counts = analyze_counts(owner, 4)
    assert set(counts) == set(ANALYZED_TABLES)
    assert all(count == 4 for count in counts.values()), counts


def test_the_planner_estimate_at_the_start_sets_the_first_threshold(
    db: Database, owner: sa.Engine
) -> None:
    with owner.begin() as conn:
        # The planner believes memories holds 1,000 claims: a quarter of that is due first.
        conn.execute(sa.text("UPDATE pg_class SET reltuples = 1000 WHERE relname = 'memories'"))
    refresh = StatisticsRefresh(db, growth=0.25, min_rows=10)
    assert not refresh.stored(249)
    assert refresh.stored(1)


def test_a_failed_refresh_is_reported_once_and_the_counting_stops(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    nobody = dataclasses.replace(
        db,
        owner_url=sa.make_url(db.owner_url)
        .set(username="no_such_role")
        .render_as_string(hide_password=False),
    )
    refresh = StatisticsRefresh(nobody, min_rows=1)
    with caplog.at_level(logging.WARNING, logger="permem.table_statistics"):
        assert not refresh.stored(5)
        assert not refresh.stored(5)
    warnings = [r for r in caplog.records if r.name == "permem.table_statistics"]
    assert len(warnings) == 1
    assert "statistics not refreshed" in warnings[0].getMessage()
    assert refresh.refreshes == 0


def test_a_failed_estimate_lets_the_night_go_on(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    missing = sa.make_url(db.owner_url).set(database="no_such_database")
    unreachable = dataclasses.replace(db, app=sa.create_engine(missing, poolclass=sa.NullPool))
    refresh = StatisticsRefresh(unreachable, min_rows=1)
    with caplog.at_level(logging.WARNING, logger="permem.table_statistics"):
        assert not refresh.stored(5)  # the estimate cannot be read: no exception, a warning
        assert not refresh.stored(5)
    warnings = [r for r in caplog.records if r.name == "permem.table_statistics"]
    assert len(warnings) == 1
    assert refresh.refreshes == 0


def _lines() -> list[dict[str, Any]]:
    said = [
        "I'm vegetarian, no meat in anything please",
        "Always answer in metric units",
        "I'm allergic to peanuts",
        "My daughter Mia does judo on Thursdays",
        "I prefer window seats on flights",
        "Actually I eat fish now, still no meat",
    ]
    return [
        user_line(f"m{n}", text, turn=n, ts=f"2026-03-01T10:{n:02d}:00Z")
        for n, text in enumerate(said)
    ]


def _stored(settings: Settings) -> list[tuple[Any, ...]]:
    rows = sql_rows(
        settings,
        "SELECT source_message_id, claim, status, supersedes IS NOT NULL AS replaces "
        "FROM memories ORDER BY source_message_id, claim",
    )
    return [tuple(r.values()) for r in rows]


def test_a_night_with_refreshes_stores_what_a_night_without_stores(
    two_stores: list[Settings], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain, refreshed = (
        s.model_copy(update={"embedder": "hashing", "batch_size": 2}) for s in two_stores
    )
    log = write_jsonl(tmp_path / "log.jsonl", _lines())
    without = nightly.run(plain, log)
    assert "statistics_refreshes" not in without.counts  # a small night never refreshes

    monkeypatch.setattr(
        nightly, "StatisticsRefresh", lambda db: StatisticsRefresh(db, growth=0.0, min_rows=1)
    )
    summary = nightly.run(refreshed, log)
    assert summary.counts["statistics_refreshes"] >= 2  # after every batch that stored a claim
    assert summary.counts["stored"] == without.counts["stored"] > 0
    assert _stored(refreshed) == _stored(plain)
