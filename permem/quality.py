"""The quality gate of a nightly claim batch: Great Expectations checks run before loading.

A batch is a pandas frame whose columns are `BATCH_COLUMNS`, one row per claim, as
`permem.stores.memories` would insert it. `validate_batch` runs the `permem_claim_batch` suite on
it and returns a `BatchValidation`; a batch that fails is not loaded, and its JSON `result` is the
artifact the flow keeps. Neither the result nor the failure lines ever repeat a claim's text: the
identifier check exists because that text may hold an e-mail address or a card number.

Great Expectations objects (an ephemeral context, a pandas data source, asset, batch definition,
suite and validation definition) are built once per process and reused by every call. Measured
on a shared 2-core machine: importing great_expectations takes 3-5 s, building the objects about
0.1 s, and a run about 0.35 s for the suite's 32 expectations plus about 0.15 s per 10,000 rows.
"""

from __future__ import annotations

import contextlib
import functools
import json
import threading
import time
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

import great_expectations as gx
import pandas as pd
from great_expectations.data_context.types.base import (
    DataContextConfig,
    InMemoryStoreBackendDefaults,
    ProgressBarsConfig,
)
from great_expectations.expectations.core.expect_column_pair_values_a_to_be_greater_than_b import (
    ExpectColumnPairValuesAToBeGreaterThanB,
)
from great_expectations.expectations.core.expect_column_values_to_be_between import (
    ExpectColumnValuesToBeBetween,
)
from great_expectations.expectations.core.expect_column_values_to_be_in_set import (
    ExpectColumnValuesToBeInSet,
)
from great_expectations.expectations.core.expect_column_values_to_be_unique import (
    ExpectColumnValuesToBeUnique,
)
from great_expectations.expectations.core.expect_column_values_to_not_be_null import (
    ExpectColumnValuesToNotBeNull,
)
from great_expectations.expectations.core.expect_column_values_to_not_match_regex_list import (
    ExpectColumnValuesToNotMatchRegexList,
)
from great_expectations.expectations.core.expect_table_columns_to_match_set import (
    ExpectTableColumnsToMatchSet,
)
from great_expectations.expectations.expectation import Expectation

from permem.records import Confirmation, Kind, Origin, Sensitivity, Status

__all__ = [
    "BATCH_COLUMNS",
    "IDENTIFIER_PATTERNS",
    "SUITE_NAME",
    "SUITE_VERSION",
    "BatchValidation",
    "validate_batch",
]

SUITE_NAME: Final = "permem_claim_batch"
# Bump when an expectation is added, removed or changed: stored results name the version.
SUITE_VERSION: Final = "1"

# The keys of a `memories` row as `permem.stores.memories.memory_rows` builds it (a test checks).
BATCH_COLUMNS: Final[tuple[str, ...]] = (
    "id",
    "tenant",
    "subject",
    "account",
    "origin",
    "kind",
    "claim",
    "evidence",
    "source_message_id",
    "span_start",
    "span_end",
    "scope",
    "purpose",
    "observed_at",
    "valid_from",
    "valid_until",
    "confidence",
    "sensitivity",
    "confirmation",
    "status",
    "supersedes",
    "session",
    "topic",
    "claim_hash",
    "policy_version",
    "batch_id",
)

# Provenance a nightly claim must carry: where it came from, where and why it may be used.
REQUIRED_COLUMNS: Final[tuple[str, ...]] = (
    "id",
    "tenant",
    "subject",
    "account",
    "origin",
    "kind",
    "claim",
    "source_message_id",
    "span_start",
    "span_end",
    "scope",
    "purpose",
    "observed_at",
    "valid_from",
    "confidence",
    "sensitivity",
    "confirmation",
    "status",
    "claim_hash",
    "policy_version",
)

# Compared with each other, so handed to GX as naive UTC (see `_utc_naive`).
_TIMESTAMP_COLUMNS: Final = ("observed_at", "valid_from", "valid_until")

ENUM_COLUMNS: Final[dict[str, type[StrEnum]]] = {
    "origin": Origin,
    "kind": Kind,
    "sensitivity": Sensitivity,
    "confirmation": Confirmation,
    "status": Status,
}

