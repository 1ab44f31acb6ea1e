"""The synthesized profile: one current version per subject, purpose and scope.

A profile is a lineage derivative of the claims it cites (`memory -> profile` edges). Only the
current version is stored: a regeneration deletes the old row (and its edges) and inserts the
next version, so the application may select, insert and delete, never update. `claim_ids`
repeats the ids the lines cite, so erasure finds every version that cites a forgotten claim.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import context, op

from permem.migrations.tenancy import tenant_isolation

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    app_role = context.config.attributes.get("app_role", "permem_app")
    op.create_table(
        "profiles",
        sa.Column("id", sa.Uuid, primary_key=True, server_default=sa.text("gen_random_uuid()")),
        sa.Column("tenant", sa.Text, nullable=False),
        sa.Column("subject", sa.Text, nullable=False),
        sa.Column("purpose", sa.Text, nullable=False),
        sa.Column("scope", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("synthesiser", sa.Text, nullable=False),
        sa.Column("lines", sa.dialects.postgresql.JSONB, nullable=False),
        sa.Column("claim_ids", sa.ARRAY(sa.Uuid), nullable=False),
        sa.Column(
            "built_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()
        ),
        sa.UniqueConstraint("tenant", "subject", "purpose", "scope", name="uq_profiles_key"),
        sa.CheckConstraint("version >= 1", name="ck_profiles_version"),
    )
    tenant_isolation("profiles")
    op.execute(
        "CREATE TRIGGER profiles_append_only BEFORE UPDATE ON profiles FOR EACH ROW "
        "EXECUTE FUNCTION permem_refuse_update()"
    )
    op.execute(f"GRANT SELECT, INSERT, DELETE ON profiles TO {app_role}")


def downgrade() -> None:
    op.drop_table("profiles")
