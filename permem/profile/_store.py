"""The stored profile: built from what recall could use now, one current version per subject,
purpose and scope, replaced (the old row and its lineage edges deleted) when its lines change.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from lineage import Node, NodeKind, Relation
from permem.errors import BadInput
from permem.extraction.for_whom import ForWhom
from permem.profile._synthesis import GROUPS, ProfileLine, RuleSynthesiser, Synthesiser
from permem.recall_query import is_scope
from permem.records import DEFAULT_PURPOSE, DEFAULT_SCOPE, Status, UserMemory
from permem.stores.database import Database, check_tenant, tenant_transaction
from permem.stores.lineage_store import EdgeRow, add_edges
from permem.stores.memories import record_from_row
from permem.stores.schema import lineage_edges, memories, profiles

__all__ = [
    "DEFAULT_SYNTHESISER",
    "Profile",
    "drop_profiles",
    "profile_claims",
    "read_profile",
    "refresh_profiles",
    "stored_profiles",
    "subjects_under",
]

DEFAULT_SYNTHESISER: Synthesiser = RuleSynthesiser()

# (purpose, scope)
Key = tuple[str, str]


@dataclass(frozen=True, slots=True)
class Profile:
    """One profile of a subject for a purpose and scope: the stored version (`id` and
    `version` None when none is stored: nothing usable, or the subject is paused)."""

    tenant: str
    subject: str
    purpose: str
    scope: str
    lines: tuple[ProfileLine, ...] = ()
    id: uuid.UUID | None = None
    version: int | None = None
    synthesiser: str | None = None
    built_at: datetime | None = None
    paused: bool = False

    @property
    def claim_ids(self) -> list[uuid.UUID]:
        return sorted({i for line in self.lines for i in line.claim_ids}, key=str)

    def as_json(self) -> dict[str, Any]:
        """The profile as `permem profile --json` prints it: its lines by group."""
        return {
            "id": str(self.id) if self.id else None,
            "tenant": self.tenant,
            "subject": self.subject,
            "purpose": self.purpose,
            "scope": self.scope,
            "version": self.version,
            "synthesiser": self.synthesiser,
            "built_at": self.built_at.isoformat() if self.built_at else None,
            "paused": self.paused,
            "groups": {
                group: [
                    {k: v for k, v in line.as_json().items() if k != "group"}
                    for line in self.lines
                    if line.group == group
                ]
                for group in GROUPS
            },
        }


def _line_of(data: dict[str, Any]) -> ProfileLine:
    until = data["valid_until"]
    return ProfileLine(
        group=data["group"],
        statement=data["statement"],
        claim_ids=tuple(uuid.UUID(i) for i in data["claim_ids"]),
        valid_from=datetime.fromisoformat(data["valid_from"]),
        valid_until=datetime.fromisoformat(until) if until else None,
        confidence=float(data["confidence"]),
    )


def _profile_of(row: sa.RowMapping) -> Profile:
    return Profile(
        tenant=row["tenant"],
        subject=row["subject"],
        purpose=row["purpose"],
        scope=row["scope"],
        lines=tuple(_line_of(line) for line in row["lines"]),
        id=row["id"],
        version=row["version"],
        synthesiser=row["synthesiser"],
        built_at=row["built_at"],
    )


def stored_profiles(conn: Connection, subject: str) -> list[Profile]:
    """The subject's stored profiles (the current versions), by purpose and scope."""
    rows = conn.execute(
        sa.select(profiles)
        .where(profiles.c.subject == subject)
        .order_by(profiles.c.purpose, profiles.c.scope)
    ).mappings()
    return [_profile_of(r) for r in rows]


def profile_claims(
    conn: Connection,
    records: Sequence[UserMemory],
    *,
    purpose: str,
    scope: str,
    now: datetime,
) -> list[UserMemory]:
    """The claims among `records` (one subject's) that recall could use now for `purpose` in
    `scope`: recall's own rules (`permem.recall_filter.usable`) for a query with no text. The
    rules that read the query's text take their neutral reading: no question is factual, and
    the request is for no one in particular (`ForWhom.ANY`: a rule for the user alone and one
    for their bookings for others are both listed). One-off claims of a session are not."""
    from permem.recall_filter import _blocked_ids, usable
    from permem.recall_query import RecallQuery

    # A one-off lives for its session; recall serves it to a query with no session while it
    # lasts, but it is no part of a standing profile.
    records = [r for r in records if r.status is not Status.SESSION_ONLY]
    if not records:
        return []
    subject = records[0].subject
    query = RecallQuery(
        query_id="profile", tenant=records[0].tenant, actor=subject, subject=subject,
        purpose=purpose, scope=scope, ts=now, text="",
    )  # fmt: skip
    survivors, _ = usable(
        records, query, _blocked_ids(conn, records), factual=False, for_whom=ForWhom.ANY
    )
    return survivors


def _delete(conn: Connection, ids: Sequence[uuid.UUID]) -> None:
    """Erase profile versions and the lineage edges that lead to them."""
    if not ids:
        return
    conn.execute(
        sa.delete(lineage_edges).where(
            lineage_edges.c.child_kind == NodeKind.PROFILE.value,
            lineage_edges.c.child_id.in_([str(i) for i in ids]),
        )
    )
    conn.execute(sa.delete(profiles).where(profiles.c.id.in_(list(ids))))


