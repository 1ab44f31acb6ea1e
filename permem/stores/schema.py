"""SQLAlchemy Core description of the system of record, used by every query.

The database itself is built only by the Alembic migrations in `permem/migrations`; a test
checks that the migrated database and this description agree. Every table but `tenants` carries
a `tenant` column and is protected by row-level security keyed on the transaction's
`permem.tenant` setting (see `permem.stores.database.tenant_transaction`).
"""

from __future__ import annotations

from sqlalchemy import (
    ARRAY,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKeyConstraint,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    PrimaryKeyConstraint,
    Table,
    Text,
    UniqueConstraint,
    Uuid,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB

metadata = MetaData()


def _ts(name: str, nullable: bool = False, default_now: bool = False) -> Column[object]:
    return Column(
        name,
        DateTime(timezone=True),
        nullable=nullable,
        server_default=func.now() if default_now else None,
    )


def _uuid_pk() -> Column[object]:
    return Column("id", Uuid, primary_key=True, server_default=text("gen_random_uuid()"))


# Registry of tenants. Not row-level secured: maintenance flows enumerate tenants and then bind
# each in turn. The application role cannot read `hash_salt` directly (column privilege); it
# reads its own tenant's salt through the SECURITY DEFINER function permem_tenant_salt().
tenants = Table(
    "tenants",
    metadata,
    Column("tenant", Text, primary_key=True),
    Column("hash_salt", LargeBinary, nullable=False),
    _ts("created_at", default_now=True),
)

# One row per conversation message permem processed: metadata and a salted content hash,
# never the message text (the log stays where it lives).
sources = Table(
    "sources",
    metadata,
    _uuid_pk(),
    Column("tenant", Text, nullable=False),
    Column("message_id", Text, nullable=False),
    Column("account", Text, nullable=False),
    Column("conversation_id", Text, nullable=False),
    Column("turn", Integer, nullable=False),
    Column("role", Text, nullable=False),
    _ts("ts"),
    Column("scope", Text, nullable=False),
    Column("purpose", Text, nullable=False),
    Column("session", Text),
    Column("incognito", Boolean, nullable=False, server_default=text("false")),
    Column("content_hash", Text, nullable=False),
    Column("batch_id", Uuid),
    _ts("ingested_at", default_now=True),
    # Who spoke on a shared account (`<account>:<person>`); NULL is the account holder.
    Column("subject", Text),
    UniqueConstraint("tenant", "message_id", name="uq_sources_tenant_message"),
)

memories = Table(
    "memories",
    metadata,
    _uuid_pk(),
    Column("tenant", Text, nullable=False),
    Column("subject", Text, nullable=False),
    Column("account", Text, nullable=False),
    Column("origin", Text, nullable=False),
    Column("kind", Text, nullable=False),
    Column("claim", Text, nullable=False),
    Column("evidence", Text),
    Column("source_message_id", Text),
    Column("span_start", Integer),
    Column("span_end", Integer),
    Column("scope", Text, nullable=False),
    Column("purpose", Text, nullable=False),
    _ts("observed_at"),
    _ts("valid_from"),
    _ts("valid_until", nullable=True),
    Column("confidence", Float, nullable=False),
    Column("sensitivity", Text, nullable=False),
    Column("confirmation", Text, nullable=False),
    Column("status", Text, nullable=False),
    Column("supersedes", Uuid),
    # When the claim that superseded this one was said (its observed_at; migration 0015).
    _ts("superseded_from", nullable=True),
    Column("session", Text),
    Column("topic", Text),
    Column("claim_hash", Text, nullable=False),
    # subject_fingerprint(salt, subject, claim): what the erasure ledger keeps of a claim.
    Column("subject_hash", Text, nullable=False),
    Column("policy_version", Text),
    Column("batch_id", Uuid),
    _ts("created_at", default_now=True),
    ForeignKeyConstraint(
        ["tenant", "source_message_id"],
        ["sources.tenant", "sources.message_id"],
        name="fk_memories_source",
    ),
    Index("ix_memories_tenant_subject_status", "tenant", "subject", "status"),
    Index("ix_memories_tenant_source", "tenant", "source_message_id"),
    Index("ix_memories_tenant_supersedes", "tenant", "supersedes"),
    # Erasure's residue check: the subject holding an erased claim's text again (0014).
    Index("ix_memories_tenant_subject_hash", "tenant", "subject_hash"),
)

# Every status or confirmation change of a memory, in order: the history that the in-place
# `status` column alone would lose.
memory_events = Table(
    "memory_events",
    metadata,
    _uuid_pk(),
    Column("tenant", Text, nullable=False),
    Column("memory_id", Uuid, nullable=False),
    Column("field", Text, nullable=False),
    Column("old_value", Text, nullable=False),
    Column("new_value", Text, nullable=False),
    Column("actor", Text, nullable=False),
    Column("reason", Text, nullable=False),
    _ts("at", default_now=True),
    Index("ix_memory_events_memory", "tenant", "memory_id"),
)

# What the write gate decided for each candidate, with reasons and policy version; for a
# rejected candidate only hashes and offsets, never its text.
gate_decisions = Table(
    "gate_decisions",
    metadata,
    _uuid_pk(),
    Column("tenant", Text, nullable=False),
    Column("batch_id", Uuid),
    Column("source_message_id", Text),
    Column("span_start", Integer),
    Column("span_end", Integer),
    Column("subject", Text),
    Column("kind", Text),
    Column("candidate_hash", Text, nullable=False),
    Column("decision", Text, nullable=False),
    Column("reasons", ARRAY(Text), nullable=False),
    Column("policy_version", Text, nullable=False),
    Column("memory_id", Uuid),
    _ts("decided_at", default_now=True),
    Index("ix_gate_decisions_tenant_source", "tenant", "source_message_id"),
    Index("ix_gate_decisions_tenant_memory", "tenant", "memory_id"),
)

lineage_edges = Table(
    "lineage_edges",
    metadata,
    Column("tenant", Text, nullable=False),
    Column("parent_kind", Text, nullable=False),
    Column("parent_id", Text, nullable=False),
    Column("child_kind", Text, nullable=False),
    Column("child_id", Text, nullable=False),
    Column("relation", Text, nullable=False),
    _ts("created_at", default_now=True),
    PrimaryKeyConstraint(
        "tenant", "parent_kind", "parent_id", "child_kind", "child_id", name="pk_lineage_edges"
    ),
    Index("ix_lineage_edges_child", "tenant", "child_kind", "child_id"),
)

# Which records were supplied for which request: ids and hashes only, never text.
recall_log = Table(
    "recall_log",
    metadata,
    _uuid_pk(),
    Column("tenant", Text, nullable=False),
    Column("query_id", Text),
    Column("actor", Text, nullable=False),
    Column("subject", Text, nullable=False),
    Column("purpose", Text, nullable=False),
    Column("scope", Text, nullable=False),
    Column("query_hash", Text, nullable=False),
    Column("returned_ids", ARRAY(Uuid), nullable=False),
    Column("filtered_out", JSONB, nullable=False),
    Column("denied", Text),
    _ts("at", default_now=True),
    # The service that asked on its end user's behalf (the actor); NULL: the actor itself.
    Column("via", Text),
    Index("ix_recall_log_tenant_subject", "tenant", "subject", "at"),
)

# Erasure requests and their outcome per node: ids and salted hashes, never text. Consulted by
# the write gate, by index rebuilds and by restores so that nothing erased comes back.
erasure_ledger = Table(
    "erasure_ledger",
    metadata,
    _uuid_pk(),
    Column("tenant", Text, nullable=False),
    Column("request_id", Uuid, nullable=False),
    Column("target_kind", Text, nullable=False),
    Column("target_id", Text, nullable=False),
    Column("node_kind", Text, nullable=False),
    Column("node_id", Text, nullable=False),
    Column("content_hash", Text),
    Column("state", Text, nullable=False),
    Column("requested_by", Text, nullable=False),
    _ts("requested_at", default_now=True),
    _ts("blocked_at", nullable=True),
    _ts("erased_at", nullable=True),
    _ts("verified_at", nullable=True),
    Column("detail", JSONB, nullable=False, server_default=text("'{}'::jsonb")),
    Index("ix_erasure_ledger_node", "tenant", "node_kind", "node_id"),
    Index("ix_erasure_ledger_hash", "tenant", "content_hash"),
    Index("ix_erasure_ledger_request", "tenant", "request_id"),
    Index(
        "ix_erasure_ledger_requests",
        "tenant",
        "target_kind",
        "target_id",
        postgresql_where=text("node_kind = 'request'"),
    ),
    # Room in each page for a row's two updates, erased and verified, so neither writes an
    # index entry (migration 0012).
    postgresql_with={"fillfactor": 45},
)

legal_holds = Table(
    "legal_holds",
    metadata,
    _uuid_pk(),
    Column("tenant", Text, nullable=False),
    Column("subject", Text),
    Column("memory_id", Uuid),
    Column("source_message_id", Text),
    Column("reason", Text, nullable=False),
    Column("placed_by", Text, nullable=False),
    _ts("placed_at", default_now=True),
    _ts("released_at", nullable=True),
    Column("released_by", Text),
    Index("ix_legal_holds_tenant_subject", "tenant", "subject"),
)

subject_settings = Table(
    "subject_settings",
    metadata,
    Column("tenant", Text, nullable=False),
    Column("subject", Text, nullable=False),
    Column("paused", Boolean, nullable=False, server_default=text("false")),
    Column("updated_by", Text, nullable=False),
    _ts("updated_at", default_now=True),
    PrimaryKeyConstraint("tenant", "subject", name="pk_subject_settings"),
)

# Input that could not be processed, with where it was and why; a hash, not the content.
# `tenant` is NULL when the line was too broken to name one.
quarantine = Table(
    "quarantine",
    metadata,
    _uuid_pk(),
    Column("tenant", Text),
    Column("batch_id", Uuid),
    Column("file", Text, nullable=False),
    Column("line_no", Integer, nullable=False),
    Column("reason", Text, nullable=False),
    Column("content_hash", Text, nullable=False),
    _ts("quarantined_at", default_now=True),
    Index("ix_quarantine_tenant", "tenant", "quarantined_at"),
)

# Committed claims the vector index still lacks (see migration 0002).
index_queue = Table(
    "index_queue",
    metadata,
    Column("tenant", Text, nullable=False),
    Column("memory_id", Uuid, nullable=False),
    _ts("enqueued_at", default_now=True),
    PrimaryKeyConstraint("tenant", "memory_id", name="pk_index_queue"),
)

# Who may read whose memory for which purpose until when (migration 0003). The terms never
# change; revocation is recorded in place and every change is also a `grant_events` row.
grants = Table(
    "grants",
    metadata,
    _uuid_pk(),
    Column("tenant", Text, nullable=False),
    Column("actor", Text, nullable=False),
    Column("subject", Text, nullable=False),
    Column("purpose", Text, nullable=False),
    # Which claim scopes the grant covers: `global`, one `workspace:`/`project:` scope (and
    # global claims), or `*` for every scope (permem/grants.py).
    Column("scope", Text, nullable=False, server_default=text("'global'")),
    _ts("expires_at"),
    Column("granted_by", Text, nullable=False),
    _ts("granted_at", default_now=True),
    _ts("revoked_at", nullable=True),
    Column("revoked_by", Text),
    Index("ix_grants_lookup", "tenant", "actor", "subject", "purpose"),
)

grant_events = Table(
    "grant_events",
    metadata,
    _uuid_pk(),
    Column("tenant", Text, nullable=False),
    Column("grant_id", Uuid, nullable=False),
    Column("event", Text, nullable=False),
    Column("by", Text, nullable=False),
    _ts("at", default_now=True),
    Index("ix_grant_events_grant", "tenant", "grant_id"),
)

# Export files handed to users: lineage nodes, so deletion can reach them.
exports = Table(
    "exports",
    metadata,
    _uuid_pk(),
    Column("tenant", Text, nullable=False),
    Column("subject", Text, nullable=False),
    Column("format", Text, nullable=False),
    Column("path", Text, nullable=False),
    Column("records", Integer, nullable=False),
    Column("created_by", Text, nullable=False),
    _ts("created_at", default_now=True),
    _ts("erased_at", nullable=True),
    Index("ix_exports_subject", "tenant", "subject"),
)

# Per-subject data keys of the backups: deleting a key's row makes every backup block
# encrypted under it unreadable (crypto-shredding).
backup_keys = Table(
    "backup_keys",
    metadata,
    _uuid_pk(),
    Column("tenant", Text, nullable=False),
    Column("subject", Text, nullable=False),
    Column("key", LargeBinary, nullable=False),
    _ts("created_at", default_now=True),
    Index("ix_backup_keys_subject", "tenant", "subject"),
)

# Backup files written: which keys each one needs, and when it was dropped.
backups = Table(
    "backups",
    metadata,
    _uuid_pk(),
    Column("tenant", Text, nullable=False),
    Column("path", Text, nullable=False),
    Column("sha256", Text, nullable=False),
    Column("subjects", Integer, nullable=False),
    Column("records", Integer, nullable=False),
    Column("key_ids", ARRAY(Uuid), nullable=False),
    Column("created_by", Text, nullable=False),
    _ts("created_at", default_now=True),
    _ts("dropped_at", nullable=True),
    Index("ix_backups_tenant", "tenant", "created_at"),
)

# Keys of the HTTP service: a keyed hash of the key (never the key), who it acts as, for what.
api_keys = Table(
    "api_keys",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("tenant", Text, nullable=False),
    Column("actor", Text, nullable=False),
    Column("role", Text, nullable=False),
    Column("purposes", ARRAY(Text), nullable=False),
    Column("key_hash", Text, nullable=False),
    _ts("expires_at", nullable=True),
    _ts("created_at", default_now=True),
    _ts("revoked_at", nullable=True),
    Index("ix_api_keys_tenant", "tenant", "created_at"),
)

# Append-only audit of each key: created, used (one row a request), revoked.
api_key_events = Table(
    "api_key_events",
    metadata,
    _uuid_pk(),
    Column("tenant", Text, nullable=False),
    Column("key_id", Uuid, nullable=False),
    Column("event", Text, nullable=False),
    Column("by", Text, nullable=False),
    _ts("at", default_now=True),
    Column("detail", Text),
    Index("ix_api_key_events_key", "tenant", "key_id", "at"),
)

# Which of a recall's records the caller's response used, as the caller reported it.
recall_influence = Table(
    "recall_influence",
    metadata,
    _uuid_pk(),
    Column("tenant", Text, nullable=False),
    Column("recall_id", Uuid, nullable=False),
    Column("subject", Text, nullable=False),
    Column("used_ids", ARRAY(Uuid), nullable=False),
    Column("note", Text),
    Column("reported_by", Text, nullable=False),
    _ts("reported_at", default_now=True),
    Index("ix_recall_influence_recall", "tenant", "recall_id"),
    # Reports naming an erased claim, found by erasure and its verification (migration 0013).
    Index("ix_recall_influence_used_ids", "used_ids", postgresql_using="gin"),
)

# The synthesized profile (migration 0010): the current version only, per subject, purpose and
# scope; `lines` cite claim ids, and `claim_ids` repeats them for erasure.
profiles = Table(
    "profiles",
    metadata,
    _uuid_pk(),
    Column("tenant", Text, nullable=False),
    Column("subject", Text, nullable=False),
    Column("purpose", Text, nullable=False),
    Column("scope", Text, nullable=False),
    Column("version", Integer, nullable=False),
    Column("synthesiser", Text, nullable=False),
    Column("lines", JSONB, nullable=False),
    Column("claim_ids", ARRAY(Uuid), nullable=False),
    _ts("built_at", default_now=True),
    UniqueConstraint("tenant", "subject", "purpose", "scope", name="uq_profiles_key"),
)

TENANT_TABLES: tuple[Table, ...] = (
    sources,
    memories,
    memory_events,
    gate_decisions,
    lineage_edges,
    recall_log,
    erasure_ledger,
    legal_holds,
    subject_settings,
    quarantine,
    index_queue,
    grants,
    grant_events,
    exports,
    backup_keys,
    backups,
    api_keys,
    api_key_events,
    recall_influence,
    profiles,
)
