"""Export: the subject's data, history included, as JSON or CSV, recorded as a lineage node."""

from __future__ import annotations

import csv
import json
import os
import uuid
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from lineage import Node, NodeKind
from permem.errors import BadInput
from permem.export import ExportResult, export_subject, safe_name
from permem.records import Confirmation, Origin, Role, Status
from permem.stores.database import Database, register_tenant, tenant_transaction
from permem.stores.lineage_store import derivatives
from permem.stores.memories import (
    append_correction,
    append_memories,
    set_confirmation,
    set_status,
)
from permem.stores.schema import exports, gate_decisions, grants, lineage_edges, subject_settings
from permem.stores.sources import append_sources
from tests.conftest import T0, memory, message

TENANT, OTHER = "acme", "globex"
NOW = T0 + timedelta(days=30)
SAFE = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
TRICKY = 'said "tea, not coffee", then\nchanged her mind; a "quoted", comma-laden claim'


@dataclass(frozen=True)
class Stored:
    old: uuid.UUID  # superseded by `new`
    new: uuid.UUID  # the correction, no source message
    pending: uuid.UUID
    observed: uuid.UUID
    inferred: uuid.UUID
    imported: uuid.UUID
    forgotten: uuid.UUID  # blocked: being erased
    bob: uuid.UUID  # another subject of the same tenant
    other_tenant: uuid.UUID  # alice of another tenant


def _messages(tenant: str) -> list[Any]:
    return [
        message(tenant, "m1"),
        message(tenant, "m2", turn=2, conversation_id="c2"),
        message(tenant, "m3", turn=3),
        message(tenant, "m4", turn=4, ts=T0 + timedelta(hours=1)),
        message(tenant, "m5", turn=5),
        message(tenant, "m6", turn=6, role=Role.IMPORT, account="alice"),
        message(tenant, "m7", turn=7),
        message(tenant, "mb", account="bob", conversation_id="cb"),
    ]


@pytest.fixture
def stored(db: Database) -> Stored:
    old = memory(TENANT, "m1", claim="likes tea", topic="diet")
    pending = memory(
        TENANT, "m3", claim="has asthma", confirmation=Confirmation.PENDING, observed_at=T0
    )
    observed = memory(
        TENANT, "m4", claim=TRICKY, origin=Origin.OBSERVED_BEHAVIOR, observed_at=T0 + timedelta(1)
    )
    inferred = memory(TENANT, "m5", claim="is probably a runner", origin=Origin.INFERRED_PROFILE)
    imported = memory(TENANT, "m6", claim="lives near <LOCATION>", origin=Origin.IMPORTED)
    forgotten = memory(TENANT, "m7", claim="secret thing")
    bob = memory(TENANT, "mb", subject="bob", account="bob", claim="bob's claim")
    with tenant_transaction(db.app, TENANT) as conn:
        register_tenant(conn, TENANT)
        append_sources(conn, _messages(TENANT))
        append_memories(conn, [old, pending, observed, inferred, imported, forgotten, bob])
        conn.execute(
            sa.insert(gate_decisions).values(
                tenant=TENANT,
                source_message_id="m1",
                span_start=0,
                span_end=23,
                subject="alice",
                kind="constraint",
                candidate_hash="h1",
                decision="accept",
                reasons=["accepted"],
                policy_version="gate-test",
                memory_id=old.id,
            )
        )
        conn.execute(
            sa.insert(grants).values(
                tenant=TENANT,
                actor="bob",
                subject="alice",
                purpose="assistant",
                expires_at=NOW + timedelta(days=1),
                granted_by="alice",
                granted_at=T0,
            )
        )
        conn.execute(
            sa.insert(subject_settings).values(
                tenant=TENANT, subject="alice", paused=True, updated_by="alice"
            )
        )
    # One transaction per control, so each event has its own time.
    with tenant_transaction(db.app, TENANT) as conn:
        new = append_correction(
            conn,
            memory(TENANT, None, claim="likes coffee", supersedes=old.id, topic="diet",
                   confirmation=Confirmation.CONFIRMED, observed_at=T0 + timedelta(2)),
            actor="alice",
        )  # fmt: skip
    with tenant_transaction(db.app, TENANT) as conn:
        set_status(conn, observed.id, Status.PAUSED, actor="alice", reason="paused one claim")
    with tenant_transaction(db.app, TENANT) as conn:
        set_status(conn, observed.id, Status.ACTIVE, actor="alice", reason="resumed it")
    with tenant_transaction(db.app, TENANT) as conn:
        set_confirmation(conn, observed.id, Confirmation.CONFIRMED, actor="alice", reason="yes")
    with tenant_transaction(db.app, TENANT) as conn:
        set_status(conn, forgotten.id, Status.BLOCKED, actor="alice", reason="forget")
    twin = memory(OTHER, "m1", claim="globex alice claim")
    with tenant_transaction(db.app, OTHER) as conn:
        register_tenant(conn, OTHER)
        append_sources(conn, _messages(OTHER))
        append_memories(conn, [twin])
    return Stored(
        old=old.id,
        new=new.id,
        pending=pending.id,
        observed=observed.id,
        inferred=inferred.id,
        imported=imported.id,
        forgotten=forgotten.id,
        bob=bob.id,
        other_tenant=twin.id,
    )


