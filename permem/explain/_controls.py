"""Answer 6: the commands that inspect, correct, pause, delete and export the claim."""

from __future__ import annotations

import shlex
from typing import Any

from permem.records import Confirmation, Status, UserMemory
from permem.states import CONFIRMATION_TRANSITIONS, STATUS_TRANSITIONS


def _command(*parts: str) -> str:
    return " ".join(shlex.quote(p) for p in parts)


def _controls(tenant: str, record: UserMemory, paused_by: list[str]) -> dict[str, Any]:
    t, c, s = ("--tenant", tenant), ("--claim", str(record.id)), ("--subject", record.subject)
    # A third party's memory stops when the account holder pauses theirs too: resuming it
    # means resuming whoever paused it, not necessarily the subject.
    resumes = [_command("permem", "resume", *t, "--subject", who) for who in paused_by]
    others = [who for who in paused_by if who != record.subject]
    statuses = STATUS_TRANSITIONS[record.status]
    confirmations = CONFIRMATION_TRANSITIONS[record.confirmation]

    def control(command: str, does: str, available: bool = True) -> dict[str, Any]:
        return {"command": command, "does": does, "available": available}

    message_id = record.source.message_id
    found: dict[str, Any] = {
        "inspect": control(
            _command("permem", "inspect", *t, *s, "--json"),
            "lists every record of the subject, history included; changes nothing",
        ),
        "correct": control(
            _command("permem", "correct", *t, *c, "--text", "<corrected claim>"),
            "appends a correction that supersedes this claim, which stays as history",
            Status.SUPERSEDED in statuses,
        ),
        "confirm": control(
            _command("permem", "confirm", *t, *c),
            "confirms the claim, so it may be used",
            Confirmation.CONFIRMED in confirmations,
        ),
        "reject": control(
            _command("permem", "reject", *t, *c),
            "rejects the claim: never used again, kept as history until forgotten",
            Confirmation.REJECTED in confirmations,
        ),
        "pause": control(
            _command("permem", "pause", *t, *s),
            "stops using and creating the subject's memory; stored claims are kept",
            record.subject not in paused_by,
        ),
        "resume": control(
            " && ".join(resumes) or _command("permem", "resume", *t, *s),
            "uses and creates the subject's memory again"
            + (f" (the pause is the account holder {', '.join(others)}'s)" if others else ""),
            bool(paused_by),
        ),
        "forget_claim": control(
            _command("permem", "forget", *t, *c),
            "blocks this claim at once, erases it and every derivative, and verifies",
            Status.BLOCKED in statuses,
        ),
        "forget_source": control(
            _command("permem", "forget", *t, "--source", message_id or "<message id>"),
            "the same for every claim extracted from this claim's source message",
            message_id is not None,
        ),
        "forget_subject": control(
            _command("permem", "forget", *t, *s),
            "the same for every claim about the subject",
        ),
        "export_json": control(
            _command("permem", "export", *t, *s, "--format", "json"),
            "writes the subject's data as one JSON document",
        ),
        "export_csv": control(
            _command("permem", "export", *t, *s, "--format", "csv"),
            "writes the subject's data as CSV, one row per record",
        ),
        "feedback": control(
            _command("permem", "feedback", *t, *c, "--wrong"),
            "marks the claim wrong: unused until confirmed (`--right` confirms it)",
            Confirmation.PENDING in confirmations,
        ),
    }
    available = [name for name, item in found.items() if item["available"]]
    found["summary"] = f"Available now: {', '.join(available)}."
    return found
