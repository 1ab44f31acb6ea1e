"""Explain: the operational contract's eight answers for one claim.

1. who the subject is and which actors may use the claim; 2. what source supports it and how it
was known; 3. for which purpose and scope it is valid; 4. what makes it current and what would
supersede or expire it; 5. when it was selected for a request; 6. how the user inspects,
corrects, pauses, deletes and exports it; 7. which derivatives must follow a correction or
deletion; 8. which tests show the guarantees it relies on.

Every answer is read from the system of record in one tenant-bound transaction and changes
nothing. Each is a dict of facts plus a one-line `summary` for people.
"""

from __future__ import annotations

import re
import shlex
import uuid
from collections import Counter
from collections.abc import Mapping
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from lineage import Node, NodeKind
from permem.classify import sensitivity_of
from permem.erasure.ledger import blocking
from permem.errors import BadInput
from permem.export import (
    describe_source,
    gate_of,
    grants_over,
    provenance,
    source_metadata,
)
from permem.grants import covers
from permem.policy import EXCLUSIVE_TOPICS, PURPOSES, may_serve
from permem.records import Confirmation, Origin, Status, UserMemory
from permem.states import CONFIRMATION_TRANSITIONS, STATUS_TRANSITIONS, is_usable
from permem.stores.database import Database, tenant_transaction
from permem.stores.lineage_store import derivatives, parents_of
from permem.stores.memories import get_memory
from permem.stores.schema import (
    erasure_ledger,
    exports,
    index_queue,
    legal_holds,
    memories,
    memory_events,
    recall_log,
    subject_settings,
)

ANSWER_KEYS: tuple[str, ...] = (
    "subject_and_actors",
    "source_and_origin",
    "purpose_and_scope",
    "currency",
    "selection",
    "controls",
    "derivatives",
    "tests",
)

ORIGIN_MEANING: Mapping[Origin, str] = {
    Origin.EXPLICIT_INSTRUCTION: "explicit: the user told the assistant how to behave",
    Origin.USER_FACT: "user-provided: the user stated it",
    Origin.OBSERVED_BEHAVIOR: "observed: seen in what the user did, not stated",
    Origin.INFERRED_PROFILE: "inferred: concluded by the service, never stated",
    Origin.IMPORTED: "imported: from a profile or source outside the conversation; "
    "untrusted evidence",
}

# Guarantee -> the test files that show it. A test checks that every file named exists.
TEST_MAP: Mapping[str, tuple[str, ...]] = {
    "tenant isolation": ("tests/test_isolation.py",),
    "append-only history": ("tests/test_append_only.py",),
    "write gate": ("tests/test_policy.py", "tests/test_nightly.py"),
    "extraction": ("tests/test_extraction.py",),
    "redaction": ("tests/test_redaction.py",),
    "recall filters and authorization": ("tests/test_recall.py",),
    "controls": ("tests/test_controls.py",),
    "export": ("tests/test_export.py",),
    "explain": ("tests/test_explain.py",),
    "lineage": ("tests/test_lineage.py", "tests/test_nightly.py"),
    "deletion": ("tests/test_forget.py", "tests/test_flow_erasure.py"),
    "backups": ("tests/test_backup.py", "tests/test_flow_erasure.py"),
    "expiry": ("tests/test_expiry.py",),
}

# Measurements run by hand (question 8's benefit and operational cost), and what is missing.
MEASUREMENTS: Mapping[str, tuple[str, ...]] = {
    "extraction quality": ("benchmarks/extraction_eval.py",),
    "redaction quality": ("benchmarks/redaction_eval.py",),
    "recall quality and latency": ("benchmarks/recall.py",),
    "erasure latency": ("benchmarks/erasure.py",),
    "operational cost": (
        "benchmarks/nightly.py",
        "benchmarks/append.py",
        "benchmarks/vector_search.py",
    ),
}
GAPS: tuple[str, ...] = (
    "personalization lift against a matched no-memory baseline: not evaluated (the scenario "
    "harness and benchmarks/recall.py measure wrong personalizations and recall@k only)",
)

_PLACEHOLDER = re.compile(r"<[A-Z][A-Z_]*>")
_RECENT_RETURNS = 10


