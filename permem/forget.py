"""Deletion as a lineage-graph operation: block, erase every derivative, verify.

1. **Block** (`block`): in one transaction, every record the request covers becomes `blocked`
   (unusable: recall re-reads status and checks the ledger) and every node of the lineage graph
   below it (claims, source messages, embeddings, index rows, export files) gets an
   `erasure_ledger` row: ids and salted content hashes only, never text. A record under an
   open legal hold is blocked too, but its ledger rows say `held`: it is kept until the hold
   is released.
2. **Erase** (`erase`): every ledger row still `blocked` or `failed` (of any request of the
   tenant, so a re-run finishes what a crash or a failed verification left) is physically
   removed: LanceDB rows together with the old dataset versions and rewritten fragments that
   still held them, export files, the PostgreSQL rows of every table that refers to them
   (`memories`, `memory_events`, `gate_decisions`, `sources`, `lineage_edges`, `index_queue`,
   and for a subject the `recall_log` rows about them), then `VACUUM` of those tables;
   backups follow through `permem.backup.purge_subjects` (key rotation / destruction).
3. **Verify** (`verify`): every ledger row marked erased is looked for in every store:
   PostgreSQL by id and claim hash, LanceDB by reading each data and index file with the Lance
   file reader (not by querying the latest version), export files on disk, and backups by
   decrypting every block whose key still exists. Clean rows become `verified`; residue marks
   them `failed` and is returned with where it was found.

The ledger outlives the data: the write gate, `rebuild-index` and restore consult it, so
nothing erased comes back.
"""

from __future__ import annotations

import time
import uuid
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import ARRAY, JSONB
from sqlalchemy.engine import Connection

from lineage import Node, NodeKind
from permem.errors import BadInput, NotFound
from permem.hashing import subject_fingerprint
from permem.records import Status
from permem.stores.bulk import copy_insert
from permem.stores.database import (
    Database,
    check_tenant,
    list_tenants,
    tenant_salt,
    tenant_transaction,
)
from permem.stores.lineage_store import derivatives
from permem.stores.schema import (
    erasure_ledger,
    exports,
    gate_decisions,
    index_queue,
    legal_holds,
    lineage_edges,
    memories,
    memory_events,
    recall_log,
    sources,
)
from permem.stores.vectors import VectorIndex


class TargetKind(StrEnum):
    SUBJECT = "subject"
    SOURCE = "source"
    CLAIM = "claim"


# The node kind of a request's own ledger row: what recall checks from the first commit on.
REQUEST = "request"


class LedgerState(StrEnum):
    BLOCKED = "blocked"  # unusable, not yet erased
    HELD = "held"  # unusable, kept under a legal hold
    ERASED = "erased"  # physically removed, not yet verified
    VERIFIED = "verified"  # verified absent from every store
    FAILED = "failed"  # verification found residue (see `detail`)


# Tables whose rows erasure deletes; each is vacuumed afterwards so the dead tuples go too.
ERASED_TABLES: tuple[str, ...] = (
    "memories",
    "memory_events",
    "gate_decisions",
    "sources",
    "lineage_edges",
    "index_queue",
    "recall_log",
)


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


@dataclass
class BlockResult:
    request_id: uuid.UUID
    tenant: str
    target: Target
    memories: int = 0
    sources: int = 0
    nodes: Counter[str] = field(default_factory=Counter)  # ledger rows by node kind
    held: int = 0  # ledger rows kept under a legal hold
    already: int = 0  # nodes an earlier request had already put in the ledger
    request_seconds: float = 0.0  # until the request row committed: recall excludes from then
    seconds: float = 0.0

    def as_json(self) -> dict[str, Any]:
        return {
            "request_id": str(self.request_id),
            "tenant": self.tenant,
            "target": {"kind": self.target.kind.value, "id": self.target.value},
            "memories": self.memories,
            "sources": self.sources,
            "nodes": dict(self.nodes),
            "held": self.held,
            "already_in_ledger": self.already,
            "request_seconds": round(self.request_seconds, 4),
            "seconds": round(self.seconds, 4),
        }


