"""Reading Lance files for erasure verification: strings are compressed on disk, so the bytes
prove nothing and the Lance file reader is used."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import lance.file
import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.compute as pc  # type: ignore[import-untyped]

# Arrow types whose values are strings or bytes, and their view forms (read by casting first).
_TEXT = (
    pa.types.is_string,
    pa.types.is_large_string,
    pa.types.is_binary,
    pa.types.is_large_binary,
    pa.types.is_fixed_size_binary,
)
_VIEWS = (pa.types.is_string_view, pa.types.is_binary_view)


def _is_any(kind: pa.DataType, checks: tuple[Callable[[pa.DataType], bool], ...]) -> bool:
    return any(check(kind) for check in checks)


def file_holds_values(path: Path | str, values: Sequence[str]) -> bool:
    """Whether any string value in the Lance file at `path` equals one of `values` exactly.

    The fast check for ids and names (one vectorized set lookup per column), read with the
    Lance file reader like `file_contains`.
    """
    table = _text_table(path)
    if table is None or not values:
        return False
    wanted = pa.array(sorted(set(values)), pa.large_string())
    for column in table.columns:
        for leaf in _leaves(column.combine_chunks()):
            kind = leaf.type
            if not (pa.types.is_string(kind) or pa.types.is_large_string(kind)
                    or pa.types.is_string_view(kind)):  # fmt: skip
                continue
            if pc.any(pc.is_in(leaf.cast(pa.large_string()), value_set=wanted)).as_py():
                return True
    return False


def file_contains(path: Path | str, needles: Sequence[str]) -> bool:
    """Whether any string (or binary) value in the Lance file at `path` contains a needle.

    Reads the file's text-bearing columns with `lance.file.LanceFileReader`: strings are
    compressed on disk, so searching the raw bytes proves nothing. Nested columns are searched
    to their leaves; numeric columns (the vectors) are skipped.
    """
    table = _text_table(path)
    if table is None:
        return False
    return any(
        _array_contains(leaf, needle)
        for column in table.columns
        for leaf in _leaves(column.combine_chunks())
        for needle in needles
    )


def _text_table(path: Path | str) -> pa.Table | None:
    """The text-bearing columns of the Lance file at `path`; None when it has none."""
    schema = lance.file.LanceFileReader(str(path)).metadata().schema
    columns = [field.name for field in schema if _holds_text(field.type)]
    if not columns:
        return None
    return lance.file.LanceFileReader(str(path), columns=columns).read_all().to_table()


def _holds_text(kind: pa.DataType) -> bool:
    if pa.types.is_dictionary(kind):
        return _holds_text(kind.value_type)
    if pa.types.is_nested(kind):
        return any(_holds_text(kind.field(i).type) for i in range(kind.num_fields))
    return _is_any(kind, _TEXT + _VIEWS)


def _leaves(array: pa.Array) -> Iterator[pa.Array]:
    kind = array.type
    if pa.types.is_dictionary(kind):
        yield from _leaves(array.dictionary_decode())
    elif pa.types.is_struct(kind):
        for index in range(kind.num_fields):
            yield from _leaves(array.field(index))
    elif (
        pa.types.is_list(kind)
        or pa.types.is_large_list(kind)
        or pa.types.is_fixed_size_list(kind)
        or pa.types.is_list_view(kind)
        or pa.types.is_large_list_view(kind)
    ):
        yield from _leaves(array.flatten())
    elif pa.types.is_map(kind):
        yield from _leaves(array.keys)
        yield from _leaves(array.items)
    else:
        yield array


def _array_contains(array: pa.Array, needle: str) -> bool:
    kind = array.type
    if pa.types.is_string_view(kind) or pa.types.is_binary_view(kind):
        array = array.cast(
            pa.large_string() if pa.types.is_string_view(kind) else pa.large_binary()
        )
        kind = array.type
    if not _is_any(kind, _TEXT):
        return False
    if pa.types.is_fixed_size_binary(kind):
        array = array.cast(pa.binary())
    return bool(pc.any(pc.match_substring(array, needle)).as_py())
