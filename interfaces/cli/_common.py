"""What every command shares: the error contract, the common options, the open/act/print
shape over the system of record, and the record table."""

from __future__ import annotations

import functools
import json
import sys
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Annotated, NoReturn, ParamSpec, TypeVar

import sqlalchemy.exc
import typer
from rich.console import Console
from rich.table import Table

from permem import controls
from permem.errors import BadInput, CheckFailed, PermemError
from permem.records import UserMemory
from permem.settings import Settings, load_settings
from permem.stores.database import Database, open_database

__all__ = [
    "ActorOpt",
    "ClaimOpt",
    "JsonFlag",
    "SubjectOpt",
    "TenantOpt",
    "claim_control",
    "control",
    "database",
    "guarded",
    "now",
    "parse_time",
    "parse_uuid",
    "print_records",
]

P = ParamSpec("P")
R = TypeVar("R")

JsonFlag = Annotated[bool, typer.Option("--json", help="Machine-readable output (JSON lines).")]
TenantOpt = Annotated[str, typer.Option("--tenant", help="The tenant (isolation boundary).")]
ClaimOpt = Annotated[str, typer.Option("--claim", help="The claim (memory) id.")]
SubjectOpt = Annotated[str, typer.Option("--subject", help="The person the memory is about.")]
ActorOpt = Annotated[
    str | None,
    typer.Option("--actor", help="Who is acting (audited); default: the claim's subject."),
]


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
            if "role" in str(exc.orig) and "does not exist" in str(exc.orig):
                _fail("the database has no permem schema; run `permem db upgrade`", 2)
            _fail(f"cannot use the database: {exc.orig}", 2)

    return wrapper


@contextmanager
def database(settings: Settings | None = None) -> Iterator[Database]:
    """The system of record for one command, disposed of however the command ends."""
    db = open_database(settings or load_settings())
    try:
        yield db
    finally:
        db.dispose()


def now() -> datetime:
    return datetime.now(UTC)


def parse_uuid(value: str, flag: str) -> uuid.UUID:
    try:
        return uuid.UUID(value)
    except ValueError:
        raise BadInput(f"{flag} must be a UUID, got {value!r}") from None


def parse_time(value: str, flag: str) -> datetime:
    """An RFC 3339 time with its offset (a naive time would be read in the server's zone)."""
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        raise BadInput(f"{flag} is not an RFC 3339 time: {value!r}") from None
    if when.tzinfo is None:
        raise BadInput(f"{flag} needs a timezone offset")
    return when


def print_records(records: list[UserMemory], as_json: bool) -> None:
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


def control(
    act: Callable[[Database], R],
    as_json: bool,
    shown: Callable[[R], tuple[object, str]],
    settings: Settings | None = None,
) -> None:
    """One control over the system of record: open it, `act`, dispose of it, then print what
    `shown` makes of the result: its JSON form (one line) with --json, else a line for people."""
    with database(settings) as db:
        done = act(db)
    data, line = shown(done)
    typer.echo(json.dumps(data, default=str) if as_json else line)


def claim_control(
    tenant: str,
    claim: str,
    actor: str | None,
    as_json: bool,
    act: Callable[[Database, uuid.UUID, str], UserMemory],
) -> None:
    """One control on one claim: the actor defaults to the claim's subject; prints the result."""
    with database() as db:
        claim_id = parse_uuid(claim, "--claim")
        who = actor or controls.subject_of_claim(db, tenant, claim_id)
        print_records([act(db, claim_id, who)], as_json)