@dataclass
class EraseResult:
    tenant: str
    released: int = 0  # held rows whose hold ended, now erased
    nodes: Counter[str] = field(default_factory=Counter)
    rows_deleted: Counter[str] = field(default_factory=Counter)  # by table
    files_deleted: int = 0
    subjects: list[str] = field(default_factory=list)  # whose backups must follow
    backups: dict[str, Any] = field(default_factory=dict)  # what the backup purge did
    still_held: int = 0
    seconds: float = 0.0

    def as_json(self) -> dict[str, Any]:
        return {
            "tenant": self.tenant,
            "released": self.released,
            "nodes": dict(self.nodes),
            "rows_deleted": dict(self.rows_deleted),
            "files_deleted": self.files_deleted,
            "backups": self.backups,
            "still_held": self.still_held,
            "seconds": round(self.seconds, 4),
        }


@dataclass
class VerifyResult:
    tenant: str
    checked: int = 0
    verified: int = 0
    residue: list[dict[str, Any]] = field(default_factory=list)
    held: int = 0
    seconds: float = 0.0

    @property
    def clean(self) -> bool:
        return not self.residue

    def as_json(self) -> dict[str, Any]:
        return {
            "tenant": self.tenant,
            "checked": self.checked,
            "verified": self.verified,
            "held": self.held,
            "residue": self.residue,
            "seconds": round(self.seconds, 4),
        }


# ---------------------------------------------------------------------------------- block


def _escape_like(value: str) -> str:
    return value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _covered(conn: Connection, target: Target) -> tuple[list[sa.RowMapping], list[sa.RowMapping]]:
    """The memories and source messages a request covers (before lineage expansion)."""
    columns = (
        memories.c.id,
        memories.c.subject,
        memories.c.account,
        memories.c.status,
        memories.c.claim_hash,
        memories.c.claim,
        memories.c.source_message_id,
    )
    source_columns = (sources.c.message_id, sources.c.account, sources.c.content_hash)
    if target.kind is TargetKind.CLAIM:
        found = conn.execute(
            sa.select(*columns).where(memories.c.id == uuid.UUID(target.value))
        ).mappings().all()  # fmt: skip
        if not found and not _in_ledger(conn, NodeKind.MEMORY, target.value):
            raise NotFound(f"no memory {target.value} in this tenant")
        return list(found), []
    if target.kind is TargetKind.SOURCE:
        found_sources = conn.execute(
            sa.select(*source_columns).where(sources.c.message_id == target.value)
        ).mappings().all()  # fmt: skip
        if not found_sources and not _in_ledger(conn, NodeKind.SOURCE, target.value):
            raise NotFound(f"no source message {target.value} in this tenant")
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


def _in_ledger(conn: Connection, kind: NodeKind, node_id: str) -> bool:
    return (
        conn.execute(
            sa.select(erasure_ledger.c.id).where(
                erasure_ledger.c.node_kind == kind.value, erasure_ledger.c.node_id == node_id
            )
        ).first()
        is not None
    )


def open_holds(conn: Connection) -> list[sa.RowMapping]:
    """The tenant's legal holds not yet released."""
    return list(
        conn.execute(sa.select(legal_holds).where(legal_holds.c.released_at.is_(None))).mappings()
    )


def _holder(holds: Sequence[sa.RowMapping], node: Node, owner: dict[str, Any] | None) -> bool:
    """Whether an open hold covers `node` (a memory or source with its row `owner`)."""
    for hold in holds:
        if node.kind is NodeKind.MEMORY and owner is not None:
            if hold["memory_id"] is not None and str(hold["memory_id"]) == node.id:
                return True
            if hold["source_message_id"] is not None and (
                hold["source_message_id"] == owner["source_message_id"]
            ):
                return True
            if hold["subject"] is not None and hold["subject"] in (
                owner["subject"],
                owner["account"],
                str(owner["subject"]).split(":", 1)[0],
            ):
                return True
        if node.kind is NodeKind.SOURCE and owner is not None:
            if hold["source_message_id"] == node.id or (
                hold["subject"] is not None and hold["subject"] == owner["account"]
            ):
                return True
    return False