def _lock(conn: Connection, subject: str) -> None:
    """One regeneration of a subject's profiles at a time (two would both insert a version)."""
    conn.execute(
        sa.select(sa.func.pg_advisory_xact_lock(sa.func.hashtextextended("profile:" + subject, 0)))
    )


def drop_profiles(conn: Connection, subjects: Iterable[str]) -> int:
    """Erase every stored profile of `subjects` (a pause: no profile while paused)."""
    wanted = sorted(set(subjects))
    for subject in wanted:
        _lock(conn, subject)
    found = conn.execute(sa.select(profiles.c.id).where(profiles.c.subject.in_(wanted)))
    ids = list(found.scalars())
    _delete(conn, ids)
    return len(ids)


def subjects_under(conn: Connection, subject: str) -> list[str]:
    """`subject` and every subject under it (`<subject>:<relation>`) with claims or profiles:
    the subjects a pause of `subject` covers."""
    pattern = subject.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + ":%"
    found = {subject}
    for table in (memories, profiles):
        found.update(
            conn.execute(
                sa.select(table.c.subject).distinct().where(table.c.subject.like(pattern, "\\"))
            ).scalars()
        )
    return sorted(found)


def refresh_profiles(
    conn: Connection,
    tenant: str,
    subject: str,
    *,
    now: datetime,
    keys: Iterable[Key] = (),
    synthesiser: Synthesiser = DEFAULT_SYNTHESISER,
) -> list[Profile]:
    """Bring `subject`'s stored profiles up to date at `now`, in the bound tenant, and return
    them: the ones already stored, one for each purpose the subject's claims have (in global
    scope and in each scope their claims name), and `keys`. A profile whose lines are
    unchanged is kept as it is; a changed one is replaced by the next version (the old row and
    its lineage edges deleted, the new one linked from each claim it cites); one with no lines
    is deleted and none stored. While the subject is paused none is kept."""
    from permem.controls import subject_paused

    _lock(conn, subject)
    stored = {(p.purpose, p.scope): p for p in stored_profiles(conn, subject)}
    if subject_paused(conn, subject):
        _delete(conn, [p.id for p in stored.values() if p.id is not None])
        return []
    rows = conn.execute(sa.select(memories).where(memories.c.subject == subject)).mappings()
    records = [record_from_row(r) for r in rows]
    scopes = {DEFAULT_SCOPE} | {r.scope for r in records}
    wanted = set(stored) | set(keys) | {(r.purpose, s) for r in records for s in scopes}
    current: list[Profile] = []
    for purpose, scope in sorted(wanted):
        usable_now = profile_claims(conn, records, purpose=purpose, scope=scope, now=now)
        lines = tuple(synthesiser.lines(usable_now))
        old = stored.get((purpose, scope))
        if old is not None and old.synthesiser == synthesiser.name and _same(old.lines, lines):
            current.append(old)
            continue
        if old is not None and old.id is not None:
            _delete(conn, [old.id])
        if lines:
            current.append(
                _insert(conn, tenant, subject, (purpose, scope), lines, synthesiser.name, old, now)
            )
    return current


def _same(old: Sequence[ProfileLine], new: Sequence[ProfileLine]) -> bool:
    """Whether two versions say the same (compared as stored)."""
    return [line.as_json() for line in old] == [line.as_json() for line in new]


def _insert(
    conn: Connection,
    tenant: str,
    subject: str,
    key: Key,
    lines: tuple[ProfileLine, ...],
    synthesiser: str,
    old: Profile | None,
    now: datetime,
) -> Profile:
    purpose, scope = key
    made = Profile(
        tenant=tenant, subject=subject, purpose=purpose, scope=scope, lines=lines,
        id=uuid.uuid4(), version=(old.version or 0) + 1 if old else 1,
        synthesiser=synthesiser, built_at=now,
    )  # fmt: skip
    assert made.id is not None
    conn.execute(
        sa.insert(profiles).values(
            id=made.id, tenant=tenant, subject=subject, purpose=purpose, scope=scope,
            version=made.version, synthesiser=synthesiser,
            lines=[line.as_json() for line in lines], claim_ids=made.claim_ids, built_at=now,
        )
    )  # fmt: skip
    node = Node(NodeKind.PROFILE, str(made.id))
    add_edges(
        conn,
        [
            EdgeRow(tenant, Node(NodeKind.MEMORY, str(i)), node, Relation.SUMMARIZED)
            for i in made.claim_ids
        ],
    )
    return made


def read_profile(
    db: Database,
    tenant: str,
    subject: str,
    *,
    purpose: str = DEFAULT_PURPOSE,
    scope: str = DEFAULT_SCOPE,
    now: datetime,
) -> Profile:
    """The subject's current profile for `purpose` in `scope`, regenerated first if its claims
    changed since it was built (so it is never stale when read). None is stored while the
    subject is paused: the answer then says so, with no lines."""
    from permem.controls import subject_paused

    check_tenant(tenant)
    if not subject or not purpose.strip():
        raise BadInput("a profile needs a subject and a purpose")
    if not is_scope(scope):
        raise BadInput("the scope must be global, workspace:<name> or project:<name>")
    with tenant_transaction(db.app, tenant) as conn:
        found = refresh_profiles(conn, tenant, subject, now=now, keys=[(purpose, scope)])
        paused = subject_paused(conn, subject)
    for made in found:
        if (made.purpose, made.scope) == (purpose, scope):
            return made
    return Profile(tenant, subject, purpose, scope, paused=paused)
