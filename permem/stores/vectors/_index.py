"""The LanceDB table of `IndexRow`s: opening, writing, physical erasure, search, and its files."""

from __future__ import annotations

import os
import urllib.parse
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, cast

import numpy as np
import pyarrow as pa  # type: ignore[import-untyped]
from numpy.typing import NDArray

from permem.errors import BadInput, ConfigurationError
from permem.stores.vectors._files import file_contains, file_holds_values
from permem.stores.vectors._rows import (
    _TEXT_COLUMNS,
    EMBEDDER_KEY,
    SCALAR_INDEXES,
    IndexRow,
    _chunks,
    _describe,
    _in_list,
    index_schema,
    sql_string,
)

if TYPE_CHECKING:
    from lancedb.table import LanceTable

# Rows appended before the scalar indexes are brought up to date. Until then each filtered
# read scans them, `upsert`'s check for present ids and the status updates included: on a
# first night of 150 appends of 1,300 rows, 13.5 s with this refresh against 50.6 s without
# (the id check of the last append 30 ms against 339 ms; benchmarks/results/lance_present.txt).
REFRESH_ROWS = 20_000


class VectorIndex:
    """A LanceDB table of `IndexRow`s at `uri`, opened (created if absent) on first use.

    `embedder`, when given, is recorded in a new table and checked against an existing one, so
    vectors of two models with the same dimension are never mixed. Every read sees the latest
    committed version (other processes' writes included): a blocked or erased claim must not
    be served from a stale view.
    """

    def __init__(
        self, uri: str, dimension: int, table: str = "memories", *, embedder: str | None = None
    ) -> None:
        if dimension < 1:
            raise BadInput(f"vector dimension must be positive, got {dimension}")
        self.uri = uri
        self.dimension = dimension
        self.table_name = table
        self.embedder = embedder
        self._schema = index_schema(dimension, embedder)
        self._opened: tuple[int, LanceTable] | None = None
        # Rows appended since the scalar indexes last covered every row (in this process):
        # past `refresh_rows`, `upsert` adds them to the indexes (`refresh_scalar_indexes`).
        self.refresh_rows = REFRESH_ROWS
        self._appended = 0

    # -- opening ---------------------------------------------------------------------------

    @property
    def _table(self) -> LanceTable:
        if self._opened is None:
            self._opened = (os.getpid(), self._open())
        pid, table = self._opened
        if pid != os.getpid():
            raise ConfigurationError(
                f"the vector index {self.uri} was opened in process {pid} and used after a fork "
                "(LanceDB hangs there); build the VectorIndex inside the worker or use spawn"
            )
        return table

    def _open(self) -> LanceTable:
        import lancedb  # here, not at import: the connection belongs to the using process

        db = lancedb.connect(self.uri, read_consistency_interval=timedelta(0))
        try:
            created = db.create_table(self.table_name, schema=self._schema, exist_ok=True)
            return cast("LanceTable", created)
        except ValueError:  # the table exists with another schema; say how it differs
            table = cast("LanceTable", db.open_table(self.table_name))
        found = table.schema
        if found.remove_metadata() != self._schema.remove_metadata():
            expected = {field.name: field for field in self._schema}
            actual = {field.name: field for field in found}
            differences = [
                f"{name}: {_describe(actual.get(name))} (expected {_describe(expected.get(name))})"
                for name in sorted(expected.keys() | actual.keys())
                if expected.get(name) != actual.get(name)
            ]
            raise ConfigurationError(
                f"LanceDB table {self.table_name!r} at {self.uri} does not match this index "
                f"({'; '.join(differences)}); rebuild the index"
            )
        recorded = (found.metadata or {}).get(EMBEDDER_KEY)
        if self.embedder and recorded and recorded.decode() != self.embedder:
            raise ConfigurationError(
                f"LanceDB table {self.table_name!r} at {self.uri} holds {recorded.decode()} "
                f"vectors, not {self.embedder}; rebuild the index with one embedder"
            )
        return table

    def drop(self) -> None:
        """Remove the table with every version and file; the next use starts an empty one."""
        import lancedb

        lancedb.connect(self.uri).drop_table(self.table_name, ignore_missing=True)  # type: ignore[call-arg]
        self._opened = None

    # -- writing ---------------------------------------------------------------------------

    def upsert(self, rows: Sequence[IndexRow]) -> None:
        """Insert or replace `rows` by id; re-upserting leaves one row per id.

        Within `rows`, the last row of an id wins. Rows whose id is new are appended (cheap);
        only rows already present go through a merge, whose cost grows with the table.
        """
        latest = list({row.id: row for row in rows}.values())
        if not latest:
            return
        present = self._present([row.id for row in latest])
        fresh = [row for row in latest if row.id not in present]
        if fresh:
            self._table.add(self._arrow(fresh))
            self._appended += len(fresh)
            if self._appended >= self.refresh_rows:
                self.refresh_scalar_indexes()
        replaced = [row for row in latest if row.id in present]
        if replaced:
            (
                self._table.merge_insert("id")
                .when_matched_update_all()
                .when_not_matched_insert_all()
                .execute(self._arrow(replaced))
            )

    def _present(self, ids: Sequence[str]) -> set[str]:
        found: set[str] = set()
        for chunk in _chunks(ids):
            result = (
                self._table.search().where(_in_list("id", chunk)).select(["id"]).limit(None)
            ).to_arrow()
            found.update(result.column("id").to_pylist())
        return found

    def _arrow(self, latest: Sequence[IndexRow]) -> pa.Table:
        vectors = np.stack([np.asarray(row.vector, dtype=np.float32) for row in latest])
        if vectors.shape != (len(latest), self.dimension):
            raise BadInput(f"vectors must have {self.dimension} dimensions, got {vectors.shape}")
        if not np.isfinite(vectors).all() or not vectors.any(axis=1).all():
            # Cosine distance is undefined for a zero vector: search would silently skip it.
            raise BadInput("vectors must be finite and not all zeros")
        columns: dict[str, pa.Array] = {"id": pa.array([row.id for row in latest])}
        for name in _TEXT_COLUMNS:
            columns[name] = pa.array([str(getattr(row, name)) for row in latest], pa.string())
        stamp = self._schema.field("valid_from").type
        columns["valid_from"] = pa.array([row.valid_from for row in latest], stamp)
        columns["valid_until"] = pa.array([row.valid_until for row in latest], stamp)
        columns["vector"] = pa.FixedSizeListArray.from_arrays(
            pa.array(vectors.ravel()), type=self._schema.field("vector").type
        )
        return pa.table(columns, schema=self._table.schema)

    def ensure_scalar_indexes(self) -> None:
        """Build the scalar indexes recall's prefilter needs; call it after a load, not per row.

        Idempotent: an index that exists and covers every row is left alone; a missing one is
        built, one with unindexed rows is rebuilt.
        """
        self._build_scalar_indexes(rebuild=False)

    def refresh_scalar_indexes(self) -> None:
        """Bring the scalar indexes up to the rows appended since they were built: add those
        rows to them (Lance's incremental `optimize_indices`, no rebuild), or build them on a
        table that has none yet (a first night).

        A row no index covers is read by a scan on every filtered query, the id check of
        `upsert` and the status updates included, so a night that only appends would make
        each batch pay for every batch before it (benchmarks/lance_present.py).
        """
        table = self._table
        self._appended = 0
        if not any(True for _ in table.list_indices()):
            self._build_scalar_indexes(rebuild=False)
            return
        table.to_lance().optimize.optimize_indices()
        table.checkout_latest()  # type: ignore[no-untyped-call]

    def _build_scalar_indexes(self, *, rebuild: bool) -> None:
        from lancedb.index import Bitmap, BTree

        self._appended = 0
        existing = {tuple(ix.columns): ix for ix in self._table.list_indices()}
        for column, kind in SCALAR_INDEXES:
            found = existing.get((column,))
            if (
                not rebuild
                and found is not None
                and found.index_type == kind
                and not found.num_unindexed_rows
            ):
                continue
            config = BTree() if kind == "BTree" else Bitmap()
            self._table.create_index(column, config=config, replace=True)

    def set_status(self, ids: Sequence[str], status: str) -> None:
        """Set the status column of those rows (recall filters on it); unknown ids are ignored."""
        if not status:
            raise BadInput("status must not be empty")
        for chunk in _chunks(ids):
            self._table.update(where=_in_list("id", chunk), values={"status": status})

    def delete(self, ids: Sequence[str]) -> None:
        """Hide those rows from every later read. Logical only: the values stay on disk in old
        versions and data files until `erase`."""
        for chunk in _chunks(ids):
            self._table.delete(_in_list("id", chunk))

    def erase(self, ids: Sequence[str]) -> None:
        """Physically remove those rows: afterwards no file of the table holds their values.

        Steps (DESIGN.md, "LanceDB erasure"): delete; rewrite every data file with a deleted row
        (`compact_files(materialize_deletions=True, materialize_deletions_threshold=0.0)`),
        leaving the scalar indexes to the rebuild that follows (`defer_index_remap=True`:
        Lance would otherwise remap every index to the rewritten rows first, only for the
        rebuild to replace it; at 1.1M rows the compaction took 2.9 s instead of 4.6-5.1 s,
        benchmarks/lance_erasure.py); rebuild the scalar indexes (measured: when the deleted
        rows filled whole fragments, compaction has nothing to rewrite and the old
        BTree/Bitmap pages still list their ids, subjects and tenants); then remove every older
        version and its files
        (`cleanup_old_versions(older_than=timedelta(0), delete_unverified=True)`).

        Compaction rewrites the table, so its cost grows with the table, not with `ids`: block
        at once, erase in batches. Only one process may work on the table meanwhile: a reader
        on an older version fails once its files are gone. Raises if a tagged version would
        keep old files.
        """
        ids = list(dict.fromkeys(ids))
        if not ids:
            return
        self.delete(ids)
        table = self._table
        table.to_lance().optimize.compact_files(
            materialize_deletions=True,
            materialize_deletions_threshold=0.0,
            defer_index_remap=True,
        )
        table.checkout_latest()  # type: ignore[no-untyped-call]
        if any(True for _ in table.list_indices()):
            self._build_scalar_indexes(rebuild=True)
        table.to_lance().cleanup_old_versions(older_than=timedelta(0), delete_unverified=True)
        table.checkout_latest()  # type: ignore[no-untyped-call]

    # -- reading ---------------------------------------------------------------------------

    def count(self) -> int:
        """Rows currently visible (every tenant)."""
        return self._table.count_rows()

    def ids(self, tenant: str, ids: Sequence[str] | None = None) -> set[str]:
        """Which of `ids` the tenant's rows hold (all the tenant's ids when `ids` is None)."""
        tenant_filter = f"tenant = {sql_string(tenant)}"
        if ids is None:
            filters = [tenant_filter]
        else:
            filters = [f"{tenant_filter} AND {_in_list('id', chunk)}" for chunk in _chunks(ids)]
        found: set[str] = set()
        for where in filters:
            result = self._table.search().where(where).select(["id"]).limit(None).to_arrow()
            found.update(result.column("id").to_pylist())
        return found

    def search(
        self,
        vector: NDArray[np.float32] | Sequence[float],
        *,
        tenant: str,
        subject: str,
        k: int,
        where: str | None = None,
        ids: Sequence[str] | None = None,
    ) -> list[tuple[str, float]]:
        """The `k` rows of (tenant, subject) nearest to `vector`: (id, similarity), best first.

        similarity = 1 - cosine distance (1 is the same direction). Exact search over the rows
        that pass the filter, applied before the vector comparison, so no row outside the
        subject is ranked and none inside it is lost. `where` is an extra SQL predicate ANDed
        in (e.g. "status = 'active'"); quote user values in it with `sql_string`, and compare
        times as `valid_from <= TIMESTAMP '2026-11-01 09:00:00+00:00'`. `ids`: only these rows
        (recall's survivors; an empty list finds nothing).
        """
        if ids is not None and not ids:
            return []
        if k < 1:
            raise BadInput(f"k must be at least 1, got {k}")
        query = np.asarray(vector, dtype=np.float32)
        if query.shape != (self.dimension,):
            raise BadInput(f"query vector must have shape ({self.dimension},), got {query.shape}")
        if not np.isfinite(query).all() or not query.any():
            raise BadInput("query vector must be finite and not all zeros")
        prefilter = f"tenant = {sql_string(tenant)} AND subject = {sql_string(subject)}"
        if where:
            prefilter = f"{prefilter} AND ({where})"
        if ids is not None:
            prefilter = f"{prefilter} AND {_in_list('id', list(dict.fromkeys(ids)))}"
        from lancedb.query import LanceVectorQueryBuilder

        builder = self._table.search(query, vector_column_name="vector")
        assert isinstance(builder, LanceVectorQueryBuilder)  # a vector query, not a text one
        result = (
            builder.distance_type("cosine")
            .where(prefilter, prefilter=True)
            .bypass_vector_index()
            .select(["id", "_distance"])
            .limit(k)
            .to_arrow()
        )
        ids = result.column("id").to_pylist()
        distances = result.column("_distance").to_pylist()
        return [(i, 1.0 - float(d)) for i, d in zip(ids, distances, strict=True)]

    # -- files, for erasure verification ---------------------------------------------------

    def _directory(self) -> Path:
        location = self._table.uri
        parsed = urllib.parse.urlparse(location)
        if parsed.scheme not in ("", "file"):
            raise ConfigurationError(
                f"the vector index at {location} is not on local disk; its files cannot be listed"
            )
        return Path(urllib.parse.unquote(parsed.path) if parsed.scheme else location)

    def data_files(self) -> list[Path]:
        """The table's data files (`data/*.lance`) on disk, current and orphaned alike."""
        return sorted((self._directory() / "data").glob("*.lance"))

    def index_files(self) -> list[Path]:
        """The scalar index files (`_indices/*/*.lance`): they hold column values too."""
        return sorted((self._directory() / "_indices").rglob("*.lance"))

    def files_holding(self, values: Sequence[str]) -> list[Path]:
        """Every Lance file of the table (data and scalar indexes) holding one of `values` as
        a whole string value: how erasure of ids and subject names is verified."""
        if not values:
            return []
        return [
            path
            for path in sorted(self._directory().rglob("*.lance"))
            if path.is_file() and file_holds_values(path, values)
        ]

    def files_containing(self, needles: Sequence[str]) -> list[Path]:
        """Every file of the table that still holds one of `needles` (empty: none does).

        Lance files (data and indexes) are read with the Lance file reader, since their strings
        are compressed; manifests, transaction and deletion files are searched byte for byte.
        """
        found = []
        raw = [needle.encode() for needle in needles]
        for path in sorted(p for p in self._directory().rglob("*") if p.is_file()):
            if path.suffix == ".lance":
                hit = file_contains(path, needles)
            else:
                content = path.read_bytes()
                hit = any(needle in content for needle in raw)
            if hit:
                found.append(path)
        return found