# Direct identifiers that must not survive into a stored claim. Groups are non-capturing
# (pandas warns about capturing groups in `str.contains`), and none matches a redaction
# placeholder such as `<PHONE_NUMBER>`: every pattern needs digits, `@`, `://` or `=`. Each one
# starts at a token boundary, so a long claim does not make it backtrack.
IDENTIFIER_PATTERNS: Final[tuple[str, ...]] = (
    # E-mail address: local part, @, a dotted domain ending in a 2+ letter label.
    r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}",
    # International phone number: + then 9-15 digits, separated by spaces, dots, dashes or ().
    r"(?<![\w+])\+\d(?:[\s.()-]{0,2}\d){8,14}(?!\d)",
    # US phone number: (415) 555-0132, 415-555-0132, 415.555.0132, 415 555 0132.
    r"(?<![\w+])(?:\(\d{3}\)[ .-]?|\d{3}[ .-])\d{3}[ .-]\d{4}(?!\d)",
    # Payment card: 13-19 digits as 4-4-4-1..7 or Amex 4-6-4..5, spaces/dashes optional.
    r"(?<![\d-])(?:(?:\d{4}[ -]?){3}\d{1,7}|\d{4}[ -]?\d{6}[ -]?\d{4,5})(?![\d-])",
    # IBAN: country code, 2 check digits, 9-30 letters/digits, optionally in groups of 4.
    r"\b[A-Z]{2}\d{2} ?(?:[A-Z0-9]{4} ?){2,7}[A-Z0-9]{1,4}\b",
    # US social security number, with separators: 123-45-6789 (never 000, 666 or 9xx first).
    r"(?<![\d-])(?!000|666|9\d\d)\d{3}[- ](?!00)\d{2}[- ](?!0000)\d{4}(?![\d-])",
    # IPv4 address: four dotted octets 0-255, not part of a longer dotted number.
    r"(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}"
    r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?!\.?\d)",
    # URL with credentials: scheme://user:password@host.
    r"(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*://[^\s/?#@:]+:[^\s/?#@]+@",
    # URL query parameter carrying a secret: ?access_token=..., &api_key=..., &password=...
    r"(?i:[?&][\w.-]*(?:token|key|secret|password|passwd|pwd|signature)=[^\s&#]+)",
)

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
_EXAMPLES: Final = 3
_EXAMPLE_CHARS: Final = 80

# One validation at a time: the GX objects are shared and not documented as thread-safe.
_RUN_LOCK = threading.Lock()


@dataclass(frozen=True)
class BatchValidation:
    """The outcome of validating one batch; `result` is JSON-able and free of claim text."""

    success: bool
    evaluated: int
    failures: tuple[str, ...]
    result: dict[str, Any]
    seconds: float


def _expectations() -> list[Expectation]:
    expectations: list[Expectation] = [
        # Exactly the columns the loader inserts: neither fewer nor unknown ones.
        ExpectTableColumnsToMatchSet(column_set=list(BATCH_COLUMNS), exact_match=True)
    ]
    expectations += [ExpectColumnValuesToNotBeNull(column=name) for name in REQUIRED_COLUMNS]
    expectations += [
        ExpectColumnValuesToBeInSet(column=name, value_set=sorted(m.value for m in enum))
        for name, enum in ENUM_COLUMNS.items()
    ]
    expectations += [
        ExpectColumnValuesToBeBetween(column="confidence", min_value=0.0, max_value=1.0),
        ExpectColumnValuesToBeBetween(column="span_start", min_value=0),
        ExpectColumnPairValuesAToBeGreaterThanB(
            column_A="span_end",
            column_B="span_start",
            or_equal=True,
            ignore_row_if="either_value_is_missing",
        ),
        ExpectColumnPairValuesAToBeGreaterThanB(
            column_A="valid_until",
            column_B="valid_from",
            or_equal=True,
            ignore_row_if="either_value_is_missing",
        ),
        ExpectColumnValuesToNotMatchRegexList(column=_CLAIM, regex_list=list(IDENTIFIER_PATTERNS)),
        ExpectColumnValuesToBeUnique(column="id"),
    ]
    return expectations


@functools.cache
def _claim_batch_definition() -> gx.ValidationDefinition:
    """Build the ephemeral context and everything a run needs, once per process."""
    config = DataContextConfig(
        # No temporary data-docs site on disk: results go back to the caller only.
        store_backend_defaults=InMemoryStoreBackendDefaults(init_temp_docs_sites=False),
        # GX 1.24 sends no analytics any more; keep it off should a version bring it back.
        analytics_enabled=False,
        # tqdm bars would print once per batch.
        progress_bars=ProgressBarsConfig(globally=False, metric_calculations=False),
    )
    context = gx.get_context(mode="ephemeral", project_config=config)
    batch_definition = (
        context.data_sources.add_pandas(name="permem")
        .add_dataframe_asset(name="claims")
        .add_batch_definition_whole_dataframe(name="nightly_batch")
    )
    suite = context.suites.add(
        gx.ExpectationSuite(
            name=SUITE_NAME,
            expectations=_expectations(),
            meta={"permem_suite_version": SUITE_VERSION},
        )
    )
    return context.validation_definitions.add(
        gx.ValidationDefinition(name=SUITE_NAME, data=batch_definition, suite=suite)
    )


