"""What to erase: a request expanded over the lineage graph, and the nodes an erase run removes.

`expand` turns a request (a subject, a source message or a claim) into its ledger node rows:
the memories and messages it covers, then every derivative the lineage graph reaches from
them (embeddings, index rows, export files), each `blocked`, or `held` while an open legal
hold covers it (the memory, its source message, its subject or the account). A derivative is
held when the memory it was made from is; a message when it, or a held claim of it, is held.
`released` finds the held rows whose holds have all ended. `ErasurePlan` groups the ledger rows
of one erase or verify run by what each store needs (ids by kind, subjects, export ids): the
connectors (`permem.erasure.connectors`) erase and look for exactly those.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from lineage import Node, NodeKind
from permem.erasure.ledger import REQUEST, LedgerState, TargetKind
from permem.errors import BadInput, NotFound
from permem.hashing import subject_fingerprint
from permem.stores.database import tenant_salt
from permem.stores.lineage_store import derivatives
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


def _covered(conn: Connection, target: Target) -> tuple[list[sa.RowMapping], list[sa.RowMapping]]:
    """The memories and source messages a request covers (before lineage expansion)."""
    columns = (
        memories.c.id, memories.c.subject, memories.c.account, memories.c.status,
        memories.c.claim_hash, memories.c.claim, memories.c.source_message_id,
    )  # fmt: skip
    source_columns = (sources.c.message_id, sources.c.account, sources.c.content_hash)
    check_exists(conn, target)
    if target.kind is TargetKind.CLAIM:
        found = conn.execute(
            sa.select(*columns).where(memories.c.id == uuid.UUID(target.value))
        ).mappings().all()  # fmt: skip
        return list(found), []
    if target.kind is TargetKind.SOURCE:
        found_sources = conn.execute(
            sa.select(*source_columns).where(sources.c.message_id == target.value)
        ).mappings().all()  # fmt: skip
        found = conn.execute(
            sa.select(*columns).where(memories.c.source_message_id == target.value)
        ).mappings().all()  # fmt: skip
        return list(found), list(found_sources)
    subject = target.value
    # The subject's own messages: every message of their account, or on a shared account the
    # messages they spoke (`sources.subject`, migration 0008).
    spoke = sa.or_(sources.c.account == subject, sources.c.subject == subject)
    own_sources = conn.execute(sa.select(*source_columns).where(spoke)).mappings().all()
    found = conn.execute(
        sa.select(*columns).where(
            sa.or_(
                memories.c.subject == subject,
                memories.c.subject.like(f"{_escape_like(subject)}:%", escape="\\"),
                memories.c.source_message_id.in_(sa.select(sources.c.message_id).where(spoke)),
            )
        )
    ).mappings().all()  # fmt: skip
    return list(found), list(own_sources)


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
            lineage_edges.c.child_id.in_(list(export_ids)),
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


def expand(
    conn: Connection,
    tenant: str,
    target: Target,
    request_id: uuid.UUID,
    *,
    actor: str,
    now: datetime,
) -> Expansion:
    """The ledger node rows of request `request_id` (module doc), in the bound tenant. Reads
    only; a node already in the ledger (an earlier request) gets no second row."""
    found, found_sources = _covered(conn, target)
    by_memory = {str(r["id"]): dict(r) for r in found}
    by_source = {r["message_id"]: dict(r) for r in found_sources}
    roots = [Node(NodeKind.MEMORY, i) for i in by_memory]
    roots += [Node(NodeKind.SOURCE, m) for m in by_source]
    nodes = set(roots) | derivatives(conn, roots)
    # Memories derived from a covered source are covered too (forget by source).
    extra = [n.id for n in nodes if n.kind is NodeKind.MEMORY and n.id not in by_memory]
    if extra:
        for derived in conn.execute(
            sa.select(memories).where(memories.c.id.in_([uuid.UUID(i) for i in extra]))
        ).mappings():
            by_memory[str(derived["id"])] = dict(derived)
    known = set(
        conn.execute(
            sa.select(erasure_ledger.c.node_kind, erasure_ledger.c.node_id).where(
                erasure_ledger.c.node_id.in_([n.id for n in nodes])
            )
        ).all()
    )
    holds = _holds(conn, sorted(nodes), by_memory, by_source)
    salt = tenant_salt(conn)
    out = Expansion(memory_ids=[uuid.UUID(i) for i in by_memory], sources=len(by_source))
    for node in sorted(nodes):
        if (node.kind.value, node.id) in known:
            out.already += 1
            continue
        detail: dict[str, str] = {}
        digest = None
        if node.kind is NodeKind.MEMORY and (row := by_memory.get(node.id)):
            digest = subject_fingerprint(salt, row["subject"], row["claim"])
            detail["claim_hash"] = row["claim_hash"]
        elif node.kind is NodeKind.SOURCE and (source_row := by_source.get(node.id)):
            digest = source_row["content_hash"]
        held = holds.keeps(node)
        out.held += held
        out.nodes[node.kind.value] += 1
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
            ).where(memories.c.id.in_(list(memory_ids)))
        ).mappings()
    }
    source_owners = {
        r["message_id"]: dict(r)
        for r in conn.execute(
            sa.select(sources.c.message_id, sources.c.account).where(
                sources.c.message_id.in_([n.id for n in nodes if n.kind is NodeKind.SOURCE])
            )
        ).mappings()
    }
    holds = _holds(conn, nodes, owners, source_owners)
    return [row["id"] for row, node in zip(held, nodes, strict=True) if not holds.keeps(node)]


# ------------------------------------------------------------------------ the plan


@dataclass(frozen=True, slots=True)
class ErasurePlan:
    """The ledger node rows one erase or verify run covers, grouped for the stores."""

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
                sa.select(memories.c.subject).distinct().where(memories.c.id.in_(claims))
            ).scalars()
        )
        targets = {r["target_id"] for r in rows if r["target_kind"] == TargetKind.SUBJECT}
        return cls(tenant, nodes, tuple(sorted(subjects | targets)), tuple(sorted(targets)))

    def ids(self, kind: NodeKind) -> list[str]:
        """The node ids of `kind`, sorted."""
        return sorted({r["node_id"] for r in self.rows if r["node_kind"] == kind.value})

    @property
    def memory_ids(self) -> list[uuid.UUID]:
        return [uuid.UUID(i) for i in self.ids(NodeKind.MEMORY)]

    @property
    def indexed_memories(self) -> list[str]:
        """The claims whose vectors the index may hold: the memory nodes and the memories
        that embedding and index-row nodes were made from."""
        found = set(self.ids(NodeKind.MEMORY))
        found |= {
            m for r in self.rows if (m := memory_of(Node(NodeKind(r["node_kind"]), r["node_id"])))
        }  # fmt: skip
        return sorted(found)

    @property
    def node_keys(self) -> list[tuple[str, str]]:
        return [(r["node_kind"], r["node_id"]) for r in self.rows]