def _export(db: Database, tmp_path: Path, fmt: Any, subject: str = "alice") -> ExportResult:
    return export_subject(
        db, TENANT, subject, fmt, directory=tmp_path / "exports", actor="alice", now=NOW
    )


def test_json_export_holds_every_record_with_provenance_history_and_links(
    db: Database, stored: Stored, tmp_path: Path
) -> None:
    result = _export(db, tmp_path, "json")
    doc = json.loads(result.path.read_text(encoding="utf-8"))
    assert doc["tenant"] == TENANT and doc["subject"] == "alice"
    assert doc["exported_at"] == NOW.isoformat()
    assert doc["paused"] is True
    assert [(g["actor"], g["purpose"], g["revoked"]) for g in doc["grants"]] == [
        ("bob", "assistant", False)
    ]
    assert "ids only" in doc["notes"]["recall_log"]
    by_id = {r["id"]: r for r in doc["records"]}
    expected = {stored.old, stored.new, stored.pending, stored.observed, stored.inferred,
                stored.imported}  # fmt: skip
    assert set(by_id) == {str(i) for i in expected}
    assert result.records == doc["record_count"] == 6
    assert doc["withheld_pending_erasure"] == 1  # the blocked one is not copied
    provenance = {i: by_id[str(i)]["provenance"] for i in expected}
    assert provenance == {
        stored.old: "provided",
        stored.new: "provided",
        stored.pending: "provided",
        stored.observed: "observed",
        stored.inferred: "inferred",
        stored.imported: "imported",
    }
    old, new = by_id[str(stored.old)], by_id[str(stored.new)]
    assert old["status"] == "superseded" and old["superseded_by"] == str(stored.new)
    assert new["supersedes"] == str(stored.old) and new["superseded_by"] is None
    assert by_id[str(stored.pending)]["confirmation"] == "pending"
    assert old["gate"] == {
        "decision": "accept",
        "reasons": ["accepted"],
        "policy_version": "gate-test",
        "decided_at": old["gate"]["decided_at"],
    }
    assert new["gate"] is None and new["source"]["message_id"] is None
    assert old["source"]["message_id"] == "m1" and old["source"]["span"] == [0, 23]
    assert old["source"]["role"] == "user" and old["source"]["conversation_id"] == "c1"
    assert old["source"]["ts"] == T0.isoformat()
    assert by_id[str(stored.imported)]["source"]["role"] == "import"
    assert "text" not in old["source"]
    assert [(e["field"], e["old"], e["new"]) for e in old["history"]] == [
        ("status", "active", "superseded")
    ]
    observed = by_id[str(stored.observed)]
    assert [(e["field"], e["old"], e["new"], e["reason"]) for e in observed["history"]] == [
        ("status", "active", "paused", "paused one claim"),
        ("status", "paused", "active", "resumed it"),
        ("confirmation", "unconfirmed", "confirmed", "yes"),
    ]
    assert observed["claim"] == TRICKY
    assert [r["observed_at"] for r in doc["records"]] == sorted(
        r["observed_at"] for r in doc["records"]
    )


def test_csv_export_round_trips_every_record(db: Database, stored: Stored, tmp_path: Path) -> None:
    result = _export(db, tmp_path, "csv")
    assert result.format == "csv" and result.path.suffix == ".csv"
    with result.path.open(newline="", encoding="utf-8") as fh:
        rows = {row["id"]: row for row in csv.DictReader(fh)}
    assert len(rows) == result.records == 6
    observed = rows[str(stored.observed)]
    assert observed["claim"] == TRICKY  # commas, quotes and a newline survive
    assert observed["provenance"] == "observed"
    assert [e["new"] for e in json.loads(observed["history"])] == ["paused", "active", "confirmed"]
    old = rows[str(stored.old)]
    assert old["superseded_by"] == str(stored.new)
    assert json.loads(old["source"])["conversation_id"] == "c1"
    assert old["gate_decision"] == "accept" and json.loads(old["gate_reasons"]) == ["accepted"]
    assert rows[str(stored.new)]["gate_decision"] == ""
    assert {r["provenance"] for r in rows.values()} == {
        "provided",
        "observed",
        "inferred",
        "imported",
    }
    assert {r["tenant"] for r in rows.values()} == {TENANT}
    assert {r["subject"] for r in rows.values()} == {"alice"}


