"""The `permem` command line (FORMATS.md's contract).

Exit codes: 0 success, 1 a check that ran and failed, 2 bad input or an unusable environment,
always with one line on standard error.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import sys
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, NoReturn, ParamSpec, TypeVar

import sqlalchemy.exc
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from permem import controls
from permem.errors import BadInput, CheckFailed, ConfigurationError, PermemError
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
eval_app = typer.Typer(help="Evaluations of permem against gold data.", no_args_is_help=True)
app.add_typer(eval_app, name="eval")

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
            if "role" in str(exc.orig) and "does not exist" in str(exc.orig):
                _fail("the database has no permem schema; run `permem db upgrade`", 2)
            _fail(f"cannot use the database: {exc.orig}", 2)

    return wrapper


def _database() -> Database:
    return open_database(load_settings())


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
def nightly(
    logs: Annotated[Path, typer.Option("--logs", help="A log file or a folder of *.jsonl.")],
    batch_size: Annotated[
        int | None, typer.Option("--batch-size", min=1, help="Log lines per batch.")
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            min=1,
            max=64,
            help="Worker processes for extract, classify, redact and gate (a local Dask "
            "cluster); default PERMEM_WORKERS, 1 runs every stage in this process.",
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Run the nightly extraction flow over a log file or folder (incremental)."""
    from permem.logs import log_files
    from permem.nightly import PROGRESS

    settings = load_settings()
    files = log_files(logs)
    total = sum(_count_lines(f) for f in files)
    _quiet_prefect()
    # The flow is the entry point of the nightly job; imported here so that every other
    # command runs without Prefect.
    from flows.nightly import NightlyParams, nightly_extract

    params = NightlyParams(
        logs=str(logs),
        batch_size=batch_size or settings.batch_size,
        workers=workers or settings.workers,
    )
    with Progress(
        TextColumn("nightly"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        disable=as_json or not sys.stderr.isatty(),
    ) as bar:
        job = bar.add_task("lines", total=total)
        token = PROGRESS.set(lambda n: bar.advance(job, n))
        try:
            report = nightly_extract(params)
        except RuntimeError as exc:
            if "Prefect" not in str(exc):
                raise
            raise ConfigurationError(f"{exc} (set PREFECT_API_URL to a running server)") from exc
        finally:
            PROGRESS.reset(token)
    if as_json:
        sys.stdout.write(json.dumps(report, ensure_ascii=False) + "\n")
        return
    if "skipped" in report:
        typer.echo(f"permem: {report['skipped']}", err=True)
        return
    _print_summary(report)


def _count_lines(path: Path) -> int:
    with path.open("rb") as fh:
        return sum(1 for line in fh if line.strip())


def _prefect_defaults() -> None:
    """Offline and quiet defaults for Prefect, unless set by the user. Set before any command
    runs: Prefect reads them when it is first imported, which a command's imports may do."""
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")
    # The temporary server needs ~10 s on an idle machine and much longer on a loaded one.
    os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "180")
    os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")


def _quiet_prefect() -> None:
    """Before a flow runs in this process: Prefect's defaults, and its run logs kept off the
    terminal."""
    _prefect_defaults()
    # Flow and task run logs (an expected failure's traceback among them) go to the run, where
    # the UI shows them, not to the terminal: the command prints one line and its exit code.
    # Prefect's config offers no override for `propagate`, so it is set once Prefect has
    # configured logging (on import).
    import prefect  # noqa: F401  # configures Prefect's logging

    for name in ("prefect.flow_runs", "prefect.task_runs"):
        logging.getLogger(name).propagate = False


def _print_summary(report: dict[str, Any]) -> None:
    table = Table("measure", "value", title=f"nightly: {report['logs']}")
    counts = report["counts"]
    for name in ("read", "new", "already_processed", "quarantined", "incognito", "paused_subject",
                 "erased_on_arrival", "changed_content", "candidates", "stored", "set_aside",
                 "load_refused", "superseded", "indexed"):  # fmt: skip
        table.add_row(name, str(counts.get(name, 0)))
    for name, value in sorted(report["decisions"].items()):
        table.add_row(f"decision {name}", str(value))
    table.add_row("messages/s", str(report["messages_per_second"]))
    Console().print(table)
    for item in report["quarantined"][:20]:
        typer.echo(f"quarantined {item['file']}:{item['line']}: {item['reason']}", err=True)


