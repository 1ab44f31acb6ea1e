"""Row-level security on the tenant registry: the application role sees only its bound tenant.

Until now any application connection could list every tenant's name. The registry is now
row-level secured like every other table, but not *forced*: the table owner (migrations, and the
maintenance jobs that enumerate tenants through `permem.stores.database.list_tenants`) still sees
every row, while the application role sees and registers only the tenant its transaction is
bound to. `permem_tenant_salt()` runs as the owner (SECURITY DEFINER) and is unaffected.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from alembic import op

from permem.migrations.tenancy import tenant_isolation

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    tenant_isolation("tenants", force=False)


def downgrade() -> None:
    op.execute("DROP POLICY tenants_tenant_isolation ON tenants")
    op.execute("ALTER TABLE tenants DISABLE ROW LEVEL SECURITY")
