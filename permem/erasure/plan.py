"""What to erase: a request expanded over the lineage graph, and the nodes an erase run removes.

`expand` turns a request (a subject, a source message or a claim, or many subjects at once)
into its ledger node rows: the memories and messages it covers, then every derivative the
lineage graph reaches from them (embeddings, index rows, export files), each naming the target
that covers it, and each `blocked`, or `held` while an open legal hold covers it (the memory,
its source message, its subject or the account). A derivative is held when the memory it was
made from is; a message when it, or a held claim of it, is held.
`released` finds the held rows whose holds have all ended. `ErasurePlan` groups the ledger rows
of one erase or verify run by what each store needs (ids by kind, subjects, export ids): the
connectors (`permem.erasure.connectors`) erase and look for exactly those.
"""

from __future__ import annotations

import functools
import uuid
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from lineage import Node, NodeKind, reached_from
from permem.erasure.ledger import REQUEST, LedgerState, TargetKind
from permem.errors import BadInput, NotFound
from permem.stores.bulk import any_of
from permem.stores.lineage_store import children_of
from permem.stores.schema import erasure_ledger, legal_holds, lineage_edges, memories, sources

__all__ = ["ErasurePlan", "Expansion", "Target", "check_exists", "expand", "memory_of", "released"]


@dataclass(frozen=True, slots=True)
class Target:
    """What a forget request covers: a subject, a source message (and everything derived from
    it), or one claim."""

    kind: TargetKind
    value: str

    @classmethod
    def of(cls, *, subject: str | None, source: str | None, claim: str | None) -> Target:
        given = [(k, v) for k, v in ((TargetKind.SUBJECT, subject), (TargetKind.SOURCE, source),
                                     (TargetKind.CLAIM, claim)) if v is not None]  # fmt: skip
        if len(given) != 1:
            raise BadInput("name exactly one of --subject, --source or --claim")
        kind, value = given[0]
        if not value.strip():
            raise BadInput(f"the {kind.value} to forget must not be empty")
        if kind is TargetKind.CLAIM:
            try:
                uuid.UUID(value)
            except ValueError:
                raise BadInput(f"--claim must be a UUID, got {value!r}") from None
        return cls(kind, value)

    @classmethod
    def of_subjects(cls, subjects: Iterable[str]) -> tuple[Target, ...]:
        """One request for many subjects: each named once (in the given order), none empty,
        at least one."""
        names = list(dict.fromkeys(subjects))
        if not names:
            raise BadInput("the list of subjects to forget is empty")
        if any(not name.strip() for name in names):
            raise BadInput("a subject to forget must not be empty")
        return tuple(cls(TargetKind.SUBJECT, name) for name in names)

    @classmethod
    def requested(
        cls,
        *,
        subject: str | None = None,
        source: str | None = None,
        claim: str | None = None,
        subjects: Sequence[str] | None = None,
    ) -> tuple[Target, ...]:
        """What one forget request names: `subjects` (many at once), else exactly one of
        subject, source or claim (`of`)."""
        if subjects is None:
            return (cls.of(subject=subject, source=source, claim=claim),)
        if any(v is not None for v in (subject, source, claim)):
            raise BadInput(
                "a list of subjects (--subjects-file) is a request of its own: "
                "do not add --subject, --source or --claim"
            )
        return cls.of_subjects(subjects)


def memory_of(node: Node) -> str | None:
    """The memory id an embedding or index-row node was made from (`<name>:<memory id>`)."""
    if node.kind in (NodeKind.EMBEDDING, NodeKind.INDEX_ROW):
        return node.id.rsplit(":", 1)[-1]
    return None


# ------------------------------------------------------------------------ covered nodes


def _escape_like(value: str) -> str:
    return value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _in_ledger(conn: Connection, kind: NodeKind, node_id: str) -> bool:
    found = conn.execute(
        sa.select(erasure_ledger.c.id).where(
            erasure_ledger.c.node_kind == kind.value, erasure_ledger.c.node_id == node_id
        )
    ).first()
    return found is not None


