"""Migrations from an empty database to head and back, on the real server."""

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from permem.stores import migrate
from permem.stores.database import Database
from permem.stores.schema import TENANT_TABLES, metadata

PERMEM_TABLES = {t.name for t in TENANT_TABLES} | {"tenants"}


def _tables(db: Database) -> set[str]:
    engine = db.owner_engine()
    try:
        return set(sa.inspect(engine).get_table_names()) - {"alembic_version"}
    finally:
        engine.dispose()


def test_upgrade_from_empty_creates_every_table(bare_db: Database) -> None:
    assert _tables(bare_db) == set()
    assert migrate.current_revision(bare_db) is None
    migrate.upgrade(bare_db)
    assert _tables(bare_db) == PERMEM_TABLES
    assert migrate.current_revision(bare_db) == migrate.head_revision()


def test_downgrade_to_base_removes_everything_and_upgrade_again(bare_db: Database) -> None:
    migrate.upgrade(bare_db)
    migrate.downgrade(bare_db, "base")
    assert _tables(bare_db) == set()
    engine = bare_db.owner_engine()
    with engine.connect() as conn:
        functions = conn.execute(
            sa.text("SELECT proname FROM pg_proc WHERE proname LIKE 'permem_%'")
        ).all()
    engine.dispose()
    assert functions == []
    migrate.upgrade(bare_db)
    assert _tables(bare_db) == PERMEM_TABLES


def test_migrated_schema_matches_the_core_description(db: Database) -> None:
    engine = db.owner_engine()
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    engine.dispose()
    assert diff == []


def test_application_role_is_plain_and_shared_by_databases(db: Database) -> None:
    engine = db.owner_engine()
    with engine.connect() as conn:
        row = conn.execute(
            sa.text(
                "SELECT rolsuper, rolbypassrls, rolcreaterole, rolcreatedb, rolcanlogin "
                "FROM pg_roles WHERE rolname = :r"
            ),
            {"r": db.app_role},
        ).one()
    engine.dispose()
    assert tuple(row) == (False, False, False, False, True)
    # A second upgrade run (as when another database of the cluster migrates) is harmless.
    migrate.upgrade(db)


def test_claims_stored_before_0014_get_their_subject_bound_fingerprint(bare_db: Database) -> None:
    from permem.hashing import subject_fingerprint

    migrate.upgrade(bare_db, "0013")
    engine = bare_db.owner_engine()
    insert = (
        "INSERT INTO memories (tenant, subject, account, origin, kind, claim, scope, purpose,"
        " observed_at, valid_from, confidence, sensitivity, confirmation, status, claim_hash)"
        " VALUES (:t, :s, 'a', 'user_fact', 'fact', :c, 'global', 'assistant', now(), now(),"
        " 0.5, 'none', 'unconfirmed', 'active', 'h')"
    )
    claims = [("acme", "ana", "I'm vegetarian"), ("acme", "ben", "I'm vegetarian"),
              ("zeta", "ana", "Metric units, please")]  # fmt: skip
    with engine.begin() as conn:
        for tenant in ("acme", "zeta"):
            conn.execute(sa.text("INSERT INTO tenants (tenant, hash_salt) VALUES (:t, :h)"),
                         {"t": tenant, "h": tenant.encode() * 8})  # fmt: skip
        for tenant, subject, claim in claims:
            conn.execute(sa.text(insert), {"t": tenant, "s": subject, "c": claim})
    migrate.upgrade(bare_db)
    with engine.connect() as conn:
        stored = conn.execute(
            sa.text("SELECT tenant, subject, claim, subject_hash FROM memories")
        ).all()
        # The append-only guard is back after the backfill.
        guard = conn.execute(
            sa.text("SELECT tgenabled FROM pg_trigger WHERE tgname = 'memories_append_only'")
        ).scalar_one()
    engine.dispose()
    assert sorted(stored) == sorted(
        (t, s, c, subject_fingerprint(t.encode() * 8, s, c)) for t, s, c in claims
    )
    assert len({row.subject_hash for row in stored}) == 3
    assert guard == "O"


def test_claims_superseded_before_0015_learn_when_their_replacement_was_said(
    bare_db: Database,
) -> None:
    migrate.upgrade(bare_db, "0014")
    engine = bare_db.owner_engine()
    insert = (
        "INSERT INTO memories (id, tenant, subject, account, origin, kind, claim, scope, purpose,"
        " observed_at, valid_from, confidence, sensitivity, confirmation, status, claim_hash,"
        " subject_hash) VALUES (:id, 'acme', 'ana', 'ana', 'user_fact', 'fact', :c, 'global',"
        " 'assistant', :at, :at, 0.5, 'none', 'unconfirmed', :status, 'h', 'h')"
    )
    old, new, kept = (
        "00000000-0000-0000-0000-00000000000" + n for n in "123"
    )  # fmt: skip
    with engine.begin() as conn:
        for memory_id, status, at in ((old, "superseded", "2026-02-01T10:00:00Z"),
                                      (new, "active", "2026-04-29T19:00:00Z"),
                                      (kept, "active", "2026-01-01T10:00:00Z")):  # fmt: skip
            conn.execute(sa.text(insert), {"id": memory_id, "c": memory_id, "status": status,
                                           "at": at})  # fmt: skip
        conn.execute(
            sa.text("INSERT INTO memory_events (tenant, memory_id, field, old_value, new_value,"
                    " actor, reason) VALUES ('acme', :m, 'status', 'active', 'superseded',"
                    " 'nightly', :r)"), {"m": old, "r": f"superseded by {new}"},
        )  # fmt: skip
    migrate.upgrade(bare_db)
    with engine.connect() as conn:
        said = dict(conn.execute(sa.text("SELECT id::text, superseded_from FROM memories")).all())
    engine.dispose()
    assert said[kept] is None and said[new] is None
    assert said[old] is not None and said[old].isoformat() == "2026-04-29T19:00:00+00:00"
