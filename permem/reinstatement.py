"""Reinstatement at load: a return to what held before a change brings the old claim back.

"my laptop is a ThinkPad running Ubuntu", later "switched to a MacBook", later "gave the Mac
back, same laptop as before now": the second claim superseded the first, and the third says
the first holds again. A return (`permem.extraction.modality.returns`, a `Retraction` with
`returns` set) names what holds again by its words; `reinstate` moves each superseded claim
of the subject it names (said before it, in its scope or global) back to `active`, with an
event, and supersedes the claim that had replaced it, when that one is still active. History
is appended, never rewritten: the old claim's supersession stays in its events. A claim
erased or blocked meanwhile is not in `memories` as superseded any more, so it cannot come
back this way.
"""

from __future__ import annotations

import re
import uuid
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from permem import policy
from permem.extraction.modality import retracts
from permem.recall_choice import with_siblings
from permem.records import Status
from permem.revisions import Retraction, brands_of, mark_superseded, move_status, names_any
from permem.states import check_status
from permem.stores.schema import memories, memory_events

# The reason of a supersession event ends with the id of the claim that replaced
# (`revisions.mark_superseded`: "superseded by <id>", "retracted by <id>").
_REPLACED_BY = re.compile(r"\bby\s+([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$")


def reinstate(
    conn: Connection,
    tenant: str,
    retractions: Sequence[Retraction],
    superseded: list[str],
    reinstated: list[str],
) -> None:
    """Bring back the superseded claims each return names (module docstring); their ids are
    added to `reinstated`, the ids of the claims that had replaced them to `superseded`."""
    returning = [r for r in retractions if r.returns]
    if not returning:
        return
    _bring_back(conn, tenant, returning, superseded, reinstated)
    _end_named_changes(conn, tenant, returning, superseded)


def _said(conn: Connection, status: Status, returning: Sequence[Retraction]) -> Sequence[Any]:
    """(id, subject, scope, claim, evidence, observed_at, source message) of the claims in
    `status` of the returns' subjects."""
    return conn.execute(
        sa.select(memories.c.id, memories.c.subject, memories.c.scope, memories.c.claim,
                  memories.c.evidence, memories.c.observed_at, memories.c.source_message_id)
        .where(memories.c.status == status.value,
               memories.c.subject.in_(sorted({r.subject for r in returning})))
    ).all()  # fmt: skip


def _bring_back(
    conn: Connection,
    tenant: str,
    returning: Sequence[Retraction],
    superseded: list[str],
    reinstated: list[str],
) -> None:
    check_status(Status.SUPERSEDED, Status.ACTIVE)  # the one transition table allows it
    rows = _said(conn, Status.SUPERSEDED, returning)
    by_subject: dict[str, list[Any]] = defaultdict(list)
    for row in rows:
        by_subject[row[1]].append(row)
    message_of = {row[0]: row[6] for row in rows}
    # What each superseded claim names, read once per row, not once per return.
    names = {row[0]: policy.reference_words(f"{row[4] or ''} {row[3]}") for row in rows}
    back: dict[uuid.UUID, uuid.UUID] = {}  # old claim -> the return that brings it back
    for ret in sorted(returning, key=lambda r: (r.observed_at, str(r.id))):
        brands = brands_of(ret.said or "")
        for memory_id, _, scope, _, _, observed_at, _ in by_subject[ret.subject]:
            if (
                memory_id not in back
                and observed_at < ret.observed_at
                and scope in (ret.scope, "global")
                and names_any(ret.named, names[memory_id], brands)
            ):
                back[memory_id] = ret.id
    _undone_by_own_message(conn, returning, rows, back)
    if not back:
        return
    replacers = _replaced_by(conn, list(back))
    changes = _messages_of(conn, set(replacers.values()))
    # What the change itself said ("No more ThinkPad, I'm on a MacBook now") is what the
    # return ends, not what it brings back.
    # Nor what the return's own message took back ("I gave the Mac back. Same laptop as before
    # now": the Mac is not what holds again).
    said_in = {r.id: r.message_id for r in returning}
    back = {
        old: ret
        for old, ret in back.items()
        if message_of.get(old) not in changes.values()
        and (old not in replacers or changes.get(replacers[old]) != said_in[ret])
    }
    changed = move_status(
        conn, tenant, back, Status.SUPERSEDED, Status.ACTIVE, actor="nightly", why="reinstated by"
    )
    reinstated.extend(str(i) for i in changed)
    # The change ends with its clauses said beside it, still in use until now.
    ended = {replacers[old]: back[old] for old in changed if old in replacers}
    spans = _spans(conn, {changes[r] for r in ended if r in changes}, set(ended))
    by_message = {changes[r]: ret for r, ret in ended.items() if r in changes}
    message_of_span = {i: m for i, m, _, _ in spans}
    for sibling in with_siblings(set(ended), spans) - set(ended):
        if (message := message_of_span.get(sibling)) in by_message:
            ended[sibling] = by_message[message]
    mark_superseded(conn, tenant, ended, superseded, why="ended by return")


