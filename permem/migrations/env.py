"""Alembic environment: permem always passes an open connection (see permem.stores.migrate)."""

from alembic import context

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through `permem db upgrade`, which supplies the connection")

context.configure(connection=connection, target_metadata=None, transaction_per_migration=True)
with context.begin_transaction():
    context.run_migrations()
