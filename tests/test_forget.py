"""Deletion as a graph operation on the real stores: block, erase, verify, never resurrect.

Unique canary strings are planted in one subject's messages; after `forget` no PostgreSQL text
column and no LanceDB file holds them, the export is gone, and re-running the nightly flow or
rebuilding the index brings nothing back, while the other subject is intact.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from interfaces.cli import app
from permem import controls, holds, nightly
from permem.errors import NotFound
from permem.export import export_subject
from permem.forget import (
    LedgerState,
    Target,
    TargetKind,
    block,
    erase,
    request_state,
    verify,
)
from permem.indexing import rebuild_index
from permem.recall import Recaller, parse_query
from permem.runtime import Runtime, runtime
from permem.settings import Settings
from permem.stores.database import tenant_transaction
from permem.stores.schema import erasure_ledger

TENANT = "acme"
NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
ANA_CANARIES = ("quxanacanary", "zephanacanary", "vexanacanary")
BEN_CANARY = "plimbencanary"
LOG = [
    ("a1", "ana", "I can't stand quxanacanary mushrooms"),
    ("a2", "ana", "I always fly with zephanacanary airlines and I prefer aisle seats"),
    ("a3", "ana", "My wife is allergic to vexanacanary nuts"),
    ("b1", "ben", "I love plimbencanary jazz"),
]


def _write_log(path: Path) -> Path:
    path.write_text(
        "".join(
            json.dumps({
                "message_id": mid, "tenant": TENANT, "account": account,
                "conversation_id": f"c-{account}", "turn": i, "role": "user", "text": text,
                "ts": f"2026-03-01T10:0{i}:00Z",
            }) + "\n"
            for i, (mid, account, text) in enumerate(LOG)
        )
    )  # fmt: skip
    return path


@pytest.fixture
def loaded(settings: Settings, tmp_path: Path) -> Iterator[tuple[Settings, Path]]:
    configured = settings.model_copy(update={"embedder": "hashing"})
    log = _write_log(tmp_path / "log.jsonl")
    nightly.run(configured, log)
    yield configured, log


def _rt(loaded: tuple[Settings, Path]) -> Runtime:
    return runtime(loaded[0])


def _claims(rt: Runtime, subject: str | None = None) -> dict[str, Any]:
    return {r.claim: r for r in controls.inspect(rt.db, TENANT, subject)}


def _recall(rt: Runtime, subject: str, text: str = "what do I like?") -> list[str]:
    query = parse_query({
        "query_id": "q", "tenant": TENANT, "actor": subject, "subject": subject,
        "purpose": "assistant", "scope": "global", "ts": NOW.isoformat(), "text": text, "k": 10,
    })  # fmt: skip
    return [r.record.claim for r in Recaller(rt.db, rt.index, rt.embedder).recall(query).records]


def text_residue(owner: sa.Engine, needles: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """Every (table, column, needle) where a needle appears in any text-like column of any
    table, read as the owner (no row-level security)."""
    with owner.connect() as conn:
        columns = conn.execute(
            sa.text(
                "SELECT table_name, column_name FROM information_schema.columns "
                "WHERE table_schema = 'public' AND data_type IN "
                "('text', 'character varying', 'jsonb', 'json', 'ARRAY', 'bytea')"
            )
        ).all()
        found = []
        for table, column in columns:
            for needle in needles:
                hit = conn.execute(
                    sa.text(f'SELECT 1 FROM "{table}" WHERE "{column}"::text ILIKE :n LIMIT 1'),
                    {"n": f"%{needle}%"},
                ).first()
                if hit:
                    found.append((table, column, needle))
    return found


def test_forget_subject_erases_every_derivative_and_nothing_comes_back(
    loaded: tuple[Settings, Path], owner: sa.Engine, tmp_path: Path
) -> None:
    rt = _rt(loaded)
    ana_ids = [str(r.id) for r in controls.inspect(rt.db, TENANT, "ana")]
    ana_ids += [str(r.id) for r in controls.inspect(rt.db, TENANT, "ana:wife")]
    exported = export_subject(
        rt.db, TENANT, "ana", "json", directory=tmp_path / "exports", actor="ana", now=NOW
    )
    assert exported.path.is_file() and rt.index.files_containing(ana_ids)
    assert {c for c in ANA_CANARIES if text_residue(owner, (c,))} == set(ANA_CANARIES)
    assert _recall(rt, "ana")

    blocked = block(rt.db, TENANT, Target(TargetKind.SUBJECT, "ana"), actor="ana", now=NOW)
    assert blocked.memories == 4 and blocked.sources == 3
    assert blocked.nodes["export"] == 1 and blocked.nodes["index_row"] >= 3
    assert _recall(rt, "ana") == []  # blocked: unusable at once, before any erasure

    erased = erase(rt.db, rt.index, TENANT, now=NOW)
    assert erased.rows_deleted["memories"] == 4 and erased.rows_deleted["sources"] == 3
    assert erased.files_deleted == 1 and not exported.path.exists()
    checked = verify(rt.db, rt.index, TENANT, now=NOW, backups=False)
    assert checked.clean and checked.verified == checked.checked > 0

    assert text_residue(owner, ANA_CANARIES) == []
    assert text_residue(owner, (BEN_CANARY,))  # the other subject is intact
    assert rt.index.files_containing(ana_ids) == []
    assert rt.index.files_containing(list(ANA_CANARIES)) == []
    assert _recall(rt, "ben") == ["I love plimbencanary jazz"]
    with tenant_transaction(rt.db.app, TENANT) as conn:
        ledger = conn.execute(sa.select(erasure_ledger)).mappings().all()
    assert {r["state"] for r in ledger} == {LedgerState.VERIFIED.value}

    # No resurrection: the nightly flow over the same log, then a rebuild of the index.
    rerun = nightly.run(loaded[0], loaded[1])
    assert rerun.counts["erased_source"] == 3
    rebuilt = rebuild_index(rt.db, rt.index, rt.embedder)
    assert rebuilt.indexed == 1  # ben's claim only
    assert _claims(rt, "ana") == {} and _claims(rt, "ana:wife") == {}
    assert rt.index.files_containing(ana_ids) == []
    assert text_residue(owner, ANA_CANARIES) == []
    assert _recall(rt, "ana") == [] and _recall(rt, "ben") == ["I love plimbencanary jazz"]


def test_forget_source_removes_exactly_that_sources_derivatives(
    loaded: tuple[Settings, Path], owner: sa.Engine
) -> None:
    rt = _rt(loaded)
    before = _claims(rt, "ana")
    blocked = block(rt.db, TENANT, Target(TargetKind.SOURCE, "a2"), actor="ana", now=NOW)
    assert blocked.memories == 2 and blocked.sources == 1
    erase(rt.db, rt.index, TENANT, now=NOW)
    assert verify(rt.db, rt.index, TENANT, now=NOW, backups=False).clean
    after = _claims(rt, "ana")
    assert set(before) - set(after) == {
        "I always fly with zephanacanary airlines",
        "I prefer aisle seats",
    }
    assert "I can't stand quxanacanary mushrooms" in after
    # What was not forgotten stays (in its claims and in the profile they make).
    assert {r[2] for r in text_residue(owner, ANA_CANARIES)} == {"quxanacanary", "vexanacanary"}
    # The message is gone from the system of record; re-reading the log skips it.
    assert nightly.run(loaded[0], loaded[1]).counts["erased_source"] == 1
    assert "I prefer aisle seats" not in _claims(rt, "ana")


def test_forget_one_claim_keeps_its_source_and_siblings(loaded: tuple[Settings, Path]) -> None:
    rt = _rt(loaded)
    aisle = _claims(rt, "ana")["I prefer aisle seats"]
    block(rt.db, TENANT, Target(TargetKind.CLAIM, str(aisle.id)), actor="ana", now=NOW)
    erase(rt.db, rt.index, TENANT, now=NOW)
    assert verify(rt.db, rt.index, TENANT, now=NOW, backups=False).clean
    left = _claims(rt, "ana")
    assert "I prefer aisle seats" not in left and "I always fly with zephanacanary airlines" in left
    assert rt.index.files_containing([str(aisle.id)]) == []
    with pytest.raises(NotFound):
        block(rt.db, TENANT, Target(TargetKind.CLAIM, str(uuid.uuid4())), actor="x", now=NOW)


def test_a_legal_hold_blocks_use_but_not_erasure_until_released(
    loaded: tuple[Settings, Path], owner: sa.Engine
) -> None:
    rt = _rt(loaded)
    placed = holds.place(rt.db, TENANT, source="a1", reason="litigation 42", by="legal", now=NOW)
    blocked = block(rt.db, TENANT, Target(TargetKind.SUBJECT, "ana"), actor="ana", now=NOW)
    assert blocked.held >= 2  # the held message and its claim (and the claim's index nodes)
    assert _recall(rt, "ana") == []  # held records are blocked from use too
    erased = erase(rt.db, rt.index, TENANT, now=NOW)
    assert erased.still_held == blocked.held
    checked = verify(rt.db, rt.index, TENANT, now=NOW, backups=False)
    assert checked.clean and checked.held == blocked.held
    assert [r[2] for r in text_residue(owner, ANA_CANARIES)] == ["quxanacanary"]
    assert "I can't stand quxanacanary mushrooms" in _claims(rt, "ana")  # kept, blocked
    assert _claims(rt, "ana")["I can't stand quxanacanary mushrooms"].status.value == "blocked"

    holds.release(rt.db, TENANT, placed.id, by="legal", now=NOW)
    completed = erase(rt.db, rt.index, TENANT, now=NOW)
    assert completed.released == blocked.held and completed.still_held == 0
    assert verify(rt.db, rt.index, TENANT, now=NOW, backups=False).clean
    assert text_residue(owner, ANA_CANARIES) == []


class _FailingIndex:
    """The real index, failing in the middle of erasure (after the rows were deleted)."""

    def __init__(self, real: Any) -> None:
        self._real = real

    def erase(self, ids: list[str]) -> None:
        self._real.delete(ids)
        raise RuntimeError("disk full during compaction")


def test_a_failure_mid_erasure_leaves_records_blocked_and_a_rerun_completes(
    loaded: tuple[Settings, Path], owner: sa.Engine
) -> None:
    rt = _rt(loaded)
    block(rt.db, TENANT, Target(TargetKind.SUBJECT, "ana"), actor="ana", now=NOW)
    with pytest.raises(RuntimeError, match="disk full"):
        erase(rt.db, _FailingIndex(rt.index), TENANT, now=NOW)  # type: ignore[arg-type]
    assert _recall(rt, "ana") == []
    with tenant_transaction(rt.db.app, TENANT) as conn:
        states = set(conn.execute(sa.select(erasure_ledger.c.state)).scalars())
    assert states == {LedgerState.BLOCKED.value}
    assert text_residue(owner, ANA_CANARIES)  # nothing was half-erased in PostgreSQL
    erase(rt.db, rt.index, TENANT, now=NOW)
    assert verify(rt.db, rt.index, TENANT, now=NOW, backups=False).clean
    assert text_residue(owner, ANA_CANARIES) == []


def test_verification_finds_residue_and_a_rerun_clears_it(
    loaded: tuple[Settings, Path], tmp_path: Path
) -> None:
    rt = _rt(loaded)
    exported = export_subject(
        rt.db, TENANT, "ana", "csv", directory=tmp_path / "exports", actor="ana", now=NOW
    )
    content = exported.path.read_bytes()
    block(rt.db, TENANT, Target(TargetKind.SUBJECT, "ana"), actor="ana", now=NOW)
    erase(rt.db, rt.index, TENANT, now=NOW)
    exported.path.write_bytes(content)  # a copy put back where the export was
    checked = verify(rt.db, rt.index, TENANT, now=NOW, backups=False)
    assert [r["store"] for r in checked.residue] == ["exports"]
    erase(rt.db, rt.index, TENANT, now=NOW)  # failed rows are erased again
    assert not exported.path.exists()
    assert verify(rt.db, rt.index, TENANT, now=NOW, backups=False).clean


def test_forget_cli_refuses_bad_targets_with_one_line(settings: Settings) -> None:
    runner = CliRunner(env={"PERMEM_DATABASE_URL": settings.database_url or ""})
    none = runner.invoke(app, ["forget", "--tenant", "acme"])
    assert none.exit_code == 2 and "exactly one of --subject, --source or --claim" in none.stderr
    two = runner.invoke(app, ["forget", "--tenant", "acme", "--subject", "a", "--source", "m"])
    assert two.exit_code == 2
    bad = runner.invoke(app, ["forget", "--tenant", "acme", "--claim", "nope", "--by", "x"])
    assert bad.exit_code == 2 and "must be a UUID" in bad.stderr


def test_recall_is_blocked_by_the_request_row_alone_and_erase_expands_it(
    loaded: tuple[Settings, Path], owner: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process dies after the request committed, before its expansion: recall already
    returns nothing, and the next erase run expands the request and erases everything."""
    import permem.forget as forget_module

    rt = _rt(loaded)

    def die(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("killed between the two transactions")

    with monkeypatch.context() as patched:
        patched.setattr(forget_module, "_expand", die)
        with pytest.raises(RuntimeError, match="killed"):
            block(rt.db, TENANT, Target(TargetKind.SUBJECT, "ana"), actor="ana", now=NOW)
    assert {r.status.value for r in controls.inspect(rt.db, TENANT, "ana")} == {"active"}
    assert _recall(rt, "ana") == [] and _recall(rt, "ben")
    erase(rt.db, rt.index, TENANT, now=NOW)
    assert verify(rt.db, rt.index, TENANT, now=NOW, backups=False).clean
    assert text_residue(owner, ANA_CANARIES) == []
    with tenant_transaction(rt.db.app, TENANT) as conn:
        states = set(conn.execute(sa.select(erasure_ledger.c.state)).scalars())
    assert states == {LedgerState.VERIFIED.value}


# ------------------------------------------------------------ many subjects in one request

MORE = [
    ("c1", "cy", "I can't stand cyxcanary olives"),
    ("d1", "dee", "I love deexcanary opera"),
    ("e1", "eve", "I always fly with evexcanary airlines"),
]
MORE_CANARIES = {"cy": "cyxcanary", "dee": "deexcanary", "eve": "evexcanary"}


def add_subjects(settings: Settings, path: Path) -> Path:
    """Three more subjects (cy, dee, eve) beside ana and ben, each with one claim of a canary
    of their own, through the nightly pipeline."""
    path.write_text(
        "".join(
            json.dumps({
                "message_id": mid, "tenant": TENANT, "account": account,
                "conversation_id": f"c-{account}", "turn": 0, "role": "user", "text": text,
                "ts": "2026-03-01T11:00:00Z",
            }) + "\n"
            for mid, account, text in MORE
        )
    )  # fmt: skip
    nightly.run(settings, path)
    return path


def _index_version(rt: Runtime) -> int:
    """The latest version of the LanceDB table, read from the store (every write adds one)."""
    import lancedb

    return int(lancedb.connect(rt.index.uri).open_table(rt.index.table_name).version)


def test_forget_many_subjects_in_one_request_erases_them_all_and_nothing_else(
    loaded: tuple[Settings, Path], owner: sa.Engine, tmp_path: Path
) -> None:
    rt = _rt(loaded)
    add_subjects(loaded[0], tmp_path / "more.jsonl")
    gone = ("ana", "cy", "dee")
    ids = [str(r.id) for s in (*gone, "ana:wife") for r in controls.inspect(rt.db, TENANT, s)]
    assert len(ids) == 6 and rt.index.files_holding(ids)
    exported = export_subject(
        rt.db, TENANT, "dee", "json", directory=tmp_path / "exports", actor="dee", now=NOW
    )

    blocked = block(rt.db, TENANT, Target.of_subjects(gone), actor="dpo", now=NOW)
    assert blocked.targets == tuple(Target(TargetKind.SUBJECT, s) for s in gone)
    assert blocked.memories == 6 and blocked.sources == 5 and blocked.nodes["export"] == 1
    assert all(_recall(rt, s) == [] for s in gone)
    with tenant_transaction(rt.db.app, TENANT) as conn:
        rows = conn.execute(sa.select(erasure_ledger)).mappings().all()
    # One request: one id, one request row per subject; each node row names its own subject.
    assert {r["request_id"] for r in rows} == {blocked.request_id}
    assert sorted(r["target_id"] for r in rows if r["node_kind"] == "request") == sorted(gone)
    owners = {r["node_id"]: r["target_id"] for r in rows if r["node_kind"] == "memory"}
    for subject in gone:
        for claim in controls.inspect(rt.db, TENANT, subject):
            assert owners[str(claim.id)] == subject
    wife = _claims(rt, "ana:wife")
    assert {owners[str(c.id)] for c in wife.values()} == {"ana"}

    erase(rt.db, rt.index, TENANT, now=NOW)
    checked = verify(rt.db, rt.index, TENANT, now=NOW, backups=False)
    assert checked.clean and checked.verified == checked.checked == len(rows) - len(gone)
    assert text_residue(owner, (*ANA_CANARIES, "cyxcanary", "deexcanary")) == []
    assert rt.index.files_holding(ids) == [] and not exported.path.exists()
    # The others are untouched: their claims, recall, and text.
    assert {r[2] for r in text_residue(owner, (BEN_CANARY, "evexcanary"))} == {
        BEN_CANARY, "evexcanary"
    }  # fmt: skip
    assert _recall(rt, "ben") == ["I love plimbencanary jazz"]
    assert [r.claim for r in controls.inspect(rt.db, TENANT, "eve")] == [
        "I always fly with evexcanary airlines"
    ]
    state = request_state(rt.db, TENANT, blocked.request_id)
    assert state["state"] == "verified" and len(state["targets"]) == 3  # type: ignore[arg-type]


def test_a_request_of_many_subjects_compacts_the_index_once(
    loaded: tuple[Settings, Path], tmp_path: Path
) -> None:
    """One erase run for the whole request: the table gains as many versions (delete,
    compaction, scalar index rebuilds) for three subjects as for one."""
    rt = _rt(loaded)
    add_subjects(loaded[0], tmp_path / "more.jsonl")
    before = _index_version(rt)
    block(rt.db, TENANT, Target(TargetKind.SUBJECT, "eve"), actor="eve", now=NOW)
    erase(rt.db, rt.index, TENANT, now=NOW)
    one = _index_version(rt) - before
    before = _index_version(rt)
    block(rt.db, TENANT, Target.of_subjects(["ana", "cy", "dee"]), actor="dpo", now=NOW)
    erase(rt.db, rt.index, TENANT, now=NOW)
    many = _index_version(rt) - before
    assert one > 0 and many == one
    assert verify(rt.db, rt.index, TENANT, now=NOW, backups=False).clean


def test_a_legal_hold_exempts_a_held_subject_inside_a_request_of_many(
    loaded: tuple[Settings, Path], owner: sa.Engine, tmp_path: Path
) -> None:
    rt = _rt(loaded)
    add_subjects(loaded[0], tmp_path / "more.jsonl")
    placed = holds.place(rt.db, TENANT, subject="cy", reason="case 9", by="legal", now=NOW)
    blocked = block(rt.db, TENANT, Target.of_subjects(["ana", "cy", "dee"]), actor="dpo", now=NOW)
    assert blocked.held >= 2  # cy's message and claim (and its index nodes)
    assert _recall(rt, "cy") == []  # held: blocked from use all the same
    erased = erase(rt.db, rt.index, TENANT, now=NOW)
    assert erased.still_held == blocked.held
    checked = verify(rt.db, rt.index, TENANT, now=NOW, backups=False)
    assert checked.clean and checked.held == blocked.held
    left = (*ANA_CANARIES, "cyxcanary", "deexcanary")
    assert [r[2] for r in text_residue(owner, left)] == ["cyxcanary"]
    [kept] = controls.inspect(rt.db, TENANT, "cy")
    assert kept.status.value == "blocked"

    holds.release(rt.db, TENANT, placed.id, by="legal", now=NOW)
    completed = erase(rt.db, rt.index, TENANT, now=NOW)
    assert completed.released == blocked.held and completed.still_held == 0
    assert verify(rt.db, rt.index, TENANT, now=NOW, backups=False).clean
    assert text_residue(owner, left) == [] and controls.inspect(rt.db, TENANT, "cy") == []


def test_forget_cli_refuses_a_bad_subjects_file_with_one_line(
    settings: Settings, tmp_path: Path
) -> None:
    runner = CliRunner(env={"PERMEM_DATABASE_URL": settings.database_url or ""})

    def refused(*args: str) -> str:
        result = runner.invoke(app, ["forget", "--tenant", "acme", *args])
        assert result.exit_code == 2, result.output
        assert len(result.stderr.strip().splitlines()) == 1
        return result.stderr

    missing = str(tmp_path / "absent.txt")
    assert "no such file" in refused("--subjects-file", missing)
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    assert "names no subject" in refused("--subjects-file", str(empty))
    comments = tmp_path / "comments.txt"
    comments.write_text("# nobody yet\n\n   \n# still nobody\n")
    assert "names no subject" in refused("--subjects-file", str(comments))
    listed = tmp_path / "subjects.txt"
    listed.write_text("ana\nben\n")
    for extra in (["--subject", "ana"], ["--source", "a1"], ["--claim", str(uuid.uuid4())]):
        assert "do not add --subject, --source or --claim" in refused(
            "--subjects-file", str(listed), *extra
        )
