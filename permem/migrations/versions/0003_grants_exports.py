"""Grants (who may read whose memory, for what, until when) with their audit trail; exports.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import context, op

from permem.migrations.tenancy import tenant_isolation

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

_TABLES = ("grants", "grant_events", "exports")


def upgrade() -> None:
    app_role = context.config.attributes.get("app_role", "permem_app")
    now = sa.func.now()
    op.create_table(
        "grants",
        sa.Column("id", sa.Uuid, primary_key=True, server_default=sa.text("gen_random_uuid()")),
        sa.Column("tenant", sa.Text, nullable=False),
        sa.Column("actor", sa.Text, nullable=False),
        sa.Column("subject", sa.Text, nullable=False),
        sa.Column("purpose", sa.Text, nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("granted_by", sa.Text, nullable=False),
        sa.Column("granted_at", sa.DateTime(timezone=True), nullable=False, server_default=now),
        sa.Column("revoked_at", sa.DateTime(timezone=True)),
        sa.Column("revoked_by", sa.Text),
        sa.CheckConstraint("actor <> subject", name="ck_grants_not_self"),
        sa.CheckConstraint("(revoked_at IS NULL) = (revoked_by IS NULL)", name="ck_grants_revoke"),
    )
    op.create_index("ix_grants_lookup", "grants", ["tenant", "actor", "subject", "purpose"])
    op.create_table(
        "grant_events",
        sa.Column("id", sa.Uuid, primary_key=True, server_default=sa.text("gen_random_uuid()")),
        sa.Column("tenant", sa.Text, nullable=False),
        sa.Column("grant_id", sa.Uuid, nullable=False),
        sa.Column("event", sa.Text, nullable=False),
        sa.Column("by", sa.Text, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False, server_default=now),
        sa.CheckConstraint("event IN ('granted', 'revoked')", name="ck_grant_events_event"),
    )
    op.create_index("ix_grant_events_grant", "grant_events", ["tenant", "grant_id"])
    op.create_table(
        "exports",
        sa.Column("id", sa.Uuid, primary_key=True, server_default=sa.text("gen_random_uuid()")),
        sa.Column("tenant", sa.Text, nullable=False),
        sa.Column("subject", sa.Text, nullable=False),
        sa.Column("format", sa.Text, nullable=False),
        sa.Column("path", sa.Text, nullable=False),
        sa.Column("records", sa.Integer, nullable=False),
        sa.Column("created_by", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=now),
        sa.Column("erased_at", sa.DateTime(timezone=True)),
        sa.CheckConstraint("format IN ('json', 'csv')", name="ck_exports_format"),
    )
    op.create_index("ix_exports_subject", "exports", ["tenant", "subject"])
    for table in _TABLES:
        tenant_isolation(table)
    # A grant's terms never change; revocation is recorded, and every change is an event.
    op.execute(
        "CREATE TRIGGER grants_append_only BEFORE UPDATE ON grants FOR EACH ROW "
        "EXECUTE FUNCTION permem_refuse_update('revoked_at', 'revoked_by')"
    )
    op.execute(
        "CREATE TRIGGER grant_events_append_only BEFORE UPDATE ON grant_events FOR EACH ROW "
        "EXECUTE FUNCTION permem_refuse_update()"
    )
    op.execute(
        "CREATE TRIGGER exports_append_only BEFORE UPDATE ON exports FOR EACH ROW "
        "EXECUTE FUNCTION permem_refuse_update('erased_at')"
    )
    op.execute(
        f"GRANT SELECT, INSERT, DELETE, UPDATE (revoked_at, revoked_by) ON grants TO {app_role}"
    )
    op.execute(f"GRANT SELECT, INSERT, DELETE ON grant_events TO {app_role}")
    op.execute(f"GRANT SELECT, INSERT, DELETE, UPDATE (erased_at) ON exports TO {app_role}")


def downgrade() -> None:
    for table in reversed(_TABLES):
        op.drop_table(table)
