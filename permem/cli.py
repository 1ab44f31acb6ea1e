"""The `permem` command line (FORMATS.md's contract).

Exit codes: 0 success, 1 a check that ran and failed, 2 bad input or an unusable environment,
always with one line on standard error.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import Annotated, NoReturn, ParamSpec, TypeVar

import sqlalchemy.exc
import typer
from rich.console import Console
from rich.table import Table

from permem import controls
from permem.errors import CheckFailed, ConfigurationError, PermemError
from permem.records import UserMemory
from permem.settings import load_settings
from permem.stores import migrate
from permem.stores.database import Database, open_database

app = typer.Typer(
    name="permem",
    help="Personalization memory: scoped, purpose-bound, attributable, erasable.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
db_app = typer.Typer(help="Schema administration of the system of record.", no_args_is_help=True)
app.add_typer(db_app, name="db")

P = ParamSpec("P")
R = TypeVar("R")

JsonFlag = Annotated[bool, typer.Option("--json", help="Machine-readable output (JSON lines).")]
TenantOpt = Annotated[str, typer.Option("--tenant", help="The tenant (isolation boundary).")]


def _fail(message: str, code: int) -> NoReturn:
    typer.echo(f"permem: {message.splitlines()[0] if message else 'failed'}", err=True)
    raise typer.Exit(code)


def guarded(fn: Callable[P, R]) -> Callable[P, R]:
    """Turn permem's errors into one line on stderr and the contract's exit code."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except CheckFailed as exc:
            _fail(str(exc), 1)
        except PermemError as exc:
            _fail(str(exc), 2)
        except sqlalchemy.exc.ProgrammingError as exc:
            if "does not exist" in str(exc.orig):
                _fail("the database has no permem schema; run `permem db upgrade`", 2)
            raise
        except sqlalchemy.exc.OperationalError as exc:
            _fail(f"cannot use the database: {exc.orig}", 2)

    return wrapper


def _database() -> Database:
    return open_database(load_settings())


def _not_implemented(command: str) -> NoReturn:
    raise ConfigurationError(f"`permem {command}` is not implemented yet")


def _print_records(records: list[UserMemory], as_json: bool) -> None:
    if as_json:
        for record in records:
            sys.stdout.write(json.dumps(record.as_json(), ensure_ascii=False) + "\n")
        return
    table = Table("id", "subject", "claim", "origin", "scope", "purpose", "status", "supersedes")
    for r in records:
        table.add_row(
            str(r.id)[:8],
            r.subject,
            r.claim,
            r.origin.value,
            r.scope,
            r.purpose,
            f"{r.status.value}/{r.confirmation.value}",
            str(r.supersedes)[:8] if r.supersedes else "",
        )
    console = Console()
    if not console.is_terminal:
        console = Console(width=160)
    console.print(table)


@db_app.command("upgrade")
@guarded
def db_upgrade(revision: str = typer.Argument("head", help="Target revision.")) -> None:
    """Migrate the schema to the latest revision (creates the application role if missing)."""
    db = _database()
    try:
        migrate.upgrade(db, revision)
        typer.echo(f"schema at revision {migrate.current_revision(db)}")
    finally:
        db.dispose()


@db_app.command("downgrade")
@guarded
def db_downgrade(
    revision: str = typer.Argument(..., help="Target revision; `base` drops all."),
) -> None:
    """Migrate the schema back to an earlier revision."""
    db = _database()
    try:
        migrate.downgrade(db, revision)
        typer.echo(f"schema at revision {migrate.current_revision(db)}")
    finally:
        db.dispose()


@app.command()
@guarded
def inspect(
    tenant: TenantOpt,
    subject: Annotated[
        str | None, typer.Option("--subject", help="Only this subject's records.")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Every record of the subject (or tenant), history included."""
    db = _database()
    try:
        _print_records(controls.inspect(db, tenant, subject), as_json)
    finally:
        db.dispose()


@app.command()
@guarded
def demo(as_json: JsonFlag = False) -> None:
    """Write a small example through the core API into tenant `demo` and inspect it."""
    from permem import demo as example

    db = _database()
    try:
        migrate.upgrade(db)
        written = example.seed(db)
        if not as_json:
            typer.echo(f"wrote {written} records for {example.SUBJECT} in tenant {example.TENANT}")
        _print_records(controls.inspect(db, example.TENANT, example.SUBJECT), as_json)
    finally:
        db.dispose()


def _register_pending() -> None:
    """Commands of the contract that later work builds; each exits 2 until then."""
    pending = {
        "nightly": "Run the nightly extraction flow over a log file or folder.",
        "recall": "Answer recall queries (JSON lines).",
        "explain": "The operational contract's eight answers for one claim.",
        "correct": "Append a correction that supersedes a claim.",
        "confirm": "Confirm a pending claim.",
        "reject": "Reject a pending claim.",
        "pause": "Stop using and creating a subject's memory.",
        "resume": "Restart using and creating a subject's memory.",
        "forget": "Deletion flow: block, erase every derivative, verify.",
        "export": "The subject's data as JSON or CSV.",
        "expire": "The expiry flow.",
        "verify-erasure": "The deletion-verification flow; exit 1 on residue.",
        "backup": "The backup flow.",
        "erase-backups": "The backup-erasure flow.",
        "rebuild-index": "Rebuild every derived index from the system of record.",
        "redact": "Redact text lines from standard input.",
    }
    for name, help_text in pending.items():
        app.command(
            name,
            help=help_text,
            context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
        )(_pending_command(name))


def _pending_command(name: str) -> Callable[[typer.Context], None]:
    def command(ctx: typer.Context) -> None:
        guarded(_not_implemented)(name)

    return command


_register_pending()


def main() -> None:
    app()
