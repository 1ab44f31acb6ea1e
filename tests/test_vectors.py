"""The LanceDB vector index on a real table in tmp_path: upserts, prefiltered exact search,
status changes and physical erasure proven by reading every file of the table."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import lance
import lancedb
import numpy as np
import pytest

from permem.embedding import HashingEmbedder
from permem.errors import BadInput, ConfigurationError
from permem.stores.vectors import IndexRow, VectorIndex, file_contains, sql_string
from tests.conftest import memory

DIM = 8
T0 = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)


def axis(i: int, lean: float = 0.0) -> np.ndarray:
    """A unit vector along axis i, leaning towards axis i+1 by `lean`."""
    vector = np.zeros(DIM, dtype=np.float32)
    vector[i % DIM] = 1.0
    vector[(i + 1) % DIM] = lean
    return vector / np.linalg.norm(vector)


def row(subject: str, vector: np.ndarray, tenant: str = "acme", **overrides: object) -> IndexRow:
    fields: dict[str, object] = {
        "id": str(uuid.uuid4()),
        "tenant": tenant,
        "subject": subject,
        "scope": "global",
        "purpose": "assistant",
        "status": "active",
        "kind": "fact",
        "sensitivity": "none",
        "valid_from": T0,
        "valid_until": None,
        "vector": vector,
    }
    fields.update(overrides)
    return IndexRow(**fields)  # type: ignore[arg-type]


@pytest.fixture
def index(tmp_path: Path) -> VectorIndex:
    return VectorIndex(str(tmp_path / "lance"), DIM)


def ids_of(rows: Sequence[IndexRow]) -> set[str]:
    return {r.id for r in rows}


def test_upsert_is_idempotent_on_id(index: VectorIndex) -> None:
    rows = [row("alice", axis(i)) for i in range(5)]
    index.upsert(rows)
    index.upsert(rows)
    assert index.count() == 5
    assert index.ids("acme") == ids_of(rows)

    moved = row("alice", axis(7), id=rows[0].id, status="paused")
    index.upsert([rows[0], moved])  # the last row of an id in a batch wins
    assert index.count() == 5
    best_id, similarity = index.search(axis(7), tenant="acme", subject="alice", k=1)[0]
    assert best_id == rows[0].id and similarity == pytest.approx(1.0, abs=1e-5)
    index.upsert([])
    assert index.count() == 5


def test_prefilter_keeps_closer_rows_of_other_subjects_and_tenants_out(index: VectorIndex) -> None:
    query = axis(0)
    alice = [row("alice", axis(3)), row("alice", axis(4))]  # orthogonal to the query
    # Fifty exact matches of the query that belong to someone else: a post-filter on the top k
    # would see only these and return nothing for alice.
    others = [row("bob", query) for _ in range(25)] + [
        row("alice", query, tenant="globex") for _ in range(25)
    ]
    index.upsert(others + alice)
    index.ensure_scalar_indexes()

    found = index.search(query, tenant="acme", subject="alice", k=2)
    assert {i for i, _ in found} == ids_of(alice)
    assert all(similarity == pytest.approx(0.0, abs=1e-5) for _, similarity in found)
    assert len(index.search(query, tenant="globex", subject="alice", k=100)) == 25
    assert index.search(query, tenant="initech", subject="alice", k=5) == []


def test_k_larger_than_the_subjects_rows_returns_all_of_them_best_first(
    index: VectorIndex,
) -> None:
    alice = [row("alice", axis(0, lean)) for lean in (0.0, 0.5, 2.0)]
    index.upsert(alice + [row("bob", axis(0)) for _ in range(10)])
    found = index.search(axis(0), tenant="acme", subject="alice", k=50)
    assert [i for i, _ in found] == [r.id for r in alice]
    similarities = [s for _, s in found]
    assert similarities == sorted(similarities, reverse=True)
    assert similarities[0] == pytest.approx(1.0, abs=1e-5)
    expected = [float(axis(0) @ r.vector) for r in alice]
    assert similarities == pytest.approx(expected, abs=1e-5)


def test_extra_where_predicate_is_applied_before_ranking(index: VectorIndex) -> None:
    best = row("alice", axis(0), scope="project:apollo")
    ended = row("alice", axis(0, 0.1), valid_until=datetime(2026, 11, 5, tzinfo=UTC))
    plain = row("alice", axis(5))
    index.upsert([best, ended, plain])
    index.ensure_scalar_indexes()

    found = index.search(axis(0), tenant="acme", subject="alice", k=1, where="scope = 'global'")
    assert [i for i, _ in found] == [ended.id]
    still_valid = "valid_until IS NULL OR valid_until > TIMESTAMP '2026-11-10 00:00:00+00:00'"
    found = index.search(axis(0), tenant="acme", subject="alice", k=5, where=still_valid)
    assert [i for i, _ in found] == [best.id, plain.id]


def test_quotes_in_subject_names_are_literal(index: VectorIndex) -> None:
    obrien = row("o'brien", axis(0))
    index.upsert([obrien, row("alice", axis(0)), row("x' OR '1'='1", axis(1))])
    index.ensure_scalar_indexes()
    assert [i for i, _ in index.search(axis(0), tenant="acme", subject="o'brien", k=5)] == [
        obrien.id
    ]
    injected = index.search(axis(0), tenant="acme", subject="' OR subject <> '", k=5)
    assert injected == []
    assert len(index.search(axis(0), tenant="acme", subject="x' OR '1'='1", k=5)) == 1
    assert index.ids("acme' OR tenant <> '") == set()
    assert sql_string("it's") == "'it''s'"


def test_set_status_changes_what_a_status_filter_lets_through(index: VectorIndex) -> None:
    rows = [row("alice", axis(i)) for i in range(4)]
    index.upsert(rows)
    index.ensure_scalar_indexes()
    index.set_status([rows[0].id, rows[1].id, "not-there"], "blocked")
    active = index.search(axis(0), tenant="acme", subject="alice", k=10, where="status = 'active'")
    assert {i for i, _ in active} == ids_of(rows[2:])
    blocked = index.search(
        axis(0), tenant="acme", subject="alice", k=10, where="status = 'blocked'"
    )
    assert {i for i, _ in blocked} == ids_of(rows[:2])
    assert index.count() == 4


def test_delete_hides_rows_but_leaves_them_on_disk(index: VectorIndex) -> None:
    canary = f"canary-{uuid.uuid4().hex}"
    rows = [row(canary, axis(0)), row("alice", axis(1))]
    index.upsert(rows)
    index.delete([rows[0].id])
    assert index.ids("acme") == {rows[1].id}
    assert index.search(axis(0), tenant="acme", subject=canary, k=5) == []
    # Logical only: the data file still holds the value, which is why `erase` exists.
    assert any(file_contains(path, [canary]) for path in index.data_files())


def test_erase_removes_the_rows_from_every_file_of_the_table(
    index: VectorIndex, tmp_path: Path
) -> None:
    canary = f"canary-{uuid.uuid4().hex}"
    survivor = f"survivor-{uuid.uuid4().hex}"
    embedder = HashingEmbedder(DIM)
    vectors = embedder.embed(["likes tea", "likes green tea", "takes the train", "vegan"])
    # Canary rows share a data file with surviving rows (compaction must rewrite it) and also
    # fill a data file of their own (dropped whole by the delete: only an index rebuild clears
    # the scalar index pages that list them).
    mixed = [row(survivor, vectors[i % 4]) for i in range(6)] + [
        row(canary, vectors[i]) for i in range(3)
    ]
    alone = [row(canary, vectors[3], tenant=f"tenant-{canary}")]
    index.upsert(mixed)
    index.upsert(alone)
    index.ensure_scalar_indexes()
    erased = [r for r in mixed + alone if r.subject == canary]
    erased_ids = [r.id for r in erased]
    index.set_status(erased_ids, "blocked")  # rewrites the rows: one more copy on disk
    index.ensure_scalar_indexes()
    needles = [canary, *erased_ids]
    assert any(file_contains(path, [canary]) for path in index.data_files())
    assert any(file_contains(path, [canary]) for path in index.index_files())

    index.erase(erased_ids)

    assert index.count() == 6
    assert index.ids("acme") == {r.id for r in mixed if r.subject == survivor}
    assert index.ids(f"tenant-{canary}") == set()
    data_files = index.data_files()
    assert data_files
    for path in data_files + index.index_files():
        assert not file_contains(path, needles), f"{path} still holds an erased value"
    # The reader does see strings in these files: the survivor's subject is still there.
    assert any(file_contains(path, [survivor]) for path in data_files)
    assert any(file_contains(path, [survivor]) for path in index.index_files())
    # Manifests, transaction and deletion files too (byte search), and no older version left.
    assert index.files_containing(needles) == []
    assert index.files_containing([survivor]) != []
    assert len(lance.dataset(str(tmp_path / "lance" / "memories.lance")).versions()) == 1
    # The table and its indexes still work.
    found = index.search(vectors[0], tenant="acme", subject=survivor, k=2)
    assert found[0][1] == pytest.approx(1.0, abs=1e-5)
    index.erase([])
    index.erase(["not-there"])
    assert index.count() == 6


def test_ids_answers_for_one_tenant_only(index: VectorIndex) -> None:
    acme = [row("alice", axis(i)) for i in range(3)]
    globex = [row("alice", axis(i), tenant="globex") for i in range(2)]
    index.upsert(acme + globex)
    assert index.ids("acme") == ids_of(acme)
    assert index.ids("globex") == ids_of(globex)
    assert index.ids("acme", [r.id for r in globex]) == set()
    asked = [acme[0].id, globex[0].id] + [str(uuid.uuid4()) for _ in range(2500)] + [acme[2].id]
    assert index.ids("acme", asked) == {acme[0].id, acme[2].id}
    assert index.ids("acme", []) == set()
    assert index.ids("initech") == set()


def test_reopening_checks_dimension_and_embedder(tmp_path: Path) -> None:
    uri = str(tmp_path / "lance")
    VectorIndex(uri, DIM, embedder="model-a").upsert([row("alice", axis(0))])
    assert VectorIndex(uri, DIM, embedder="model-a").count() == 1
    assert VectorIndex(uri, DIM).count() == 1
    with pytest.raises(ConfigurationError, match="model-a vectors, not model-b"):
        VectorIndex(uri, DIM, embedder="model-b").count()
    with pytest.raises(ConfigurationError, match=r"vector: fixed_size_list<item: float>\[8\]"):
        VectorIndex(uri, 16).count()


def test_bad_queries_and_rows_are_refused(index: VectorIndex) -> None:
    index.upsert([row("alice", axis(0))])
    with pytest.raises(BadInput, match="shape"):
        index.search(np.ones(DIM + 1, dtype=np.float32), tenant="acme", subject="alice", k=1)
    with pytest.raises(BadInput, match="k must be"):
        index.search(axis(0), tenant="acme", subject="alice", k=0)
    with pytest.raises(BadInput, match="dimensions"):
        index.upsert([row("alice", np.ones(DIM + 1, dtype=np.float32))])
    with pytest.raises(BadInput, match="not all zeros"):
        index.upsert([row("alice", np.zeros(DIM, dtype=np.float32))])
    with pytest.raises(BadInput, match="not all zeros"):
        index.search(np.zeros(DIM, dtype=np.float32), tenant="acme", subject="alice", k=1)
    with pytest.raises(BadInput, match="timezone-aware"):
        row("alice", axis(0), valid_from=datetime(2026, 11, 1))


def test_index_row_of_a_stored_claim(index: VectorIndex) -> None:
    record = memory(subject="emma", scope="project:apollo")
    index_row = IndexRow.of(record, axis(2))
    assert (index_row.id, index_row.subject, index_row.status, index_row.sensitivity) == (
        str(record.id),
        "emma",
        "active",
        "special",
    )
    index.upsert([index_row])
    where = "scope = 'project:apollo' AND sensitivity = 'special' AND kind = 'constraint'"
    found = index.search(axis(2), tenant="acme", subject="emma", k=1, where=where)
    assert found[0][0] == str(record.id)


def test_ensure_scalar_indexes_builds_once_and_catches_up_after_loads(
    index: VectorIndex, tmp_path: Path
) -> None:
    index.upsert([row("alice", axis(i)) for i in range(3)])
    connection = lancedb.connect(str(tmp_path / "lance"), read_consistency_interval=timedelta(0))
    table = connection.open_table("memories")
    index.ensure_scalar_indexes()
    built = {ix.name: (ix.index_type, ix.index_uuid) for ix in table.list_indices()}
    assert {name: kind for name, (kind, _) in built.items()} == {
        "id_idx": "BTree",
        "subject_idx": "BTree",
        "tenant_idx": "Bitmap",
        "status_idx": "Bitmap",
        "scope_idx": "Bitmap",
        "purpose_idx": "Bitmap",
    }
    index.ensure_scalar_indexes()
    assert {ix.name: (ix.index_type, ix.index_uuid) for ix in table.list_indices()} == built
    index.upsert([row("bob", axis(4))])
    index.ensure_scalar_indexes()
    assert all(ix.num_unindexed_rows == 0 for ix in table.list_indices())


def test_appends_past_the_refresh_threshold_join_the_indexes_and_still_erase(
    index: VectorIndex, tmp_path: Path
) -> None:
    index.upsert([row("alice", axis(i)) for i in range(3)])
    index.ensure_scalar_indexes()
    table = lancedb.connect(
        str(tmp_path / "lance"), read_consistency_interval=timedelta(0)
    ).open_table("memories")
    index.refresh_rows = 4
    canary = f"canary-{uuid.uuid4().hex}"
    first = [row(canary, axis(i)) for i in range(3)]
    index.upsert(first)  # 3 appended: below the threshold, left unindexed
    assert {ix.num_unindexed_rows for ix in table.list_indices()} == {3}
    second = [row("bob", axis(i)) for i in range(2)]
    index.upsert(second)  # 5 appended: the indexes take them in
    assert {ix.num_unindexed_rows for ix in table.list_indices()} == {0}
    # Reads through the refreshed indexes answer as before.
    held = index.ids("acme")
    assert {r.id for r in first + second} <= held and len(held) == 8
    found = index.search(axis(1), tenant="acme", subject=canary, k=5)
    assert [i for i, _ in found][0] == first[1].id and len(found) == 3
    # Erasure still leaves no file holding what it erased: the delta index segments go too.
    index.erase([r.id for r in first])
    assert index.files_containing([canary, *(r.id for r in first)]) == []
    assert index.count() == 5


def test_a_first_night_builds_the_scalar_indexes_once_past_the_refresh_threshold(
    index: VectorIndex, tmp_path: Path
) -> None:
    index.refresh_rows = 4
    index.upsert([row("alice", axis(i)) for i in range(3)])
    table = lancedb.connect(
        str(tmp_path / "lance"), read_consistency_interval=timedelta(0)
    ).open_table("memories")
    assert list(table.list_indices()) == []
    index.upsert([row("bob", axis(i)) for i in range(2)])
    assert {ix.name for ix in table.list_indices()} >= {"id_idx", "subject_idx", "tenant_idx"}
    assert {ix.num_unindexed_rows for ix in table.list_indices()} == {0}
