"""Tenant isolation is enforced by PostgreSQL itself, not by WHERE clauses."""

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from permem.profile import refresh_profiles
from permem.stores.database import (
    Database,
    bind_tenant,
    list_tenants,
    register_tenant,
    tenant_salt,
    tenant_transaction,
    unbound_transaction,
)
from permem.stores.memories import append_memories
from permem.stores.schema import (
    TENANT_TABLES,
    erasure_ledger,
    gate_decisions,
    index_queue,
    legal_holds,
    memory_events,
    quarantine,
    recall_log,
    subject_settings,
)
from permem.stores.sources import append_sources
from tests.conftest import memory, message


def _fill(conn: Connection, tenant: str) -> None:
    """One row of every tenant table for `tenant`, written through the application role."""
    register_tenant(conn, tenant)
    append_sources(conn, [message(tenant, f"{tenant}-m1")])
    record = memory(tenant, f"{tenant}-m1")
    append_memories(conn, [record])  # also writes a lineage edge
    # The synthesized profile, made as the controls make it (before the ledger blocks it).
    assert refresh_profiles(conn, tenant, record.subject, now=datetime.now(UTC))
    rid = uuid.uuid4()
    conn.execute(
        sa.insert(memory_events).values(
            tenant=tenant, memory_id=record.id, field="status", old_value="active",
            new_value="paused", actor="alice", reason="test",
        )
    )  # fmt: skip
    conn.execute(
        sa.insert(gate_decisions).values(
            tenant=tenant, candidate_hash="h", decision="reject", reasons=["test"],
            policy_version="test",
        )
    )  # fmt: skip
    conn.execute(
        sa.insert(recall_log).values(
            tenant=tenant, actor="alice", subject="alice", purpose="assistant", scope="global",
            query_hash="h", returned_ids=[record.id], filtered_out={},
        )
    )  # fmt: skip
    conn.execute(
        sa.insert(erasure_ledger).values(
            tenant=tenant, request_id=rid, target_kind="claim", target_id=str(record.id),
            node_kind="memory", node_id=str(record.id), state="blocked", requested_by="alice",
        )
    )  # fmt: skip
    conn.execute(
        sa.insert(legal_holds).values(
            tenant=tenant, subject="alice", reason="litigation", placed_by="counsel"
        )
    )
    conn.execute(sa.insert(subject_settings).values(tenant=tenant, subject="alice", updated_by="a"))
    conn.execute(
        sa.insert(quarantine).values(
            tenant=tenant, file="x.jsonl", line_no=3, reason="bad json", content_hash="h"
        )
    )
    conn.execute(sa.insert(index_queue).values(tenant=tenant, memory_id=record.id))
    conn.execute(sa.text(
        "INSERT INTO grants (tenant, actor, subject, purpose, expires_at, granted_by) "
        "VALUES (:t, 'bob', 'alice', 'assistant', now() + interval '1 day', 'alice')"
    ), {"t": tenant})  # fmt: skip
    conn.execute(sa.text(
        "INSERT INTO grant_events (tenant, grant_id, event, by) "
        "VALUES (:t, gen_random_uuid(), 'granted', 'alice')"
    ), {"t": tenant})  # fmt: skip
    conn.execute(sa.text(
        "INSERT INTO exports (tenant, subject, format, path, records, created_by) "
        "VALUES (:t, 'alice', 'json', '/tmp/x.json', 1, 'alice')"
    ), {"t": tenant})  # fmt: skip
    conn.execute(sa.text(
        "INSERT INTO backup_keys (tenant, subject, key) VALUES (:t, 'alice', :k)"
    ), {"t": tenant, "k": bytes(32)})  # fmt: skip
    conn.execute(sa.text(
        "INSERT INTO backups (tenant, path, sha256, subjects, records, key_ids, created_by) "
        "VALUES (:t, '/tmp/b', 'h', 1, 1, ARRAY[gen_random_uuid()], 'ops')"
    ), {"t": tenant})  # fmt: skip
    for table in ("api_keys", "api_key_events", "recall_influence"):
        _insert_minimal(conn, table, tenant)


