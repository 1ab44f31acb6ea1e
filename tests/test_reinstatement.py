"""A return to what held before a change brings the old claim back (`permem.reinstatement`).

Wordings of our own, not the corpus's. Through real stores: PostgreSQL, LanceDB (hashing
embedder), the nightly run and recall.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from permem import controls
from permem.extraction.modality import returns
from permem.records import Status
from permem.runtime import runtime
from permem.settings import Settings
from tests.conftest import ingest, recalled_claims, sql_rows, user_line


@pytest.mark.parametrize(
    ("text", "back"),
    [
        ("Same laptop as before now.", True),
        ("Back on the Dell like before.", True),
        ("I'm back on my old ThinkPad.", True),
        ("I'm cycling to work again.", True),
        ("We went back to our old bank after a month.", True),
        ("Using my old Kindle again since the new one broke.", True),
        ("The Tesla went back to the dealer.", False),  # a thing given back
        ("I returned the loaner bike.", False),
        ("Can we go back to the old layout?", False),  # a question
        ("Tell me again how long to boil an egg", False),  # "again" not closing a state
        ("I'm on a MacBook now.", False),
    ],
)
def test_a_return_to_what_held_before_is_told_from_a_change(text: str, back: bool) -> None:
    assert returns(text) is back


def _statuses(settings: Settings) -> dict[str, list[Status]]:
    found: dict[str, list[Status]] = {}
    for record in controls.inspect(runtime(settings).db, "acme"):
        found.setdefault(record.source.message_id or "", []).append(record.status)
    return found


def test_a_return_brings_back_the_old_claim_and_ends_the_change(
    hashing: Settings, tmp_path: Path
) -> None:
    # The change and the return arrive on two nights: the return reads the supersession the
    # first night stored, and the index learns both status changes.
    ingest(hashing, tmp_path / "one.jsonl", [
        user_line("m1", "I cycle to work every day.", ts="2026-03-01T09:00:00+00:00"),
        user_line("m2", "No more cycling to work, I take the tram now.", turn=2,
                  ts="2026-03-10T09:00:00+00:00"),
    ])  # fmt: skip
    before = _statuses(hashing)
    assert before["m1"] == [Status.SUPERSEDED], before
    ingest(hashing, tmp_path / "two.jsonl", [
        user_line("m3", "I'm cycling to work again.", turn=3, ts="2026-04-10T09:00:00+00:00"),
    ])  # fmt: skip
    after = _statuses(hashing)
    assert after["m1"] == [Status.ACTIVE], after
    assert set(after["m2"]) == {Status.SUPERSEDED}, after
    recalled = recalled_claims(
        hashing, "plan my commute to work tomorrow", ts="2026-05-01T12:00:00Z"
    )
    assert "I cycle to work every day" in recalled, recalled
    assert not any("tram" in claim for claim in recalled), recalled
    # History is appended: the supersession stays, the reinstatement is an event of its own.
    events = sql_rows(
        hashing,
        "SELECT e.old_value, e.new_value, e.reason FROM memory_events e "
        "JOIN memories m ON m.id = e.memory_id WHERE m.source_message_id = 'm1' ORDER BY e.at",
    )
    assert [(e["old_value"], e["new_value"]) for e in events] == [
        ("active", "superseded"),
        ("superseded", "active"),
    ], events
    assert events[1]["reason"].startswith("reinstated by "), events


def test_a_change_not_taken_back_leaves_the_old_claim_superseded(
    hashing: Settings, tmp_path: Path
) -> None:
    ingest(hashing, tmp_path / "log.jsonl", [
        user_line("m1", "My laptop is a ThinkPad.", ts="2026-03-01T09:00:00+00:00"),
        user_line("m2", "No more ThinkPad, I'm on a MacBook now.", turn=2,
                  ts="2026-03-10T09:00:00+00:00"),
        # Says nothing of the ThinkPad: no return.
        user_line("m3", "I'm learning the piano again.", turn=3, ts="2026-04-10T09:00:00+00:00"),
    ])  # fmt: skip
    statuses = _statuses(hashing)
    assert statuses["m1"] == [Status.SUPERSEDED], statuses
    assert Status.ACTIVE in statuses["m2"], statuses


def test_a_return_does_not_bring_back_what_its_own_message_took_back(
    hashing: Settings, tmp_path: Path
) -> None:
    ingest(hashing, tmp_path / "log.jsonl", [
        user_line("m1", "My laptop is a Lenovo running Fedora.", ts="2026-03-01T09:00:00+00:00"),
        user_line("m2", "new laptop: a Dell XPS.", turn=2, ts="2026-03-10T09:00:00+00:00"),
        user_line("m3", "I returned the Dell. Same laptop as before now.", turn=3,
                  ts="2026-04-10T09:00:00+00:00"),
    ])  # fmt: skip
    statuses = _statuses(hashing)
    assert statuses["m2"] == [Status.SUPERSEDED], statuses
    assert set(statuses["m3"]) == {Status.ACTIVE}, statuses