def _undone_by_own_message(
    conn: Connection,
    returning: Sequence[Retraction],
    rows: Sequence[Any],
    back: dict[uuid.UUID, uuid.UUID],
) -> None:
    """A return that names nothing superseded ("I'm on my old laptop again, same setup as
    before") after its own message took back a change ("The Mac went back to IT"): what that
    change had replaced holds again. Adds to `back` (old claim -> return)."""
    bringing = set(back.values())
    unnamed = [r for r in returning if r.id not in bringing]
    if not unnamed:
        return
    said = {row[0]: (row[1], row[5], row[6]) for row in rows}
    replacer = _replaced_by(conn, list(said))
    replacer_message = _messages_of(conn, set(replacer.values()))
    for ret in unnamed:
        changes = {
            old
            for old, new in replacer.items()
            if replacer_message.get(new) == ret.message_id and said[old][2] != ret.message_id
        }
        for old, new in replacer.items():
            subject, observed_at, _ = said[old]
            if (
                new in changes
                and old not in back
                and subject == ret.subject
                and observed_at < ret.observed_at
            ):
                back[old] = ret.id


def _end_named_changes(
    conn: Connection, tenant: str, returning: Sequence[Retraction], superseded: list[str]
) -> None:
    """A return names what it goes back to and, often, what it leaves ("Went back to Windows,
    Linux was too fiddly"; "Same laptop as before now" after "new laptop: a MacBook Air"):
    of the active claims said before it that it names, the earliest message's are the state it
    returns to and stay; the later ones that say a change (`_A_CHANGE`) were the change, and
    end. A later claim that says no change ("my bike is a Brompton") stays."""
    rows = _said(conn, Status.ACTIVE, returning)
    # What each claim names, read once per row, not once per return.
    names = {row[0]: policy.reference_words(f"{row[4] or ''} {row[3]}") for row in rows}
    ended: dict[uuid.UUID, uuid.UUID] = {}
    for ret in returning:
        brands = brands_of(ret.said or "")
        named = sorted(
            (row for row in rows
             if row[1] == ret.subject
             and row[5] < ret.observed_at
             and row[6] != ret.message_id
             and row[2] in (ret.scope, "global")
             and names_any(ret.named, names[row[0]], brands)),
            key=lambda row: row[5],
        )  # fmt: skip
        if named:
            first = named[0][6]
            ended.update({row[0]: ret.id for row in named if row[6] != first and _a_change(row[3])})
    mark_superseded(conn, tenant, ended, superseded, why="ended by return")


# A claim that says something changed: a new thing, one being tried, one for now.
_A_CHANGE = re.compile(
    r"\b(?:new|trying|for\s+now|these\s+days|instead|temporar\w*|got\s+an?)\b", re.IGNORECASE
)


def _a_change(claim: str) -> bool:
    return _A_CHANGE.search(claim) is not None or retracts(claim)


def _messages_of(conn: Connection, ids: set[uuid.UUID]) -> dict[uuid.UUID, str]:
    """The source message of each of those claims that has one."""
    if not ids:
        return {}
    rows = conn.execute(
        sa.select(memories.c.id, memories.c.source_message_id).where(
            memories.c.id.in_(list(ids)), memories.c.source_message_id.is_not(None)
        )
    ).all()
    return {row[0]: row[1] for row in rows}


def _spans(
    conn: Connection, messages: set[str], ended: set[uuid.UUID]
) -> list[tuple[uuid.UUID, str | None, int, int]]:
    """(id, message, span) of the claims of those messages still active, and of the ended
    ones whatever their status (`with_siblings`' input)."""
    if not messages:
        return []
    rows = conn.execute(
        sa.select(memories.c.id, memories.c.source_message_id, memories.c.span_start,
                  memories.c.span_end)
        .where(sa.or_(memories.c.status == Status.ACTIVE.value, memories.c.id.in_(list(ended))),
               memories.c.source_message_id.in_(sorted(messages)))
    ).all()  # fmt: skip
    return [(row[0], row[1], row[2] or 0, row[3] or 0) for row in rows]


def _replaced_by(conn: Connection, ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, uuid.UUID]:
    """For each claim, the claim named by its latest move to `superseded`, if any."""
    found: dict[uuid.UUID, uuid.UUID] = {}
    events = conn.execute(
        sa.select(memory_events.c.memory_id, memory_events.c.reason)
        .where(memory_events.c.memory_id.in_(list(ids)),
               memory_events.c.field == "status",
               memory_events.c.new_value == Status.SUPERSEDED.value)
        .order_by(memory_events.c.at)
    ).all()  # fmt: skip
    for memory_id, reason in events:
        match = _REPLACED_BY.search(reason or "")
        if match is not None:
            found[memory_id] = uuid.UUID(match.group(1))
    return found