def explain_claim(
    db: Database, tenant: str, claim_id: uuid.UUID, *, now: datetime
) -> dict[str, Any]:
    """The eight answers for `claim_id` in `tenant`, as of `now`: `{"claim", "answers"}`.

    `claim` holds the inspect fields; `answers` has exactly the keys of `ANSWER_KEYS`, each a
    dict of facts with a `summary`. Raises `NotFound` for an id the tenant does not hold.
    Changes nothing.
    """
    if now.tzinfo is None:
        raise BadInput("the time of an explanation must carry a timezone")
    with tenant_transaction(db.app, tenant) as conn:
        record = get_memory(conn, claim_id)
        gate = gate_of(conn, [record.id]).get(record.id)
        paused_by = _paused_by(conn, record.subject)
        answers = {
            "subject_and_actors": _subject_and_actors(conn, record, now),
            "source_and_origin": _source_and_origin(conn, record, gate),
            "purpose_and_scope": _purpose_and_scope(record),
            "currency": _currency(conn, record, paused_by, now),
            "selection": _selection(conn, record),
            "controls": _controls(tenant, record, paused_by),
            "derivatives": _derivatives(conn, record, now),
            "tests": select_tests(record, gate is not None),
        }
    return {"claim": record.as_json(), "answers": answers}


def _paused_by(conn: Connection, subject: str) -> list[str]:
    """Whose pause setting stops `subject`'s memory (recall's rule): the subject's own, and for
    a third party (`<account>:<relation>`) the account holder's. Empty: not paused."""
    holder = subject.split(":", 1)[0]
    found = set(
        conn.execute(
            sa.select(subject_settings.c.subject).where(
                subject_settings.c.subject.in_({subject, holder}),
                subject_settings.c.paused.is_(True),
            )
        ).scalars()
    )
    # The subject's own setting first: it is the one a resume of this subject changes.
    return sorted(found, key=lambda s: (s != subject, s))


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


def _currency(
    conn: Connection, record: UserMemory, paused_by: list[str], now: datetime
) -> dict[str, Any]:
    lifecycle = is_usable(record.status, record.confirmation)
    started = record.valid_from <= now
    not_ended = record.valid_until is None or now < record.valid_until
    source = record.source.message_id or None
    being_erased = blocking(
        conn,
        memories=[str(record.id)],
        sources=[source] if source else [],
        subjects=[record.subject],
    ).blocks_memory(str(record.id), record.subject, source, record.created_at)
    not_usable: list[str] = []
    if not lifecycle:
        not_usable.append(f"status {record.status.value}, confirmation {record.confirmation.value}")
    if not started:
        not_usable.append("not valid yet")
    if not not_ended:
        not_usable.append("validity ended")
    for who in paused_by:
        if who == record.subject:
            not_usable.append("the subject's memory is paused")
        else:
            not_usable.append(f"the account holder {who} paused their memory")
    if being_erased:
        not_usable.append("it is in the erasure ledger (being forgotten)")
    superseded_by = [
        str(i)
        for i in conn.execute(
            sa.select(memories.c.id)
            .where(memories.c.supersedes == record.id)
            .order_by(memories.c.created_at)
        ).scalars()
    ]
    exclusive = record.topic in EXCLUSIVE_TOPICS
    # Only an active claim can be superseded (the transition table; the nightly flow's
    # exclusive-topic rule replaces active claims only).
    if record.status is Status.SUPERSEDED:
        replaced_by = (
            f"nothing more: already superseded by {', '.join(superseded_by) or 'a newer claim'}"
        )
    elif Status.SUPERSEDED not in STATUS_TRANSITIONS[record.status]:
        replaced_by = (
            f"nothing while it is {record.status.value}: only an active claim is superseded"
        )
    elif exclusive:
        replaced_by = (
            f"a newer standing statement on topic {record.topic} (same subject and scope), "
            "or a correction (`permem correct`)"
        )
    elif record.topic:
        replaced_by = (
            f"a correction (`permem correct`); topic {record.topic} is not exclusive, so newer "
            "statements on it are kept beside this one"
        )
    else:
        replaced_by = "a correction (`permem correct`)"
    if record.status is Status.SESSION_ONLY:
        # The gate set its end from PERMEM_SESSION_HOURS when it stored it.
        latest = record.valid_until.isoformat() if record.valid_until else "its session's end"
        expiry = f"ends with its session ({record.session}), at the latest at {latest}"
    elif record.valid_until is not None and not not_ended:
        expiry = f"validity ended at {record.valid_until.isoformat()}; the expiry flow retires it"
    elif record.valid_until is not None:
        expiry = f"expires at {record.valid_until.isoformat()} through the expiry flow"
    else:
        expiry = "no end date: it ends by correction, rejection, deletion or retention expiry"
    usable_now = lifecycle and started and not_ended and not paused_by and not being_erased
    if not usable_now:
        state = f"not usable now ({'; '.join(not_usable)})"
    elif record.status is Status.SESSION_ONLY:
        state = f"usable now, in requests of session {record.session} only"
    else:
        state = "usable now"
    return {
        "as_of": now.isoformat(),
        "status": record.status.value,
        "confirmation": record.confirmation.value,
        "observed_at": record.observed_at.isoformat(),
        "valid_from": record.valid_from.isoformat(),
        "valid_until": record.valid_until.isoformat() if record.valid_until else None,
        "usable_by_lifecycle": lifecycle,
        "valid_now": started and not_ended,
        "subject_paused": bool(paused_by),
        "paused_by": paused_by,
        "being_erased": being_erased,
        "usable_now": usable_now,
        "not_usable_because": not_usable,
        "session": record.session,
        "supersedes": str(record.supersedes) if record.supersedes else None,
        "superseded_by": superseded_by,
        "topic": record.topic,
        "exclusive_topic": exclusive,
        "would_be_superseded_by": replaced_by,
        "expiry": expiry,
        "summary": f"{record.status.value}/{record.confirmation.value}, {state}; replaced by "
        f"{replaced_by}; {expiry}.",
    }


