"""The residue checks of erasure read by index, not by scanning the table.

A verification looks in `memories` for any claim with the erased claim's text (its salted
`claim_hash`: a copy stored again under a new id, which the subject fingerprint then tells
apart), and in `recall_influence` for any report naming an erased claim (`used_ids && ids`).
Neither column was indexed, so every verification, and every erase of the reports, scanned the
whole table. Now `claim_hash` has a B-tree index beside the subject's, and `used_ids` a GIN
index (the array operators' own). Measured (benchmarks/results/erasure.txt, stop 41, one
subject's 1,000 claims at 1.1M): the PostgreSQL check 3.45 s in the run before, 2.66 s in the
run after (not side by side); what remains is reading and fingerprinting every claim that
shares an erased claim's text (179,654 rows in that corpus, whose texts repeat across
subjects), which a subject-bound fingerprint column would remove. The influence reports'
index is not measured there (the benchmark makes no reports).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-07
"""

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_memories_tenant_claim_hash", "memories", ["tenant", "claim_hash"])
    op.create_index(
        "ix_recall_influence_used_ids", "recall_influence", ["used_ids"], postgresql_using="gin"
    )


def downgrade() -> None:
    op.drop_index("ix_recall_influence_used_ids", table_name="recall_influence")
    op.drop_index("ix_memories_tenant_claim_hash", table_name="memories")
