"""The append-only guard compares a row once before it lists what changed.

`permem_refuse_update` (0001) listed every column an UPDATE changed, through `jsonb_each` of
the old and the new row, for every row: about 80 microseconds a row, so a forget request of
many subjects spent most of its erase and verify runs in the guard of the ledger rows it marks
erased, then verified (measured: 6 s for 73k rows, each). Now the row without the columns the
table lets change is compared once (`to_jsonb(NEW) - TG_ARGV = to_jsonb(OLD) - TG_ARGV`); only
when it differs are the changed columns listed, for the same error as before. What the guard
refuses is unchanged. The ledger's guard, whose rows erasure updates by the hundred thousand,
runs only when a column outside its mutable ones differs (a `WHEN` on its immutable columns,
checked without calling the function; `tests/test_append_only.py` checks that it names every
other column of the table).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-05
"""

from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

_LIST_AND_REFUSE = """
    SELECT array_agg(n.key ORDER BY n.key) INTO changed
    FROM jsonb_each(to_jsonb(NEW)) AS n
    JOIN jsonb_each(to_jsonb(OLD)) AS o USING (key)
    WHERE n.value IS DISTINCT FROM o.value
      AND NOT coalesce(n.key = ANY (TG_ARGV), false);
    IF changed IS NOT NULL THEN
        RAISE EXCEPTION 'permem: % is append-only; refusing to update %',
            TG_TABLE_NAME, array_to_string(changed, ', ')
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
"""


def _guard(fast_path: str) -> str:
    return f"""
        CREATE OR REPLACE FUNCTION permem_refuse_update() RETURNS trigger
        LANGUAGE plpgsql AS $$
        DECLARE
            changed text[];
        BEGIN
            {fast_path}
            {_LIST_AND_REFUSE}
        END $$
    """


LEDGER_MUTABLE = ("state", "blocked_at", "erased_at", "verified_at", "detail")
LEDGER_IMMUTABLE = (
    "id", "tenant", "request_id", "target_kind", "target_id", "node_kind", "node_id",
    "content_hash", "requested_by", "requested_at",
)  # fmt: skip


def _ledger_guard(when: str) -> None:
    args = ", ".join(f"'{c}'" for c in LEDGER_MUTABLE)
    op.execute("DROP TRIGGER erasure_ledger_append_only ON erasure_ledger")
    op.execute(
        f"CREATE TRIGGER erasure_ledger_append_only BEFORE UPDATE ON erasure_ledger "
        f"FOR EACH ROW {when} EXECUTE FUNCTION permem_refuse_update({args})"
    )


def upgrade() -> None:
    op.execute(
        _guard(
            """
            IF to_jsonb(NEW) - coalesce(TG_ARGV, '{}'::text[])
               = to_jsonb(OLD) - coalesce(TG_ARGV, '{}'::text[]) THEN
                RETURN NEW;  -- only columns the table lets change were changed
            END IF;
            """
        )
    )
    old = ", ".join(f"OLD.{c}" for c in LEDGER_IMMUTABLE)
    new = ", ".join(f"NEW.{c}" for c in LEDGER_IMMUTABLE)
    _ledger_guard(f"WHEN (({old}) IS DISTINCT FROM ({new}))")


def downgrade() -> None:
    _ledger_guard("")
    op.execute(_guard(""))
