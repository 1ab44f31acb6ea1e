"""History is never rewritten: the database refuses it, whoever asks."""

import re
import uuid

import pytest
import sqlalchemy as sa

from permem.errors import BadInput, IllegalTransition
from permem.records import Confirmation, Status
from permem.stores.database import Database, register_tenant, tenant_transaction
from permem.stores.memories import (
    append_correction,
    append_memories,
    get_memory,
    list_memories,
    set_confirmation,
    set_status,
)
from permem.stores.schema import memory_events
from permem.stores.sources import append_sources
from tests.conftest import T0, memory, message

TENANT = "acme"


@pytest.fixture
def stored(db: Database) -> uuid.UUID:
    record = memory(TENANT)
    with tenant_transaction(db.app, TENANT) as conn:
        register_tenant(conn, TENANT)
        append_sources(conn, [message(TENANT)])
        append_memories(conn, [record])
    return record.id


@pytest.mark.parametrize(
    "assignment",
    [
        "claim = 'is not allergic'",
        "subject = 'bob'",
        "source_message_id = 'm2'",
        "span_end = 3",
        "origin = 'explicit_instruction'",
        "valid_until = now()",
        "supersedes = gen_random_uuid()",
    ],
)
def test_application_role_cannot_update_evidence(
    db: Database, stored: uuid.UUID, assignment: str
) -> None:
    with pytest.raises(sa.exc.ProgrammingError, match="permission denied for table memories"):
        with tenant_transaction(db.app, TENANT) as conn:
            conn.execute(sa.text(f"UPDATE memories SET {assignment}"))


def test_even_the_owner_cannot_update_claim_text(owner: sa.Engine, stored: uuid.UUID) -> None:
    with pytest.raises(
        sa.exc.IntegrityError, match="memories is append-only; refusing to update claim"
    ):
        with owner.begin() as conn:
            conn.execute(sa.text("UPDATE memories SET claim = 'rewritten', status = 'paused'"))
    with owner.connect() as conn:
        assert conn.execute(sa.text("SELECT claim FROM memories")).scalar() == (
            "is allergic to peanuts"
        )


@pytest.mark.parametrize(
    ("table", "assignment"),
    [
        ("sources", "content_hash = 'x'"),
        ("lineage_edges", "child_id = 'x'"),
        ("memory_events", "reason = 'x'"),
    ],
)
def test_even_the_owner_cannot_rewrite_other_history(
    owner: sa.Engine, stored: uuid.UUID, table: str, assignment: str
) -> None:
    with owner.begin() as conn:
        conn.execute(sa.text(
            "INSERT INTO memory_events (tenant, memory_id, field, old_value, new_value, actor, "
            "reason) VALUES ('acme', gen_random_uuid(), 'status', 'a', 'b', 'c', 'd')"
        ))  # fmt: skip
    with pytest.raises(sa.exc.IntegrityError, match=f"{table} is append-only"):
        with owner.begin() as conn:
            conn.execute(sa.text(f"UPDATE {table} SET {assignment}"))


def test_status_change_is_allowed_and_logged(db: Database, stored: uuid.UUID) -> None:
    with tenant_transaction(db.app, TENANT) as conn:
        paused = set_status(conn, stored, Status.PAUSED, actor="alice", reason="not now")
        assert paused.status is Status.PAUSED
        assert paused.claim == "is allergic to peanuts"
        events = conn.execute(
            sa.select(memory_events.c.old_value, memory_events.c.new_value, memory_events.c.actor)
        ).all()
    assert [tuple(e) for e in events] == [("active", "paused", "alice")]


def test_illegal_transition_raises_and_changes_nothing(db: Database, stored: uuid.UUID) -> None:
    with pytest.raises(IllegalTransition, match="illegal status transition active -> erased"):
        with tenant_transaction(db.app, TENANT) as conn:
            set_status(conn, stored, Status.ERASED, actor="alice", reason="x")
    with tenant_transaction(db.app, TENANT) as conn:
        assert get_memory(conn, stored).status is Status.ACTIVE
        assert conn.execute(sa.select(sa.func.count()).select_from(memory_events)).scalar() == 0


def test_confirmation_follows_its_table(db: Database, stored: uuid.UUID) -> None:
    with tenant_transaction(db.app, TENANT) as conn:
        set_confirmation(conn, stored, Confirmation.PENDING, actor="alice", reason="feedback")
        set_confirmation(conn, stored, Confirmation.CONFIRMED, actor="alice", reason="yes")
    with pytest.raises(IllegalTransition, match="confirmation transition confirmed -> unconfirmed"):
        with tenant_transaction(db.app, TENANT) as conn:
            set_confirmation(conn, stored, Confirmation.UNCONFIRMED, actor="alice", reason="x")


def test_correction_appends_and_keeps_the_old_record(db: Database, stored: uuid.UUID) -> None:
    correction = memory(TENANT, None, claim="is allergic to tree nuts", supersedes=stored)
    with tenant_transaction(db.app, TENANT) as conn:
        append_correction(conn, correction, actor="alice")
        history = {r.id: r for r in list_memories(conn, "alice")}
    assert history[stored].status is Status.SUPERSEDED
    assert history[stored].claim == "is allergic to peanuts"
    assert history[correction.id].supersedes == stored
    assert history[correction.id].status is Status.ACTIVE


