"""The LanceDB vector index of accepted memory claims: derived, rebuildable, erasable.

PostgreSQL is the system of record; this index holds one row per claim (its id, the columns
recall filters on, and the claim's embedding), never the claim text. Searches are always bound
to one tenant and one subject, filtered *before* the vector comparison and exact: with a
selective prefilter, ANN indexes silently return too few rows (DESIGN.md, "LanceDB search").

Erasure is physical: a LanceDB delete only hides rows, and old table versions, partly deleted
data files and scalar index pages keep the values. `VectorIndex.erase` rewrites all three and
`files_containing` proves the result by reading every file of the table.

LanceDB is opened on first use, in the process that uses it: a process forked after the parent
opened LanceDB hangs, so start workers with `spawn` and build the index inside them.

The package by job: `_rows` (the row, the schema, the filters), `_index` (the table and its
operations), `_files` (reading Lance files to prove an erasure), `_writer` (the nightly's writes
in a child process).
"""

from __future__ import annotations

from permem.stores.vectors._files import file_contains, file_holds_values
from permem.stores.vectors._index import VectorIndex
from permem.stores.vectors._rows import IndexRow, index_schema, sql_string
from permem.stores.vectors._writer import IndexWriter

__all__ = [
    "IndexRow",
    "IndexWriter",
    "VectorIndex",
    "file_contains",
    "file_holds_values",
    "index_schema",
    "sql_string",
]
