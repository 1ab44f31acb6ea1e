"""`permem.erasure` on a real database: the ledger view's rule, and a connector list that
`forget` and `verify` walk (a new store is one more connector, visited by both)."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from lineage import NodeKind
from permem import holds
from permem.erasure import connectors
from permem.erasure.connectors import Erased, Stores
from permem.erasure.ledger import Clock, LedgerState, blocking, erasing, memory_blocked
from permem.erasure.plan import ErasurePlan
from permem.forget import Target, TargetKind, block, erase, request, verify
from permem.stores.database import Database, register_tenant, tenant_transaction
from permem.stores.memories import append_memories
from permem.stores.schema import erasure_ledger, memories
from permem.stores.sources import append_sources
from tests.conftest import T0, memory, message

TENANT = "acme"
NOW = T0 + timedelta(days=1)  # the caller's time of the requests (the database's is later)


def _store(db: Database, claims: dict[str, tuple[str, str]]) -> dict[str, uuid.UUID]:
    """Claims by name -> (subject, message id), each on a message of the subject's account."""
    made = {
        name: memory(TENANT, mid, subject=subject, account=subject.split(":")[0], claim=name)
        for name, (subject, mid) in claims.items()
    }
    with tenant_transaction(db.app, TENANT) as conn:
        register_tenant(conn, TENANT)
        append_sources(
            conn,
            [
                message(TENANT, mid, account=subject.split(":")[0], conversation_id=mid)
                for subject, mid in claims.values()
            ],
        )
        append_memories(conn, list(made.values()))
    return {name: c.id for name, c in made.items()}


def _blocked(conn: sa.Connection) -> tuple[set[uuid.UUID], set[uuid.UUID]]:
    """The stored claims the blocking ledger covers, by its Python rule and by its SQL rule."""
    ledger = blocking(conn)
    rows = conn.execute(
        sa.select(memories.c.id, memories.c.subject, memories.c.source_message_id,
                  memories.c.created_at)
    ).all()  # fmt: skip
    python = {
        r.id for r in rows
        if ledger.blocks_memory(str(r.id), r.subject, r.source_message_id, r.created_at)
    }  # fmt: skip
    sql = set(conn.execute(sa.select(memories.c.id).where(memory_blocked(memories))).scalars())
    return python, sql


def test_the_ledger_view_blocks_what_is_blocked_erased_or_held_and_erases_all_but_held(
    db: Database,
) -> None:
    ids = _store(db, {
        "gone": ("alice", "m1"), "kept": ("alice", "m2"), "own": ("alice", "m3"),
        "toms": ("alice:tom", "m4"), "bobs": ("bob", "mb"),
    })  # fmt: skip
    holds.place(db, TENANT, claim=ids["kept"], reason="litigation", by="legal", now=NOW)
    block(db, TENANT, Target(TargetKind.CLAIM, str(ids["gone"])), actor="alice", now=NOW)
    block(db, TENANT, Target(TargetKind.CLAIM, str(ids["kept"])), actor="alice", now=NOW)
    erase(db, None, TENANT, now=NOW, vacuum=False)
    with tenant_transaction(db.app, TENANT) as conn:
        states = dict(
            conn.execute(
                sa.select(erasure_ledger.c.node_id, erasure_ledger.c.state).where(
                    erasure_ledger.c.node_kind == "memory"
                )
            ).all()
        )
        assert states == {
            str(ids["gone"]): LedgerState.ERASED.value,
            str(ids["kept"]): LedgerState.HELD.value,
        }
        # Blocked: every row, held included. Must be absent: every row but held.
        assert blocking(conn).memories == {str(ids["gone"]), str(ids["kept"])}
        assert erasing(conn).memories == {str(ids["gone"])}
        assert _blocked(conn) == ({ids["kept"]}, {ids["kept"]})

    # A subject request before its expansion (the request row alone) covers, on the
    # database's clock, what was stored at or before it, the subject's third parties too.
    forget_alice = request(db, TENANT, Target(TargetKind.SUBJECT, "alice"), actor="a", now=NOW)
    later = _store(db, {"later": ("alice", "m5")})
    with tenant_transaction(db.app, TENANT) as conn:
        expected = {ids["kept"], ids["own"], ids["toms"]}
        assert _blocked(conn) == (expected, expected)
        assert later["later"] not in expected
        # On the caller's clock (a message's own time): at or before `requested_at`.
        for ledger in (blocking(conn), erasing(conn)):
            found = ledger.message_request("m9", "alice:tom", NOW)
            assert found is not None and found.request_id == str(forget_alice.request_id)
            assert ledger.message_request("m9", "alice", NOW + timedelta(seconds=1)) is None
            assert ledger.message_request("m9", "bob", T0) is None
            assert ledger.subject_request("alice", NOW, Clock.CALLER) is found
        assert erasing(conn).memories == {str(ids["gone"])}  # the hold still keeps `kept`