def _memory_of(node: Node) -> str | None:
    """The memory id an embedding or index-row node was made from (`<name>:<memory id>`)."""
    if node.kind in (NodeKind.EMBEDDING, NodeKind.INDEX_ROW):
        return node.id.rsplit(":", 1)[-1]
    return None


def block(db: Database, tenant: str, target: Target, *, actor: str, now: datetime) -> BlockResult:
    """Make everything `target` covers unusable at once and record it in the ledger:
    `request`, then `expand`.

    Two transactions. The first commits one request row to the ledger, which recall checks,
    so from then on no recall returns a covered record (this is the "at once": one insert).
    The second expands the request over the lineage graph: a ledger row per node and status
    `blocked` for every covered claim. If the process dies between the two, `erase` expands
    the request first. A second request for the same target adds no node rows (they are
    already in the ledger). Raises `NotFound` for a claim or source the tenant never held.
    """
    result = request(db, tenant, target, actor=actor, now=now)
    expand(db, result, actor=actor, now=now)
    return result


def request(db: Database, tenant: str, target: Target, *, actor: str, now: datetime) -> BlockResult:
    """The first step of `block`: commit the request row; recall excludes from then on."""
    check_tenant(tenant)
    if not actor:
        raise BadInput("a forget request needs the actor who asked for it")
    started = time.perf_counter()
    result = BlockResult(uuid.uuid4(), tenant, target)
    with tenant_transaction(db.app, tenant) as conn:
        _check_exists(conn, target)
        conn.execute(
            sa.insert(erasure_ledger).values(
                tenant=tenant,
                request_id=result.request_id,
                target_kind=target.kind.value,
                target_id=target.value,
                node_kind=REQUEST,
                node_id=str(result.request_id),
                state=LedgerState.BLOCKED.value,
                requested_by=actor,
                requested_at=now,
                blocked_at=sa.func.now(),  # the clock of memories.created_at (recall cutoff)
                detail={"expanded": False},
            )  # fmt: skip
        )
    result.request_seconds = result.seconds = time.perf_counter() - started
    return result


def expand(db: Database, result: BlockResult, *, actor: str, now: datetime) -> None:
    """The second step of `block`: node rows and `blocked` statuses, in one transaction."""
    started = time.perf_counter()
    _expand(db, result.tenant, result.target, result, actor=actor, now=now)
    result.seconds += time.perf_counter() - started


def _check_exists(conn: Connection, target: Target) -> None:
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


