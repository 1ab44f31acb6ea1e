"""Deletion as a lineage-graph operation: block, erase every derivative, verify.

A request names one subject, source message or claim, or many subjects at once
(`Target.of_subjects`): one request id, and each step below runs once for all of them.

1. **Block** (`block`): in one transaction, every record the request covers becomes `blocked`
   (unusable: recall re-reads status and checks the ledger) and every node of the lineage graph
   below it (claims, source messages, embeddings, index rows, profiles, export files) gets an
   `erasure_ledger` row: ids and salted content hashes only, never text
   (`permem.erasure.plan.expand`); the profiles of the subjects concerned are regenerated
   without the blocked claims. A record under an open legal hold is blocked too, but its
   ledger rows say `held`: it is kept until the hold is released.
2. **Erase** (`erase`): every ledger row still `blocked` or `failed` (of any request of the
   tenant, so a re-run finishes what a crash or a failed verification left) is physically
   removed by each connector of `permem.erasure.connectors` in turn: the LanceDB index (rows,
   old versions, rewritten fragments), export files, every profile version that cites an erased
   claim, the PostgreSQL rows of every table that refers to them (then `VACUUM`), and backups
   (re-sealed, old keys destroyed). The rows become `erased` once every connector is done.
3. **Verify** (`verify`): every ledger row marked erased is looked for by each connector (by id
   and content fingerprint, in what is on disk). Clean rows become `verified`; residue marks
   them `failed` and is returned with where it was found.

The ledger outlives the data: the write gate, `rebuild-index` and restore consult it
(`permem.erasure.ledger`), so nothing erased comes back.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Connection

from permem.erasure import connectors as _connectors
from permem.erasure.connectors import Stores
from permem.erasure.connectors.postgres import ERASED_TABLES, pg_residue, vacuum_tables
from permem.erasure.ledger import REQUEST, LedgerState, TargetKind
from permem.erasure.plan import ErasurePlan, Target, check_exists, released
from permem.erasure.plan import expand as _plan_expansion
from permem.erasure.results import BlockResult, EraseResult, VerifyResult
from permem.errors import BadInput, NotFound
from permem.records import Status
from permem.stores.bulk import any_of, copy_insert, unnested
from permem.stores.database import Database, check_tenant, list_tenants, tenant_transaction
from permem.stores.schema import erasure_ledger, index_queue, memories, memory_events
from permem.stores.vectors import VectorIndex

__all__ = [
    "ERASED_TABLES",
    "REQUEST",
    "BlockResult",
    "EraseResult",
    "LedgerState",
    "Target",
    "TargetKind",
    "Targets",
    "VerifyResult",
    "block",
    "erase",
    "expand",
    "pg_residue",
    "request",
    "request_state",
    "tenants_with_ledger",
    "vacuum_tables",
    "verify",
]


# ---------------------------------------------------------------------------------- block


Targets = Target | Sequence[Target]  # one target, or the many subjects of one request


def _targets(target: Targets) -> tuple[Target, ...]:
    targets = (target,) if isinstance(target, Target) else tuple(dict.fromkeys(target))
    if not targets:
        raise BadInput("a forget request needs at least one target")
    return targets


def block(db: Database, tenant: str, target: Targets, *, actor: str, now: datetime) -> BlockResult:
    """Make everything `target` covers unusable at once and record it in the ledger:
    `request`, then `expand`. `target` is one target or many (`Target.of_subjects`): one
    request either way, with one id, the same two transactions and one expansion.

    Two transactions. The first commits the request's rows to the ledger (one per target),
    which recall checks, so from then on no recall returns a covered record (this is the "at
    once": one insert). The second expands the request over the lineage graph: a ledger row
    per node and status `blocked` for every covered claim. If the process dies between the
    two, `erase` expands the request first. A second request for the same target adds no node
    rows (they are already in the ledger). Raises `NotFound` for a claim or source the tenant
    never held.
    """
    result = request(db, tenant, target, actor=actor, now=now)
    expand(db, result, actor=actor, now=now)
    return result


def request(
    db: Database, tenant: str, target: Targets, *, actor: str, now: datetime
) -> BlockResult:
    """The first step of `block`: commit the request rows, one per target, in one
    transaction; recall excludes from then on."""
    check_tenant(tenant)
    if not actor:
        raise BadInput("a forget request needs the actor who asked for it")
    started = time.perf_counter()
    result = BlockResult(uuid.uuid4(), tenant, _targets(target))
    with tenant_transaction(db.app, tenant) as conn:
        for each in result.targets:
            check_exists(conn, each)
        conn.execute(
            # the clock of memories.created_at (recall cutoff): one for every target
            sa.insert(erasure_ledger).values(blocked_at=sa.func.now()),
            [
                {
                    "tenant": tenant,
                    "request_id": result.request_id,
                    "target_kind": each.kind.value,
                    "target_id": each.value,
                    "node_kind": REQUEST,
                    "node_id": str(result.request_id),
                    "state": LedgerState.BLOCKED.value,
                    "requested_by": actor,
                    "requested_at": now,
                    "detail": {"expanded": False},
                }
                for each in result.targets
            ],
        )
    result.request_seconds = result.seconds = time.perf_counter() - started
    return result


def continue_block(
    db: Database, tenant: str, target: Targets, request_id: uuid.UUID, *, actor: str, now: datetime
) -> BlockResult:
    """The second step of `block` for a request already committed (`request`; `permem serve`
    commits it before it answers and leaves the rest to the forget flow)."""
    result = BlockResult(request_id, tenant, _targets(target))
    expand(db, result, actor=actor, now=now)
    return result


def expand(db: Database, result: BlockResult, *, actor: str, now: datetime) -> None:
    """The second step of `block`: node rows and `blocked` statuses, in one transaction."""
    started = time.perf_counter()
    _expand(db, result.tenant, result.targets, result, actor=actor, now=now)
    result.seconds += time.perf_counter() - started


def _expand(
    db: Database,
    tenant: str,
    targets: Sequence[Target],
    result: BlockResult,
    *,
    actor: str,
    now: datetime,
) -> None:
    """The request's node rows and the `blocked` statuses (see `block`), in one transaction."""
    with tenant_transaction(db.app, tenant) as conn:
        plan = _plan_expansion(conn, tenant, targets, result.request_id, actor=actor, now=now)
        copy_insert(conn, erasure_ledger, plan.rows)
        result.nodes.update(plan.nodes)
        result.held += plan.held
        result.already += plan.already
        result.sources = plan.sources
        result.memories = _block_memories(
            conn, tenant, plan.memory_ids, actor=actor, request=result.request_id
        )
        queued = index_queue.c.memory_id == any_of(plan.memory_ids, sa.Uuid)
        conn.execute(sa.delete(index_queue).where(queued))
        _profiles_follow(conn, tenant, plan.memory_ids, now)
        conn.execute(
            sa.update(erasure_ledger)
            .where(
                erasure_ledger.c.node_kind == REQUEST,
                erasure_ledger.c.node_id == str(result.request_id),
            )
            .values(detail={"expanded": True})
        )


def _profiles_follow(conn: Connection, tenant: str, ids: list[uuid.UUID], now: datetime) -> None:
    """Regenerate the profiles of the subjects whose claims were just blocked, so no version
    cites them from the block on (`erase` then removes the old versions for good)."""
    from permem.profile import drop_profiles, refresh_profiles

    if not ids:
        return
    subjects = sorted(
        conn.execute(
            sa.select(memories.c.subject).distinct().where(memories.c.id == any_of(ids, sa.Uuid))
        ).scalars()
    )
    # A subject with no claim left unblocked has no profile line left: its versions are
    # dropped, as a regeneration would, without one ledger read per purpose and scope (a
    # subject request blocks every claim, and a request of many subjects names thousands).
    unblocked = set(
        conn.execute(
            sa.select(memories.c.subject)
            .distinct()
            .where(
                memories.c.subject == any_of(subjects),
                memories.c.status != Status.BLOCKED.value,
            )
        ).scalars()
    )
    drop_profiles(conn, [s for s in subjects if s not in unblocked])
    for subject in sorted(unblocked):
        refresh_profiles(conn, tenant, subject, now=now)


def _block_memories(
    conn: Connection, tenant: str, ids: list[uuid.UUID], *, actor: str, request: uuid.UUID
) -> int:
    """Set every one of `ids` not yet blocked to `blocked`, with one event each (set-based:
    the block must be fast for a subject with thousands of claims)."""
    if not ids:
        return 0
    changed = conn.execute(
        sa.text(
            "UPDATE memories AS m SET status = 'blocked' FROM memories AS o, "
            "unnest(CAST(:ids AS uuid[])) AS wanted(id) "
            "WHERE m.id = wanted.id AND o.id = wanted.id AND m.status <> 'blocked' "
            "RETURNING m.id, o.status"
        ),
        {"ids": list(ids)},
    ).all()
    if changed:
        copy_insert(
            conn,
            memory_events,
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


def erase(
    db: Database,
    index: VectorIndex | None,
    tenant: str,
    *,
    now: datetime,
    vacuum: bool = True,
    backups: Path | None = None,
) -> EraseResult:
    """Physically remove everything of `tenant` the ledger says is `blocked` (module doc):
    each connector of `permem.erasure.connectors.CONNECTORS` in turn.

    Idempotent: a crash at any point leaves the records blocked, and a re-run completes the
    erasure. Held rows whose holds were all released are erased too; rows still held stay.
    """
    check_tenant(tenant)
    started = time.perf_counter()
    result = EraseResult(tenant)
    _expand_pending(db, tenant)
    with tenant_transaction(db.app, tenant) as conn:
        ended = released(conn)
        if ended:
            conn.execute(
                sa.update(erasure_ledger)
                .where(erasure_ledger.c.id == any_of(ended, sa.Uuid))
                .values(state=LedgerState.BLOCKED.value)
            )
        result.released = len(ended)
    with tenant_transaction(db.app, tenant) as conn:
        rows = _plan_rows(
            conn, erasure_ledger.c.state.in_([LedgerState.BLOCKED.value, LedgerState.FAILED.value])
        )
        result.still_held = _count_held(conn)
        plan = ErasurePlan.of(conn, tenant, rows)
    result.nodes.update(r["node_kind"] for r in rows)
    result.subjects = list(plan.subjects)
    if rows:
        stores = Stores(db, tenant, now, index=index, backups=backups, vacuum=vacuum)
        for connector in _connectors.connectors_for(stores):
            began = time.perf_counter()
            erased = connector.erase(plan)
            result.connector_seconds[connector.name] = time.perf_counter() - began
            result.rows_deleted.update(erased.rows)
            result.files_deleted += erased.files
            result.stores[connector.name] = erased.detail
    with tenant_transaction(db.app, tenant) as conn:
        if rows:
            conn.execute(
                sa.update(erasure_ledger)
                .where(erasure_ledger.c.id == unnested([r["id"] for r in rows], sa.Uuid).c.value)
                .values(state=LedgerState.ERASED.value, erased_at=now)
            )
        _close_requests(conn, now)
    result.seconds = time.perf_counter() - started
    return result


# What an erase or verify run reads of each ledger row: the plan's and connectors' columns,
# the claim's plain hash out of `detail` (a run may read hundreds of thousands of rows: all of
# them fetched at once, none of the JSON parsed).
_PLAN_COLUMNS = (
    erasure_ledger.c.id,
    erasure_ledger.c.target_kind,
    erasure_ledger.c.target_id,
    erasure_ledger.c.node_kind,
    erasure_ledger.c.node_id,
    erasure_ledger.c.content_hash,
    erasure_ledger.c.state,
)


def _plan_rows(conn: Connection, *where: sa.ColumnElement[bool]) -> Sequence[sa.RowMapping]:
    return conn.execute(sa.select(*_PLAN_COLUMNS).where(*where)).mappings().all()


def _count_held(conn: Connection) -> int:
    return int(
        conn.execute(
            sa.select(sa.func.count()).where(erasure_ledger.c.state == LedgerState.HELD.value)
        ).scalar_one()
    )


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
    requests: dict[uuid.UUID, list[sa.RowMapping]] = {}
    for row in pending:  # a request of many subjects has one row per subject
        requests.setdefault(row["request_id"], []).append(row)
    for request_id, rows in requests.items():
        targets = tuple(Target(TargetKind(r["target_kind"]), r["target_id"]) for r in rows)
        result = BlockResult(request_id, tenant, targets)
        head = rows[0]
        _expand(db, tenant, targets, result, actor=head["requested_by"], now=head["requested_at"])


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


# --------------------------------------------------------------------------------- verify


def verify(
    db: Database,
    index: VectorIndex | None,
    tenant: str,
    *,
    now: datetime,
    backups: bool = True,
) -> VerifyResult:
    """Ask every connector for residue of the erased ledger rows of `tenant` (module doc);
    mark the clean ones `verified` and the others `failed` with where residue was found."""
    check_tenant(tenant)
    started = time.perf_counter()
    result = VerifyResult(tenant)
    states = [LedgerState.ERASED.value, LedgerState.VERIFIED.value, LedgerState.FAILED.value]
    with tenant_transaction(db.app, tenant) as conn:
        rows = _plan_rows(
            conn, erasure_ledger.c.state.in_(states), erasure_ledger.c.node_kind != REQUEST
        )
        result.held = _count_held(conn)
        plan = ErasurePlan.of(conn, tenant, rows)
    result.connector_seconds["ledger"] = time.perf_counter() - started
    result.checked = len(rows)
    if not rows:
        result.seconds = time.perf_counter() - started
        return result
    stores = Stores(db, tenant, now, index=index, prove_backups=backups)
    residue: list[dict[str, Any]] = []
    for connector in _connectors.connectors_for(stores):
        began = time.perf_counter()
        residue += connector.residue(plan)
        result.connector_seconds[connector.name] = time.perf_counter() - began
    result.residue = residue
    with tenant_transaction(db.app, tenant) as conn:
        if residue:
            conn.execute(
                sa.update(erasure_ledger)
                .where(erasure_ledger.c.id == unnested([r["id"] for r in rows], sa.Uuid).c.value)
                .values(
                    state=LedgerState.FAILED.value,
                    detail=erasure_ledger.c.detail.op("||")(
                        sa.literal({"residue": residue[:50]}, JSONB)
                    ),
                )
            )
        else:
            pending = [r["id"] for r in rows if r["state"] != LedgerState.VERIFIED.value]
            verified = {
                "state": LedgerState.VERIFIED.value,
                "verified_at": now,
                "detail": erasure_ledger.c.detail.op("-")("residue"),
            }
            conn.execute(
                sa.update(erasure_ledger)
                .where(erasure_ledger.c.id == unnested(pending, sa.Uuid).c.value)
                .values(verified)
            )
            conn.execute(
                sa.update(erasure_ledger)
                .where(
                    erasure_ledger.c.node_kind == REQUEST,
                    erasure_ledger.c.state == LedgerState.ERASED.value,
                )
                .values(verified)
            )
            result.verified = len(rows)
    result.seconds = time.perf_counter() - started
    return result


def request_state(db: Database, tenant: str, request_id: uuid.UUID) -> dict[str, object]:
    """Where a forget request stands: `blocked` -> `erased` -> `verified` (or `failed`), and
    `held` while a legal hold keeps any of its nodes. NotFound for a request the tenant never
    made. Changes nothing."""
    with tenant_transaction(db.app, tenant) as conn:
        rows = conn.execute(
            sa.select(erasure_ledger).where(erasure_ledger.c.request_id == request_id)
        ).mappings().all()  # fmt: skip
    # One request row per target (a request of many subjects has many), all in one state.
    heads = sorted(
        (r for r in rows if r["node_kind"] == REQUEST),
        key=lambda r: (r["target_kind"], r["target_id"]),
    )
    if not heads:
        raise NotFound(f"no forget request {request_id} in this tenant")
    head = heads[0]
    held = sum(1 for r in rows if r["state"] == LedgerState.HELD.value)
    state = LedgerState.HELD.value if held and head["state"] == "blocked" else head["state"]
    return {
        "request_id": str(request_id),
        "state": state,
        "target": {"kind": head["target_kind"], "id": head["target_id"]},
        "targets": [{"kind": r["target_kind"], "id": r["target_id"]} for r in heads],
        "nodes": len(rows) - len(heads),
        "held": held,
        "requested_by": head["requested_by"],
        **{
            name: head[name].isoformat() if head[name] else None
            for name in ("requested_at", "blocked_at", "erased_at", "verified_at")
        },
    }


def tenants_with_ledger(db: Database) -> list[str]:
    """Every tenant (the ledger is read per tenant, under row-level security)."""
    return list_tenants(db)
