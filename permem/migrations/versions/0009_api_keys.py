"""API keys of the HTTP service with their audit trail; influence reports beside the recall log.

A key is stored as a keyed hash only (HMAC-SHA256 under the tenant's salt), never the key.
`api_key_events` is append-only (creation, use, revocation); a key's terms never change except
for its revocation. `recall_influence` records which of a recall's records a response used.
`recall_log.via` names the service that asked on its end user's behalf (NULL: the actor
itself).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import context, op

from permem.migrations.tenancy import tenant_isolation

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_TABLES = ("api_keys", "api_key_events", "recall_influence")


def upgrade() -> None:
    app_role = context.config.attributes.get("app_role", "permem_app")
    now = sa.func.now()
    op.add_column("recall_log", sa.Column("via", sa.Text(), nullable=True))
    op.create_table(
        "api_keys",
        sa.Column("id", sa.Uuid, primary_key=True),
        sa.Column("tenant", sa.Text, nullable=False),
        sa.Column("actor", sa.Text, nullable=False),
        sa.Column("role", sa.Text, nullable=False),
        sa.Column("purposes", sa.ARRAY(sa.Text), nullable=False),
        sa.Column("key_hash", sa.Text, nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True)),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=now),
        sa.Column("revoked_at", sa.DateTime(timezone=True)),
        sa.CheckConstraint("role IN ('user', 'service')", name="ck_api_keys_role"),
        sa.CheckConstraint(
            "role <> 'service' OR cardinality(purposes) > 0", name="ck_api_keys_service_purposes"
        ),
    )
    op.create_index("ix_api_keys_tenant", "api_keys", ["tenant", "created_at"])
    op.create_table(
        "api_key_events",
        sa.Column("id", sa.Uuid, primary_key=True, server_default=sa.text("gen_random_uuid()")),
        sa.Column("tenant", sa.Text, nullable=False),
        sa.Column("key_id", sa.Uuid, nullable=False),
        sa.Column("event", sa.Text, nullable=False),
        sa.Column("by", sa.Text, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False, server_default=now),
        sa.Column("detail", sa.Text),
        sa.CheckConstraint("event IN ('created', 'used', 'revoked')", name="ck_api_key_events"),
    )
    op.create_index("ix_api_key_events_key", "api_key_events", ["tenant", "key_id", "at"])
    op.create_table(
        "recall_influence",
        sa.Column("id", sa.Uuid, primary_key=True, server_default=sa.text("gen_random_uuid()")),
        sa.Column("tenant", sa.Text, nullable=False),
        sa.Column("recall_id", sa.Uuid, nullable=False),
        sa.Column("subject", sa.Text, nullable=False),
        sa.Column("used_ids", sa.ARRAY(sa.Uuid), nullable=False),
        sa.Column("note", sa.Text),
        sa.Column("reported_by", sa.Text, nullable=False),
        sa.Column("reported_at", sa.DateTime(timezone=True), nullable=False, server_default=now),
    )
    op.create_index("ix_recall_influence_recall", "recall_influence", ["tenant", "recall_id"])
    for table in _TABLES:
        tenant_isolation(table)
    op.execute(
        "CREATE TRIGGER api_keys_append_only BEFORE UPDATE ON api_keys FOR EACH ROW "
        "EXECUTE FUNCTION permem_refuse_update('revoked_at')"
    )
    for table in ("api_key_events", "recall_influence"):
        op.execute(
            f"CREATE TRIGGER {table}_append_only BEFORE UPDATE ON {table} FOR EACH ROW "
            "EXECUTE FUNCTION permem_refuse_update()"
        )
    op.execute(f"GRANT SELECT, INSERT, UPDATE (revoked_at) ON api_keys TO {app_role}")
    op.execute(f"GRANT SELECT, INSERT ON api_key_events TO {app_role}")
    # DELETE: erasure removes the reports about an erased subject or claim.
    op.execute(f"GRANT SELECT, INSERT, DELETE ON recall_influence TO {app_role}")


def downgrade() -> None:
    for table in reversed(_TABLES):
        op.drop_table(table)
    op.drop_column("recall_log", "via")
