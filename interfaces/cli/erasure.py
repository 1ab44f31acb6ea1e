"""Erasure and legal holds: forget and verify-erasure (Prefect flows), hold and release."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from interfaces.cli._common import JsonFlag, TenantOpt, control, guarded, now, parse_uuid
from interfaces.cli._prefect import report_flow
from permem.errors import BadInput

__all__ = ["forget", "hold", "release", "verify_erasure"]


def _os_user() -> str:
    """Who runs this command, for the audit trail: the login name, else `cli`."""
    try:
        import getpass

        return getpass.getuser() or "cli"
    except (OSError, KeyError):
        return "cli"


def _read_subjects(path: Path) -> list[str]:
    """The subjects a `--subjects-file` names: one a line, blank lines and `#` comments
    ignored. BadInput for a file that is missing, unreadable or names none."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BadInput(f"--subjects-file {path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"--subjects-file {path}: cannot read it ({exc})") from None
    subjects = [s for line in text.splitlines() if (s := line.strip()) and not s.startswith("#")]
    if not subjects:
        raise BadInput(f"--subjects-file {path} names no subject")
    return subjects


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
    subjects_file: Annotated[
        Path | None,
        typer.Option(
            "--subjects-file",
            help="Everything of each subject this file names (one a line, # comments), in one "
            "request.",
        ),
    ] = None,
    by: Annotated[
        str | None,
        typer.Option("--by", help="Who asks (default: the subject, else the OS user, else cli)."),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Deletion flow: block at once, erase every derivative, verify; exit 1 on residue."""
    from permem.forget import Target

    subjects = None if subjects_file is None else _read_subjects(subjects_file)
    # One-line errors before Prefect starts.
    Target.requested(subject=subject, source=source, claim=claim, subjects=subjects)
    # FORMATS.md's contract has no --by: a request without one is recorded as the subject's,
    # or as the operating-system user's who ran the command (a list of subjects has no one
    # subject who asks).
    actor = by or subject or _os_user()
    from flows.forget import ForgetParams
    from flows.forget import forget as forget_flow

    params = ForgetParams(
        tenant=tenant,
        subject=subject,
        source=source,
        claim=claim,
        subjects=subjects,
        requested_by=actor,
    )
    report_flow(forget_flow, params, as_json=as_json, lines=_forget_lines)


def _forget_lines(report: dict[str, Any]) -> list[str]:
    blocked, verified = report["blocked"], report["verified"]
    many = len(blocked["targets"])
    return [
        f"forget {blocked['request_id']}: "
        + (f"{many} subjects, " if many > 1 else "")
        + f"{blocked['memories']} claims blocked, "
        f"{sum(report['erased']['rows_deleted'].values())} rows and "
        f"{report['erased']['files_deleted']} files erased, {verified['verified']} ledger "
        f"entries verified, {verified['held']} held"
    ]


@guarded
def verify_erasure(as_json: JsonFlag = False) -> None:
    """Look for every erased record in every store; exit 1 on residue."""
    from flows.verify_erasure import VerifyErasureParams
    from flows.verify_erasure import verify_erasure as verify_flow

    report_flow(
        verify_flow, VerifyErasureParams(), as_json=as_json,
        lines=lambda report: [
            f"{tenant}: {found['verified']} verified, {found['held']} held, no residue"
            for tenant, found in sorted(report["tenants"].items())
        ],
    )  # fmt: skip


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

    control(
        lambda db: holds.place(
            db, tenant, subject=subject, claim=parse_uuid(claim, "--claim") if claim else None,
            source=source, reason=reason, by=by, now=now(),
        ),
        as_json,
        lambda placed: (placed.as_json(), f"hold {placed.id}"),
    )  # fmt: skip


@guarded
def release(
    tenant: TenantOpt,
    hold_id: Annotated[str, typer.Option("--hold", help="The hold id.")],
    by: Annotated[str, typer.Option("--by", help="Who releases it (recorded).")],
    as_json: JsonFlag = False,
) -> None:
    """Release a legal hold; the next erase run (forget, verify-erasure) completes erasure."""
    from permem import holds

    hid = parse_uuid(hold_id, "--hold")
    control(
        lambda db: holds.release(db, tenant, hid, by=by, now=now()),
        as_json,
        lambda ended: (ended.as_json(), f"hold {ended.id} released"),
    )
