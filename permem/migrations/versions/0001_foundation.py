"""Foundation: the system of record, append-only guards, tenant row-level security.

Revision ID: 0001
Revises:
Create Date: 2026-11-30

Frozen on purpose: the enum values are written out here rather than imported from
`permem.records`, so later code changes cannot silently change what this migration did.
"""

import sqlalchemy as sa
from alembic import context, op
from sqlalchemy.dialects.postgresql import JSONB

from permem.migrations.tenancy import BOUND_TENANT, tenant_isolation

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

ROLES = ("user", "assistant", "system", "tool", "document", "import")
ORIGINS = ("explicit_instruction", "user_fact", "observed_behavior", "inferred_profile", "imported")
KINDS = ("preference", "constraint", "fact", "instruction", "event", "plan")
SENSITIVITIES = ("none", "personal", "special")
CONFIRMATIONS = ("unconfirmed", "pending", "confirmed", "rejected")
STATUSES = (
    "active",
    "superseded",
    "session_only",
    "paused",
    "expired",
    "retracted",
    "blocked",
    "erased",
)
DECISIONS = ("accept", "shorten", "redact", "confirm", "session_only", "reject")
LEDGER_STATES = ("blocked", "held", "erased", "verified", "failed")

TENANT_TABLES = (
    "sources",
    "memories",
    "memory_events",
    "gate_decisions",
    "lineage_edges",
    "recall_log",
    "erasure_ledger",
    "legal_holds",
    "subject_settings",
    "quarantine",
)

# What the application role may do. UPDATE is granted column by column: evidence columns are
# never among them, and the triggers below refuse the rest even for the owner.
GRANTS = {
    "sources": "SELECT, INSERT, DELETE",
    "memories": "SELECT, INSERT, DELETE, UPDATE (status, confirmation)",
    "memory_events": "SELECT, INSERT, DELETE",
    "gate_decisions": "SELECT, INSERT, DELETE",
    "lineage_edges": "SELECT, INSERT, DELETE",
    "recall_log": "SELECT, INSERT, DELETE",
    "erasure_ledger": "SELECT, INSERT, UPDATE (state, blocked_at, erased_at, verified_at, detail)",
    "legal_holds": "SELECT, INSERT, UPDATE (released_at, released_by)",
    "subject_settings": "SELECT, INSERT, UPDATE (paused, updated_by, updated_at)",
    "quarantine": "SELECT, INSERT, DELETE",
    "tenants": "SELECT (tenant, created_at), INSERT (tenant, hash_salt)",
}

# table -> columns an UPDATE may change (everything else is refused by trigger)
MUTABLE_COLUMNS = {
    "sources": (),
    "memories": ("status", "confirmation"),
    "memory_events": (),
    "gate_decisions": (),
    "lineage_edges": (),
    "recall_log": (),
    "erasure_ledger": ("state", "blocked_at", "erased_at", "verified_at", "detail"),
    "tenants": (),
}


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


def _ts(name: str, nullable: bool = False, now: bool = False) -> sa.Column:
    return sa.Column(
        name,
        sa.DateTime(timezone=True),
        nullable=nullable,
        server_default=sa.func.now() if now else None,
    )


def _id() -> sa.Column:
    return sa.Column("id", sa.Uuid, primary_key=True, server_default=sa.text("gen_random_uuid()"))