@app.command("quarantine")
@guarded
def quarantine_list(
    tenant: Annotated[str | None, typer.Option("--tenant", help="Only this tenant.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Log lines set aside by the nightly flow, with file, line and reason."""
    db = _database()
    try:
        for row in controls.quarantined(db, tenant):
            row["quarantined_at"] = row["quarantined_at"].isoformat()
            if as_json:
                sys.stdout.write(json.dumps(row) + "\n")
            else:
                typer.echo(f"{row['file']}:{row['line_no']}: {row['reason']} ({row['tenant']})")
    finally:
        db.dispose()


@app.command()
@guarded
def redact(as_json: JsonFlag = False) -> None:
    """Redact text lines from standard input: one JSON line out per line in."""
    from permem.runtime import shared_redactor

    redactor = shared_redactor()
    for raw in sys.stdin:
        text = raw.rstrip("\n")
        result = redactor.redact(text)
        entities = [
            {"type": e.type, "start": e.start, "end": e.end, "score": round(e.score, 3)}
            for e in result.entities
        ]
        out = {"text": text, "redacted": result.redacted, "entities": entities}
        sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
        sys.stdout.flush()


ClaimOpt = Annotated[str, typer.Option("--claim", help="The claim (memory) id.")]
SubjectOpt = Annotated[str, typer.Option("--subject", help="The person the memory is about.")]
ActorOpt = Annotated[
    str | None,
    typer.Option("--actor", help="Who is acting (audited); default: the claim's subject."),
]


def _claim_id(value: str) -> uuid.UUID:
    try:
        return uuid.UUID(value)
    except ValueError:
        raise BadInput(f"--claim must be a UUID, got {value!r}") from None


def _now() -> datetime:
    return datetime.now(UTC)


def _print_record(record: UserMemory, as_json: bool) -> None:
    _print_records([record], as_json)


def _actor_for(db: Database, tenant: str, claim: uuid.UUID, actor: str | None) -> str:
    if actor:
        return actor
    return controls.subject_of_claim(db, tenant, claim)


@app.command()
@guarded
def recall(
    queries: Annotated[Path, typer.Option("--queries", help="Recall queries, JSON Lines.")],
    as_json: JsonFlag = False,
) -> None:
    """Answer recall queries (JSON lines in, one JSON answer per query out, in order)."""
    from permem.recall import RecallAnswer, Recaller, parse_query
    from permem.runtime import runtime

    if not queries.is_file():
        raise BadInput(f"queries file does not exist: {queries}")
    rt = runtime(load_settings())
    recaller = Recaller(rt.db, rt.index, rt.embedder)
    with queries.open("rb") as fh:
        for line_no, raw in enumerate(fh, start=1):
            if not raw.strip():
                continue
            query_id = None
            try:
                obj = json.loads(raw)
                query_id = obj.get("query_id") if isinstance(obj, dict) else None
                answer = recaller.recall(parse_query(obj))
            except (ValueError, BadInput) as exc:
                answer = RecallAnswer(str(query_id) if query_id else f"line {line_no}")
                answer.error = str(exc).splitlines()[0]
            sys.stdout.write(json.dumps(answer.as_json(), ensure_ascii=False) + "\n")
            sys.stdout.flush()


@app.command()
@guarded
def correct(
    tenant: TenantOpt,
    claim: ClaimOpt,
    text: Annotated[str, typer.Option("--text", help="The corrected claim.")],
    actor: ActorOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Append a correction that supersedes a claim (the old one stays as history)."""
    db = _database()
    try:
        claim_id = _claim_id(claim)
        who = _actor_for(db, tenant, claim_id, actor)
        _print_record(controls.correct(db, tenant, claim_id, text, actor=who, now=_now()), as_json)
    finally:
        db.dispose()


@app.command()
@guarded
def confirm(
    tenant: TenantOpt, claim: ClaimOpt, actor: ActorOpt = None, as_json: JsonFlag = False
) -> None:
    """Confirm a claim: it becomes usable."""
    db = _database()
    try:
        claim_id = _claim_id(claim)
        who = _actor_for(db, tenant, claim_id, actor)
        _print_record(controls.confirm(db, tenant, claim_id, actor=who), as_json)
    finally:
        db.dispose()


@app.command()
@guarded
def reject(
    tenant: TenantOpt, claim: ClaimOpt, actor: ActorOpt = None, as_json: JsonFlag = False
) -> None:
    """Reject a claim: never used again (kept as history until forgotten)."""
    db = _database()
    try:
        claim_id = _claim_id(claim)
        who = _actor_for(db, tenant, claim_id, actor)
        _print_record(controls.reject(db, tenant, claim_id, actor=who), as_json)
    finally:
        db.dispose()


@app.command()
@guarded
def feedback(
    tenant: TenantOpt,
    claim: ClaimOpt,
    wrong: Annotated[
        bool, typer.Option("--wrong/--right", help="The claim is wrong (or right).")
    ] = True,
    actor: ActorOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Mark a claim wrong (unused until confirmed) or right (confirmed)."""
    db = _database()
    try:
        claim_id = _claim_id(claim)
        who = _actor_for(db, tenant, claim_id, actor)
        _print_record(controls.feedback(db, tenant, claim_id, wrong=wrong, actor=who), as_json)
    finally:
        db.dispose()


def _pause(tenant: str, subject: str, actor: str | None, paused: bool, as_json: bool) -> None:
    db = _database()
    try:
        controls.set_paused(db, tenant, subject, paused=paused, actor=actor or subject, now=_now())
        state = {"tenant": tenant, "subject": subject, "paused": paused}
        typer.echo(
            json.dumps(state) if as_json else f"{subject}: {'paused' if paused else 'active'}"
        )
    finally:
        db.dispose()


@app.command()
@guarded
def pause(
    tenant: TenantOpt, subject: SubjectOpt, actor: ActorOpt = None, as_json: JsonFlag = False
) -> None:
    """Stop using and creating the subject's memory (stored claims are kept)."""
    _pause(tenant, subject, actor, True, as_json)


@app.command()
@guarded
def resume(
    tenant: TenantOpt, subject: SubjectOpt, actor: ActorOpt = None, as_json: JsonFlag = False
) -> None:
    """Use and create the subject's memory again."""
    _pause(tenant, subject, actor, False, as_json)


@app.command("grant")
@guarded
def grant_access(
    tenant: TenantOpt,
    actor: Annotated[str, typer.Option("--actor", help="Who may use the memory.")],
    subject: SubjectOpt,
    purpose: Annotated[str, typer.Option("--purpose", help="For which declared purpose.")],
    expires: Annotated[str, typer.Option("--expires", help="Until when (RFC 3339).")],
    by: Annotated[str, typer.Option("--by", help="Who grants it (audited).")],
    scope: Annotated[
        str,
        typer.Option(
            "--scope",
            help="Which claims: global (only global ones), workspace:<name> or "
            "project:<name> (that scope and global ones), or all (every scope).",
        ),
    ] = "global",
    as_json: JsonFlag = False,
) -> None:
    """Let an actor use a subject's memory for a purpose, in a scope, until a time (audited)."""
    from permem import grants

    try:
        expires_at = datetime.fromisoformat(expires)
    except ValueError:
        raise BadInput(f"--expires is not an RFC 3339 time: {expires!r}") from None
    if expires_at.tzinfo is None:
        raise BadInput("--expires needs a timezone offset")
    db = _database()
    try:
        made = grants.grant(
            db, tenant, actor=actor, subject=subject, purpose=purpose, expires_at=expires_at,
            granted_by=by, now=_now(), scope=scope,
        )  # fmt: skip
        out = {"grant": str(made.id), "scope": made.scope, "purpose": made.purpose}
        typer.echo(json.dumps(out) if as_json else f"grant {made.id} (scope {made.scope})")
    finally:
        db.dispose()


@app.command("revoke")
@guarded
def revoke_access(
    tenant: TenantOpt,
    grant_id: Annotated[str, typer.Option("--grant", help="The grant id.")],
    by: Annotated[str, typer.Option("--by", help="Who revokes it (audited).")],
    as_json: JsonFlag = False,
) -> None:
    """End a grant now (audited)."""
    from permem import grants

    try:
        gid = uuid.UUID(grant_id)
    except ValueError:
        raise BadInput(f"--grant must be a UUID, got {grant_id!r}") from None
    db = _database()
    try:
        ended = grants.revoke(db, tenant, gid, revoked_by=by, now=_now())
        out = {"grant": str(ended.id), "revoked_at": str(ended.revoked_at)}
        typer.echo(json.dumps(out) if as_json else f"grant {ended.id} revoked")
    finally:
        db.dispose()


@app.command()
@guarded
def explain(tenant: TenantOpt, claim: ClaimOpt, as_json: JsonFlag = False) -> None:
    """The operational contract's eight answers for one claim (changes nothing)."""
    from permem.explain import ANSWER_KEYS, explain_claim

    db = _database()
    try:
        explained = explain_claim(db, tenant, _claim_id(claim), now=_now())
    finally:
        db.dispose()
    if as_json:
        typer.echo(json.dumps(explained, ensure_ascii=False))
        return
    claim_fields = explained["claim"]
    typer.echo(f"{claim_fields['id']}: {claim_fields['claim']}")
    for number, key in enumerate(ANSWER_KEYS, start=1):
        typer.echo(f"{number}. {key.replace('_', ' ')}: {explained['answers'][key]['summary']}")


@app.command()
@guarded
def export(
    tenant: TenantOpt,
    subject: SubjectOpt,
    fmt: Annotated[str, typer.Option("--format", help="json or csv.")] = "json",
    actor: ActorOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Write the subject's data (history included) to a JSON or CSV file under
    <home>/exports, recorded as a lineage node so that deletion reaches it."""
    from permem.export import FORMATS, export_subject

    if fmt not in FORMATS:
        raise BadInput(f"--format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    settings = load_settings()
    db = open_database(settings)
    try:
        made = export_subject(
            db, tenant, subject, fmt,  # type: ignore[arg-type]
            directory=settings.exports_dir, actor=actor or subject, now=_now(),
        )  # fmt: skip
    finally:
        db.dispose()
    out = {"export": str(made.id), "path": str(made.path), "records": made.records, "format": fmt}
    typer.echo(json.dumps(out) if as_json else f"{made.records} records -> {made.path}")


@eval_app.command("scenarios")
@guarded
def eval_scenarios(
    folders: Annotated[
        list[Path], typer.Argument(help="Scenario folders, or folders holding them.")
    ],
    as_json: JsonFlag = False,
) -> None:
    """Run scenarios against fresh stores and score them per family; exit 1 on any wrong
    personalization or leaked substring."""
    from permem.scenarios import ScenarioReport, run_scenarios

    def progress(report: ScenarioReport) -> None:
        o = report.outcome
        line = (
            f"{report.name}: {o.hits} hits, {o.misses} misses, {o.wrong} wrong, "
            f"{o.denied_mismatches + o.empty_mismatches} denied/empty mismatches, {o.leaks} leaks"
        )
        typer.echo(line + (f" ({report.not_run})" if report.not_run else ""), err=True)

    report = run_scenarios(folders, load_settings(), progress=progress)
    if as_json:
        typer.echo(json.dumps(report.as_json(), ensure_ascii=False))
    else:
        table = Table("family", "queries", "hits", "misses", "wrong", "denied≠", "empty≠", "leaks")
        rows = [*report.families.items(), ("total", report.total)]
        for name, o in rows:
            table.add_row(
                name, *(str(v) for v in (o.queries, o.hits, o.misses, o.wrong,
                                         o.denied_mismatches, o.empty_mismatches, o.leaks)),
            )  # fmt: skip
        Console(width=120).print(table)
        for scenario in report.scenarios:
            if scenario.not_run:
                typer.echo(f"{scenario.name}: {scenario.not_run}")
    if report.failed:
        total = report.total
        raise CheckFailed(
            f"{total.wrong} wrong personalization(s) and {total.leaks} leaked substring(s)"
        )


def _os_user() -> str:
    """Who runs this command, for the audit trail: the login name, else `cli`."""
    try:
        import getpass

        return getpass.getuser() or "cli"
    except (OSError, KeyError):
        return "cli"


def _run_flow(fn: Callable[..., Any], *args: Any) -> Any:
    """Run a Prefect flow in this process (a temporary server unless PREFECT_API_URL is set)."""
    _quiet_prefect()
    try:
        return fn(*args)
    except RuntimeError as exc:
        if "Prefect" not in str(exc):
            raise
        raise ConfigurationError(f"{exc} (set PREFECT_API_URL to a running server)") from exc


@app.command()
@guarded
def forget(
    tenant: TenantOpt,
    subject: Annotated[
        str | None, typer.Option("--subject", help="Everything of this subject.")
    ] = None,
    source: Annotated[
        str | None, typer.Option("--source", help="A message and all derived from it.")
    ] = None,
    claim: Annotated[str | None, typer.Option("--claim", help="One claim (its id).")] = None,
    by: Annotated[
        str | None,
        typer.Option("--by", help="Who asks (default: the subject, else the OS user, else cli)."),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Deletion flow: block at once, erase every derivative, verify; exit 1 on residue."""
    from permem.forget import Target

    Target.of(subject=subject, source=source, claim=claim)  # one-line errors before Prefect
    # FORMATS.md's contract has no --by: a request without one is recorded as the subject's,
    # or as the operating-system user's who ran the command.
    actor = by or subject or _os_user()
    from flows.forget import ForgetParams
    from flows.forget import forget as forget_flow

    params = ForgetParams(
        tenant=tenant, subject=subject, source=source, claim=claim, requested_by=actor
    )
    report = _run_flow(forget_flow, params)
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False, default=str))
        return
    blocked, verified = report["blocked"], report["verified"]
    typer.echo(
        f"forget {blocked['request_id']}: {blocked['memories']} claims blocked, "
        f"{sum(report['erased']['rows_deleted'].values())} rows and "
        f"{report['erased']['files_deleted']} files erased, {verified['verified']} ledger "
        f"entries verified, {verified['held']} held"
    )


@app.command("verify-erasure")
@guarded
def verify_erasure(as_json: JsonFlag = False) -> None:
    """Look for every erased record in every store; exit 1 on residue."""
    from flows.verify_erasure import VerifyErasureParams
    from flows.verify_erasure import verify_erasure as verify_flow

    report = _run_flow(verify_flow, VerifyErasureParams())
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False, default=str))
        return
    for tenant, found in sorted(report["tenants"].items()):
        typer.echo(f"{tenant}: {found['verified']} verified, {found['held']} held, no residue")


@app.command("rebuild-index")
@guarded
def rebuild_index_command(as_json: JsonFlag = False) -> None:
    """Rebuild the vector index from PostgreSQL, skipping blocked and erased records."""
    from flows.rebuild_index import rebuild_index

    report = _run_flow(rebuild_index)
    typer.echo(
        json.dumps(report)
        if as_json
        else f"rebuilt: {report['indexed']} claims indexed, "
        f"{report['skipped_in_ledger']} skipped (erasure ledger)"
    )


@app.command()
@guarded
def hold(
    tenant: TenantOpt,
    reason: Annotated[str, typer.Option("--reason", help="Why (recorded).")],
    by: Annotated[str, typer.Option("--by", help="Who places the hold (recorded).")],
    subject: Annotated[str | None, typer.Option("--subject", help="Hold a subject.")] = None,
    source: Annotated[str | None, typer.Option("--source", help="Hold a message.")] = None,
    claim: Annotated[str | None, typer.Option("--claim", help="Hold one claim.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Place a legal hold: covered records may be blocked but are not erased until release."""
    from permem import holds

    db = _database()
    try:
        placed = holds.place(
            db, tenant, subject=subject, claim=_claim_id(claim) if claim else None,
            source=source, reason=reason, by=by, now=_now(),
        )  # fmt: skip
    finally:
        db.dispose()
    typer.echo(json.dumps(placed.as_json()) if as_json else f"hold {placed.id}")


@app.command()
@guarded
def release(
    tenant: TenantOpt,
    hold_id: Annotated[str, typer.Option("--hold", help="The hold id.")],
    by: Annotated[str, typer.Option("--by", help="Who releases it (recorded).")],
    as_json: JsonFlag = False,
) -> None:
    """Release a legal hold; the next erase run (forget, verify-erasure) completes erasure."""
    from permem import holds

    try:
        hid = uuid.UUID(hold_id)
    except ValueError:
        raise BadInput(f"--hold must be a UUID, got {hold_id!r}") from None
    db = _database()
    try:
        ended = holds.release(db, tenant, hid, by=by, now=_now())
    finally:
        db.dispose()
    typer.echo(json.dumps(ended.as_json()) if as_json else f"hold {ended.id} released")


@app.command()
@guarded
def backup(
    tenant: Annotated[
        list[str] | None, typer.Option("--tenant", help="Only this tenant (repeatable).")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Back up the system of record: one file per tenant, each subject under its own key."""
    from flows.backup import BackupParams
    from flows.backup import backup as backup_flow

    report = _run_flow(backup_flow, BackupParams(tenants=tenant or None))
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False, default=str))
        return
    for made in report.get("backups", []):
        typer.echo(
            f"{made['tenant']}: {made['records']} records of {made['subjects']} subjects -> "
            f"{made['path']}"
        )


@app.command("erase-backups")
@guarded
def erase_backups_command(
    retention_days: Annotated[
        float, typer.Option("--retention-days", help="Drop backups older than this.")
    ] = 30,
    as_json: JsonFlag = False,
) -> None:
    """Re-key backups without erased data, drop expired ones, prove nothing erased is
    readable; exit 1 on residue."""
    from flows.backup import EraseBackupsParams
    from flows.backup import erase_backups as erase_flow

    report = _run_flow(erase_flow, EraseBackupsParams(retention_days=retention_days))
    typer.echo(
        json.dumps(report, ensure_ascii=False, default=str)
        if as_json
        else "backups: nothing erased is readable"
    )


@app.command()
@guarded
def restore(
    path: Annotated[Path, typer.Argument(help="A backup file (.pmbk).")],
    actor: Annotated[str, typer.Option("--by", help="Who restores (reported).")] = "permem",
    as_json: JsonFlag = False,
) -> None:
    """Insert the rows of a backup the database lacks; erased and shredded data stay gone."""
    from permem.backup import restore_backup

    if not path.is_file():
        raise BadInput(f"backup file does not exist: {path}")
    db = _database()
    try:
        result = restore_backup(db, path, actor=actor)
    finally:
        db.dispose()
    typer.echo(
        json.dumps(result.as_json(), default=str)
        if as_json
        else f"restored {result.restored} rows ({result.already_present} present, "
        f"{result.skipped_erased} erased skipped, {result.shredded_blocks} blocks shredded)"
    )


@app.command()
@guarded
def expire(
    at: Annotated[
        str | None, typer.Option("--at", help="Expire as of this time (RFC 3339; default now).")
    ] = None,
    ended_session: Annotated[
        list[str] | None, typer.Option("--ended-session", help="A session that ended (repeat).")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """The expiry flow: validity ended, sessions ended, retention limits."""
    from flows.expire import ExpireParams, expire_memories

    when = None
    if at is not None:
        try:
            when = datetime.fromisoformat(at)
        except ValueError:
            raise BadInput(f"--at is not an RFC 3339 time: {at!r}") from None
        if when.tzinfo is None:
            raise BadInput("--at needs a timezone offset")
    report = _run_flow(expire_memories, ExpireParams(at=when, ended_sessions=ended_session or []))
    if as_json:
        typer.echo(json.dumps(report))
        return
    reasons = ", ".join(f"{n} {r}" for r, n in sorted(report["by_reason"].items())) or "none"
    typer.echo(f"expired {report['expired']} claims as of {report['at']} ({reasons})")


@app.command()
@guarded
def status(as_json: JsonFlag = False) -> None:
    """Last run of each flow (PREFECT_API_URL), pending confirmations, quarantine size, open
    legal holds and unverified erasures."""
    from permem.status import flow_status, store_status

    db = _database()
    try:
        stores = store_status(db)
    finally:
        db.dispose()
    flows = flow_status()
    if as_json:
        typer.echo(json.dumps({"flows": flows, **stores}, default=str))
        return
    console = Console(width=140)
    runs = Table("flow", "last run", "state", "started", "why", title="flows")
    if flows.get("last_runs") is None:
        runs.add_row("-", "-", "-", "-", flows["note"])
    else:
        for name, run in flows["last_runs"].items():
            if run is None:
                runs.add_row(name, "never", "", "", "")
            else:
                runs.add_row(name, run["run"], run["state"], run["started"] or "", run["message"])
    console.print(runs)
    table = Table("tenant", "pending confirmations", "quarantined", "open holds", "unverified")
    for tenant, counts in stores["tenants"].items():
        unverified = ", ".join(f"{n} {s}" for s, n in counts["unverified_erasures"].items())
        table.add_row(
            tenant, str(counts["pending_confirmations"]), str(counts["quarantined_lines"]),
            str(counts["open_legal_holds"]), unverified or "0",
        )  # fmt: skip
    console.print(table)
    typer.echo(f"quarantined lines without a tenant: {stores['quarantined_without_tenant']}")


def main() -> None:
    _prefect_defaults()
    app()
