"""The user controls as state transitions over the system of record.

Each function takes the database and the tenant, opens one tenant-bound transaction, and either
completes entirely or changes nothing. A control that changes a claim regenerates its subject's
synthesized profiles in the same transaction (`permem.profile`).
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert

from permem.errors import BadInput, NotFound
from permem.policy import POLICY_VERSION
from permem.records import Confirmation, Kind, Origin, SourceRef, Status, UserMemory
from permem.states import STATUS_TRANSITIONS
from permem.stores.database import (
    Database,
    list_tenants,
    register_tenant,
    tenant_transaction,
    unbound_transaction,
)
from permem.stores.memories import (
    append_correction,
    get_memory,
    list_memories,
    set_confirmation,
    set_status,
)
from permem.stores.schema import quarantine, sources, subject_settings


def inspect(db: Database, tenant: str, subject: str | None = None) -> list[UserMemory]:
    """Every record of `subject` (or of the whole tenant), history included, oldest first.

    Changes nothing. Superseded, paused, expired, retracted and blocked records are listed
    with their status; erased records are gone and are not listed.
    """
    with tenant_transaction(db.app, tenant) as conn:
        return list_memories(conn, subject)


def quarantined(db: Database, tenant: str | None = None) -> list[dict[str, Any]]:
    """Log lines set aside by the nightly flow: where they were and why (no content).

    With `tenant`, that tenant's lines; without, every tenant's and the lines too broken to
    name a tenant. Changes nothing.
    """
    columns = (
        quarantine.c.tenant,
        quarantine.c.file,
        quarantine.c.line_no,
        quarantine.c.reason,
        quarantine.c.quarantined_at,
    )
    query = sa.select(*columns).order_by(quarantine.c.file, quarantine.c.line_no)
    found: list[dict[str, Any]] = []
    if tenant is None:
        with unbound_transaction(db.app) as conn:
            found.extend(dict(r) for r in conn.execute(query).mappings())
        tenants = list_tenants(db)
    else:
        tenants = [tenant]
    for name in tenants:
        with tenant_transaction(db.app, name) as conn:
            found.extend(dict(r) for r in conn.execute(query).mappings())
    return found


def _changed(conn: sa.Connection, record: UserMemory) -> None:
    """Queue a claim whose usability changed so the vector index follows."""
    from permem.indexing import enqueue

    enqueue(conn, [record])


def _profiles_follow(conn: sa.Connection, tenant: str, subject: str, now: datetime) -> None:
    """The subject's profiles follow a control that changed one of their claims."""
    from permem.profile import refresh_profiles

    refresh_profiles(conn, tenant, subject, now=now)


def _supersede_older(conn: sa.Connection, record: UserMemory, *, actor: str) -> None:
    """A claim that became usable replaces every older active claim on its topic, and the
    vector index follows each of them."""
    from permem.revisions import supersede_older

    for memory_id in supersede_older(conn, record, actor=actor):
        _changed(conn, get_memory(conn, memory_id))


def correct(
    db: Database, tenant: str, claim_id: uuid.UUID, text: str, *, actor: str, now: datetime
) -> UserMemory:
    """Append the user's correction as a new record that supersedes `claim_id`.

    The corrected record stays, with status `superseded`, as history. The new record is
    confirmed (the user typed it), redacted like any claim, keeps the old one's subject,
    scope, purpose, kind and topic, takes the sensitivity of its own text (never the old
    claim's), and has no source message: its source is this request.
    """
    from permem.extraction.sensitive import sensitivity_of
    from permem.runtime import shared_redactor

    text = text.strip()
    if not text:
        raise BadInput("a correction needs a text")
    redacted = shared_redactor().redact(text).redacted
    with tenant_transaction(db.app, tenant) as conn:
        old = get_memory(conn, claim_id, for_update=True)
        # Classification decides the sensitivity of a derived claim too: the correction's own
        # text, not the claim it replaces ("I'm allergic to nuts" corrected to "I prefer
        # tea" is no longer special; "I prefer tea" corrected to "I earn $90k" is finance).
        sensitivity, _ = sensitivity_of(text)
        origin = Origin.EXPLICIT_INSTRUCTION if old.kind is Kind.INSTRUCTION else Origin.USER_FACT
        correction = UserMemory(
            tenant=tenant,
            subject=old.subject,
            account=old.account,
            origin=origin,
            kind=old.kind,
            claim=redacted,
            source=SourceRef(None, None),
            scope=old.scope,
            purpose=old.purpose,
            observed_at=now,
            valid_from=now,
            valid_until=None,
            confidence=1.0,
            sensitivity=sensitivity,
            confirmation=Confirmation.CONFIRMED,
            supersedes=old.id,
            topic=old.topic,
            policy_version=POLICY_VERSION,
        )
        stored = append_correction(conn, correction, actor=actor)
        _changed(conn, stored)
        _supersede_older(conn, stored, actor=actor)
        _profiles_follow(conn, tenant, stored.subject, now)
        return stored