def check_exists(conn: Connection, target: Target) -> None:
    """`NotFound` for a claim or source the tenant never held (nor forgot before)."""
    if target.kind is TargetKind.CLAIM:
        found = conn.execute(
            sa.select(memories.c.id).where(memories.c.id == uuid.UUID(target.value))
        ).first()
        if found is None and not _in_ledger(conn, NodeKind.MEMORY, target.value):
            raise NotFound(f"no memory {target.value} in this tenant")
    elif target.kind is TargetKind.SOURCE:
        found = conn.execute(
            sa.select(sources.c.message_id).where(sources.c.message_id == target.value)
        ).first()
        if found is None and not _in_ledger(conn, NodeKind.SOURCE, target.value):
            raise NotFound(f"no source message {target.value} in this tenant")


_MEMORY_COLUMNS = (
    memories.c.id, memories.c.subject, memories.c.account, memories.c.status,
    memories.c.claim_hash, memories.c.subject_hash, memories.c.source_message_id,
)  # fmt: skip
_SOURCE_COLUMNS = (sources.c.message_id, sources.c.account, sources.c.subject,
                   sources.c.content_hash)  # fmt: skip


@dataclass
class _Covered:
    """The memories and source messages a request covers (before lineage expansion), each
    with the target that covers it (the first of the request's targets that does)."""

    memories: dict[str, dict[str, Any]] = field(default_factory=dict)
    sources: dict[str, dict[str, Any]] = field(default_factory=dict)
    roots: dict[Node, Target] = field(default_factory=dict)

    def add(self, target: Target, found: Iterable[sa.RowMapping], *, source: bool) -> None:
        for row in found:
            node_id = row["message_id"] if source else str(row["id"])
            (self.sources if source else self.memories).setdefault(node_id, dict(row))
            node = Node(NodeKind.SOURCE if source else NodeKind.MEMORY, node_id)
            self.roots.setdefault(node, target)


def _subject_target(subject: str | None, wanted: Mapping[str, Target]) -> Target | None:
    """The subject target that reaches `subject`: itself, or a colon prefix of it (a third
    party `<target>:<relation>`), the longest first."""
    if subject is None:
        return None
    parts = subject.split(":")
    for end in range(len(parts), 0, -1):
        if (found := wanted.get(":".join(parts[:end]))) is not None:
            return found
    return None


def _covered_subjects(conn: Connection, targets: Sequence[Target], out: _Covered) -> None:
    """Every claim about the subjects or their third parties (`S:<relation>`), every message of
    their accounts or that they spoke on a shared account (`sources.subject`, migration 0008),
    and every claim derived from those messages: one query each, whatever their number."""
    wanted = {t.value: t for t in targets}
    names = list(wanted)
    spoke = sa.or_(sources.c.account == any_of(names), sources.c.subject == any_of(names))
    own_sources = conn.execute(sa.select(*_SOURCE_COLUMNS).where(spoke)).mappings().all()
    about = [
        memories.c.subject == any_of(names),
        # a third party of a subject without a colon (`ana:wife` of `ana`): the first part
        sa.func.split_part(memories.c.subject, ":", 1) == any_of(names),
    ]
    patterns = [f"{_escape_like(n)}:%" for n in names if ":" in n]
    if patterns:  # of a person on a shared account (`fam:ana:wife` of `fam:ana`)
        about.append(memories.c.subject.like(any_of(patterns)))
    found = conn.execute(
        sa.select(*_MEMORY_COLUMNS).where(
            sa.or_(*about, memories.c.source_message_id.in_(sa.select(sources.c.message_id)
                                                             .where(spoke)))
        )
    ).mappings().all()  # fmt: skip
    by_message: dict[str, Target] = {}
    for row in own_sources:
        owner = wanted.get(row["subject"]) or wanted[row["account"]]
        by_message[row["message_id"]] = owner
        out.add(owner, [row], source=True)
    for row in found:
        owner = _subject_target(row["subject"], wanted) or by_message[row["source_message_id"]]
        out.add(owner, [row], source=False)


