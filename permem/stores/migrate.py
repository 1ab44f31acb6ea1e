"""Schema migrations, run as the database owner through Alembic."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from permem.stores.database import Database


def _config(app_role: str | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", "permem:migrations")
    if app_role is not None:
        config.attributes["app_role"] = app_role
    return config


def upgrade(db: Database, revision: str = "head") -> None:
    """Bring the schema to `revision` (creates the application role when missing)."""
    _run(db, "upgrade", revision)


def downgrade(db: Database, revision: str) -> None:
    """Take the schema back to `revision` (`base` drops every permem table)."""
    _run(db, "downgrade", revision)


def _run(db: Database, direction: str, revision: str) -> None:
    config = _config(db.app_role)
    engine = db.owner_engine()
    try:
        with engine.begin() as conn:
            config.attributes["connection"] = conn
            getattr(command, direction)(config, revision)
    finally:
        engine.dispose()
        db.app.dispose()  # pooled app connections may hold plans of dropped tables


def current_revision(db: Database) -> str | None:
    engine = db.owner_engine()
    try:
        with engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()
    finally:
        engine.dispose()


def head_revision() -> str | None:
    return ScriptDirectory.from_config(_config()).get_current_head()
