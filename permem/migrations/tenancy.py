"""Tenant row-level security as the migrations create it: one helper for every tenant table.

Frozen like the migrations that call it: a migration must keep doing what it did when it ran,
so a different rule is a new function (or a new migration), never an edit of this one.
"""

from alembic import op

__all__ = ["BOUND_TENANT", "tenant_isolation"]

# The tenant the transaction is bound to (permem.stores.database.tenant_transaction); NULL
# when unbound, so `tenant = BOUND_TENANT` then holds for no row.
BOUND_TENANT = "current_setting('permem.tenant', true)"


def tenant_isolation(table: str, predicate: str | None = None, *, force: bool = True) -> None:
    """Row-level security on `table`: policy `<table>_tenant_isolation` shows and accepts only
    the rows where `predicate` holds (by default: `tenant` is the bound tenant).

    `force` applies it to the table owner too; the tenant registry is the one table its owner
    (the maintenance jobs) reads whole.
    """
    predicate = predicate or f"tenant = {BOUND_TENANT}"
    op.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
    if force:
        op.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
    op.execute(
        f"CREATE POLICY {table}_tenant_isolation ON {table} "
        f"USING ({predicate}) WITH CHECK ({predicate})"
    )
