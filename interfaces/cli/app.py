"""The Typer application: every command registered here, in the order `permem --help` lists
them (FORMATS.md's contract); the commands live in one module per group."""

from __future__ import annotations

import typer

from interfaces.cli import (
    admin,
    backups,
    erasure,
    evaluation,
    jobs,
    keys,
    memory,
    recall,
    serve,
    status,
)
from interfaces.cli._prefect import prefect_defaults

__all__ = ["app", "main"]

app = typer.Typer(
    name="permem",
    help="Personalization memory: scoped, purpose-bound, attributable, erasable.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
db_app = typer.Typer(help="Schema administration of the system of record.", no_args_is_help=True)
app.add_typer(db_app, name="db")
app.add_typer(keys.keys_app, name="keys")
eval_app = typer.Typer(help="Evaluations of permem against gold data.", no_args_is_help=True)
app.add_typer(eval_app, name="eval")

db_app.command("upgrade")(admin.db_upgrade)
db_app.command("downgrade")(admin.db_downgrade)
app.command()(memory.inspect)
app.command()(jobs.nightly)
app.command("quarantine")(memory.quarantine_list)
app.command()(recall.redact)
app.command()(recall.recall)
app.command()(memory.correct)
app.command()(memory.confirm)
app.command()(memory.reject)
app.command()(memory.feedback)
app.command()(memory.pause)
app.command()(memory.resume)
app.command("grant")(memory.grant_access)
app.command("revoke")(memory.revoke_access)
app.command()(memory.explain)
app.command()(memory.export)
app.command()(memory.profile)
eval_app.command("scenarios")(admin.eval_scenarios)
eval_app.command("lifecycle")(evaluation.eval_lifecycle)
eval_app.command("gate")(evaluation.eval_gate)
app.command()(erasure.forget)
app.command("verify-erasure")(erasure.verify_erasure)
app.command("rebuild-index")(jobs.rebuild_index_command)
app.command()(erasure.hold)
app.command()(erasure.release)
app.command()(backups.backup)
app.command("erase-backups")(backups.erase_backups_command)
app.command()(backups.restore)
app.command()(jobs.expire)
app.command()(status.status)
app.command()(serve.serve)


def main() -> None:
    prefect_defaults()
    app()
