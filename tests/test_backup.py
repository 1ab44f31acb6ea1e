"""Backups with crypto-shredding: real PostgreSQL, real files, real AES-GCM.

A simulated disaster is an owner's TRUNCATE of the records (the keys and the backup records
survive); restore must bring back exactly what the backup may hold, and never what was erased.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import os
import uuid
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from prefect.client.orchestration import get_client
from prefect.client.schemas.filters import (
    ArtifactFilter,
    ArtifactFilterFlowRunId,
    ArtifactFilterKey,
)

from permem.backup import (
    associated_data,
    backup_all,
    backup_residue,
    backup_tenant,
    drop_expired,
    erase_backups,
    purge_subjects,
    read_backup,
    restore_backup,
)
from permem.errors import CheckFailed
from permem.records import Status
from permem.settings import Settings
from permem.stores.database import Database, register_tenant, tenant_transaction
from permem.stores.memories import append_memories, set_status
from permem.stores.schema import (
    backup_keys,
    backups,
    erasure_ledger,
    gate_decisions,
    grants,
    index_queue,
    memories,
    memory_events,
    sources,
    subject_settings,
)
from permem.stores.sources import append_sources
from tests.conftest import T0, memory, message

TENANT, OTHER = "acme", "globex"
NOW = T0 + timedelta(days=30)
# Subject names long enough that base64 ciphertext cannot contain them by chance.
ALICE, BOB = "alicewonderland", "bobthebuilder"
CANARY = {
    "a1": "canary-alice-likes-darjeeling-tea",
    "a2": "canary-alice-walks-her-dog-at-dawn",
    "a3": "canary-alice-secret-to-be-erased",
    "a4": "canary-alice-plays-the-oboe",
    "a5": "canary-alice-already-blocked",
    "b1": "canary-bob-builds-bridges",
}
OTHER_CANARY = "canary-globex-only-claim"
TABLES = (sources, memories, memory_events, gate_decisions, subject_settings, grants)


@dataclass(frozen=True)
class Stored:
    ids: dict[str, uuid.UUID]  # a1..a5 of alice, b1 of bob


def _messages(tenant: str) -> list[Any]:
    alice = [message(tenant, f"m{i}", account=ALICE, turn=i) for i in range(1, 6)]
    return [*alice, message(tenant, "mb", account=BOB, conversation_id="cb")]


@pytest.fixture
def stored(db: Database) -> Stored:
    claims = {
        name: memory(
            TENANT,
            f"m{name[1]}" if name[0] == "a" else "mb",
            subject=ALICE if name[0] == "a" else BOB,
            account=ALICE if name[0] == "a" else BOB,
            claim=text,
            observed_at=T0 + timedelta(hours=int(name[1])),
        )
        for name, text in CANARY.items()
    }
    with tenant_transaction(db.app, TENANT) as conn:
        register_tenant(conn, TENANT)
        append_sources(conn, _messages(TENANT))
        append_memories(conn, list(claims.values()))
        conn.execute(
            sa.insert(gate_decisions),
            [
                {"tenant": TENANT, "source_message_id": "m1", "span_start": 0, "span_end": 9,
                 "subject": ALICE, "kind": "preference", "candidate_hash": "h-a1",
                 "decision": "accept", "reasons": ["accepted"], "policy_version": "gate-test",
                 "memory_id": claims["a1"].id, "decided_at": T0},
                {"tenant": TENANT, "source_message_id": "m2", "span_start": 0, "span_end": 4,
                 "subject": ALICE, "kind": "fact", "candidate_hash": "h-rejected",
                 "decision": "reject", "reasons": ["belief_about_world"],
                 "policy_version": "gate-test", "memory_id": None, "decided_at": T0},
            ],
        )  # fmt: skip
        conn.execute(
            sa.insert(grants).values(
                tenant=TENANT, actor=BOB, subject=ALICE, purpose="assistant",
                expires_at=NOW + timedelta(days=60), granted_by=ALICE, granted_at=T0,
            )
        )  # fmt: skip
        conn.execute(
            sa.insert(subject_settings).values(
                tenant=TENANT, subject=ALICE, paused=True, updated_by=ALICE, updated_at=T0
            )
        )
    with tenant_transaction(db.app, TENANT) as conn:
        set_status(conn, claims["a4"].id, Status.PAUSED, actor=ALICE, reason="not now")
        set_status(conn, claims["a5"].id, Status.BLOCKED, actor=ALICE, reason="forget")
    with tenant_transaction(db.app, OTHER) as conn:
        register_tenant(conn, OTHER)
        append_sources(conn, [message(OTHER, "m1", account=ALICE)])
        append_memories(
            conn, [memory(OTHER, "m1", subject=ALICE, account=ALICE, claim=OTHER_CANARY)]
        )
    return Stored({name: c.id for name, c in claims.items()})


# ---------------------------------------------------------------- helpers


def _backup(db: Database, tmp_path: Path, now: Any = NOW, tenant: str = TENANT) -> Any:
    return backup_tenant(db, tenant, tmp_path / "backups", actor="ops", now=now)


def _rows(owner: sa.Engine, tenant: str = TENANT) -> dict[str, list[dict[str, Any]]]:
    """Every row of the backed-up tables of `tenant`, read as the owner, in a stable order."""
    found = {}
    with owner.connect() as conn:
        for table in TABLES:
            rows = conn.execute(sa.select(table).where(table.c.tenant == tenant)).mappings()
            found[table.name] = sorted((dict(r) for r in rows), key=repr)
    return found


def _backed_up(rows: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """What a backup of `rows` holds: not the blocked claim, nor what only it needed."""
    kept = [r for r in rows["memories"] if r["status"] != "blocked"]
    ids = {r["id"] for r in kept}
    cited = {r["source_message_id"] for r in kept}
    return {
        **rows,
        "memories": kept,
        "sources": [r for r in rows["sources"] if r["message_id"] in cited],
        "memory_events": [r for r in rows["memory_events"] if r["memory_id"] in ids],
        "gate_decisions": [
            r for r in rows["gate_decisions"] if r["memory_id"] is None or r["memory_id"] in ids
        ],
    }


def _disaster(owner: sa.Engine) -> None:
    """Lose the records of every tenant; keep the keys and the backup records."""
    with owner.begin() as conn:
        conn.execute(sa.text(
            "TRUNCATE memories, sources, memory_events, gate_decisions, subject_settings, "
            "grants, index_queue CASCADE"
        ))  # fmt: skip


def _erase(db: Database, memory_id: uuid.UUID, *, state: str = "erased") -> None:
    """What `forget` does to one claim: block it, ledger it, delete the row."""
    with tenant_transaction(db.app, TENANT) as conn:
        claim_hash = _claim_hash(conn, memory_id)
        _ledger(conn, memory_id, claim_hash, state=state)
        if state != "held":
            set_status(conn, memory_id, Status.BLOCKED, actor="forget", reason="forget")
            conn.execute(sa.delete(memory_events).where(memory_events.c.memory_id == memory_id))
            conn.execute(sa.delete(memories).where(memories.c.id == memory_id))


def _claim_hash(conn: sa.Connection, memory_id: uuid.UUID) -> str:
    return str(
        conn.execute(
            sa.select(memories.c.claim_hash).where(memories.c.id == memory_id)
        ).scalar_one()
    )


def _ledger(
    conn: sa.Connection,
    memory_id: uuid.UUID,
    claim_hash: str | None,
    *,
    state: str = "erased",
    target: tuple[str, str] | None = None,
) -> None:
    kind, target_id = target or ("claim", str(memory_id))
    conn.execute(
        sa.insert(erasure_ledger).values(
            tenant=TENANT, request_id=uuid.uuid4(), target_kind=kind, target_id=target_id,
            node_kind="memory", node_id=str(memory_id), content_hash=claim_hash, state=state,
            requested_by="test", requested_at=NOW,
        )
    )  # fmt: skip


def _keys_of(db: Database, subject: str, tenant: str = TENANT) -> list[uuid.UUID]:
    with tenant_transaction(db.app, tenant) as conn:
        return list(
            conn.execute(
                sa.select(backup_keys.c.id).where(backup_keys.c.subject == subject)
            ).scalars()
        )


def _claims_in(db: Database, path: Path) -> dict[str, set[uuid.UUID]]:
    return {
        b.subject: {r["id"] for r in b.tables["memories"]} for b in read_backup(db, path).blocks
    }


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


# ---------------------------------------------------------------- backup and restore


def test_backup_and_restore_round_trip(
    db: Database, stored: Stored, owner: sa.Engine, tmp_path: Path
) -> None:
    expected = _backed_up(_rows(owner))
    result = _backup(db, tmp_path)

    assert result.path == tmp_path / "backups" / TENANT / f"{result.id}.pmbk"
    assert os.stat(result.path).st_mode & 0o777 == 0o600
    assert _files(tmp_path / "backups") == [result.path]  # no temporary file left
    assert (result.subjects, result.records) == (2, 5)  # the blocked claim is not copied
    assert result.rows == sum(len(rows) for rows in expected.values())
    data = result.path.read_bytes()
    assert result.sha256 == hashlib.sha256(data).hexdigest()
    lines = [json.loads(line) for line in data.splitlines()]
    assert lines[0]["format"] == "permem-backup/1" and lines[0]["tenant"] == TENANT
    assert lines[0]["backup_id"] == str(result.id)
    assert [set(line) for line in lines[1:-1]] == [{"key_id", "nonce", "ciphertext"}] * 2
    assert lines[-1] == {"end": True, "blocks": 2}
    for plain in [*CANARY.values(), ALICE, BOB]:
        assert plain.encode() not in data
    with tenant_transaction(db.app, TENANT) as conn:
        row = conn.execute(sa.select(backups)).mappings().one()
    assert (row["path"], row["sha256"], row["subjects"], row["records"]) == (
        str(result.path), result.sha256, 2, 5
    )  # fmt: skip
    assert sorted(row["key_ids"]) == sorted(_keys_of(db, ALICE) + _keys_of(db, BOB))
    assert row["created_by"] == "ops" and row["created_at"] == NOW

    _disaster(owner)
    restored = restore_backup(db, result.path, actor="ops")
    assert restored.verified and restored.shredded_blocks == 0
    assert restored.skipped_erased == 0 and restored.already_present == 0
    assert restored.restored == result.rows
    assert _rows(owner) == expected  # ids, statuses and timestamps as they were
    with tenant_transaction(db.app, TENANT) as conn:
        queued = set(conn.execute(sa.select(index_queue.c.memory_id)).scalars())
    assert stored.ids["a1"] in queued and stored.ids["a4"] in queued  # the index follows

    again = restore_backup(db, result.path, actor="ops")
    assert (again.restored, again.already_present) == (0, result.rows)
    assert _rows(owner) == expected


def test_a_destroyed_key_makes_the_subject_unreadable_and_the_rest_restores(
    db: Database, stored: Stored, owner: sa.Engine, tmp_path: Path
) -> None:
    before = _backed_up(_rows(owner))
    result = _backup(db, tmp_path)
    [alice_key] = _keys_of(db, ALICE)
    with tenant_transaction(db.app, TENANT) as conn:
        conn.execute(sa.delete(backup_keys).where(backup_keys.c.subject == ALICE))

    contents = read_backup(db, result.path)
    assert [b.subject for b in contents.blocks] == [BOB] and contents.shredded == [alice_key]
    lines = [json.loads(line) for line in result.path.read_bytes().splitlines()[1:-1]]
    [sealed] = [line for line in lines if line["key_id"] == str(alice_key)]
    with owner.connect() as conn:  # every key that still exists, of any tenant
        survivors = [bytes(k) for k in conn.execute(sa.select(backup_keys.c.key)).scalars()]
    assert survivors
    for key in survivors:
        with pytest.raises(InvalidTag):
            AESGCM(key).decrypt(
                base64.b64decode(sealed["nonce"]),
                base64.b64decode(sealed["ciphertext"]),
                associated_data(TENANT, result.id, alice_key),
            )
    for path in _files(tmp_path):
        for plain in CANARY.values():
            assert plain.encode() not in path.read_bytes()

    _disaster(owner)
    restored = restore_backup(db, result.path, actor="ops")
    assert restored.shredded_blocks == 1
    after = _rows(owner)
    bob_ids = {r["id"] for r in before["memories"] if r["subject"] == BOB}
    assert after["memories"] == [r for r in before["memories"] if r["subject"] == BOB]
    assert after["sources"] == [r for r in before["sources"] if r["message_id"] == "mb"]
    assert after["memory_events"] == [
        r for r in before["memory_events"] if r["memory_id"] in bob_ids
    ]
    assert after["grants"] == after["subject_settings"] == after["gate_decisions"] == []


def test_restore_never_resurrects_an_erased_claim_even_when_the_key_survives(
    db: Database, stored: Stored, owner: sa.Engine, tmp_path: Path
) -> None:
    result = _backup(db, tmp_path)
    _erase(db, stored.ids["a3"])  # after the backup: the block still holds it
    _erase(db, stored.ids["a2"], state="held")  # under a legal hold: restorable
    _disaster(owner)
    restored = restore_backup(db, result.path, actor="ops")
    assert restored.shredded_blocks == 0
    assert restored.skipped_erased == 2  # the claim and the source only it cited
    restored_ids = {r["id"] for r in _rows(owner)["memories"]}
    assert stored.ids["a3"] not in restored_ids
    assert {stored.ids[n] for n in ("a1", "a2", "a4", "b1")} == restored_ids


# ---------------------------------------------------------------- purge


def test_a_claim_purge_re_seals_the_block_without_it_and_destroys_the_old_key(
    db: Database, stored: Stored, owner: sa.Engine, tmp_path: Path
) -> None:
    result = _backup(db, tmp_path)
    [old_key] = _keys_of(db, ALICE)
    bob_keys = _keys_of(db, BOB)
    before = _claims_in(db, result.path)
    _erase(db, stored.ids["a3"])

    purge = purge_subjects(db, TENANT, [ALICE], tmp_path / "backups", now=NOW)
    assert (purge.backups_rewritten, purge.blocks_resealed, purge.blocks_dropped) == (1, 1, 0)
    assert (purge.keys_created, purge.keys_destroyed) == (1, 1)
    assert purge.rows_omitted == 2  # the claim and the source only it cited
    [new_key] = _keys_of(db, ALICE)
    assert new_key != old_key and _keys_of(db, BOB) == bob_keys
    with tenant_transaction(db.app, TENANT) as conn:
        row = conn.execute(sa.select(backups)).mappings().one()
    new_path = Path(row["path"])
    assert new_path.name == f"{result.id}.r1.pmbk" and not result.path.exists()
    assert _files(tmp_path / "backups") == [new_path]
    assert row["sha256"] == hashlib.sha256(new_path.read_bytes()).hexdigest()
    assert sorted(row["key_ids"]) == sorted([new_key, *bob_keys]) and row["records"] == 4
    assert _claims_in(db, new_path) == {
        ALICE: before[ALICE] - {stored.ids["a3"]},
        BOB: before[BOB],
    }
    assert backup_residue(db, TENANT) == []

    _disaster(owner)
    restored = restore_backup(db, new_path, actor="ops")
    assert restored.verified and restored.skipped_erased == 0
    assert {r["id"] for r in _rows(owner)["memories"]} == {
        stored.ids[n] for n in ("a1", "a2", "a4", "b1")
    }
    assert len(_rows(owner)["grants"]) == 1  # the rest of the subject is intact


def test_purge_is_idempotent_and_finishes_an_interrupted_run(
    db: Database, stored: Stored, tmp_path: Path
) -> None:
    result = _backup(db, tmp_path)
    folder = result.path.parent
    # An interrupted run: its new key committed, a temporary file and a rewritten file that
    # never got recorded.
    with tenant_transaction(db.app, TENANT) as conn:
        conn.execute(
            sa.insert(backup_keys).values(tenant=TENANT, subject=ALICE, key=os.urandom(32))
        )
    (folder / f".{result.id}.r1.pmbk.x1y2.tmp").write_bytes(b"partial")
    (folder / f"{result.id}.r1.pmbk").write_bytes(result.path.read_bytes())
    content = _claims_in(db, result.path)

    first = purge_subjects(db, TENANT, [ALICE], tmp_path / "backups", now=NOW)
    assert first.keys_destroyed == 2 and first.files_removed == 1  # the temp (r1 is replaced)
    second = purge_subjects(db, TENANT, [ALICE], tmp_path / "backups", now=NOW)
    assert second.backups_rewritten == 1 and second.keys_destroyed == 1
    assert len(_keys_of(db, ALICE)) == 1
    with tenant_transaction(db.app, TENANT) as conn:
        path = Path(conn.execute(sa.select(backups.c.path)).scalar_one())
    assert path.name == f"{result.id}.r2.pmbk" and _files(tmp_path / "backups") == [path]
    assert _claims_in(db, path) == content  # nothing was erased, nothing is lost


def test_a_subject_erased_entirely_leaves_no_block_and_no_key(
    db: Database, stored: Stored, tmp_path: Path
) -> None:
    result = _backup(db, tmp_path)
    with tenant_transaction(db.app, TENANT) as conn:
        claim_hash = _claim_hash(conn, stored.ids["b1"])
        _ledger(conn, stored.ids["b1"], claim_hash, target=("subject", BOB))
    purge = purge_subjects(db, TENANT, [BOB], tmp_path / "backups", now=NOW)
    assert purge.blocks_dropped == 1 and purge.keys_created == 1 and purge.keys_destroyed == 2
    assert _keys_of(db, BOB) == []
    with tenant_transaction(db.app, TENANT) as conn:
        row = conn.execute(sa.select(backups)).mappings().one()
    assert row["key_ids"] == _keys_of(db, ALICE) and row["records"] == 4
    assert set(_claims_in(db, Path(row["path"]))) == {ALICE}
    assert not result.path.exists()


def test_held_records_survive_a_purge(db: Database, stored: Stored, tmp_path: Path) -> None:
    result = _backup(db, tmp_path)
    _erase(db, stored.ids["a2"], state="held")
    _erase(db, stored.ids["a3"])
    purge_subjects(db, TENANT, [ALICE], tmp_path / "backups", now=NOW)
    with tenant_transaction(db.app, TENANT) as conn:
        path = Path(conn.execute(sa.select(backups.c.path)).scalar_one())
    alice = _claims_in(db, path)[ALICE]
    assert stored.ids["a2"] in alice and stored.ids["a3"] not in alice
    assert path != result.path


def test_a_subject_level_erasure_also_covers_settings_and_grants(
    db: Database, stored: Stored, tmp_path: Path
) -> None:
    with tenant_transaction(db.app, TENANT) as conn:
        for name in ("a1", "a2", "a3", "a4"):
            _ledger(conn, stored.ids[name], None, target=("subject", ALICE))
    result = _backup(db, tmp_path)  # after the request: nothing of alice is written
    assert result.subjects == 1
    assert set(_claims_in(db, result.path)) == {BOB}
    assert _keys_of(db, ALICE) == []


# ---------------------------------------------------------------- erase_backups


def test_the_proof_finds_residue_and_erase_backups_clears_it(
    db: Database, stored: Stored, tmp_path: Path
) -> None:
    result = _backup(db, tmp_path)
    [alice_key] = _keys_of(db, ALICE)
    with tenant_transaction(db.app, TENANT) as conn:
        claim_hash = _claim_hash(conn, stored.ids["a3"])
    _erase(db, stored.ids["a3"])  # written to the ledger after the backup

    [residue] = backup_residue(db, TENANT)
    assert residue["backup_id"] == str(result.id) and residue["key_id"] == str(alice_key)
    assert residue["found"] == sorted([f"memory:{stored.ids['a3']}", f"hash:{claim_hash}"])
    assert CANARY["a3"] not in json.dumps(residue) and ALICE not in json.dumps(residue)

    report = erase_backups(db, tmp_path / "backups", now=NOW, retention=timedelta(days=30))
    assert report.clean and report.residue == []
    by_tenant = {t.purge.tenant: t for t in report.tenants}
    assert by_tenant[TENANT].purge.subjects == [ALICE]
    assert by_tenant[TENANT].proof.blocks_checked == 2
    assert by_tenant[OTHER].purge.subjects == [] and by_tenant[OTHER].proof.live_backups == 0
    assert backup_residue(db, TENANT) == []
    assert _keys_of(db, ALICE) != [alice_key]


def test_retention_drops_old_backups_and_the_keys_only_they_needed(
    db: Database, stored: Stored, tmp_path: Path
) -> None:
    old = _backup(db, tmp_path, now=NOW - timedelta(days=40))
    new = _backup(db, tmp_path, now=NOW - timedelta(days=1))
    report = erase_backups(db, tmp_path / "backups", now=NOW, retention=timedelta(days=30))
    [acme] = [t for t in report.tenants if t.drop.tenant == TENANT]
    assert acme.drop.dropped == [old.id] and acme.drop.keys_destroyed == 0  # still in use
    assert not old.path.exists() and new.path.exists()
    with tenant_transaction(db.app, TENANT) as conn:
        dropped = dict(conn.execute(sa.select(backups.c.id, backups.c.dropped_at)).all())
    assert dropped == {old.id: NOW, new.id: None}

    later = drop_expired(db, TENANT, tmp_path / "backups", now=NOW, retention=timedelta(hours=1))
    assert later.dropped == [new.id] and later.keys_destroyed == 2
    assert _keys_of(db, ALICE) == _keys_of(db, BOB) == [] and _files(tmp_path / "backups") == []


# ---------------------------------------------------------------- files and isolation


def _refuse_inserts(owner: sa.Engine, app_role: str) -> None:
    with owner.begin() as conn:
        conn.execute(sa.text(f'REVOKE INSERT ON backups FROM "{app_role}"'))


def _refuse_at_commit(owner: sa.Engine, app_role: str) -> None:
    with owner.begin() as conn:
        conn.execute(sa.text(
            "CREATE FUNCTION refuse_backup() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN RAISE EXCEPTION 'backup refused at commit'; END $$"
        ))  # fmt: skip
        conn.execute(sa.text(
            "CREATE CONSTRAINT TRIGGER backups_refused AFTER INSERT ON backups "
            "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_backup()"
        ))  # fmt: skip


@pytest.mark.parametrize("refuse", [_refuse_inserts, _refuse_at_commit])
def test_a_failed_backup_leaves_no_file_and_no_key(
    db: Database, stored: Stored, owner: sa.Engine, tmp_path: Path, refuse: Any
) -> None:
    refuse(owner, db.app_role)
    with pytest.raises(sa.exc.DBAPIError):
        _backup(db, tmp_path)
    assert _files(tmp_path / "backups") == []
    assert _keys_of(db, ALICE) == _keys_of(db, BOB) == []


def test_a_write_that_fails_records_nothing(db: Database, stored: Stored, tmp_path: Path) -> None:
    (tmp_path / "backups").write_text("a file where the folder should be")
    with pytest.raises(OSError):
        _backup(db, tmp_path)
    with tenant_transaction(db.app, TENANT) as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(backups)).scalar_one() == 0
    assert _keys_of(db, ALICE) == []


def test_an_altered_file_is_refused(db: Database, stored: Stored, tmp_path: Path) -> None:
    result = _backup(db, tmp_path)
    lines = result.path.read_bytes().splitlines()
    block = json.loads(lines[1])
    sealed = bytearray(base64.b64decode(block["ciphertext"]))
    sealed[0] ^= 1
    block["ciphertext"] = base64.b64encode(bytes(sealed)).decode()
    lines[1] = json.dumps(block).encode()
    result.path.write_bytes(b"\n".join(lines) + b"\n")
    with pytest.raises(CheckFailed, match="does not match the sha256"):
        restore_backup(db, result.path, actor="ops")
    with tenant_transaction(db.app, TENANT) as conn:  # without its record: the tag catches it
        conn.execute(sa.delete(backups))
    with pytest.raises(CheckFailed, match="fails authentication"):
        restore_backup(db, result.path, actor="ops")


def test_a_tenant_backup_never_holds_another_tenant_s_rows(
    db: Database, stored: Stored, tmp_path: Path
) -> None:
    made = {r.tenant: r for r in backup_all(db, tmp_path / "backups", actor="ops", now=NOW)}
    assert set(made) == {TENANT, OTHER}
    assert made[OTHER].path.parent == tmp_path / "backups" / OTHER
    ours = read_backup(db, made[TENANT].path)
    theirs = read_backup(db, made[OTHER].path)
    ours_rows = [r for b in ours.blocks for rows in b.tables.values() for r in rows]
    theirs_rows = [r for b in theirs.blocks for rows in b.tables.values() for r in rows]
    assert {r["tenant"] for r in ours_rows} == {TENANT}
    assert {r["tenant"] for r in theirs_rows} == {OTHER}
    assert OTHER_CANARY not in repr(ours_rows) and CANARY["a1"] not in repr(theirs_rows)
    # Each tenant has its own key for "alice": one tenant's keys cannot open the other's file.
    assert set(_keys_of(db, ALICE)).isdisjoint(_keys_of(db, ALICE, OTHER))
    assert theirs.shredded == [] and [b.subject for b in theirs.blocks] == [ALICE]


# ---------------------------------------------------------------- the flows


@pytest.fixture
def env(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """The flows read their settings from the environment, as in production."""
    monkeypatch.setenv("PERMEM_DATABASE_URL", settings.database_url or "")
    monkeypatch.setenv("PERMEM_HOME", str(settings.home))
    return settings


def _artifacts(keys: list[str], flow_run_id: Any) -> dict[str, Any]:
    async def read() -> dict[str, Any]:
        async with get_client() as client:
            found = await client.read_artifacts(
                artifact_filter=ArtifactFilter(
                    key=ArtifactFilterKey(any_=keys),
                    flow_run_id=ArtifactFilterFlowRunId(any_=[flow_run_id]),
                )
            )
            return {a.key: a for a in found}

    return asyncio.run(read())


def test_the_backup_flows_run_and_publish(
    prefect_server: str, env: Settings, db: Database, stored: Stored
) -> None:
    from flows.backup import BackupParams, EraseBackupsParams, backup, erase_backups

    state = backup(BackupParams(), return_state=True)
    assert state.is_completed(), state.message
    report = state.result()
    assert (report["tenants"], report["subjects"], report["records"]) == (2, 3, 6)
    assert Path(report["directory"]) == env.backups_dir
    [summary] = _artifacts(["backup-summary"], state.state_details.flow_run_id).values()
    assert TENANT in str(summary.data) and CANARY["a1"] not in str(summary.data)

    _erase(db, stored.ids["a3"])
    erased = erase_backups(EraseBackupsParams(retention_days=30), return_state=True)
    assert erased.is_completed(), erased.message
    result = erased.result()
    assert result["clean"] and result["residue"] == []
    assert [t["purge"]["subjects"] for t in result["tenants"]] == [1, 0]
    published = _artifacts(
        ["erase-backups-summary", "erase-backups-residue"], erased.state_details.flow_run_id
    )
    assert set(published) == {"erase-backups-summary", "erase-backups-residue"}
    assert "none" in str(published["erase-backups-residue"].data)
    assert backup_residue(db, TENANT) == []

    # A backup that cannot be read cannot be proved clean: the run fails, it does not skip it.
    [damaged] = (env.backups_dir / OTHER).glob("*.pmbk")
    damaged.write_bytes(damaged.read_bytes().splitlines()[0] + b"\n")
    failed = erase_backups(EraseBackupsParams(retention_days=30), return_state=True)
    assert failed.is_failed()
    assert "incomplete" in (failed.message or "")
