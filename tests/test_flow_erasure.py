"""The deletion flows as Prefect runs them, end to end on the real stores: the canary test.

Canary strings are planted in one subject's messages; after nightly, export and backup, the
`forget` flow must leave no trace of them in PostgreSQL (every text column), LanceDB (every
file, read with the Lance file reader), exports and backups, while the other subject is
intact and restorable; re-running nightly, rebuilding the index and restoring the backup bring
nothing back. Legal holds and residue are reported by the flows' artifacts.
"""

from __future__ import annotations

import getpass
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from permem import controls, holds, nightly
from permem.backup import read_backup, restore_backup
from permem.export import export_subject
from permem.runtime import close_all, runtime
from permem.settings import Settings
from tests.test_flow_nightly import _artifacts
from tests.test_forget import (
    ANA_CANARIES,
    BEN_CANARY,
    MORE_CANARIES,
    TENANT,
    _recall,
    _write_log,
    add_subjects,
    text_residue,
)


@pytest.fixture
def env(settings: Settings, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """Settings from the environment, as the flows read them in production; the stores
    loaded with the canary log. Yields the log's path."""
    monkeypatch.setenv("PERMEM_DATABASE_URL", settings.database_url or "")
    monkeypatch.setenv("PERMEM_HOME", str(settings.home))
    monkeypatch.setenv("PERMEM_EMBEDDER", "hashing")
    log = _write_log(tmp_path / "log.jsonl")
    nightly.run(_settings(), log)
    yield log
    close_all()


def _settings() -> Settings:
    from permem.settings import load_settings

    return load_settings()


def _ids(subject: str) -> list[str]:
    rt = runtime(_settings())
    return [str(r.id) for r in controls.inspect(rt.db, TENANT) if r.subject.startswith(subject)]


def test_canaries_are_gone_from_every_store_and_never_come_back(
    prefect_server: str, env: Path, owner: sa.Engine
) -> None:
    from flows.backup import BackupParams, backup
    from flows.forget import ForgetParams, forget
    from flows.rebuild_index import rebuild_index
    from flows.verify_erasure import VerifyErasureParams, verify_erasure

    settings = _settings()
    rt = runtime(settings)
    ana_ids = _ids("ana")
    exported = export_subject(
        rt.db, TENANT, "ana", "json", directory=settings.exports_dir, actor="ana",
        now=datetime.now(UTC),
    )  # fmt: skip
    made = backup(BackupParams(), return_state=True)
    assert made.is_completed(), made.message
    [backup_file] = [Path(b["path"]) for b in made.result()["backups"]]
    assert {b.subject for b in read_backup(rt.db, backup_file).blocks} >= {"ana", "ben"}

    state = forget(
        ForgetParams(tenant=TENANT, subject="ana", requested_by="ana"), return_state=True
    )
    assert state.is_completed(), state.message
    report = state.result()
    assert report["blocked"]["memories"] == 4 and report["verified"]["residue"] == []
    artifacts = _artifacts(["forget-summary", "forget-legal-hold"], state.state_details.flow_run_id)
    assert set(artifacts) == {"forget-summary"}  # no hold, no exception to report

    # PostgreSQL: no text column of any table holds a canary; the other subject's is there.
    assert text_residue(owner, ANA_CANARIES) == []
    assert text_residue(owner, (BEN_CANARY,))
    # LanceDB: no file (data, index, any version) holds the erased ids.
    assert rt.index.files_holding(ana_ids) == []
    # Export: gone. Backups: the subject's data is not readable in any of them.
    assert not exported.path.exists()
    backups = sorted((settings.backups_dir).rglob("*.pmbk"))
    readable = [block for f in backups for block in read_backup(rt.db, f).blocks]
    assert {b.subject for b in readable} == {"ben"}
    assert all(canary.encode() not in f.read_bytes() for f in backups for canary in ANA_CANARIES)
    assert _recall(rt, "ana") == [] and _recall(rt, "ben") == ["I love plimbencanary jazz"]

    # A disaster: the system of record's data is lost; restore brings back ben, never ana.
    with owner.begin() as conn:
        conn.execute(sa.text("TRUNCATE memories, sources, memory_events, gate_decisions CASCADE"))
    restored = restore_backup(rt.db, backups[0], actor="ops")
    assert restored.restored > 0
    assert {r.subject for r in controls.inspect(rt.db, TENANT)} == {"ben"}

    # No resurrection: nightly over the same log, a rebuild of the index.
    nightly.run(settings, env)
    rebuilt = rebuild_index(return_state=True)
    assert rebuilt.is_completed(), rebuilt.message
    assert {r.subject for r in controls.inspect(rt.db, TENANT)} == {"ben"}
    assert rt.index.files_holding(ana_ids) == []
    assert text_residue(owner, ANA_CANARIES) == []
    assert _recall(rt, "ana") == [] and _recall(rt, "ben") == ["I love plimbencanary jazz"]

    checked = verify_erasure(VerifyErasureParams(), return_state=True)
    assert checked.is_completed(), checked.message
    summary = _artifacts(["verify-erasure-summary"], checked.state_details.flow_run_id)
    assert "verify-erasure-summary" in summary


def test_a_legal_hold_is_reported_and_release_completes_erasure(
    prefect_server: str, env: Path, owner: sa.Engine
) -> None:
    from flows.forget import ForgetParams, forget
    from flows.verify_erasure import VerifyErasureParams, verify_erasure

    rt = runtime(_settings())
    placed = holds.place(
        rt.db, TENANT, subject="ana", reason="case 7", by="legal", now=datetime.now(UTC)
    )
    state = forget(
        ForgetParams(tenant=TENANT, subject="ana", requested_by="ana"), return_state=True
    )
    assert state.is_completed(), state.message
    artifacts = _artifacts(["forget-legal-hold"], state.state_details.flow_run_id)
    assert "legal hold" in str(artifacts["forget-legal-hold"].data).lower()
    assert state.result()["verified"]["held"] > 0
    assert _recall(rt, "ana") == []  # blocked from use
    assert {c for c in ANA_CANARIES if text_residue(owner, (c,))} == set(ANA_CANARIES)  # kept

    holds.release(rt.db, TENANT, placed.id, by="legal", now=datetime.now(UTC))
    checked = verify_erasure(VerifyErasureParams(), return_state=True)
    assert checked.is_completed(), checked.message
    assert text_residue(owner, ANA_CANARIES) == []


def test_residue_fails_verification_with_where_it_was_found(
    prefect_server: str, env: Path, tmp_path: Path
) -> None:
    from flows.forget import ForgetParams, forget
    from flows.verify_erasure import VerifyErasureParams, verify_erasure

    rt = runtime(_settings())
    exported = export_subject(
        rt.db, TENANT, "ana", "csv", directory=_settings().exports_dir, actor="ana",
        now=datetime.now(UTC),
    )  # fmt: skip
    content = exported.path.read_bytes()
    claim = _ids("ana")[0]
    state = forget(ForgetParams(tenant=TENANT, claim=claim, requested_by="ana"), return_state=True)
    assert state.is_completed(), state.message
    exported.path.write_bytes(content)  # someone copied the export back into place
    failed = verify_erasure(VerifyErasureParams(finish_pending=False), return_state=True)
    assert failed.is_failed()
    assert "exports" in (failed.message or "")
    found: Any = _artifacts(["verify-erasure-residue"], failed.state_details.flow_run_id)
    assert exported.path.name in str(found["verify-erasure-residue"].data)
    bad = forget(
        ForgetParams(tenant=TENANT, claim=str(uuid.uuid4()), requested_by="x"), return_state=True
    )
    assert bad.is_failed() and "no memory" in (bad.message or "")


def test_the_deletion_commands_end_to_end(prefect_server: str, env: Path, owner: sa.Engine) -> None:
    import json

    from typer.testing import CliRunner

    from interfaces.cli import app

    settings = _settings()
    runner = CliRunner()

    def run(*args: str) -> Any:
        result = runner.invoke(app, [*args, "--json"])
        assert result.exit_code == 0, result.stderr
        return json.loads(result.stdout)

    run("backup")
    # FORMATS.md's forget has no --by: a source request without it runs, recorded as the OS user.
    by_source = run("forget", "--tenant", TENANT, "--source", "a1")
    assert by_source["blocked"]["memories"] >= 1 and by_source["verified"]["residue"] == []
    with owner.connect() as conn:
        asked = conn.execute(
            sa.text("SELECT DISTINCT requested_by FROM erasure_ledger WHERE target_id = 'a1'")
        ).scalars().all()  # fmt: skip
    assert asked == [getpass.getuser()]
    hold = run("hold", "--tenant", TENANT, "--subject", "ana", "--reason", "audit", "--by", "legal")
    forgotten = run("forget", "--tenant", TENANT, "--subject", "ana")
    assert forgotten["blocked"]["held"] > 0 and forgotten["verified"]["held"] > 0
    run("release", "--tenant", TENANT, "--hold", hold["hold"], "--by", "legal")
    verified = run("verify-erasure")
    assert verified["residue"] == [] and verified["tenants"][TENANT]["held"] == 0
    assert text_residue(owner, ANA_CANARIES) == []
    erased = run("erase-backups")
    assert erased["residue"] == []
    rebuilt = run("rebuild-index")
    assert rebuilt["indexed"] == 1
    [path] = sorted(settings.backups_dir.rglob("*.pmbk"))  # re-sealed by the forget
    restored = run("restore", str(path))
    assert restored["restored"] == 0 and restored["already_present"] > 0
    again = runner.invoke(app, ["release", "--tenant", TENANT, "--hold", hold["hold"], "--by", "x"])
    assert again.exit_code == 2 and "already released" in again.stderr
    assert {r.subject for r in controls.inspect(runtime(settings).db, TENANT)} == {"ben"}


def test_the_flow_forgets_a_list_of_subjects_in_one_request(
    prefect_server: str, env: Path, owner: sa.Engine, tmp_path: Path
) -> None:
    from flows.backup import BackupParams, backup
    from flows.forget import ForgetParams, forget

    settings = _settings()
    rt = runtime(settings)
    add_subjects(settings, tmp_path / "more.jsonl")
    gone = ["ana", "cy", "dee"]
    ids = [i for s in gone for i in _ids(s)]
    exported = export_subject(
        rt.db, TENANT, "cy", "json", directory=settings.exports_dir, actor="cy",
        now=datetime.now(UTC),
    )  # fmt: skip
    made = backup(BackupParams(), return_state=True)
    assert made.is_completed(), made.message

    state = forget(
        ForgetParams(tenant=TENANT, subjects=gone, requested_by="dpo"), return_state=True
    )
    assert state.is_completed(), state.message
    report = state.result()
    assert [t["id"] for t in report["blocked"]["targets"]] == gone
    assert report["blocked"]["memories"] == 6 and report["verified"]["residue"] == []
    summary = _artifacts(["forget-summary"], state.state_details.flow_run_id)
    assert "3 subjects: ana, cy, dee" in str(summary["forget-summary"].data)
    canaries = (*ANA_CANARIES, MORE_CANARIES["cy"], MORE_CANARIES["dee"])
    assert text_residue(owner, canaries) == []
    assert rt.index.files_holding(ids) == [] and not exported.path.exists()
    backups = sorted(settings.backups_dir.rglob("*.pmbk"))
    readable = {b.subject for f in backups for b in read_backup(rt.db, f).blocks}
    assert readable == {"ben", "eve"}
    assert {r.subject for r in controls.inspect(rt.db, TENANT)} == {"ben", "eve"}
    assert {r[2] for r in text_residue(owner, (BEN_CANARY, MORE_CANARIES["eve"]))} == {
        BEN_CANARY, MORE_CANARIES["eve"]
    }  # fmt: skip
    bad = forget(
        ForgetParams(tenant=TENANT, subjects=["ben"], subject="eve", requested_by="x"),
        return_state=True,
    )
    assert bad.is_failed() and "do not add --subject" in (bad.message or "")
    assert {r.subject for r in controls.inspect(rt.db, TENANT)} == {"ben", "eve"}


def test_forget_subjects_file_end_to_end(
    prefect_server: str, env: Path, owner: sa.Engine, tmp_path: Path
) -> None:
    import json

    from typer.testing import CliRunner

    from interfaces.cli import app

    settings = _settings()
    add_subjects(settings, tmp_path / "more.jsonl")
    listed = tmp_path / "subjects.txt"
    listed.write_text("# erasure requests of the week\nana\n\n  cy  \n# dee asked too\ndee\nana\n")
    runner = CliRunner()
    result = runner.invoke(app, ["forget", "--tenant", TENANT, "--subjects-file", str(listed)])
    assert result.exit_code == 0, result.stderr
    [line] = result.stdout.splitlines()
    assert ": 3 subjects, 6 claims blocked, " in line and line.endswith(", 0 held")
    with owner.connect() as conn:
        asked = conn.execute(
            sa.text(
                "SELECT DISTINCT request_id::text, requested_by FROM erasure_ledger "
                "WHERE node_kind = 'request'"
            )
        ).all()
    assert len(asked) == 1 and asked[0][1] == getpass.getuser()  # no --by: the OS user
    assert text_residue(owner, (*ANA_CANARIES, "cyxcanary", "deexcanary")) == []
    assert {r.subject for r in controls.inspect(runtime(settings).db, TENANT)} == {"ben", "eve"}
    again = runner.invoke(
        app, ["forget", "--tenant", TENANT, "--subjects-file", str(listed), "--json"]
    )
    assert again.exit_code == 0, again.stderr
    repeated = json.loads(again.stdout)  # forgotten already: nothing new, still verified
    assert repeated["blocked"]["memories"] == 0 and repeated["verified"]["residue"] == []