@pytest.fixture
def two_tenants(db: Database) -> Iterator[Database]:
    for tenant in ("tenant-a", "tenant-b"):
        with tenant_transaction(db.app, tenant) as conn:
            _fill(conn, tenant)
    yield db


def test_every_tenant_table_is_filled_for_both_tenants(
    owner: sa.Engine, two_tenants: Database
) -> None:
    # The owner (a superuser) bypasses RLS: it sees that both tenants really have rows.
    with owner.connect() as conn:
        for table in TENANT_TABLES:
            tenants = set(conn.execute(sa.select(table.c.tenant).distinct()).scalars())
            assert tenants == {"tenant-a", "tenant-b"}, table.name


def test_bound_session_sees_only_its_tenant_without_any_where(two_tenants: Database) -> None:
    with tenant_transaction(two_tenants.app, "tenant-a") as conn:
        for table in TENANT_TABLES:
            rows = conn.execute(sa.text(f"SELECT tenant FROM {table.name}")).scalars().all()
            assert rows, f"{table.name}: tenant-a should see its own rows"
            assert set(rows) == {"tenant-a"}, table.name


def test_bound_session_cannot_insert_into_another_tenant(two_tenants: Database) -> None:
    for table in TENANT_TABLES:
        with pytest.raises(sa.exc.ProgrammingError, match="row-level security"):
            with tenant_transaction(two_tenants.app, "tenant-a") as conn:
                _insert_minimal(conn, table.name, "tenant-b")


@pytest.mark.parametrize("table", [t.name for t in TENANT_TABLES])
def test_the_application_may_not_update_a_tenant_column(two_tenants: Database, table: str) -> None:
    with pytest.raises(sa.exc.ProgrammingError, match="permission denied"):
        with tenant_transaction(two_tenants.app, "tenant-a") as conn:
            conn.execute(sa.text(f"UPDATE {table} SET tenant = 'tenant-b'"))


@pytest.fixture
def mover(two_tenants: Database, owner: sa.Engine) -> Iterator[str]:
    """A plain role (row-level security applies to it) that may update every column of every
    table: beside the application's column privileges, RLS must refuse a move on its own."""
    role = f"permem_mover_{uuid.uuid4().hex[:8]}"
    with owner.begin() as conn:
        conn.execute(sa.text(f"CREATE ROLE {role} NOLOGIN NOSUPERUSER NOBYPASSRLS"))
        conn.execute(sa.text(f"GRANT USAGE ON SCHEMA public TO {role}"))
        conn.execute(sa.text(f"GRANT SELECT, UPDATE ON ALL TABLES IN SCHEMA public TO {role}"))
    try:
        yield role
    finally:
        # Roles are cluster-wide: they outlive the test's database unless dropped.
        with owner.begin() as conn:
            conn.execute(sa.text(f"DROP OWNED BY {role}"))
            conn.execute(sa.text(f"DROP ROLE {role}"))


@pytest.mark.parametrize("table", [t.name for t in TENANT_TABLES])
def test_row_level_security_refuses_to_move_a_row_to_another_tenant(
    owner: sa.Engine, mover: str, table: str
) -> None:
    with owner.connect() as conn, conn.begin():
        # The append-only triggers would refuse most updates before RLS checks the new row:
        # replica mode skips them. Only a superuser sets it, so before taking the plain role.
        conn.execute(sa.text("SET LOCAL session_replication_role = replica"))
        conn.execute(sa.text(f"SET LOCAL ROLE {mover}"))
        bind_tenant(conn, "tenant-a")
        # The role can update tenant-a's rows in place: nothing but the move is refused.
        kept = conn.execute(sa.text(f"UPDATE {table} SET tenant = tenant"))
        assert kept.rowcount >= 1
        with pytest.raises(sa.exc.ProgrammingError, match="new row violates row-level security"):
            conn.execute(sa.text(f"UPDATE {table} SET tenant = 'tenant-b'"))


