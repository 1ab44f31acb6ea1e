"""Answers 1 to 3: who the claim is about and who may use it, its source and origin, its
purpose and scope."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Connection

from permem.export import (
    describe_source,
    grants_over,
    provenance,
    source_metadata,
)
from permem.extraction.sensitive import sensitivity_of
from permem.grants import covers
from permem.policy import PURPOSES, may_serve
from permem.records import Origin, UserMemory

ORIGIN_MEANING: Mapping[Origin, str] = {
    Origin.EXPLICIT_INSTRUCTION: "explicit: the user told the assistant how to behave",
    Origin.USER_FACT: "user-provided: the user stated it",
    Origin.OBSERVED_BEHAVIOR: "observed: seen in what the user did, not stated",
    Origin.INFERRED_PROFILE: "inferred: concluded by the service, never stated",
    Origin.IMPORTED: "imported: from a profile or source outside the conversation; "
    "untrusted evidence",
}


def _subject_and_actors(conn: Connection, record: UserMemory, now: datetime) -> dict[str, Any]:
    may_use = [{"actor": record.subject, "basis": "the subject themself"}]
    third_party = ":" in record.subject
    if third_party:
        holder = record.subject.split(":", 1)[0]
        may_use.append({"actor": holder, "basis": "the account holder, for a third party"})
    held = grants_over(conn, record.subject, now)
    for grant in held:
        # Recall's own rules: the grant's scope, and its purpose's use of this claim.
        grant["covers_this_claim"] = covers([grant["scope"]], record.scope) and _serves(
            grant["purpose"], record
        )
        # Recall honours a grant only while it is active, and only for requests of its
        # purpose, which may use this claim only if that purpose may use the claim's purpose.
        grant["allows_use_now"] = grant["state"] == "active" and grant["covers_this_claim"]
    active = [g for g in held if g["allows_use_now"]]
    who = ", ".join(
        [m["actor"] for m in may_use] + [f"{g['actor']} ({g['purpose']})" for g in active]
    )
    return {
        "subject": record.subject,
        "account": record.account,
        "third_party": third_party,
        "may_use": may_use,
        "grants": held,
        "summary": f"About {record.subject}, from account {record.account}; usable now by: {who}.",
    }


def _source_and_origin(
    conn: Connection, record: UserMemory, gate: dict[str, Any] | None
) -> dict[str, Any]:
    message_id = record.source.message_id
    source = describe_source(record, source_metadata(conn, [message_id] if message_id else []))
    meaning = ORIGIN_MEANING[record.origin]
    if message_id is None:
        where = "a correction entered through a control"
    else:
        where = f"message {message_id} ({source.get('role')}), span {source['span']}"
    if gate is None:
        decided = "no write-gate decision (not extracted from a message)"
    else:
        decided = (
            f"gate: {gate['decision']} ({', '.join(gate['reasons'])}; {gate['policy_version']})"
        )
    return {
        "source": source,
        "origin": record.origin.value,
        "origin_meaning": meaning,
        "provenance": provenance(record.origin),
        "gate": gate,
        "summary": f"From {where}; {meaning.split(':')[0]}; {decided}.",
    }


def _serves(request_purpose: str, record: UserMemory) -> bool:
    """Whether recall lets a request of `request_purpose` use the claim (policy.may_serve)."""
    _, categories = sensitivity_of(record.claim)
    return may_serve(request_purpose, record.purpose, record.sensitivity, categories)


def _purpose_and_scope(record: UserMemory) -> dict[str, Any]:
    declared = PURPOSES.get(record.purpose)
    requesters = sorted(p for p in {*PURPOSES, record.purpose} if _serves(p, record))
    if record.scope == "global":
        scope_meaning = "global: usable in requests of every workspace and project"
    else:
        scope_meaning = f"{record.scope}: usable only in requests scoped to {record.scope}"
    return {
        "purpose": record.purpose,
        "purpose_declared": declared is not None,
        "purpose_description": declared.description if declared else None,
        "usable_by_request_purposes": requesters,
        "scope": record.scope,
        "scope_meaning": scope_meaning,
        "summary": f"Stored for purpose {record.purpose}; requests for {', '.join(requesters)} "
        f"may use it; scope {scope_meaning}.",
    }