def _expand(
    db: Database, tenant: str, target: Target, result: BlockResult, *, actor: str, now: datetime
) -> None:
    """The request's node rows and the `blocked` statuses (see `block`), in one transaction."""
    with tenant_transaction(db.app, tenant) as conn:
        found, found_sources = _covered(conn, target)
        by_memory = {str(r["id"]): dict(r) for r in found}
        by_source = {r["message_id"]: dict(r) for r in found_sources}
        roots = [Node(NodeKind.MEMORY, i) for i in by_memory] + [
            Node(NodeKind.SOURCE, m) for m in by_source
        ]
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
        holds = open_holds(conn)
        held_memories = {
            i for i, row in by_memory.items() if _holder(holds, Node(NodeKind.MEMORY, i), row)
        }
        held_sources = {by_memory[i]["source_message_id"] for i in held_memories}
        salt = tenant_salt(conn)
        export_parents = _export_parents(conn, [n for n in nodes if n.kind is NodeKind.EXPORT])
        ledger_rows = []
        for node in sorted(nodes):
            if (node.kind.value, node.id) in known:
                result.already += 1
                continue
            row = by_memory.get(node.id) if node.kind is NodeKind.MEMORY else None
            source_row = by_source.get(node.id) if node.kind is NodeKind.SOURCE else None
            detail: dict[str, str] = {}
            if node.kind is NodeKind.MEMORY:
                held = node.id in held_memories
                digest = subject_fingerprint(salt, row["subject"], row["claim"]) if row else None
                if row:
                    detail["claim_hash"] = row["claim_hash"]
            elif node.kind is NodeKind.SOURCE:
                held = _holder(holds, node, source_row) or node.id in held_sources
                digest = source_row["content_hash"] if source_row else None
            elif node.kind is NodeKind.EXPORT:
                held = bool(export_parents.get(node.id, set()) & held_memories)
                digest = None
            else:
                held = _memory_of(node) in held_memories
                digest = None
            state = LedgerState.HELD if held else LedgerState.BLOCKED
            result.held += held
            result.nodes[node.kind.value] += 1
            ledger_rows.append(
                {
                    "tenant": tenant,
                    "request_id": result.request_id,
                    "target_kind": target.kind.value,
                    "target_id": target.value,
                    "node_kind": node.kind.value,
                    "node_id": node.id,
                    "content_hash": digest,
                    "state": state.value,
                    "requested_by": actor,
                    "requested_at": now,
                    "blocked_at": now,
                    "detail": detail,
                }
            )
        copy_insert(conn, erasure_ledger, ledger_rows)
        result.memories = _block_memories(
            conn, tenant, [uuid.UUID(i) for i in by_memory], actor=actor, request=result.request_id
        )
        result.sources = len(by_source)
        conn.execute(
            sa.delete(index_queue).where(
                index_queue.c.memory_id.in_([uuid.UUID(i) for i in by_memory])
            )
        )
        conn.execute(
            sa.update(erasure_ledger)
            .where(
                erasure_ledger.c.node_kind == REQUEST,
                erasure_ledger.c.node_id == str(result.request_id),
            )
            .values(detail={"expanded": True})
        )


def _export_parents(conn: Connection, export_nodes: Sequence[Node]) -> dict[str, set[str]]:
    if not export_nodes:
        return {}
    rows = conn.execute(
        sa.select(lineage_edges.c.child_id, lineage_edges.c.parent_id).where(
            lineage_edges.c.child_kind == NodeKind.EXPORT.value,
            lineage_edges.c.child_id.in_([n.id for n in export_nodes]),
            lineage_edges.c.parent_kind == NodeKind.MEMORY.value,
        )
    ).all()
    parents: dict[str, set[str]] = {}
    for export_id, memory_id in rows:
        parents.setdefault(export_id, set()).add(memory_id)
    return parents


def _block_memories(
    conn: Connection, tenant: str, ids: Sequence[uuid.UUID], *, actor: str, request: uuid.UUID
) -> int:
    """Set every one of `ids` not yet blocked to `blocked`, with one event each (set-based:
    the block must be fast for a subject with thousands of claims)."""
    if not ids:
        return 0
    changed = conn.execute(
        sa.text(
            "UPDATE memories AS m SET status = 'blocked' FROM memories AS o "
            "WHERE m.id = o.id AND m.id = ANY(:ids) AND m.status <> 'blocked' "
            "RETURNING m.id, o.status"
        ),
        {"ids": list(ids)},
    ).all()
    if changed:
        conn.execute(
            sa.insert(memory_events),
            [
                {
                    "tenant": tenant,
                    "memory_id": memory_id,
                    "field": "status",
                    "old_value": old,
                    "new_value": Status.BLOCKED.value,
                    "actor": actor,
                    "reason": f"forget request {request}",
                }
                for memory_id, old in changed
            ],
        )
    return len(changed)


# ---------------------------------------------------------------------------------- erase