def test_unbound_session_sees_no_tenant_rows(two_tenants: Database) -> None:
    with unbound_transaction(two_tenants.app) as conn:
        for table in TENANT_TABLES:
            count = conn.execute(sa.text(f"SELECT count(*) FROM {table.name}")).scalar()
            assert count == 0, table.name
        # The registry is row-level secured too: unbound, the application sees no tenant.
        assert conn.execute(sa.text("SELECT count(*) FROM tenants")).scalar() == 0
    # The operator's listing (as the owner) sees them all.
    assert list_tenants(two_tenants) == ["tenant-a", "tenant-b"]


def test_application_sees_only_its_bound_tenant_in_the_registry(two_tenants: Database) -> None:
    with tenant_transaction(two_tenants.app, "tenant-a") as conn:
        names = conn.execute(sa.text("SELECT tenant FROM tenants")).scalars().all()
    assert names == ["tenant-a"]
    # Nor can it register a tenant other than the one it is bound to.
    with pytest.raises(sa.exc.ProgrammingError, match="row-level security"):
        with tenant_transaction(two_tenants.app, "tenant-a") as conn:
            conn.execute(
                sa.text("INSERT INTO tenants (tenant, hash_salt) VALUES ('tenant-c', :salt)"),
                {"salt": b"0123456789abcdef0123"},
            )


def test_unattributed_quarantine_rows_are_visible_only_unbound(db: Database) -> None:
    with unbound_transaction(db.app) as conn:
        conn.execute(
            sa.insert(quarantine).values(
                tenant=None, file="x.jsonl", line_no=1, reason="not JSON", content_hash="h"
            )
        )
    with tenant_transaction(db.app, "tenant-a") as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM quarantine")).scalar() == 0
    with unbound_transaction(db.app) as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM quarantine")).scalar() == 1


def test_salt_is_per_tenant_and_unreadable_directly(two_tenants: Database) -> None:
    with tenant_transaction(two_tenants.app, "tenant-a") as conn:
        salt_a = tenant_salt(conn)
    with tenant_transaction(two_tenants.app, "tenant-b") as conn:
        salt_b = tenant_salt(conn)
    assert len(salt_a) == 32 and salt_a != salt_b
    with pytest.raises(sa.exc.ProgrammingError, match="permission denied"):
        with unbound_transaction(two_tenants.app) as conn:
            conn.execute(sa.text("SELECT hash_salt FROM tenants"))


def test_binding_does_not_leak_across_pooled_transactions(two_tenants: Database) -> None:
    engine = sa.create_engine(two_tenants.app.url, pool_size=1, max_overflow=0)
    try:
        with tenant_transaction(engine, "tenant-a") as conn:
            assert conn.execute(sa.text("SELECT count(*) FROM memories")).scalar() == 1
        with unbound_transaction(engine) as conn:  # same pooled connection
            assert conn.execute(sa.text("SELECT count(*) FROM memories")).scalar() == 0
    finally:
        engine.dispose()


def test_every_table_with_a_tenant_column_has_forced_rls(owner: sa.Engine) -> None:
    with owner.connect() as conn:
        rows = conn.execute(
            sa.text(
                "SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity "
                "FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid "
                "WHERE a.attname = 'tenant' AND c.relkind = 'r' "
                "AND c.relnamespace = 'public'::regnamespace"
            )
        ).all()
    unprotected = {name for name, rls, forced in rows if not (rls and forced)}
    assert unprotected == {"tenants"}  # the registry, deliberately readable (no salts)
    assert {name for name, *_ in rows} == {t.name for t in TENANT_TABLES} | {"tenants"}


