"""Recall's choices among claims that each passed the filters: which of two claims on one
topic to use (`superseded_in_time`: the latest said that is valid now) and when an import
gives way to the user's own word (`shadowed_imports`)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from datetime import datetime

from permem import policy
from permem.records import Confirmation, Origin, Status, UserMemory


def superseded_in_time(survivors: Sequence[UserMemory]) -> set[uuid.UUID]:
    """Claims on an exclusive topic that a later-said claim on the same topic, valid now,
    replaces: a move announced for October replaces the old home from October on (until then
    the new claim is not valid yet and the old one stands)."""
    latest: dict[tuple[str, str, str], UserMemory] = {}
    for record in survivors:
        if record.topic not in policy.EXCLUSIVE_TOPICS:
            continue
        key = (record.subject, record.topic, record.scope)
        held = latest.get(key)
        if held is None or (record.observed_at, str(record.id)) > (held.observed_at, str(held.id)):
            latest[key] = record
    return {
        r.id
        for r in survivors
        if r.topic in policy.EXCLUSIVE_TOPICS
        and latest[(r.subject, r.topic or "", r.scope)].id != r.id
    }


def shadowed_imports(records: Iterable[UserMemory], ts: datetime) -> set[uuid.UUID]:
    """Imported claims on a topic the subject spoke to themselves, in the same scope or
    globally, before `ts`: the user's own statement is stronger evidence than someone else's
    profile of them, whichever came first, so the import is not served beside it. The user's
    claim counts while it stands (active or paused, even awaiting confirmation) and was not
    rejected; it need not itself be usable for this request."""
    records = list(records)
    spoken = {
        (r.topic, r.scope)
        for r in records
        if r.topic
        and r.origin is not Origin.IMPORTED
        and r.status in (Status.ACTIVE, Status.PAUSED)
        and r.confirmation is not Confirmation.REJECTED
        and r.observed_at <= ts
    }
    return {
        r.id
        for r in records
        if r.origin is Origin.IMPORTED
        and r.topic
        and ((r.topic, r.scope) in spoken or (r.topic, "global") in spoken)
    }


__all__ = ["shadowed_imports", "superseded_in_time"]