def _returned(claim_id: uuid.UUID) -> sa.ColumnElement[bool]:
    """Recall log rows that supplied `claim_id` to a request."""
    return sa.literal(claim_id, sa.Uuid()) == sa.any_(recall_log.c.returned_ids)


def _selection(conn: Connection, record: UserMemory) -> dict[str, Any]:
    returned = _returned(record.id)
    count = conn.execute(
        sa.select(sa.func.count()).select_from(recall_log).where(returned)
    ).scalar_one()
    rows = conn.execute(
        sa.select(
            recall_log.c.at,
            recall_log.c.actor,
            recall_log.c.purpose,
            recall_log.c.scope,
            recall_log.c.query_id,
        )
        .where(returned)
        .order_by(recall_log.c.at.desc(), recall_log.c.id)
        .limit(_RECENT_RETURNS)
    ).mappings()
    recent = [
        {
            "at": r["at"].isoformat(),
            "actor": r["actor"],
            "purpose": r["purpose"],
            "scope": r["scope"],
            "query_id": r["query_id"],
        }
        for r in rows
    ]
    if recent:
        last = recent[0]
        summary = (
            f"Returned {count} time(s); last at {last['at']} to {last['actor']} for "
            f"{last['purpose']} in {last['scope']}."
        )
    else:
        summary = "Never returned to a request."
    return {
        "times_returned": count,
        "recent": recent,
        "how_selected": "recall keeps only live claims the actor may use for the subject, "
        "scope, purpose and time, then ranks them by similarity to the request",
        "effect": "the recall log records which claims were supplied to a request (ids only; "
        "no query text exists), not how the response used them; the recall answer marks a "
        "claim the current request overrides (conflicts_with_request)",
        "summary": summary,
    }


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


def _derivatives(conn: Connection, record: UserMemory, now: datetime) -> dict[str, Any]:
    node = Node(NodeKind.MEMORY, str(record.id))
    derived = sorted(derivatives(conn, [node]) - {node})
    export_ids = [uuid.UUID(n.id) for n in derived if n.kind is NodeKind.EXPORT]
    files = {
        str(row["id"]): row
        for row in conn.execute(sa.select(exports).where(exports.c.id.in_(export_ids))).mappings()
    }
    listed: list[dict[str, Any]] = []
    for n in derived:
        item: dict[str, Any] = {"kind": n.kind.value, "id": n.id}
        row = files.get(n.id) if n.kind is NodeKind.EXPORT else None
        if row is not None:
            item.update(
                path=row["path"],
                format=row["format"],
                created_at=row["created_at"].isoformat(),
                erased_at=row["erased_at"].isoformat() if row["erased_at"] else None,
            )
        listed.append(item)
    sources = [
        {"kind": p.kind.value, "id": p.id, "relation": r.value} for p, r in parents_of(conn, node)
    ]
    holds = _legal_holds(conn, record, now)
    queued = conn.execute(
        sa.select(index_queue.c.memory_id).where(index_queue.c.memory_id == record.id)
    ).first()
    references = {
        "memory_events": _count(conn, memory_events, memory_events.c.memory_id == record.id),
        "recall_log": _count(conn, recall_log, _returned(record.id)),
    }
    ledger = [
        {"state": r["state"], "requested_at": r["requested_at"].isoformat()}
        for r in conn.execute(
            sa.select(erasure_ledger.c.state, erasure_ledger.c.requested_at).where(
                erasure_ledger.c.node_kind == NodeKind.MEMORY.value,
                erasure_ledger.c.node_id == str(record.id),
            )
        ).mappings()
    ]
    kinds = Counter(n.kind.value for n in derived)
    counted = ", ".join(f"{v} {k}" for k, v in sorted(kinds.items())) or "none"
    origin = ", ".join(f"{s['kind']} {s['id']}" for s in sources) or "no source message"
    held = f"{len(holds)} open legal hold(s)" if holds else "no legal hold"
    return {
        "derivatives": listed,
        "derived_from": sources,
        "index_queued": queued is not None,
        "references": references,
        "erasure_ledger": ledger,
        "legal_holds": holds,
        "under_legal_hold": bool(holds),
        "summary": f"Derivatives that follow a deletion: {counted}; derived from {origin}; {held}.",
    }


