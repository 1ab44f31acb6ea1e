"""A superseded claim records when the claim that replaced it was said.

Recall judges a claim as it stood at the request's time (`permem.recall_asof`): a claim
superseded by one said after the request was still current for it. The replacing claim's
`observed_at` was reachable only through the status event's reason ("superseded by <id>") and
a join per row; as a correlated subquery in recall's column checks that cost about 4 s a
request at 1.1M claims (benchmarks/results/erasure.txt, "->empty", stop 42). Now
`memories.superseded_from` holds it, set with the status (`revisions.move_status`,
`stores.memories.append_correction`): a column predicate. Existing superseded claims are
filled from their latest supersession event. The column is one the append-only guard lets
change, and the application role may update, like `status`.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-08
"""

import sqlalchemy as sa
from alembic import context, op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

_BEFORE = ("status", "confirmation")
_AFTER = (*_BEFORE, "superseded_from")


def _guard(columns: tuple[str, ...]) -> None:
    args = ", ".join(f"'{c}'" for c in columns)
    op.execute("DROP TRIGGER memories_append_only ON memories")
    op.execute(
        "CREATE TRIGGER memories_append_only BEFORE UPDATE ON memories "
        f"FOR EACH ROW EXECUTE FUNCTION permem_refuse_update({args})"
    )


def upgrade() -> None:
    app_role = context.config.attributes.get("app_role", "permem_app")
    op.add_column("memories", sa.Column("superseded_from", sa.DateTime(timezone=True)))
    _guard(_AFTER)
    op.execute(
        r"""
        UPDATE memories m SET superseded_from = s.observed_at
        FROM (
            SELECT DISTINCT ON (e.memory_id) e.memory_id,
                   substring(e.reason FROM '^superseded by ([0-9a-f-]{36})$')::uuid AS cause
            FROM memory_events e
            WHERE e.field = 'status' AND e.new_value = 'superseded'
            ORDER BY e.memory_id, e.at DESC
        ) latest
        JOIN memories s ON s.id = latest.cause
        WHERE m.id = latest.memory_id AND m.status = 'superseded'
        """
    )
    op.execute(f"GRANT UPDATE (superseded_from) ON memories TO {app_role}")


def downgrade() -> None:
    app_role = context.config.attributes.get("app_role", "permem_app")
    op.execute(f"REVOKE UPDATE (superseded_from) ON memories FROM {app_role}")
    _guard(_BEFORE)
    op.drop_column("memories", "superseded_from")