def _covered(conn: Connection, targets: Sequence[Target]) -> _Covered:
    """The memories and source messages the request's targets cover, and which covers each."""
    out = _Covered()
    subjects = [t for t in targets if t.kind is TargetKind.SUBJECT]
    for target in targets:
        check_exists(conn, target)
        if target.kind is TargetKind.CLAIM:
            claim = sa.select(*_MEMORY_COLUMNS).where(memories.c.id == uuid.UUID(target.value))
            out.add(target, conn.execute(claim).mappings(), source=False)
        elif target.kind is TargetKind.SOURCE:
            message = sa.select(*_SOURCE_COLUMNS).where(sources.c.message_id == target.value)
            out.add(target, conn.execute(message).mappings(), source=True)
            derived = sa.select(*_MEMORY_COLUMNS).where(
                memories.c.source_message_id == target.value
            )
            out.add(target, conn.execute(derived).mappings(), source=False)
    if subjects:
        _covered_subjects(conn, subjects, out)
    return out


# ------------------------------------------------------------------------ legal holds


def _open_holds(conn: Connection) -> list[sa.RowMapping]:
    """The tenant's legal holds not yet released."""
    return list(
        conn.execute(sa.select(legal_holds).where(legal_holds.c.released_at.is_(None))).mappings()
    )


def _holder(holds: Sequence[sa.RowMapping], node: Node, owner: Mapping[str, Any] | None) -> bool:
    """Whether an open hold covers `node` (a memory or source with its row `owner`)."""
    if owner is None:
        return False
    for hold in holds:
        if node.kind is NodeKind.MEMORY:
            if hold["memory_id"] is not None and str(hold["memory_id"]) == node.id:
                return True
            if hold["source_message_id"] is not None and (
                hold["source_message_id"] == owner["source_message_id"]
            ):
                return True
            if hold["subject"] is not None and hold["subject"] in (
                owner["subject"], owner["account"], str(owner["subject"]).split(":", 1)[0],
            ):  # fmt: skip
                return True
        if node.kind is NodeKind.SOURCE and (
            hold["source_message_id"] == node.id
            or (hold["subject"] is not None and hold["subject"] == owner["account"])
        ):
            return True
    return False


def _export_parents(conn: Connection, export_ids: Sequence[str]) -> dict[str, set[str]]:
    if not export_ids:
        return {}
    rows = conn.execute(
        sa.select(lineage_edges.c.child_id, lineage_edges.c.parent_id).where(
            lineage_edges.c.child_kind == NodeKind.EXPORT.value,
            lineage_edges.c.child_id == any_of(export_ids),
            lineage_edges.c.parent_kind == NodeKind.MEMORY.value,
        )
    ).all()
    parents: dict[str, set[str]] = {}
    for export_id, memory_id in rows:
        parents.setdefault(export_id, set()).add(memory_id)
    return parents


@dataclass(frozen=True, slots=True)
class _Holds:
    """Which nodes open holds keep: memories and sources directly, derivatives by parent."""

    memories: frozenset[str]
    sources: frozenset[str]
    export_parents: Mapping[str, set[str]]

    def keeps(self, node: Node) -> bool:
        if node.kind is NodeKind.MEMORY:
            return node.id in self.memories
        if node.kind is NodeKind.SOURCE:
            return node.id in self.sources
        if node.kind is NodeKind.EXPORT:
            return bool(self.export_parents.get(node.id, set()) & self.memories)
        return memory_of(node) in self.memories


def _holds(
    conn: Connection,
    nodes: Sequence[Node],
    owners: Mapping[str, Mapping[str, Any]],
    source_owners: Mapping[str, Mapping[str, Any]],
) -> _Holds:
    holds = _open_holds(conn)
    held = {i for i, row in owners.items() if _holder(holds, Node(NodeKind.MEMORY, i), row)}
    held_sources = {owners[i]["source_message_id"] for i in held}
    held_sources |= {
        n.id for n in nodes
        if n.kind is NodeKind.SOURCE and _holder(holds, n, source_owners.get(n.id))
    }  # fmt: skip
    exports = [n.id for n in nodes if n.kind is NodeKind.EXPORT]
    return _Holds(frozenset(held), frozenset(held_sources), _export_parents(conn, exports))


