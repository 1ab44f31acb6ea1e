"""Grants carry a scope: which claim scopes of the subject a grant lets its holder use.

`global` (the default, and every grant made before this revision) covers only global claims;
`workspace:<name>` or `project:<name>` covers that scope and global claims; `*` covers every
scope (only when the grantor said so explicitly). See permem/grants.py.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Adding a column with a default rewrites no row, so the append-only trigger on grants
    # (which refuses updates of any column but revoked_at, revoked_by) is not involved.
    op.add_column(
        "grants",
        sa.Column("scope", sa.Text, nullable=False, server_default=sa.text("'global'")),
    )


def downgrade() -> None:
    op.drop_column("grants", "scope")
