"""The quality gate of a nightly claim batch: Great Expectations checks run before loading.

A batch is a pandas frame whose columns are `BATCH_COLUMNS`, one row per claim, as
`permem.stores.memories` would insert it. `validate_batch` runs the `permem_claim_batch` suite on
it and returns a `BatchValidation` that says, for every failed expectation, whether it sets rows
aside or fails the batch. Neither the result nor the failure lines ever repeat a claim's text:
the identifier check exists because that text may hold an e-mail address or a card number.

Which failures set rows aside, and which fail the batch:

- **Row-level** (`ROW_LEVEL_EXPECTATIONS`): a value in a row is wrong: a required column is null,
  a value is outside its set or range, a pair of columns is out of order, the claim matches an
  identifier pattern, or an id is not unique. The suite asks GX for the COMPLETE list of the
  offending rows' ids (not its partial list of 20), and `BatchValidation.set_aside` maps each
  offending claim id to the expectations it failed. Those claims are not stored; the rest of the
  batch loads (`permem.batch_quarantine.set_aside`: each one becomes a `reject` gate decision
  with reason `validation:<expectation>` and a `quarantine` row, so a re-run does not retry it).
- **Systemic** (`BatchValidation.systemic`): the table-columns expectation (the batch has not
  the loader's shape), an expectation that raised instead of answering, offending rows that
  cannot be named by id, or more offending rows than the batch can lose: more than
  `SYSTEMIC_SHARE` (20 %) of its rows AND more than `SYSTEMIC_MIN_ROWS` (10) rows. So many bad
  rows mean a stage upstream is broken, not that a few lines are unlucky. The batch fails
  (`permem.nightly.BatchRejected`, the flow run fails, the CLI exits 1), and its messages are
  recorded as processed without claims and quarantined with the reason, so the next run moves
  past them instead of stopping at the same place.

`success` says whether every expectation was met; `loadable` whether the batch may load (after
its set-aside rows are removed). The JSON `result` is the artifact the flow keeps: GX's own
description (with the long per-row lists dropped), plus `set_aside`, `systemic` and the
thresholds.

Great Expectations objects (an ephemeral context, a pandas data source, asset, batch definition,
suite and validation definition) are built once per process and reused by every call. Measured
on a shared 2-core machine: importing great_expectations takes 3-5 s, building the objects about
0.1 s, and a run about 0.35 s for the suite's 32 expectations plus about 0.15 s per 10,000 rows.
So Great Expectations and pandas are imported by the first validation, not with this module: a
process that never validates (a nightly Dask worker, which only parses; recall; the controls)
never imports them.
"""

from __future__ import annotations

import contextlib
import functools
import json
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final

from permem.quality_findings import (
    COMPLETE_LISTS,
    ROW_LEVEL_EXPECTATIONS,
    SYSTEMIC_MIN_ROWS,
    SYSTEMIC_SHARE,
    failure_line,
    split_failures,
    without_claim_values,
)
from permem.records import Confirmation, Kind, Origin, Sensitivity, Status

if TYPE_CHECKING:
    import great_expectations as gx
    import pandas as pd
    from great_expectations.expectations.expectation import Expectation

__all__ = [
    "BATCH_COLUMNS",
    "IDENTIFIER_PATTERNS",
    "ROW_LEVEL_EXPECTATIONS",
    "SUITE_NAME",
    "SYSTEMIC_MIN_ROWS",
    "SYSTEMIC_SHARE",
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
    "subject_hash",
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
    "subject_hash",
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

# One validation at a time: the GX objects are shared and not documented as thread-safe.
_RUN_LOCK = threading.Lock()


@dataclass(frozen=True)
class BatchValidation:
    """The outcome of validating one batch; `result` is JSON-able and free of claim text.

    `success`: every expectation met. `failures`: one line per failed expectation. `set_aside`:
    claim id -> the row-level expectations that claim failed. `systemic`: the failure lines that
    fail the whole batch; when there is none the batch is `loadable` without its set-aside rows.
    """

    success: bool
    evaluated: int
    failures: tuple[str, ...]
    result: dict[str, Any]
    seconds: float
    set_aside: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    systemic: tuple[str, ...] = ()

    @property
    def loadable(self) -> bool:
        return not self.systemic


def _expectations() -> list[Expectation]:
    from great_expectations.expectations.core.expect_column_pair_values_a_to_be_greater_than_b import (  # noqa: E501
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
        ExpectColumnValuesToNotMatchRegexList(column="claim", regex_list=list(IDENTIFIER_PATTERNS)),
        # The context a claim leans on is stored too (`evidence`): held to the same rule.
        ExpectColumnValuesToNotMatchRegexList(
            column="evidence", regex_list=list(IDENTIFIER_PATTERNS)
        ),
        ExpectColumnValuesToBeUnique(column="id"),
    ]
    return expectations


@functools.cache
def _claim_batch_definition() -> gx.ValidationDefinition:
    """Build the ephemeral context and everything a run needs, once per process (the first
    validation imports Great Expectations: 3-5 s)."""
    import great_expectations as gx
    from great_expectations.data_context.types.base import (
        DataContextConfig,
        InMemoryStoreBackendDefaults,
        ProgressBarsConfig,
    )

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
    """Run the `permem_claim_batch` suite on `frame`; say which rows failed and whether the rest
    may load (see the module docstring).

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
        # COMPLETE: every offending row's id, not the first 20 (they are all set aside).
        "result_format": "COMPLETE",
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
    result = without_claim_values(json.loads(json.dumps(described)))
    set_aside, systemic = split_failures(result["expectations"], len(frame.index))
    for entry in result["expectations"]:
        for key in COMPLETE_LISTS:
            (entry.get("result") or {}).pop(key, None)
    result["suite_name"] = SUITE_NAME
    result["suite_version"] = SUITE_VERSION
    result["set_aside"] = [{"id": key, "expectations": list(v)} for key, v in set_aside.items()]
    result["systemic"] = list(systemic)
    result["systemic_threshold"] = {"share": SYSTEMIC_SHARE, "rows": SYSTEMIC_MIN_ROWS}
    return BatchValidation(
        success=bool(result["success"]),
        evaluated=int(result["statistics"]["evaluated_expectations"]),
        failures=tuple(
            failure_line(entry) for entry in result["expectations"] if not entry["success"]
        ),
        result=result,
        seconds=time.perf_counter() - started,
        set_aside=set_aside,
        systemic=systemic,
    )


def _utc_naive(frame: pd.DataFrame) -> pd.DataFrame:
    """`frame` with its timestamp columns as naive UTC, which orders them the same.

    GX 1.24 reads `Series.values` of the compared columns, which pandas 3.1 deprecates for
    timezone-aware data (the warning would fail the pair expectations, or print per batch); and
    datetimes with mixed offsets stay an `object` column that cannot be compared with a naive
    one. A column that does not parse as timestamps is left as it is: its expectations fail.
    """
    import pandas as pd

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
        "set_aside": [],
        "systemic": [],
        "systemic_threshold": {"share": SYSTEMIC_SHARE, "rows": SYSTEMIC_MIN_ROWS},
    }