def validate_batch(frame: pd.DataFrame) -> BatchValidation:
    """Run the `permem_claim_batch` suite on `frame`; load the batch only if `success`.

    An empty frame is valid and costs nothing. Missing or unknown columns fail the batch (and
    the expectations on missing ones) rather than raise. The first call in a process also builds
    the GX objects; later calls only run them.
    """
    started = time.perf_counter()
    if len(frame.index) == 0:
        return BatchValidation(
            success=True,
            evaluated=0,
            failures=(),
            result=_empty_result(),
            seconds=time.perf_counter() - started,
        )
    result_format: dict[str, Any] = {
        "result_format": "SUMMARY",
        "partial_unexpected_count": 20,
        # A query string would spell out the failing rows' index; the ids say it better.
        "return_unexpected_index_query": False,
    }
    if "id" in frame.columns:
        result_format["unexpected_index_column_names"] = ["id"]
    with _RUN_LOCK:
        definition = _claim_batch_definition()
        outcome = definition.run(
            batch_parameters={"dataframe": _utc_naive(frame)}, result_format=result_format
        )
    described: dict[str, Any] = outcome.describe_dict()
    # describe_dict() drops exception_info when GX keys it by metric, as suite runs do.
    for entry, raw in zip(described["expectations"], outcome.results, strict=True):
        message = _exception_message(raw.exception_info)
        if message is not None:
            entry["exception_info"] = {"raised_exception": True, "exception_message": message}
    # A round trip through JSON leaves plain types only (describe_dict() yields numpy strings).
    result = _without_claim_values(json.loads(json.dumps(described)))
    result["suite_name"] = SUITE_NAME
    result["suite_version"] = SUITE_VERSION
    return BatchValidation(
        success=bool(result["success"]),
        evaluated=int(result["statistics"]["evaluated_expectations"]),
        failures=tuple(
            _failure_line(entry) for entry in result["expectations"] if not entry["success"]
        ),
        result=result,
        seconds=time.perf_counter() - started,
    )


def _utc_naive(frame: pd.DataFrame) -> pd.DataFrame:
    """`frame` with its timestamp columns as naive UTC, which orders them the same.

    GX 1.24 reads `Series.values` of the compared columns, which pandas 3.1 deprecates for
    timezone-aware data (the warning would fail the pair expectations, or print per batch); and
    datetimes with mixed offsets stay an `object` column that cannot be compared with a naive
    one. A column that does not parse as timestamps is left as it is: its expectations fail.
    """
    converted: dict[str, Any] = {}
    for name in _TIMESTAMP_COLUMNS:
        if name in frame.columns:
            with contextlib.suppress(ValueError, TypeError):
                converted[name] = pd.to_datetime(frame[name], utc=True).dt.tz_convert(None)
    return frame.assign(**converted) if converted else frame


def _exception_message(info: Any) -> str | None:
    """The message of an exception GX caught, from either shape of `exception_info`."""
    if not isinstance(info, dict):
        return None
    if info.get("raised_exception"):
        return str(info.get("exception_message"))
    # Newer shape: one entry per metric that failed to resolve.
    for value in info.values():
        if isinstance(value, dict) and value.get("raised_exception"):
            return str(value.get("exception_message"))
    return None


def _empty_result() -> dict[str, Any]:
    return {
        "success": True,
        "statistics": {
            "evaluated_expectations": 0,
            "successful_expectations": 0,
            "unsuccessful_expectations": 0,
            "success_percent": None,
        },
        "expectations": [],
        "suite_name": SUITE_NAME,
        "suite_version": SUITE_VERSION,
    }


def _without_claim_values(described: dict[str, Any]) -> dict[str, Any]:
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


def _failure_line(entry: dict[str, Any]) -> str:
    """One line naming the expectation, its columns and what went wrong, without claim text."""
    kwargs = entry["kwargs"]
    columns = [kwargs[key] for key in ("column", "column_A", "column_B") if key in kwargs]
    head = (
        f"{entry['expectation_type']}({', '.join(columns)})"
        if columns
        else entry["expectation_type"]
    )
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
