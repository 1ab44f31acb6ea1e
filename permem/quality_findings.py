"""What a Great Expectations result of the claim suite says, in permem's terms.

`split_failures` splits the failed expectations of one validation into the claims to set aside
(claim id -> the row-level expectations it failed) and the failure lines that fail the whole
batch (see `permem.quality` for the rules and the threshold). `failure_line` renders one failed
expectation as a line, and `without_claim_values` strips every claim value from a described
result: neither ever repeats a claim's text.
"""

from __future__ import annotations

from typing import Any, Final

__all__ = [
    "COMPLETE_LISTS",
    "ROW_LEVEL_EXPECTATIONS",
    "SYSTEMIC_MIN_ROWS",
    "SYSTEMIC_SHARE",
    "failure_head",
    "failure_line",
    "split_failures",
    "without_claim_values",
]

# Expectations about one value in one row (or a pair of values, or a duplicate id): what they
# find is a bad row, which is set aside. Any other failure is systemic.
ROW_LEVEL_EXPECTATIONS: Final = frozenset(
    {
        "expect_column_values_to_not_be_null",
        "expect_column_values_to_be_in_set",
        "expect_column_values_to_be_between",
        "expect_column_pair_values_a_to_be_greater_than_b",
        "expect_column_values_to_not_match_regex_list",
        "expect_column_values_to_be_unique",
    }
)
# A batch with more offending rows than both of these fails as a whole (see the docstring).
SYSTEMIC_SHARE: Final = 0.2
SYSTEMIC_MIN_ROWS: Final = 10

# The claim column is the one column whose values are never copied into a result.
_CLAIM = "claim"
# Result fields without values: what may be kept of an expectation on the claim column.
_VALUE_FREE_FIELDS: Final = frozenset(
    {
        "element_count",
        "unexpected_count",
        "unexpected_percent",
        "unexpected_percent_total",
        "unexpected_percent_nonmissing",
        "missing_count",
        "missing_percent",
        "unexpected_index_column_names",
    }
)
_INDEX_LISTS: Final = ("partial_unexpected_index_list", "unexpected_index_list")
# The complete per-row lists: read for `set_aside`, then dropped from the kept result (a batch of
# 10,000 rows would otherwise carry 10,000 values per failed expectation into the artifact).
COMPLETE_LISTS: Final = ("unexpected_list", "unexpected_index_list")
_EXAMPLES: Final = 3
_EXAMPLE_CHARS: Final = 80


def split_failures(
    entries: list[dict[str, Any]], rows: int
) -> tuple[dict[str, tuple[str, ...]], tuple[str, ...]]:
    """The claim ids each row-level failure names, and the failure lines that are systemic."""
    failed: dict[str, list[str]] = {}
    systemic: list[str] = []
    for entry in entries:
        if entry["success"]:
            continue
        exception = entry.get("exception_info") or {}
        ids = _offending_ids(entry)
        if (
            entry["expectation_type"] not in ROW_LEVEL_EXPECTATIONS
            or exception.get("raised_exception")
            or ids is None
        ):
            systemic.append(failure_line(entry))
            continue
        for claim_id in ids:
            names = failed.setdefault(claim_id, [])
            if failure_head(entry) not in names:
                names.append(failure_head(entry))
    if len(failed) > SYSTEMIC_MIN_ROWS and len(failed) > SYSTEMIC_SHARE * rows:
        systemic.append(
            f"{len(failed)} of {rows} rows failed row-level expectations: more than "
            f"{SYSTEMIC_SHARE:.0%} and more than {SYSTEMIC_MIN_ROWS} rows"
        )
    if systemic:
        # A failed batch sets nothing aside: all of it is held back.
        return {}, tuple(systemic)
    return {key: tuple(names) for key, names in failed.items()}, ()


def _offending_ids(entry: dict[str, Any]) -> list[str] | None:
    """Every offending row's id, or None when a row cannot be named (no id column, null id)."""
    found = entry.get("result") or {}
    listed = found.get("unexpected_index_list")
    if not isinstance(listed, list) or len(listed) != found.get("unexpected_count"):
        return None
    ids: list[str] = []
    for row in listed:
        value = row.get("id") if isinstance(row, dict) else None
        if not isinstance(value, str) or not value:
            return None
        ids.append(value)
    return ids


def without_claim_values(described: dict[str, Any]) -> dict[str, Any]:
    """Drop every value of the claim column from a `describe_dict()` result, keep counts and ids."""
    result: dict[str, Any] = dict(described)
    entries: list[dict[str, Any]] = []
    for entry in result["expectations"]:
        if entry["kwargs"].get("column") == _CLAIM and "result" in entry:
            found = entry["result"]
            kept = {key: value for key, value in found.items() if key in _VALUE_FREE_FIELDS}
            for key in _INDEX_LISTS:
                if key in found:
                    kept[key] = [_without_claim(row) for row in found[key]]
            entry = {**entry, "result": kept}
        if entry["kwargs"].get("column") == _CLAIM and "exception_info" in entry:
            # An error message may quote the value it failed on.
            entry["exception_info"] = {
                "raised_exception": True,
                "exception_message": "withheld: it may quote a claim",
            }
        entries.append(entry)
    result["expectations"] = entries
    return result


def _without_claim(row: Any) -> Any:
    # A row is {"claim": value, "id": ...} with ids, or a bare position without them.
    if isinstance(row, dict):
        return {key: value for key, value in row.items() if key != _CLAIM}
    return row


def failure_line(entry: dict[str, Any]) -> str:
    """One line naming the expectation, its columns and what went wrong, without claim text."""
    kwargs = entry["kwargs"]
    columns = [kwargs[key] for key in ("column", "column_A", "column_B") if key in kwargs]
    head = failure_head(entry)
    exception = entry.get("exception_info") or {}
    if exception.get("raised_exception"):
        return f"{head}: could not run: {exception.get('exception_message')}"
    found = entry.get("result") or {}
    if "unexpected_count" in found:
        line = f"{head}: {found['unexpected_count']} unexpected of {found['element_count']} rows"
        if _CLAIM in columns:
            rows = [_row_label(row) for row in found.get("partial_unexpected_index_list", [])]
            return f"{line}, rows {_examples(rows)}" if rows else line
        values = found.get("partial_unexpected_list", [])
        return f"{line}, e.g. {_examples(values)}" if values else line
    mismatched = (found.get("details") or {}).get("mismatched")
    if isinstance(mismatched, dict):
        return f"{head}: " + "; ".join(
            f"{kind} columns {sorted(names)}" for kind, names in mismatched.items()
        )
    return f"{head}: observed {found.get('observed_value')!r}"


def failure_head(entry: dict[str, Any]) -> str:
    """The expectation and its columns: `expect_column_values_to_be_in_set(origin)`."""
    kwargs = entry["kwargs"]
    columns = [kwargs[key] for key in ("column", "column_A", "column_B") if key in kwargs]
    name = str(entry["expectation_type"])
    return f"{name}({', '.join(columns)})" if columns else name


def _row_label(row: Any) -> str:
    if isinstance(row, dict) and "id" in row:
        return str(row["id"])
    return str(row)


def _examples(values: list[Any]) -> str:
    distinct: list[str] = []
    for value in values:
        text = repr(value)
        if len(text) > _EXAMPLE_CHARS:
            text = text[: _EXAMPLE_CHARS - 3] + "..."
        if text not in distinct:
            distinct.append(text)
        if len(distinct) == _EXAMPLES:
            break
    return "[" + ", ".join(distinct) + "]"
