"""An index for recall's check of forget requests (request rows of the erasure ledger).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "ix_erasure_ledger_requests",
        "erasure_ledger",
        ["tenant", "target_kind", "target_id"],
        postgresql_where=sa.text("node_kind = 'request'"),
    )


def downgrade() -> None:
    op.drop_index("ix_erasure_ledger_requests", table_name="erasure_ledger")