# ------------------------------------------------------------------------ expansion


@dataclass
class Expansion:
    """A request's ledger node rows, and the claims and messages it covers."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    memory_ids: list[uuid.UUID] = field(default_factory=list)
    sources: int = 0
    nodes: Counter[str] = field(default_factory=Counter)  # new ledger rows by node kind
    held: int = 0
    already: int = 0  # nodes an earlier request had already put in the ledger


def _in_ledger_already(conn: Connection, nodes: Iterable[Node]) -> set[tuple[str, str]]:
    """(kind, id) of the `nodes` an earlier request already put in the ledger."""
    by_kind: dict[str, list[str]] = {}
    for node in nodes:
        by_kind.setdefault(node.kind.value, []).append(node.id)
    known: set[tuple[str, str]] = set()
    for kind, ids in by_kind.items():  # one index range per kind (ix_erasure_ledger_node)
        known.update(
            (kind, node_id)
            for node_id in conn.execute(
                sa.select(erasure_ledger.c.node_id).where(
                    erasure_ledger.c.node_kind == kind, erasure_ledger.c.node_id == any_of(ids)
                )
            ).scalars()
        )
    return known


def expand(
    conn: Connection,
    tenant: str,
    targets: Sequence[Target],
    request_id: uuid.UUID,
    *,
    actor: str,
    now: datetime,
) -> Expansion:
    """The ledger node rows of request `request_id` for its `targets` (module doc), in the
    bound tenant: each row names the target that covers its node. Reads only; a node already
    in the ledger (an earlier request) gets no second row. Set-based: the same number of
    queries for one subject as for a thousand."""
    covered = _covered(conn, targets)
    by_memory, by_source = covered.memories, covered.sources
    owners = reached_from(covered.roots, lambda frontier: children_of(conn, frontier))
    nodes = sorted(owners)
    # Memories derived from a covered source are covered too (forget by source).
    extra = [n.id for n in nodes if n.kind is NodeKind.MEMORY and n.id not in by_memory]
    if extra:
        for derived in conn.execute(
            sa.select(memories).where(memories.c.id == any_of(map(uuid.UUID, extra), sa.Uuid))
        ).mappings():
            by_memory[str(derived["id"])] = dict(derived)
    known = _in_ledger_already(conn, nodes)
    holds = _holds(conn, nodes, by_memory, by_source)
    out = Expansion(memory_ids=[uuid.UUID(i) for i in by_memory], sources=len(by_source))
    for node in nodes:
        if (node.kind.value, node.id) in known:
            out.already += 1
            continue
        detail: dict[str, str] = {}
        digest = None
        if node.kind is NodeKind.MEMORY and (row := by_memory.get(node.id)):
            digest = row["subject_hash"]  # the fingerprint stored with the claim (0014)
            detail["claim_hash"] = row["claim_hash"]
        elif node.kind is NodeKind.SOURCE and (source_row := by_source.get(node.id)):
            digest = source_row["content_hash"]
        held = holds.keeps(node)
        out.held += held
        out.nodes[node.kind.value] += 1
        target = owners[node]
        out.rows.append(
            {
                "tenant": tenant,
                "request_id": request_id,
                "target_kind": target.kind.value,
                "target_id": target.value,
                "node_kind": node.kind.value,
                "node_id": node.id,
                "content_hash": digest,
                "state": (LedgerState.HELD if held else LedgerState.BLOCKED).value,
                "requested_by": actor,
                "requested_at": now,
                "blocked_at": now,
                "detail": detail,
            }  # fmt: skip
        )
    return out


def released(conn: Connection) -> list[uuid.UUID]:
    """The ids of the ledger rows `held` that no open hold covers any more."""
    held = list(
        conn.execute(
            sa.select(erasure_ledger).where(erasure_ledger.c.state == LedgerState.HELD.value)
        ).mappings()
    )
    if not held:
        return []
    nodes = [Node(NodeKind(r["node_kind"]), r["node_id"]) for r in held]
    memory_ids = {uuid.UUID(n.id) for n in nodes if n.kind is NodeKind.MEMORY}
    memory_ids |= {uuid.UUID(m) for n in nodes if (m := memory_of(n))}
    owners = {
        str(r["id"]): dict(r)
        for r in conn.execute(
            sa.select(
                memories.c.id, memories.c.subject, memories.c.account, memories.c.source_message_id
            ).where(memories.c.id == any_of(memory_ids, sa.Uuid))
        ).mappings()
    }
    source_owners = {
        r["message_id"]: dict(r)
        for r in conn.execute(
            sa.select(sources.c.message_id, sources.c.account).where(
                sources.c.message_id == any_of(n.id for n in nodes if n.kind is NodeKind.SOURCE)
            )
        ).mappings()
    }
    holds = _holds(conn, nodes, owners, source_owners)
    return [row["id"] for row, node in zip(held, nodes, strict=True) if not holds.keeps(node)]


# ------------------------------------------------------------------------ the plan


@dataclass(frozen=True)
class ErasurePlan:
    """The ledger node rows one erase or verify run covers, grouped for the stores.

    A run may cover hundreds of thousands of rows (every claim of 1,000 subjects and its
    derivatives), and each connector asks for several groups of them: each group is worked out
    once, on first use."""

    tenant: str
    rows: tuple[sa.RowMapping, ...]  # node rows (request rows left out)
    subjects: tuple[str, ...] = ()  # whose backups must follow (their claims, or the target)
    subject_targets: tuple[str, ...] = ()  # named by a subject request itself

    @classmethod
    def of(cls, conn: Connection, tenant: str, rows: Sequence[sa.RowMapping]) -> ErasurePlan:
        """The plan of ledger `rows` (request rows are left out), read in the bound tenant
        before anything is erased: the subjects come from the claims still stored."""
        nodes = tuple(r for r in rows if r["node_kind"] != REQUEST)
        claims = [uuid.UUID(r["node_id"]) for r in nodes if r["node_kind"] == NodeKind.MEMORY]
        subjects = set(
            conn.execute(
                sa.select(memories.c.subject)
                .distinct()
                .where(memories.c.id == any_of(claims, sa.Uuid))
            ).scalars()
        )
        targets = {r["target_id"] for r in rows if r["target_kind"] == TargetKind.SUBJECT}
        return cls(tenant, nodes, tuple(sorted(subjects | targets)), tuple(sorted(targets)))

    @functools.cached_property
    def _by_kind(self) -> dict[str, list[str]]:
        found: dict[str, set[str]] = {}
        for r in self.rows:
            found.setdefault(r["node_kind"], set()).add(r["node_id"])
        return {kind: sorted(ids) for kind, ids in found.items()}

    def ids(self, kind: NodeKind) -> list[str]:
        """The node ids of `kind`, sorted."""
        return self._by_kind.get(kind.value, [])

    @functools.cached_property
    def memory_ids(self) -> list[uuid.UUID]:
        return [uuid.UUID(i) for i in self.ids(NodeKind.MEMORY)]

    @functools.cached_property
    def indexed_memories(self) -> list[str]:
        """The claims whose vectors the index may hold: the memory nodes and the memories
        that embedding and index-row nodes were made from."""
        found = set(self.ids(NodeKind.MEMORY))
        for kind in (NodeKind.EMBEDDING, NodeKind.INDEX_ROW):
            found |= {m for i in self.ids(kind) if (m := memory_of(Node(kind, i)))}
        return sorted(found)

    @functools.cached_property
    def node_keys(self) -> list[tuple[str, str]]:
        return [(r["node_kind"], r["node_id"]) for r in self.rows]