def upgrade() -> None:
    app_role = context.config.attributes.get("app_role", "permem_app")

    op.create_table(
        "tenants",
        sa.Column("tenant", sa.Text, primary_key=True),
        sa.Column("hash_salt", sa.LargeBinary, nullable=False),
        _ts("created_at", now=True),
        sa.CheckConstraint("length(tenant) > 0", name="ck_tenants_name"),
        sa.CheckConstraint("length(hash_salt) >= 16", name="ck_tenants_salt"),
    )
    op.create_table(
        "sources",
        _id(),
        sa.Column("tenant", sa.Text, nullable=False),
        sa.Column("message_id", sa.Text, nullable=False),
        sa.Column("account", sa.Text, nullable=False),
        sa.Column("conversation_id", sa.Text, nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("role", sa.Text, nullable=False),
        _ts("ts"),
        sa.Column("scope", sa.Text, nullable=False),
        sa.Column("purpose", sa.Text, nullable=False),
        sa.Column("session", sa.Text),
        sa.Column("incognito", sa.Boolean, nullable=False, server_default=sa.text("false")),
        sa.Column("content_hash", sa.Text, nullable=False),
        sa.Column("batch_id", sa.Uuid),
        _ts("ingested_at", now=True),
        sa.UniqueConstraint("tenant", "message_id", name="uq_sources_tenant_message"),
        sa.CheckConstraint(_in("role", ROLES), name="ck_sources_role"),
    )
    op.create_table(
        "memories",
        _id(),
        sa.Column("tenant", sa.Text, nullable=False),
        sa.Column("subject", sa.Text, nullable=False),
        sa.Column("account", sa.Text, nullable=False),
        sa.Column("origin", sa.Text, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("claim", sa.Text, nullable=False),
        sa.Column("evidence", sa.Text),
        sa.Column("source_message_id", sa.Text),
        sa.Column("span_start", sa.Integer),
        sa.Column("span_end", sa.Integer),
        sa.Column("scope", sa.Text, nullable=False),
        sa.Column("purpose", sa.Text, nullable=False),
        _ts("observed_at"),
        _ts("valid_from"),
        _ts("valid_until", nullable=True),
        sa.Column("confidence", sa.Float, nullable=False),
        sa.Column("sensitivity", sa.Text, nullable=False),
        sa.Column("confirmation", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("supersedes", sa.Uuid),
        sa.Column("session", sa.Text),
        sa.Column("topic", sa.Text),
        sa.Column("claim_hash", sa.Text, nullable=False),
        sa.Column("policy_version", sa.Text),
        sa.Column("batch_id", sa.Uuid),
        _ts("created_at", now=True),
        # Every claim cites a message permem recorded (NULL only for control-entered claims).
        sa.ForeignKeyConstraint(
            ["tenant", "source_message_id"],
            ["sources.tenant", "sources.message_id"],
            name="fk_memories_source",
        ),
        sa.CheckConstraint(_in("origin", ORIGINS), name="ck_memories_origin"),
        sa.CheckConstraint(_in("kind", KINDS), name="ck_memories_kind"),
        sa.CheckConstraint(_in("sensitivity", SENSITIVITIES), name="ck_memories_sensitivity"),
        sa.CheckConstraint(_in("confirmation", CONFIRMATIONS), name="ck_memories_confirmation"),
        sa.CheckConstraint(_in("status", STATUSES), name="ck_memories_status"),
        sa.CheckConstraint("confidence >= 0 AND confidence <= 1", name="ck_memories_confidence"),
        sa.CheckConstraint(
            "valid_until IS NULL OR valid_until >= valid_from", name="ck_memories_validity"
        ),
        sa.CheckConstraint(
            "(span_start IS NULL) = (span_end IS NULL) AND "
            "(span_start IS NULL OR (span_start >= 0 AND span_start <= span_end))",
            name="ck_memories_span",
        ),
        sa.CheckConstraint("supersedes IS DISTINCT FROM id", name="ck_memories_supersedes_self"),
        sa.CheckConstraint(
            "length(claim) > 0 AND length(subject) > 0", name="ck_memories_nonempty"
        ),
    )
    op.create_index(
        "ix_memories_tenant_subject_status", "memories", ["tenant", "subject", "status"]
    )
    op.create_index("ix_memories_tenant_source", "memories", ["tenant", "source_message_id"])
    op.create_index("ix_memories_tenant_supersedes", "memories", ["tenant", "supersedes"])

    op.create_table(
        "memory_events",
        _id(),
        sa.Column("tenant", sa.Text, nullable=False),
        sa.Column("memory_id", sa.Uuid, nullable=False),
        sa.Column("field", sa.Text, nullable=False),
        sa.Column("old_value", sa.Text, nullable=False),
        sa.Column("new_value", sa.Text, nullable=False),
        sa.Column("actor", sa.Text, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        _ts("at", now=True),
        sa.CheckConstraint("field IN ('status', 'confirmation')", name="ck_memory_events_field"),
    )
    op.create_index("ix_memory_events_memory", "memory_events", ["tenant", "memory_id"])

    op.create_table(
        "gate_decisions",
        _id(),
        sa.Column("tenant", sa.Text, nullable=False),
        sa.Column("batch_id", sa.Uuid),
        sa.Column("source_message_id", sa.Text),
        sa.Column("span_start", sa.Integer),
        sa.Column("span_end", sa.Integer),
        sa.Column("subject", sa.Text),
        sa.Column("kind", sa.Text),
        sa.Column("candidate_hash", sa.Text, nullable=False),
        sa.Column("decision", sa.Text, nullable=False),
        sa.Column("reasons", sa.ARRAY(sa.Text), nullable=False),
        sa.Column("policy_version", sa.Text, nullable=False),
        sa.Column("memory_id", sa.Uuid),
        _ts("decided_at", now=True),
        sa.CheckConstraint(_in("decision", DECISIONS), name="ck_gate_decisions_decision"),
    )
    op.create_index(
        "ix_gate_decisions_tenant_source", "gate_decisions", ["tenant", "source_message_id"]
    )
    op.create_index("ix_gate_decisions_tenant_memory", "gate_decisions", ["tenant", "memory_id"])

    op.create_table(
        "lineage_edges",
        sa.Column("tenant", sa.Text, nullable=False),
        sa.Column("parent_kind", sa.Text, nullable=False),
        sa.Column("parent_id", sa.Text, nullable=False),
        sa.Column("child_kind", sa.Text, nullable=False),
        sa.Column("child_id", sa.Text, nullable=False),
        sa.Column("relation", sa.Text, nullable=False),
        _ts("created_at", now=True),
        sa.PrimaryKeyConstraint(
            "tenant", "parent_kind", "parent_id", "child_kind", "child_id", name="pk_lineage_edges"
        ),
    )
    op.create_index("ix_lineage_edges_child", "lineage_edges", ["tenant", "child_kind", "child_id"])

    op.create_table(
        "recall_log",
        _id(),
        sa.Column("tenant", sa.Text, nullable=False),
        sa.Column("query_id", sa.Text),
        sa.Column("actor", sa.Text, nullable=False),
        sa.Column("subject", sa.Text, nullable=False),
        sa.Column("purpose", sa.Text, nullable=False),
        sa.Column("scope", sa.Text, nullable=False),
        sa.Column("query_hash", sa.Text, nullable=False),
        sa.Column("returned_ids", sa.ARRAY(sa.Uuid), nullable=False),
        sa.Column("filtered_out", JSONB, nullable=False),
        sa.Column("denied", sa.Text),
        _ts("at", now=True),
    )
    op.create_index("ix_recall_log_tenant_subject", "recall_log", ["tenant", "subject", "at"])

    op.create_table(
        "erasure_ledger",
        _id(),
        sa.Column("tenant", sa.Text, nullable=False),
        sa.Column("request_id", sa.Uuid, nullable=False),
        sa.Column("target_kind", sa.Text, nullable=False),
        sa.Column("target_id", sa.Text, nullable=False),
        sa.Column("node_kind", sa.Text, nullable=False),
        sa.Column("node_id", sa.Text, nullable=False),
        sa.Column("content_hash", sa.Text),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("requested_by", sa.Text, nullable=False),
        _ts("requested_at", now=True),
        _ts("blocked_at", nullable=True),
        _ts("erased_at", nullable=True),
        _ts("verified_at", nullable=True),
        sa.Column("detail", JSONB, nullable=False, server_default=sa.text("'{}'::jsonb")),
        sa.CheckConstraint(_in("state", LEDGER_STATES), name="ck_erasure_ledger_state"),
        sa.CheckConstraint(
            "target_kind IN ('subject', 'source', 'claim')", name="ck_erasure_ledger_target"
        ),
    )
    op.create_index("ix_erasure_ledger_node", "erasure_ledger", ["tenant", "node_kind", "node_id"])
    op.create_index("ix_erasure_ledger_hash", "erasure_ledger", ["tenant", "content_hash"])
    op.create_index("ix_erasure_ledger_request", "erasure_ledger", ["tenant", "request_id"])

    op.create_table(
        "legal_holds",
        _id(),
        sa.Column("tenant", sa.Text, nullable=False),
        sa.Column("subject", sa.Text),
        sa.Column("memory_id", sa.Uuid),
        sa.Column("source_message_id", sa.Text),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("placed_by", sa.Text, nullable=False),
        _ts("placed_at", now=True),
        _ts("released_at", nullable=True),
        sa.Column("released_by", sa.Text),
        sa.CheckConstraint(
            "num_nonnulls(subject, memory_id, source_message_id) = 1",
            name="ck_legal_holds_one_target",
        ),
        sa.CheckConstraint(
            "(released_at IS NULL) = (released_by IS NULL)", name="ck_legal_holds_release"
        ),
    )
    op.create_index("ix_legal_holds_tenant_subject", "legal_holds", ["tenant", "subject"])

    op.create_table(
        "subject_settings",
        sa.Column("tenant", sa.Text, nullable=False),
        sa.Column("subject", sa.Text, nullable=False),
        sa.Column("paused", sa.Boolean, nullable=False, server_default=sa.text("false")),
        sa.Column("updated_by", sa.Text, nullable=False),
        _ts("updated_at", now=True),
        sa.PrimaryKeyConstraint("tenant", "subject", name="pk_subject_settings"),
    )

    op.create_table(
        "quarantine",
        _id(),
        sa.Column("tenant", sa.Text),
        sa.Column("batch_id", sa.Uuid),
        sa.Column("file", sa.Text, nullable=False),
        sa.Column("line_no", sa.Integer, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("content_hash", sa.Text, nullable=False),
        _ts("quarantined_at", now=True),
    )
    op.create_index("ix_quarantine_tenant", "quarantine", ["tenant", "quarantined_at"])

    _append_only_guards()
    _row_level_security()
    _application_role(app_role)


def _append_only_guards() -> None:
    # One trigger function for every append-only table: TG_ARGV names the columns an UPDATE
    # may change; any other changed column aborts the statement, whoever runs it.
    op.execute(
        """
        CREATE FUNCTION permem_refuse_update() RETURNS trigger
        LANGUAGE plpgsql AS $$
        DECLARE
            changed text[];
        BEGIN
            SELECT array_agg(n.key ORDER BY n.key) INTO changed
            FROM jsonb_each(to_jsonb(NEW)) AS n
            JOIN jsonb_each(to_jsonb(OLD)) AS o USING (key)
            WHERE n.value IS DISTINCT FROM o.value
              AND NOT coalesce(n.key = ANY (TG_ARGV), false);
            IF changed IS NOT NULL THEN
                RAISE EXCEPTION 'permem: % is append-only; refusing to update %',
                    TG_TABLE_NAME, array_to_string(changed, ', ')
                    USING ERRCODE = 'restrict_violation';
            END IF;
            RETURN NEW;
        END $$
        """
    )
    for table, columns in MUTABLE_COLUMNS.items():
        args = ", ".join(f"'{c}'" for c in columns)
        op.execute(
            f"CREATE TRIGGER {table}_append_only BEFORE UPDATE ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION permem_refuse_update({args})"
        )
    # Physical deletion of a memory is the erase step of `forget`, which blocks it first.
    op.execute(
        """
        CREATE FUNCTION permem_memories_delete_guard() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN
            IF OLD.status <> 'blocked' THEN
                RAISE EXCEPTION 'permem: memory % is %; only a blocked memory can be erased',
                    OLD.id, OLD.status USING ERRCODE = 'restrict_violation';
            END IF;
            RETURN OLD;
        END $$
        """
    )
    op.execute(
        "CREATE TRIGGER memories_delete_guard BEFORE DELETE ON memories "
        "FOR EACH ROW EXECUTE FUNCTION permem_memories_delete_guard()"
    )


def _row_level_security() -> None:
    for table in TENANT_TABLES:
        if table == "quarantine":
            # A line too broken to name its tenant is stored with tenant NULL and is visible
            # only to a transaction bound to no tenant (the operator's view).
            tenant_isolation(table, f"tenant IS NOT DISTINCT FROM nullif({BOUND_TENANT}, '')")
        else:
            tenant_isolation(table)
    op.execute(
        f"""
        CREATE FUNCTION permem_tenant_salt() RETURNS bytea
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
            SELECT hash_salt FROM public.tenants WHERE tenant = {BOUND_TENANT}
        $$
        """
    )
    op.execute("REVOKE ALL ON FUNCTION permem_tenant_salt() FROM PUBLIC")


def _application_role(role: str) -> None:
    # Roles are cluster-wide: create it once, and refuse one that would bypass RLS.
    op.execute(
        f"""
        DO $$
        DECLARE
            r pg_roles%ROWTYPE;
        BEGIN
            SELECT * INTO r FROM pg_roles WHERE rolname = '{role}';
            IF NOT FOUND THEN
                BEGIN
                    CREATE ROLE {role} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
                EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
                END;
            ELSIF r.rolsuper OR r.rolbypassrls THEN
                RAISE EXCEPTION 'permem: application role % is a superuser or bypasses row-level '
                    'security; use a plain role', '{role}';
            END IF;
        END $$
        """
    )
    op.execute(f"GRANT USAGE ON SCHEMA public TO {role}")
    for table, privileges in GRANTS.items():
        op.execute(f"GRANT {privileges} ON {table} TO {role}")
    op.execute(f"GRANT EXECUTE ON FUNCTION permem_tenant_salt() TO {role}")


def downgrade() -> None:
    app_role = context.config.attributes.get("app_role", "permem_app")
    # The role itself stays: it is shared by every database of the cluster.
    op.execute(f"REVOKE USAGE ON SCHEMA public FROM {app_role}")
    for table in (*reversed(TENANT_TABLES), "tenants"):
        op.drop_table(table)
    op.execute("DROP FUNCTION permem_tenant_salt()")
    op.execute("DROP FUNCTION permem_memories_delete_guard()")
    op.execute("DROP FUNCTION permem_refuse_update()")