def _count(conn: Connection, table: sa.Table, condition: sa.ColumnElement[bool]) -> int:
    return int(
        conn.execute(sa.select(sa.func.count()).select_from(table).where(condition)).scalar_one()
    )


def _legal_holds(conn: Connection, record: UserMemory, now: datetime) -> list[dict[str, Any]]:
    targets = [legal_holds.c.memory_id == record.id, legal_holds.c.subject == record.subject]
    if record.source.message_id is not None:
        targets.append(legal_holds.c.source_message_id == record.source.message_id)
    rows = conn.execute(
        sa.select(legal_holds)
        .where(
            sa.or_(*targets),
            legal_holds.c.placed_at <= now,
            sa.or_(legal_holds.c.released_at.is_(None), legal_holds.c.released_at > now),
        )
        .order_by(legal_holds.c.placed_at)
    ).mappings()
    held = []
    for r in rows:
        if r["memory_id"] is not None:
            covers = "claim"
        elif r["subject"] is not None:
            covers = "subject"
        else:
            covers = "source"
        held.append(
            {
                "id": str(r["id"]),
                "covers": covers,
                "reason": r["reason"],
                "placed_by": r["placed_by"],
                "placed_at": r["placed_at"].isoformat(),
            }
        )
    return held


def select_tests(record: UserMemory, gated: bool) -> dict[str, Any]:
    """The entries of `TEST_MAP` that bear on `record`, each with why; the others with why not."""
    relevant: list[dict[str, Any]] = []
    not_relevant: dict[str, str] = {}
    from_message = record.source.message_id is not None
    placeholder = _PLACEHOLDER.search(record.claim)
    why_not = {
        "write gate": None if gated else "it did not pass the write gate (entered by a control)",
        "extraction": None if from_message else "it was not extracted from a message",
        "redaction": None if placeholder else "its text holds no redaction placeholder",
    }
    why = {
        "tenant isolation": "no other tenant can read or write it",
        "append-only history": "its evidence never changes; status changes are events",
        "write gate": "the gate decided to keep it",
        "extraction": "it was extracted from a message with an exact span",
        "redaction": f"its text holds the placeholder {placeholder.group(0)}"
        if placeholder
        else "",
        "recall filters and authorization": "recall uses it only for authorized, live requests",
        "controls": "the user's controls change its state",
        "export": "it appears in the subject's export",
        "explain": "this explanation",
        "lineage": "its derivatives are reachable for deletion",
        "deletion": "forgetting it blocks it at once and erases every derivative, verified",
        "backups": "backups hold it under its subject's key; erasure destroys that key",
        "expiry": "it expires when its validity, session or retention ends",
    }
    for guarantee, files in TEST_MAP.items():
        reason = why_not.get(guarantee)
        if reason is None:
            relevant.append({"guarantee": guarantee, "files": list(files), "why": why[guarantee]})
        else:
            not_relevant[guarantee] = reason
    return {
        "relevant": relevant,
        "not_relevant": not_relevant,
        "measurements": {name: list(files) for name, files in MEASUREMENTS.items()},
        "gaps": list(GAPS),
        "summary": f"{len(relevant)} guarantees bear on this claim, shown by "
        f"{len({f for r in relevant for f in r['files']})} test files; "
        f"{len(GAPS)} gap(s) stated.",
    }