def _release_ended_holds(conn: Connection) -> int:
    """Ledger rows `held` whose every covering hold was released become `blocked` again."""
    held = list(
        conn.execute(
            sa.select(erasure_ledger).where(erasure_ledger.c.state == LedgerState.HELD.value)
        ).mappings()
    )
    if not held:
        return 0
    holds = open_holds(conn)
    memory_ids = {uuid.UUID(r["node_id"]) for r in held if r["node_kind"] == NodeKind.MEMORY.value}
    memory_ids |= {
        uuid.UUID(m)
        for r in held
        if (m := _memory_of(Node(NodeKind(r["node_kind"]), r["node_id"])))
    }
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
                sources.c.message_id.in_(
                    [r["node_id"] for r in held if r["node_kind"] == NodeKind.SOURCE.value]
                )
            )
        ).mappings()
    }
    held_memories = {
        i for i, row in owners.items() if _holder(holds, Node(NodeKind.MEMORY, i), row)
    }
    released = []
    for row in held:
        node = Node(NodeKind(row["node_kind"]), row["node_id"])
        if node.kind is NodeKind.MEMORY:
            still = node.id in held_memories
        elif node.kind is NodeKind.SOURCE:
            still = _holder(holds, node, source_owners.get(node.id)) or any(
                owners[m]["source_message_id"] == node.id for m in held_memories
            )
        elif node.kind is NodeKind.EXPORT:
            parents = _export_parents(conn, [node]).get(node.id, set())
            still = bool(parents & held_memories)
        else:
            still = _memory_of(node) in held_memories
        if not still:
            released.append(row["id"])
    if released:
        conn.execute(
            sa.update(erasure_ledger)
            .where(erasure_ledger.c.id.in_(released))
            .values(state=LedgerState.BLOCKED.value)
        )
    return len(released)


