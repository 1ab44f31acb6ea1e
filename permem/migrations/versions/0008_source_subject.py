"""The speaker of each source message: the log's `subject` on a shared account.

One account may be used by several people (`<account>:<person>`, FORMATS.md). Forgetting one
of them must reach the metadata of the messages they wrote, not only the claims about them, so
`sources` records who spoke. Rows written before this revision hold NULL: the account holder.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("sources", sa.Column("subject", sa.Text(), nullable=True))


def downgrade() -> None:
    op.drop_column("sources", "subject")
