"""Answer 4: what makes the claim current, and what would supersede or expire it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from permem.erasure.ledger import blocking
from permem.policy import EXCLUSIVE_TOPICS
from permem.records import Status, UserMemory
from permem.states import STATUS_TRANSITIONS, is_usable
from permem.stores.schema import (
    memories,
    subject_settings,
)


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