class CacheDir:
    """A real store for the test: one JSON file per claim id in a folder."""

    name = "cache"

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _files(self, plan: ErasurePlan) -> list[Path]:
        return [self.folder / f"{m}.json" for m in plan.ids(NodeKind.MEMORY)]

    def erase(self, plan: ErasurePlan) -> Erased:
        gone = [f for f in self._files(plan) if f.exists()]
        for file in gone:
            file.unlink()
        return Erased(files=len(gone), detail={"files": len(gone)})

    def residue(self, plan: ErasurePlan) -> list[dict[str, Any]]:
        return [{"store": self.name, "file": f.name} for f in self._files(plan) if f.exists()]


def test_a_registered_connector_is_erased_by_forget_and_checked_by_verify(
    db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = _store(db, {"a1": ("alice", "m1"), "a2": ("alice", "m2"), "b1": ("bob", "mb")})
    folder = tmp_path / "cache"
    folder.mkdir()

    def cache(claim: str) -> Path:
        file = folder / f"{ids[claim]}.json"
        file.write_text(json.dumps({"claim": claim}))
        return file

    files = {name: cache(name) for name in ids}
    seen: list[Stores] = []

    def factory(stores: Stores) -> CacheDir:
        seen.append(stores)
        return CacheDir(folder)

    monkeypatch.setattr(connectors, "CONNECTORS", [*connectors.CONNECTORS, factory])
    block(db, TENANT, Target(TargetKind.SUBJECT, "alice"), actor="alice", now=NOW)
    erased = erase(db, None, TENANT, now=NOW, vacuum=False)
    assert erased.stores["cache"] == {"files": 2}
    # Each connector that ran is timed, in the order it ran: the registered one last.
    assert list(erased.connector_seconds) == list(erased.stores)
    assert list(erased.connector_seconds)[-1] == "cache"
    assert not files["a1"].exists() and not files["a2"].exists() and files["b1"].exists()
    checked = verify(db, None, TENANT, now=NOW, backups=False)
    assert checked.clean
    # The verification is timed the same way, after its read of the ledger.
    assert list(checked.connector_seconds) == ["ledger", *erased.connector_seconds]

    cache("a2")  # a copy comes back (a stale writer): verify must find it in that store
    found = verify(db, None, TENANT, now=NOW, backups=False)
    assert found.residue == [{"store": "cache", "file": f"{ids['a2']}.json"}]
    with tenant_transaction(db.app, TENANT) as conn:
        states = set(
            conn.execute(
                sa.select(erasure_ledger.c.state).where(erasure_ledger.c.node_kind != "request")
            ).scalars()
        )
    assert states == {LedgerState.FAILED.value}
    erase(db, None, TENANT, now=NOW, vacuum=False)  # failed rows are erased again
    assert not files["a2"].exists() and files["b1"].exists()
    assert verify(db, None, TENANT, now=NOW, backups=False).clean
    assert [s.tenant for s in seen] == [TENANT] * 5


def test_a_copy_of_an_erased_claim_under_a_new_id_is_residue_for_its_subject_only(
    db: Database,
) -> None:
    _store(db, {"likes kayaking": ("alice", "m1"), "likes chess": ("alice", "m2")})
    block(db, TENANT, Target(TargetKind.SUBJECT, "alice"), actor="alice", now=NOW)
    erase(db, None, TENANT, now=NOW, vacuum=False)
    assert verify(db, None, TENANT, now=NOW, backups=False).clean
    # The same text comes back under new ids without a source (a stale writer), once for
    # alice, whose fingerprint (memories.subject_hash) the ledger holds, once for bob.
    copies = {
        who: memory(TENANT, None, subject=who, account=who, claim="Likes  KAYAKING")
        for who in ("alice", "bob")
    }
    with tenant_transaction(db.app, TENANT) as conn:
        append_memories(conn, list(copies.values()))
    found = verify(db, None, TENANT, now=NOW, backups=False)
    assert found.residue == [
        {"store": "postgresql", "table": "memories", "id": str(copies["alice"].id)}
    ]


def test_one_connector_per_store_in_erasure_order_and_the_public_names(db: Database) -> None:
    import permem.backup
    import permem.erasure

    stores = Stores(db, TENANT, NOW)  # no vector index configured: no LanceDB connector
    assert [c.name for c in connectors.connectors_for(stores)] == [
        "exports", "profiles", "postgresql", "backups",
    ]  # fmt: skip
    for module in (permem.backup, permem.erasure, connectors):
        assert all(hasattr(module, name) for name in module.__all__)
    assert {"backup_tenant", "restore_backup", "purge_subjects"} <= set(permem.backup.__all__)
