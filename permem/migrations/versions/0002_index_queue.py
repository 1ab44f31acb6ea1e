"""Index queue: the claims committed to the system of record that the vector index still lacks.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30

A row is written in the same transaction as the claim (or the confirmation) that makes it
indexable, and deleted in the same transaction as the lineage edges of its index row, so the
indexer reads exactly the backlog, however large the table, and a crash in between is
repaired by the next run.
"""

import sqlalchemy as sa
from alembic import context, op

from permem.migrations.tenancy import tenant_isolation

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    app_role = context.config.attributes.get("app_role", "permem_app")
    op.create_table(
        "index_queue",
        sa.Column("tenant", sa.Text, nullable=False),
        sa.Column("memory_id", sa.Uuid, nullable=False),
        sa.Column(
            "enqueued_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()
        ),
        sa.PrimaryKeyConstraint("tenant", "memory_id", name="pk_index_queue"),
    )
    tenant_isolation("index_queue")
    op.execute("CREATE TRIGGER index_queue_append_only BEFORE UPDATE ON index_queue "
               "FOR EACH ROW EXECUTE FUNCTION permem_refuse_update()")  # fmt: skip
    op.execute(f"GRANT SELECT, INSERT, DELETE ON index_queue TO {app_role}")


def downgrade() -> None:
    op.drop_table("index_queue")