def erase(
    db: Database,
    index: VectorIndex | None,
    tenant: str,
    *,
    now: datetime,
    vacuum: bool = True,
    backups: Path | None = None,
) -> EraseResult:
    """Physically remove everything of `tenant` the ledger says is `blocked` (module doc).

    Idempotent: a crash at any point leaves the records blocked, and a re-run completes the
    erasure. Held rows whose holds were all released are erased too; rows still held stay.
    """
    check_tenant(tenant)
    started = time.perf_counter()
    result = EraseResult(tenant)
    _expand_pending(db, tenant)
    with tenant_transaction(db.app, tenant) as conn:
        result.released = _release_ended_holds(conn)
    with tenant_transaction(db.app, tenant) as conn:
        rows = list(
            conn.execute(
                sa.select(erasure_ledger).where(
                    erasure_ledger.c.state.in_(
                        [LedgerState.BLOCKED.value, LedgerState.FAILED.value]
                    )
                )
            ).mappings()
        )
        result.still_held = conn.execute(
            sa.select(sa.func.count()).where(erasure_ledger.c.state == LedgerState.HELD.value)
        ).scalar_one()
        by_kind: dict[str, set[str]] = {}
        for row in rows:
            by_kind.setdefault(row["node_kind"], set()).add(row["node_id"])
            result.nodes[row["node_kind"]] += 1
        memory_ids = sorted(by_kind.get(NodeKind.MEMORY.value, set()))
        subjects = conn.execute(
            sa.select(memories.c.subject).distinct().where(
                memories.c.id.in_([uuid.UUID(i) for i in memory_ids])
            )
        ).scalars().all()  # fmt: skip
        subject_targets = {
            r["target_id"] for r in rows if r["target_kind"] == TargetKind.SUBJECT.value
        }
        result.subjects = sorted(set(subjects) | subject_targets)
        export_ids = sorted(by_kind.get(NodeKind.EXPORT.value, set()))
        export_paths = conn.execute(
            sa.select(exports.c.id, exports.c.path).where(
                exports.c.id.in_([uuid.UUID(i) for i in export_ids])
            )
        ).all()  # fmt: skip
    if not rows:
        with tenant_transaction(db.app, tenant) as conn:
            _close_requests(conn, now)
        result.seconds = time.perf_counter() - started
        return result
    # 1. The vector index: rows, old versions and rewritten fragments (idempotent).
    index_ids = {
        m for kind in (NodeKind.INDEX_ROW.value, NodeKind.EMBEDDING.value)
        for node_id in by_kind.get(kind, set())
        if (m := _memory_of(Node(NodeKind(kind), node_id)))
    } | set(memory_ids)  # fmt: skip
    if index is not None and index_ids:
        index.erase(sorted(index_ids))
    # 2. Export files (the file as a whole: it may hold other records; the user can re-export).
    for _export_id, path in export_paths:
        file = Path(path)
        if file.exists():
            file.unlink()
            result.files_deleted += 1
    # 3. The system of record, in one transaction.
    source_ids = sorted(by_kind.get(NodeKind.SOURCE.value, set()))
    memory_uuids = [uuid.UUID(i) for i in memory_ids]
    node_keys = [(r["node_kind"], r["node_id"]) for r in rows]
    with tenant_transaction(db.app, tenant) as conn:
        deletions: list[tuple[str, sa.Delete]] = [
            ("memory_events", sa.delete(memory_events).where(
                memory_events.c.memory_id.in_(memory_uuids))),
            ("gate_decisions", sa.delete(gate_decisions).where(sa.or_(
                gate_decisions.c.memory_id.in_(memory_uuids),
                gate_decisions.c.source_message_id.in_(source_ids)))),
            ("index_queue", sa.delete(index_queue).where(
                index_queue.c.memory_id.in_(memory_uuids))),
            ("lineage_edges", sa.delete(lineage_edges).where(_touches(node_keys))),
            ("memories", sa.delete(memories).where(memories.c.id.in_(memory_uuids))),
            ("sources", sa.delete(sources).where(sources.c.message_id.in_(source_ids))),
        ]  # fmt: skip
        if subject_targets:
            deletions.append(
                (
                    "recall_log",
                    sa.delete(recall_log).where(recall_log.c.subject.in_(subject_targets)),
                )
            )
        for table, statement in deletions:
            result.rows_deleted[table] += conn.execute(statement).rowcount
        if export_ids:
            conn.execute(
                sa.update(exports)
                .where(exports.c.id.in_([uuid.UUID(i) for i in export_ids]))
                .values(erased_at=now)
            )
        conn.execute(
            sa.update(erasure_ledger)
            .where(erasure_ledger.c.id.in_([r["id"] for r in rows]))
            .values(state=LedgerState.ERASED.value, erased_at=now)
        )
        _close_requests(conn, now)
    # 4. Dead tuples: VACUUM needs the tables' owner.
    if vacuum:
        vacuum_tables(db, ERASED_TABLES)
    # 5. Backups: the subjects' blocks re-sealed without the erased records, old keys destroyed.
    if backups is not None and result.subjects:
        from permem.backup import purge_subjects

        result.backups = purge_subjects(db, tenant, result.subjects, backups, now=now).as_json()
    result.seconds = time.perf_counter() - started
    return result


def _expand_pending(db: Database, tenant: str) -> None:
    """Expand every request whose expansion did not commit (the process died after the
    request row): its nodes are blocked before anything is erased."""
    with tenant_transaction(db.app, tenant) as conn:
        pending = conn.execute(
            sa.select(erasure_ledger).where(
                erasure_ledger.c.node_kind == REQUEST,
                erasure_ledger.c.detail["expanded"].as_boolean().is_(False),
            )
        ).mappings().all()  # fmt: skip
    for row in pending:
        target = Target(TargetKind(row["target_kind"]), row["target_id"])
        result = BlockResult(row["request_id"], tenant, target)
        _expand(db, tenant, target, result, actor=row["requested_by"], now=row["requested_at"])


def _close_requests(conn: Connection, now: datetime) -> None:
    """Requests whose every node row is erased (or verified) are erased themselves."""
    nodes = erasure_ledger.alias("nodes")
    conn.execute(
        sa.update(erasure_ledger)
        .where(
            erasure_ledger.c.node_kind == REQUEST,
            erasure_ledger.c.state == LedgerState.BLOCKED.value,
            erasure_ledger.c.detail["expanded"].as_boolean().is_(True),
            ~sa.exists().where(
                nodes.c.request_id == erasure_ledger.c.request_id,
                nodes.c.node_kind != REQUEST,
                nodes.c.state.in_(
                    [LedgerState.BLOCKED.value, LedgerState.HELD.value, LedgerState.FAILED.value]
                ),
            ),
        )
        .values(state=LedgerState.ERASED.value, erased_at=now)
    )


