"""Backups with crypto-shredding: per-subject data keys, and the backup files written.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import context, op
from sqlalchemy.dialects.postgresql import ARRAY

from permem.migrations.tenancy import tenant_isolation

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_TABLES = ("backup_keys", "backups")


def upgrade() -> None:
    app_role = context.config.attributes.get("app_role", "permem_app")
    now = sa.func.now()
    # One live data key per subject; a key is destroyed by deleting its row (crypto-shredding).
    op.create_table(
        "backup_keys",
        sa.Column("id", sa.Uuid, primary_key=True, server_default=sa.text("gen_random_uuid()")),
        sa.Column("tenant", sa.Text, nullable=False),
        sa.Column("subject", sa.Text, nullable=False),
        sa.Column("key", sa.LargeBinary, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=now),
        sa.CheckConstraint("octet_length(key) = 32", name="ck_backup_keys_length"),
    )
    op.create_index("ix_backup_keys_subject", "backup_keys", ["tenant", "subject"])
    op.create_table(
        "backups",
        sa.Column("id", sa.Uuid, primary_key=True, server_default=sa.text("gen_random_uuid()")),
        sa.Column("tenant", sa.Text, nullable=False),
        sa.Column("path", sa.Text, nullable=False),
        sa.Column("sha256", sa.Text, nullable=False),
        sa.Column("subjects", sa.Integer, nullable=False),
        sa.Column("records", sa.Integer, nullable=False),
        sa.Column("key_ids", ARRAY(sa.Uuid), nullable=False),
        sa.Column("created_by", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=now),
        sa.Column("dropped_at", sa.DateTime(timezone=True)),
    )
    op.create_index("ix_backups_tenant", "backups", ["tenant", "created_at"])
    for table in _TABLES:
        tenant_isolation(table)
    op.execute(
        "CREATE TRIGGER backup_keys_append_only BEFORE UPDATE ON backup_keys FOR EACH ROW "
        "EXECUTE FUNCTION permem_refuse_update()"
    )
    op.execute(
        "CREATE TRIGGER backups_append_only BEFORE UPDATE ON backups FOR EACH ROW "
        "EXECUTE FUNCTION permem_refuse_update('dropped_at', 'path', 'sha256', 'key_ids', "
        "'records')"
    )
    op.execute(f"GRANT SELECT, INSERT, DELETE ON backup_keys TO {app_role}")
    op.execute(
        "GRANT SELECT, INSERT, DELETE, UPDATE (dropped_at, path, sha256, key_ids, records) "
        f"ON backups TO {app_role}"
    )


def downgrade() -> None:
    for table in reversed(_TABLES):
        op.drop_table(table)