def test_correction_must_concern_the_same_subject(db: Database, stored: uuid.UUID) -> None:
    correction = memory(TENANT, None, subject="bob", supersedes=stored)
    with pytest.raises(BadInput, match="same subject"):
        with tenant_transaction(db.app, TENANT) as conn:
            append_correction(conn, correction, actor="alice")


def test_superseded_record_cannot_be_corrected_twice(db: Database, stored: uuid.UUID) -> None:
    with tenant_transaction(db.app, TENANT) as conn:
        append_correction(conn, memory(TENANT, None, claim="a", supersedes=stored), actor="a")
    with pytest.raises(IllegalTransition, match="superseded -> superseded"):
        with tenant_transaction(db.app, TENANT) as conn:
            append_correction(conn, memory(TENANT, None, claim="b", supersedes=stored), actor="a")


def test_only_a_blocked_memory_can_be_deleted(db: Database, stored: uuid.UUID) -> None:
    with pytest.raises(sa.exc.IntegrityError, match="only a blocked memory can be erased"):
        with tenant_transaction(db.app, TENANT) as conn:
            conn.execute(sa.text("DELETE FROM memories"))
    with tenant_transaction(db.app, TENANT) as conn:
        set_status(conn, stored, Status.BLOCKED, actor="alice", reason="forget")
        assert conn.execute(sa.text("DELETE FROM memories")).rowcount == 1


def test_claims_must_cite_stored_messages(db: Database) -> None:
    with pytest.raises(BadInput, match="cite a message that is not stored"):
        with tenant_transaction(db.app, TENANT) as conn:
            register_tenant(conn, TENANT)
            append_memories(conn, [memory(TENANT, "never-seen")])


def test_sources_are_idempotent_and_hold_no_text(db: Database) -> None:
    with tenant_transaction(db.app, TENANT) as conn:
        register_tenant(conn, TENANT)
        assert append_sources(conn, [message(TENANT)]) == {"m1"}
        assert append_sources(conn, [message(TENANT), message(TENANT, "m2")]) == {"m2"}
        row = (
            conn.execute(sa.text("SELECT * FROM sources WHERE message_id = 'm1'")).mappings().one()
        )
    assert "peanuts" not in " ".join(str(v) for v in row.values())
    assert len(row["content_hash"]) == 64


def test_even_the_owner_cannot_rewrite_the_erasure_ledger(db: Database, owner: sa.Engine) -> None:
    """The ledger's guard runs only when an immutable column differs (a `WHEN` on them,
    migration 0011): it must name every column but the mutable ones, and still refuse."""
    from permem.forget import Target, TargetKind, request

    with tenant_transaction(db.app, TENANT) as conn:
        register_tenant(conn, TENANT)
    request(db, TENANT, Target(TargetKind.SUBJECT, "alice"), actor="alice", now=T0)
    with owner.connect() as conn:
        columns = set(
            conn.execute(
                sa.text(
                    "SELECT column_name FROM information_schema.columns "
                    "WHERE table_name = 'erasure_ledger'"
                )
            ).scalars()
        )
        [definition] = conn.execute(
            sa.text(
                "SELECT pg_get_triggerdef(oid) FROM pg_trigger "
                "WHERE tgname = 'erasure_ledger_append_only'"
            )
        ).scalars()
    mutable = {"state", "blocked_at", "erased_at", "verified_at", "detail"}
    guarded = set(re.findall(r"\bold\.(\w+)", definition.lower()))
    assert guarded == columns - mutable
    for assignment in ("node_id = 'x'", "target_id = 'bob'", "requested_by = 'x'"):
        with pytest.raises(sa.exc.IntegrityError, match="erasure_ledger is append-only"):
            with owner.begin() as conn:
                conn.execute(sa.text(f"UPDATE erasure_ledger SET {assignment}"))
    with owner.begin() as conn:  # what erasure changes, it may
        conn.execute(sa.text("UPDATE erasure_ledger SET state = 'erased', erased_at = now()"))


def test_the_ledgers_two_updates_write_no_index_entry(db: Database, owner: sa.Engine) -> None:
    """Each ledger row is updated twice (erased, then verified), neither in an indexed column:
    with the room migration 0012 leaves in each page both are heap-only, whatever the number
    of rows (with full pages, most were not: every one then wrote to all five indexes)."""
    rows = 3000
    with owner.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO erasure_ledger (tenant, request_id, target_kind, target_id, "
                "node_kind, node_id, content_hash, state, requested_by, detail) "
                "SELECT :t, gen_random_uuid(), 'subject', 'gone-' || (i % 100), 'memory', "
                "gen_random_uuid()::text, md5(i::text), 'blocked', 'bench', "
                "jsonb_build_object('claim_hash', md5(i::text)) FROM generate_series(1, :n) i"
            ),
            {"t": TENANT, "n": rows},
        )
    counts = []
    for update in (  # each in its own transaction, as the erase and the verify runs do
        "UPDATE erasure_ledger SET state = 'erased', erased_at = now()",
        "UPDATE erasure_ledger SET state = 'verified', verified_at = now(), "
        "detail = detail - 'residue'",
    ):
        with owner.begin() as conn:
            conn.execute(sa.text(update))
            counts.append(
                conn.execute(
                    sa.text(
                        "SELECT pg_stat_get_xact_tuples_updated('erasure_ledger'::regclass), "
                        "pg_stat_get_xact_tuples_hot_updated('erasure_ledger'::regclass)"
                    )
                ).one()
            )
    assert [tuple(c) for c in counts] == [(rows, rows), (rows, rows)]
