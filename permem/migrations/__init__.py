"""Alembic migrations of the system of record (script location `permem:migrations`)."""
