"""What the vector index stores: its rows, its Arrow schema and the scalar indexes on them,
and the SQL filters that select rows."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

import numpy as np
import pyarrow as pa  # type: ignore[import-untyped]
from numpy.typing import NDArray

from permem.errors import BadInput
from permem.records import UserMemory

# Scalar indexes that make the tenant + subject prefilter fast (DESIGN.md, "LanceDB search"):
# BTree for high-cardinality columns, Bitmap for the few-valued ones.
SCALAR_INDEXES: Final = (
    ("id", "BTree"),
    ("subject", "BTree"),
    ("tenant", "Bitmap"),
    ("status", "Bitmap"),
    ("scope", "Bitmap"),
    ("purpose", "Bitmap"),
)
EMBEDDER_KEY: Final = b"permem.embedder"
# Ids per SQL `IN (...)` list: keeps each statement small for large erasures.
CHUNK: Final = 1000
_TEXT_COLUMNS: Final = ("tenant", "subject", "scope", "purpose", "status", "kind", "sensitivity")


@dataclass(frozen=True, slots=True, eq=False)
class IndexRow:
    """One claim as the vector index stores it: filter columns and the claim's embedding.

    Times are timezone-aware (stored as UTC). Compared by identity: the vector is an array.
    """

    id: str
    tenant: str
    subject: str
    scope: str
    purpose: str
    status: str
    kind: str
    sensitivity: str
    valid_from: datetime
    valid_until: datetime | None
    vector: NDArray[np.float32]

    def __post_init__(self) -> None:
        for name in ("id", "tenant", "subject", "scope", "purpose", "status"):
            if not getattr(self, name):
                raise BadInput(f"IndexRow.{name} must not be empty")
        for stamp in (self.valid_from, self.valid_until):
            if stamp is not None and stamp.tzinfo is None:
                raise BadInput(f"IndexRow {self.id}: valid_from/valid_until must be timezone-aware")

    @classmethod
    def of(cls, memory: UserMemory, vector: NDArray[np.float32]) -> IndexRow:
        """The index row of a stored claim and the embedding of its text."""
        return cls(
            id=str(memory.id),
            tenant=memory.tenant,
            subject=memory.subject,
            scope=memory.scope,
            purpose=memory.purpose,
            status=memory.status.value,
            kind=memory.kind.value,
            sensitivity=memory.sensitivity.value,
            valid_from=memory.valid_from,
            valid_until=memory.valid_until,
            vector=vector,
        )


def sql_string(value: str) -> str:
    """`value` as a SQL string literal for a LanceDB filter (quotes doubled, never interpreted)."""
    return "'" + value.replace("'", "''") + "'"


def _in_list(column: str, values: Sequence[str]) -> str:
    return f"{column} IN ({', '.join(sql_string(v) for v in values)})"


def _chunks(values: Iterable[str]) -> Iterator[list[str]]:
    unique = list(dict.fromkeys(values))
    for start in range(0, len(unique), CHUNK):
        yield unique[start : start + CHUNK]


def index_schema(dimension: int, embedder: str | None = None) -> pa.Schema:
    """The table's Arrow schema; `embedder` (an `Embedder.name`) is kept as schema metadata."""
    stamp = pa.timestamp("us", tz="UTC")
    return pa.schema(
        [pa.field("id", pa.string(), nullable=False)]
        + [pa.field(name, pa.string(), nullable=False) for name in _TEXT_COLUMNS]
        + [
            pa.field("valid_from", stamp, nullable=False),
            pa.field("valid_until", stamp, nullable=True),
            pa.field("vector", pa.list_(pa.float32(), dimension), nullable=False),
        ],
        metadata={EMBEDDER_KEY: embedder.encode()} if embedder else None,
    )


def _describe(field: pa.Field | None) -> str:
    if field is None:
        return "no such column"
    return f"{field.type}{'' if field.nullable else ' not null'}"