def _touches(node_keys: Sequence[tuple[str, str]]) -> sa.ColumnElement[bool]:
    """Lineage edges from or to any of the nodes: `kind = k AND id = ANY(ids)` per kind, so
    each arm is an index scan (a row-value IN list over thousands of pairs is a slow scan)."""
    by_kind: dict[str, list[str]] = {}
    for kind, node_id in node_keys:
        by_kind.setdefault(kind, []).append(node_id)
    arms: list[sa.ColumnElement[bool]] = []
    for kind, ids in by_kind.items():
        wanted = sa.func.any(sa.literal(ids, ARRAY(sa.Text)))
        arms.append(
            sa.and_(lineage_edges.c.parent_kind == kind, lineage_edges.c.parent_id == wanted)
        )
        arms.append(sa.and_(lineage_edges.c.child_kind == kind, lineage_edges.c.child_id == wanted))
    return sa.or_(*arms) if arms else sa.false()


def vacuum_tables(db: Database, tables: Iterable[str]) -> None:
    """`VACUUM` each table as its owner, so deleted rows leave the table's pages for reuse."""
    engine = db.owner_engine().execution_options(isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            for table in tables:
                conn.execute(sa.text(f"VACUUM {table}"))
    finally:
        engine.dispose()


# --------------------------------------------------------------------------------- verify


def pg_residue(conn: Connection, rows: Sequence[sa.RowMapping]) -> list[dict[str, Any]]:
    """Where in PostgreSQL the ledger rows' ids or claim fingerprints still appear.

    A claim is residue when its id is in the ledger, or when the same subject holds the same
    text again (its subject-scoped fingerprint is in the ledger); another subject's identical
    claim is not.
    """
    memory_rows = [r for r in rows if r["node_kind"] == NodeKind.MEMORY.value]
    memory_ids = {uuid.UUID(r["node_id"]) for r in memory_rows}
    fingerprints = {r["content_hash"] for r in memory_rows if r["content_hash"]}
    plain = [r["detail"]["claim_hash"] for r in memory_rows if r["detail"].get("claim_hash")]
    source_ids = [r["node_id"] for r in rows if r["node_kind"] == NodeKind.SOURCE.value]
    node_keys = [(r["node_kind"], r["node_id"]) for r in rows]
    export_ids = [uuid.UUID(r["node_id"]) for r in rows if r["node_kind"] == NodeKind.EXPORT.value]
    found: list[dict[str, Any]] = []
    salt = tenant_salt(conn)
    candidates = conn.execute(
        sa.select(memories.c.id, memories.c.subject, memories.c.claim).where(
            sa.or_(memories.c.id.in_(list(memory_ids)), memories.c.claim_hash.in_(plain))
        )
    ).all()
    for memory_id, subject, claim in candidates:
        if memory_id in memory_ids or subject_fingerprint(salt, subject, claim) in fingerprints:
            found.append({"store": "postgresql", "table": "memories", "id": str(memory_id)})
    checks: list[tuple[str, sa.Select[Any]]] = [
        ("memory_events", sa.select(sa.cast(memory_events.c.memory_id, sa.Text)).where(
            memory_events.c.memory_id.in_(list(memory_ids)))),
        ("gate_decisions", sa.select(sa.cast(gate_decisions.c.id, sa.Text)).where(sa.or_(
            gate_decisions.c.memory_id.in_(list(memory_ids)),
            gate_decisions.c.source_message_id.in_(source_ids)))),
        ("index_queue", sa.select(sa.cast(index_queue.c.memory_id, sa.Text)).where(
            index_queue.c.memory_id.in_(list(memory_ids)))),
        ("sources", sa.select(sources.c.message_id).where(sources.c.message_id.in_(source_ids))),
        ("lineage_edges", sa.select(lineage_edges.c.child_id).where(_touches(node_keys))),
        ("exports", sa.select(sa.cast(exports.c.id, sa.Text)).where(
            exports.c.id.in_(export_ids), exports.c.erased_at.is_(None))),
    ]  # fmt: skip
    for table, query in checks:
        for value in conn.execute(query.limit(20)).scalars():
            found.append({"store": "postgresql", "table": table, "id": value})
    return found


def verify(
    db: Database,
    index: VectorIndex | None,
    tenant: str,
    *,
    now: datetime,
    backups: bool = True,
) -> VerifyResult:
    """Look for every erased ledger row of `tenant` in every store (module doc); mark the
    clean ones `verified` and the others `failed` with where residue was found."""
    check_tenant(tenant)
    started = time.perf_counter()
    result = VerifyResult(tenant)
    states = [LedgerState.ERASED.value, LedgerState.VERIFIED.value, LedgerState.FAILED.value]
    with tenant_transaction(db.app, tenant) as conn:
        rows = list(
            conn.execute(
                sa.select(erasure_ledger).where(
                    erasure_ledger.c.state.in_(states), erasure_ledger.c.node_kind != REQUEST
                )
            ).mappings()
        )
        result.held = conn.execute(
            sa.select(sa.func.count()).where(erasure_ledger.c.state == LedgerState.HELD.value)
        ).scalar_one()
        result.checked = len(rows)
        if not rows:
            result.seconds = time.perf_counter() - started
            return result
        residue = pg_residue(conn, rows)
        export_rows = conn.execute(
            sa.select(exports.c.id, exports.c.path).where(
                exports.c.id.in_(
                    [uuid.UUID(r["node_id"]) for r in rows if r["node_kind"] == "export"]
                )
            )
        ).all()  # fmt: skip
    for export_id, path in export_rows:
        if Path(path).exists():
            residue.append({"store": "exports", "id": str(export_id), "path": path})
    if index is not None:
        memory_ids = {r["node_id"] for r in rows if r["node_kind"] == NodeKind.MEMORY.value}
        memory_ids |= {
            m for r in rows
            if (m := _memory_of(Node(NodeKind(r["node_kind"]), r["node_id"])))
        }  # fmt: skip
        # By id, in every data and index file: a subject's name may come back legitimately
        # (new messages after the request, or records under a legal hold).
        for path in index.files_holding(sorted(memory_ids)):
            residue.append({"store": "lancedb", "file": str(path)})
    if backups:
        from permem.backup import backup_residue

        for found in backup_residue(db, tenant):
            residue.append({"store": "backups", **found})
    result.residue = residue
    with tenant_transaction(db.app, tenant) as conn:
        if residue:
            conn.execute(
                sa.update(erasure_ledger)
                .where(erasure_ledger.c.id.in_([r["id"] for r in rows]))
                .values(
                    state=LedgerState.FAILED.value,
                    detail=erasure_ledger.c.detail.op("||")(
                        sa.literal({"residue": residue[:50]}, JSONB)
                    ),
                )
            )
        else:
            pending = [r["id"] for r in rows if r["state"] != LedgerState.VERIFIED.value]
            conn.execute(
                sa.update(erasure_ledger)
                .where(
                    sa.or_(
                        erasure_ledger.c.id.in_(pending),
                        sa.and_(
                            erasure_ledger.c.node_kind == REQUEST,
                            erasure_ledger.c.state == LedgerState.ERASED.value,
                        ),
                    )
                )
                .values(
                    state=LedgerState.VERIFIED.value,
                    verified_at=now,
                    detail=erasure_ledger.c.detail.op("-")("residue"),
                )
            )
            result.verified = len(rows)
    result.seconds = time.perf_counter() - started
    return result


def tenants_with_ledger(db: Database) -> list[str]:
    """Every tenant (the ledger is read per tenant, under row-level security)."""
    return list_tenants(db)
