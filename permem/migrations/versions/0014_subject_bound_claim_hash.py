"""Each claim carries its subject-bound fingerprint, so erasure's residue check is one lookup.

The erasure ledger keeps of an erased claim only `subject_fingerprint(salt, subject, claim)`.
A verification asked whether the subject holds that text again (a copy stored under a new id)
by reading every claim with the same salted text (`claim_hash`, indexed by 0013) and
fingerprinting each in Python: where texts repeat across subjects ("I'm vegetarian") that read
179,654 rows for one subject's 1,000 claims at 1.1M (2.66 s, benchmarks/results/erasure.txt,
stop 41). Now `memories.subject_hash` holds that fingerprint, written with the row, indexed
beside the tenant; the check reads only the rows whose fingerprint is in the ledger. The
`claim_hash` index of 0013 served only that check and goes (one index less to write per
claim). Existing rows are fingerprinted here under their tenant's salt; the append-only guard
is lifted for that one statement only.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-07
"""

from typing import Any

import sqlalchemy as sa
from alembic import op

from permem.hashing import subject_fingerprint

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

_BATCH = 50_000


def _backfill(conn: sa.Connection) -> None:
    raw: Any = conn.connection.driver_connection
    salts = dict(conn.execute(sa.text("SELECT tenant, hash_salt FROM tenants")).all())
    with raw.cursor() as cursor:
        cursor.execute("CREATE TEMP TABLE _subject_hash (id uuid, h text) ON COMMIT DROP")
        with raw.cursor(name="_subject_hash_read") as read:
            read.execute("SELECT id, tenant, subject, claim FROM memories")
            # A batch is read, then copied: one connection cannot fetch while a COPY is open.
            while batch := read.fetchmany(_BATCH):
                with cursor.copy("COPY _subject_hash (id, h) FROM STDIN") as copy:
                    for memory_id, tenant, subject, claim in batch:
                        salt = bytes(salts[tenant])
                        copy.write_row((memory_id, subject_fingerprint(salt, subject, claim)))
        cursor.execute("ALTER TABLE memories DISABLE TRIGGER memories_append_only")
        cursor.execute(
            "UPDATE memories m SET subject_hash = s.h FROM _subject_hash s WHERE m.id = s.id"
        )
        cursor.execute("ALTER TABLE memories ENABLE TRIGGER memories_append_only")


def upgrade() -> None:
    op.add_column("memories", sa.Column("subject_hash", sa.Text, nullable=True))
    _backfill(op.get_bind())
    op.alter_column("memories", "subject_hash", nullable=False)
    op.create_index("ix_memories_tenant_subject_hash", "memories", ["tenant", "subject_hash"])
    op.drop_index("ix_memories_tenant_claim_hash", table_name="memories")


def downgrade() -> None:
    op.create_index("ix_memories_tenant_claim_hash", "memories", ["tenant", "claim_hash"])
    op.drop_index("ix_memories_tenant_subject_hash", table_name="memories")
    op.drop_column("memories", "subject_hash")