def test_export_is_a_lineage_node_of_every_exported_record(
    db: Database, stored: Stored, tmp_path: Path
) -> None:
    result = _export(db, tmp_path, "json")
    exported = json.loads(result.path.read_text(encoding="utf-8"))["records"]
    with tenant_transaction(db.app, TENANT) as conn:
        row = conn.execute(sa.select(exports).where(exports.c.id == result.id)).mappings().one()
        edges = conn.execute(
            sa.select(lineage_edges.c.parent_id, lineage_edges.c.relation).where(
                lineage_edges.c.child_kind == "export",
                lineage_edges.c.child_id == str(result.id),
            )
        ).all()
        reached = derivatives(conn, [Node(NodeKind.MEMORY, str(stored.old))])
    assert (row["subject"], row["format"], row["records"]) == ("alice", "json", 6)
    assert (row["path"], row["created_by"], row["created_at"]) == (str(result.path), "alice", NOW)
    assert sorted(e.parent_id for e in edges) == sorted(r["id"] for r in exported)
    assert {e.relation for e in edges} == {"exported"}
    assert Node(NodeKind.EXPORT, str(result.id)) in reached


def test_export_file_is_private_and_laid_out_by_tenant_and_subject(
    db: Database, stored: Stored, tmp_path: Path
) -> None:
    result = _export(db, tmp_path, "json")
    assert result.path == tmp_path / "exports" / TENANT / "alice" / f"{result.id}.json"
    assert os.stat(result.path).st_mode & 0o777 == 0o600
    assert [p.name for p in result.path.parent.iterdir()] == [result.path.name]  # no temp left


def test_another_tenant_never_leaks_into_an_export(
    db: Database, stored: Stored, tmp_path: Path
) -> None:
    ours = _export(db, tmp_path, "json")
    mine = json.loads(ours.path.read_text(encoding="utf-8"))
    theirs = export_subject(
        db, OTHER, "alice", "json", directory=tmp_path / "exports", actor="alice", now=NOW
    )
    other = json.loads(theirs.path.read_text(encoding="utf-8"))
    assert str(stored.other_tenant) not in {r["id"] for r in mine["records"]}
    assert str(stored.bob) not in {r["id"] for r in mine["records"]}
    assert [r["id"] for r in other["records"]] == [str(stored.other_tenant)]
    assert other["grants"] == [] and other["paused"] is False
    assert theirs.path.parent != ours.path.parent


def test_a_subject_without_records_gets_an_empty_export(db: Database, tmp_path: Path) -> None:
    result = export_subject(
        db, TENANT, "nobody", "csv", directory=tmp_path, actor="nobody", now=NOW
    )
    assert result.records == 0
    lines = result.path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 and lines[0].startswith("id,tenant,subject,")


def test_odd_names_stay_inside_the_export_folder(db: Database, tmp_path: Path) -> None:
    for name in ("..", ".", "../../etc", "a/b", "ü ñ", "x" * 400):
        encoded = safe_name(name)
        assert encoded not in (".", "..") and "/" not in encoded and not encoded.startswith(".")
        assert set(encoded) <= SAFE | {"%"}
        assert len(encoded) <= 120
    assert safe_name("a/b") != safe_name("a%2Fb")  # distinct names stay distinct
    assert safe_name("x" * 400) != safe_name("x" * 401)
    result = export_subject(
        db, TENANT, "../../escape", "json", directory=tmp_path / "exports", actor="a", now=NOW
    )
    assert result.path.resolve().is_relative_to((tmp_path / "exports").resolve())
    assert result.path.parent.name == "%2E.%2F..%2Fescape"


def test_bad_format_and_naive_time_are_refused(db: Database, tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="format"):
        export_subject(db, TENANT, "alice", "xml", directory=tmp_path, actor="a", now=NOW)  # type: ignore[arg-type]
    with pytest.raises(BadInput, match="timezone"):
        export_subject(
            db, TENANT, "alice", "json", directory=tmp_path, actor="a", now=NOW.replace(tzinfo=None)
        )
    assert list(tmp_path.rglob("*")) == []


def _refuse_inserts(owner: sa.Engine, app_role: str) -> None:
    with owner.begin() as conn:
        conn.execute(sa.text(f'REVOKE INSERT ON exports FROM "{app_role}"'))


def _refuse_at_commit(owner: sa.Engine, app_role: str) -> None:
    # A deferred constraint trigger fires at COMMIT: the file is written, the rows inserted,
    # and only then does the database refuse the transaction.
    with owner.begin() as conn:
        conn.execute(sa.text(
            "CREATE FUNCTION refuse_export() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN RAISE EXCEPTION 'export refused at commit'; END $$"
        ))  # fmt: skip
        conn.execute(sa.text(
            "CREATE CONSTRAINT TRIGGER exports_refused AFTER INSERT ON exports "
            "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_export()"
        ))  # fmt: skip


@pytest.mark.parametrize("refuse", [_refuse_inserts, _refuse_at_commit])
def test_a_failed_transaction_leaves_no_file(
    db: Database, stored: Stored, owner: sa.Engine, tmp_path: Path, refuse: Any
) -> None:
    refuse(owner, db.app_role)
    with pytest.raises(sa.exc.DBAPIError):
        _export(db, tmp_path, "json")
    assert [p for p in (tmp_path / "exports").rglob("*") if p.is_file()] == []
    with tenant_transaction(db.app, TENANT) as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(exports)).scalar_one() == 0
        edges = conn.execute(
            sa.select(sa.func.count())
            .select_from(lineage_edges)
            .where(lineage_edges.c.child_kind == "export")
        ).scalar_one()
    assert edges == 0
