"""Supersession on an exclusive topic, on a real database: a new standing claim replaces every
older active claim of its (subject, topic, scope), writes an event only for a row it changed,
leaves a later-starting plan alone, and a claim that arrives late is replaced by the newer one.
The controls that make a claim usable (confirm, correct) do the same."""

from __future__ import annotations

import uuid
from datetime import timedelta

import sqlalchemy as sa

from permem import controls, policy
from permem.records import Confirmation, Kind, Status, UserMemory
from permem.revisions import mark_superseded, plan_topic_supersession, topic_key
from permem.stores.database import Database, register_tenant, tenant_transaction
from permem.stores.memories import append_memories, get_memory
from permem.stores.schema import memory_events
from permem.stores.sources import append_sources
from tests.conftest import T0, memory, message

HOUR = timedelta(hours=1)


def _diet(message_id: str | None, at_hours: float, claim: str, **extra: object) -> UserMemory:
    at = T0 + at_hours * HOUR
    fields: dict[str, object] = {
        "kind": Kind.PREFERENCE, "claim": claim, "topic": "diet", "observed_at": at,
        "valid_from": at, "confirmation": Confirmation.CONFIRMED,
    }  # fmt: skip
    fields.update(extra)
    return memory(message_id=message_id, **fields)


def _load(db: Database, records: list[UserMemory]) -> tuple[list[UserMemory], list[uuid.UUID]]:
    with tenant_transaction(db.app, "acme") as conn:
        register_tenant(conn, "acme")
        ids = sorted({r.source.message_id for r in records if r.source.message_id})
        append_sources(conn, [message("acme", i) for i in ids])
        planned, replaced = plan_topic_supersession(conn, records)
        append_memories(conn, planned)
        changed = mark_superseded(conn, "acme", replaced, [])
    return planned, changed


def _status(db: Database, record: UserMemory) -> Status:
    with tenant_transaction(db.app, "acme") as conn:
        return get_memory(conn, record.id).status


def _events(db: Database, record: UserMemory) -> list[str]:
    with tenant_transaction(db.app, "acme") as conn:
        rows = conn.execute(
            sa.select(memory_events.c.reason).where(memory_events.c.memory_id == record.id)
        )
        return [r for (r,) in rows]


def test_a_new_claim_replaces_every_older_active_claim_not_only_the_latest(db: Database) -> None:
    # Two claims of one earlier message, and a bounded one said later still.
    vegan = _diet("m1", 0, "I'm vegan")
    gluten = _diet("m1", 0, "I eat gluten-free")
    bounded = _diet("m2", 1, "no sugar until May", valid_until=T0 + 2000 * HOUR)
    _load(db, [vegan, gluten, bounded])
    assert {_status(db, r) for r in (vegan, gluten, bounded)} == {Status.ACTIVE}
    # A bounded claim replaces nothing for good.
    assert topic_key(bounded) is None and topic_key(vegan) == ("alice", "diet", "global")

    now = _diet("m3", 5, "I eat everything now")
    (stored,), changed = _load(db, [now])
    assert set(changed) == {vegan.id, gluten.id, bounded.id}
    assert {_status(db, r) for r in (vegan, gluten, bounded)} == {Status.SUPERSEDED}
    assert stored.supersedes == bounded.id  # the latest of those it replaces
    assert _events(db, vegan) == [f"superseded by {now.id}"]


def test_claims_of_one_message_do_not_replace_each_other(db: Database) -> None:
    first, second = _diet("m1", 0, "I'm vegan"), _diet("m1", 0, "mostly raw food")
    _, changed = _load(db, [first, second])
    assert changed == [] and _status(db, first) is _status(db, second) is Status.ACTIVE


def test_a_plan_that_starts_later_is_left_to_its_date(db: Database) -> None:
    plan = _diet("m1", 0, "from June I'm going vegan", valid_from=T0 + 3000 * HOUR)
    _load(db, [plan])
    _, changed = _load(db, [_diet("m2", 2, "I'm vegetarian")])
    assert changed == [] and _status(db, plan) is Status.ACTIVE


def test_a_late_arrival_is_replaced_by_the_newer_claim_and_events_match_changes(
    db: Database,
) -> None:
    newer = _diet("m9", 10, "I'm pescatarian")
    _load(db, [newer])
    late = _diet("m1", 1, "I'm vegan")
    _, changed = _load(db, [late])
    assert changed == [late.id]
    assert _status(db, late) is Status.SUPERSEDED and _status(db, newer) is Status.ACTIVE
    # Asked again with an id that is no longer active: no row changes, so no event.
    with tenant_transaction(db.app, "acme") as conn:
        assert mark_superseded(conn, "acme", {late.id: newer.id}, []) == []
    assert _events(db, late) == [f"superseded by {newer.id}"]


def test_confirming_a_pending_claim_replaces_the_older_active_ones(db: Database) -> None:
    old = _diet("m1", 0, "I'm vegan")
    pending = _diet("m2", 3, "I eat fish again", confirmation=Confirmation.PENDING)
    _load(db, [old, pending])
    assert _status(db, old) is Status.ACTIVE  # a pending claim replaces nothing yet
    controls.confirm(db, "acme", pending.id, actor="alice")
    assert _status(db, old) is Status.SUPERSEDED
    assert _events(db, old) == [f"superseded by {pending.id}"]


def test_a_correction_replaces_every_older_claim_on_its_topic(db: Database) -> None:
    first, second = _diet("m1", 0, "I'm vegan"), _diet("m2", 1, "no dairy")
    _load(db, [first])
    with tenant_transaction(db.app, "acme") as conn:
        # Both active, as a claim confirmed out of order would leave them.
        append_sources(conn, [message("acme", "m2")])
        append_memories(conn, [second])
    corrected = controls.correct(
        db, "acme", second.id, "I eat everything", actor="alice", now=T0 + 9 * HOUR
    )
    assert _status(db, second) is Status.SUPERSEDED and _status(db, first) is Status.SUPERSEDED
    assert _events(db, first) == [f"superseded by {corrected.id}"]


def test_a_retraction_takes_back_by_meaning_under_an_embedder_that_reads_it(db: Database) -> None:
    """ "I've given up the guitar" takes back "I practise my Fender every evening" (no shared
    word) under MiniLM, leaves the unrelated claims, and under the lexical embedder takes back
    by words only."""
    from permem.embedding import HashingEmbedder, MiniLMEmbedder
    from permem.revisions import Retraction, apply_retractions, meaning_for

    fender = memory(message_id="m1", claim="I practise my Fender every evening", kind=Kind.FACT)
    sailing = memory(message_id="m2", claim="Weekends are for sailing on the lake", kind=Kind.FACT)
    later = T0 + 48 * HOUR
    said = "I've given up the guitar, I sold it last week"
    retraction = Retraction(
        uuid.uuid4(), "alice", "global", later, "m3", 0,
        policy.retracted_words(said), said,
    )  # fmt: skip
    _load(db, [fender, sailing])
    assert meaning_for(HashingEmbedder()) is None
    with tenant_transaction(db.app, "acme") as conn:
        apply_retractions(conn, "acme", [retraction], [], meaning_for(HashingEmbedder()))
    assert _status(db, fender) is Status.ACTIVE
    superseded: list[str] = []
    with tenant_transaction(db.app, "acme") as conn:
        apply_retractions(conn, "acme", [retraction], superseded, meaning_for(MiniLMEmbedder()))
    assert superseded == [str(fender.id)]
    assert (_status(db, fender), _status(db, sailing)) == (Status.SUPERSEDED, Status.ACTIVE)
    assert _events(db, fender) == [f"retracted by {retraction.id}"]