def _insert_minimal(conn: Connection, table: str, tenant: str) -> None:
    values = {
        "sources": "(tenant, message_id, account, conversation_id, turn, role, ts, scope, purpose,"
        " content_hash) VALUES (:t, 'x', 'a', 'c', 1, 'user', now(), 'global', 'assistant', 'h')",
        "memories": "(tenant, subject, account, origin, kind, claim, scope, purpose, observed_at,"
        " valid_from, confidence, sensitivity, confirmation, status, claim_hash, subject_hash)"
        " VALUES (:t, 's', 'a', 'user_fact', 'fact', 'c', 'global', 'assistant', now(), now(),"
        " 0.5, 'none', 'unconfirmed', 'active', 'h', 'h')",
        "memory_events": "(tenant, memory_id, field, old_value, new_value, actor, reason) VALUES"
        " (:t, gen_random_uuid(), 'status', 'a', 'b', 'x', 'y')",
        "gate_decisions": "(tenant, candidate_hash, decision, reasons, policy_version) VALUES"
        " (:t, 'h', 'reject', '{}', 'v')",
        "lineage_edges": "(tenant, parent_kind, parent_id, child_kind, child_id, relation)"
        " VALUES (:t, 'source', 'x', 'memory', 'y', 'extracted')",
        "recall_log": "(tenant, actor, subject, purpose, scope, query_hash, returned_ids,"
        " filtered_out) VALUES (:t, 'a', 's', 'p', 'g', 'h', '{}', '{}')",
        "erasure_ledger": "(tenant, request_id, target_kind, target_id, node_kind, node_id,"
        " state, requested_by) VALUES (:t, gen_random_uuid(), 'claim', 'x', 'memory', 'x',"
        " 'blocked', 'a')",
        "legal_holds": "(tenant, subject, reason, placed_by) VALUES (:t, 's', 'r', 'p')",
        "subject_settings": "(tenant, subject, updated_by) VALUES (:t, 'other', 'x')",
        "quarantine": "(tenant, file, line_no, reason, content_hash) VALUES (:t, 'f', 1, 'r', 'h')",
        "index_queue": "(tenant, memory_id) VALUES (:t, gen_random_uuid())",
        "grants": "(tenant, actor, subject, purpose, expires_at, granted_by) VALUES"
        " (:t, 'x', 'y', 'assistant', now(), 'y')",
        "grant_events": "(tenant, grant_id, event, by) VALUES (:t, gen_random_uuid(), 'granted',"
        " 'y')",
        "exports": "(tenant, subject, format, path, records, created_by) VALUES"
        " (:t, 's', 'csv', 'p', 0, 's')",
        "backup_keys": "(tenant, subject, key) VALUES (:t, 's', :k)",
        "backups": "(tenant, path, sha256, subjects, records, key_ids, created_by) VALUES"
        " (:t, 'p', 'h', 0, 0, ARRAY[]::uuid[], 'o')",
        "api_keys": "(id, tenant, actor, role, purposes, key_hash) VALUES"
        " (gen_random_uuid(), :t, 'alice', 'user', '{}', 'h')",
        "api_key_events": "(tenant, key_id, event, by) VALUES (:t, gen_random_uuid(), 'used',"
        " 'alice')",
        "recall_influence": "(tenant, recall_id, subject, used_ids, reported_by) VALUES"
        " (:t, gen_random_uuid(), 'alice', '{}', 'alice')",
        "profiles": "(tenant, subject, purpose, scope, version, synthesiser, lines, claim_ids)"
        " VALUES (:t, 'other', 'assistant', 'global', 1, 'rules/1', '[]', '{}')",
    }[table]
    conn.execute(sa.text(f"INSERT INTO {table} {values}"), {"t": tenant, "k": bytes(32)})


def test_bulk_path_is_subject_to_the_same_policies(two_tenants: Database) -> None:
    with pytest.raises(sa.exc.ProgrammingError, match="row-level security"):
        with tenant_transaction(two_tenants.app, "tenant-a") as conn:
            append_sources(conn, [message("tenant-b", "sneaky")])
    with tenant_transaction(two_tenants.app, "tenant-b") as conn:
        rows = conn.execute(sa.text("SELECT message_id FROM sources")).scalars().all()
    assert rows == ["tenant-b-m1"]