def confirm(db: Database, tenant: str, claim_id: uuid.UUID, *, actor: str) -> UserMemory:
    """The user confirms a claim: it becomes usable (and is indexed by the next index run)."""
    with tenant_transaction(db.app, tenant) as conn:
        record = set_confirmation(
            conn, claim_id, Confirmation.CONFIRMED, actor=actor, reason="confirmed by the user"
        )
        _changed(conn, record)
        _supersede_older(conn, record, actor=actor)
        _profiles_follow(conn, tenant, record.subject, datetime.now(UTC))
        return get_memory(conn, claim_id)


def reject(db: Database, tenant: str, claim_id: uuid.UUID, *, actor: str) -> UserMemory:
    """The user rejects a claim: never used again (`rejected`, status `retracted`); kept as
    history until forgotten."""
    with tenant_transaction(db.app, tenant) as conn:
        set_confirmation(
            conn, claim_id, Confirmation.REJECTED, actor=actor, reason="rejected by the user"
        )
        current = get_memory(conn, claim_id)
        if Status.RETRACTED in STATUS_TRANSITIONS[current.status]:
            current = set_status(
                conn, claim_id, Status.RETRACTED, actor=actor, reason="rejected by the user"
            )
        _profiles_follow(conn, tenant, current.subject, datetime.now(UTC))
        return current


def feedback(
    db: Database, tenant: str, claim_id: uuid.UUID, *, wrong: bool, actor: str
) -> UserMemory:
    """The user says a claim is wrong (it stops being used until they confirm it) or right
    (it is confirmed)."""
    if not wrong:
        return confirm(db, tenant, claim_id, actor=actor)
    with tenant_transaction(db.app, tenant) as conn:
        marked = set_confirmation(
            conn, claim_id, Confirmation.PENDING, actor=actor, reason="marked wrong by the user"
        )
        _profiles_follow(conn, tenant, marked.subject, datetime.now(UTC))
        return marked


def set_paused(
    db: Database, tenant: str, subject: str, *, paused: bool, actor: str, now: datetime
) -> None:
    """Pause (or resume) a subject: while paused, recall returns nothing for them and the
    nightly flow reads none of their new messages (it records them as processed, so a resume
    does not mine the pause). Stored claims are kept unchanged. No profile is kept while
    paused: a pause deletes the profiles of the subject and of every subject under it, a
    resume regenerates them."""
    from permem.profile import drop_profiles, refresh_profiles, subjects_under

    with tenant_transaction(db.app, tenant) as conn:
        register_tenant(conn, tenant)
        conn.execute(
            pg_insert(subject_settings)
            .values(tenant=tenant, subject=subject, paused=paused, updated_by=actor, updated_at=now)
            .on_conflict_do_update(
                index_elements=["tenant", "subject"],
                set_={"paused": paused, "updated_by": actor, "updated_at": now},
            )
        )
        covered = subjects_under(conn, subject)
        if paused:
            drop_profiles(conn, covered)
        else:
            for each in covered:
                refresh_profiles(conn, tenant, each, now=now)


def subject_paused(conn: sa.Connection, subject: str) -> bool:
    """Whether `subject`'s memory is paused: their own setting, or that of any subject it sits
    under: the account holder's for a third party (`<account>:<relation>`), and on a shared
    account the person's and the holder's (`alice:tom:wife` is paused by `alice:tom` and by
    `alice`). Recall, export and explain use this."""
    parts = subject.split(":")
    covering = {":".join(parts[: i + 1]) for i in range(len(parts))}
    row = conn.execute(
        sa.select(subject_settings.c.subject).where(
            subject_settings.c.subject.in_(covering),
            subject_settings.c.paused.is_(True),
        )
    ).first()
    return row is not None


def is_paused(db: Database, tenant: str, subject: str) -> bool:
    with tenant_transaction(db.app, tenant) as conn:
        value = conn.execute(
            sa.select(subject_settings.c.paused).where(subject_settings.c.subject == subject)
        ).scalar()
    return bool(value)


def speaker_of_source(db: Database, tenant: str, message_id: str) -> str:
    """Who said a stored source message (its subject, else its account); NotFound otherwise."""
    with tenant_transaction(db.app, tenant) as conn:
        row = conn.execute(
            sa.select(sources.c.subject, sources.c.account).where(
                sources.c.message_id == message_id
            )
        ).first()
    if row is None:
        raise NotFound(f"no source message {message_id!r} in this tenant")
    return str(row.subject or row.account)


def subject_of_claim(db: Database, tenant: str, claim_id: uuid.UUID) -> str:
    """The subject a claim is about (the default actor of a control on it)."""
    with tenant_transaction(db.app, tenant) as conn:
        return get_memory(conn, claim_id).subject
