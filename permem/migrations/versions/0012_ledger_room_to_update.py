"""The erasure ledger leaves room in each page for its rows' two updates.

Every ledger node row is written once when a request blocks it, then updated exactly twice:
`erased` by the erase run, `verified` by the verification (later verifications change only
rows that failed). None of the columns those updates change (`LEDGER_MUTABLE` of 0011) is
indexed, so each could be a heap-only tuple update, which writes no index entry, but only when
the new row version fits on the row's own page: with the default fill factor (100) pages are
full and every update wrote a new entry in each of the table's five indexes. A fill factor of
45 leaves room for both versions. Measured on the server (a 365,000-row table shaped like the
ledger, the updates of one forget request of 1,000 subjects): erased 12.5 -> 2.5 s, verified
14.2 -> 3.1 s, every update heap-only, the table with its indexes 426 -> 311 MB.

Pages written before this revision keep their layout until the table is rewritten; new ledger
rows (every later request) get the room.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-07
"""

from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

LEDGER_FILLFACTOR = 45


def upgrade() -> None:
    op.execute(f"ALTER TABLE erasure_ledger SET (fillfactor = {LEDGER_FILLFACTOR})")


def downgrade() -> None:
    op.execute("ALTER TABLE erasure_ledger RESET (fillfactor)")
