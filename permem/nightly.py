"""The nightly run: the log, batch by batch, through every stage of `permem.pipeline`.

`run` is the single orchestration of the stages (`permem.nightly_stages`, re-exported here).
Called with `DIRECT_STAGES` it runs them as plain functions (tests, benchmarks); the Prefect
flow (`flows/nightly.py`) passes the same stages wrapped as tasks, one task per stage per batch.
Stages receive the small `Settings` and look up the heavy objects in `permem.runtime`.

With `settings.workers` above 1 a batch is split after `prepare` into that many partitions by a
stable hash of (tenant, account), so one subject's messages stay together. Extract, classify,
redact and gate depend on nothing but a partition's messages and its tenants' state, so the
`analyze` stage runs the four of them over each partition (the flow: one task per partition on
a Dask worker); the proposals are merged back in the batch's message order before `validate`,
and `load` and `index` stay single. The stored state is the same as with one worker.
"""

from __future__ import annotations

import contextlib
import contextvars
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from permem import batch_quarantine
from permem.batch_quarantine import Loaded
from permem.extraction import Candidate
from permem.heap import release_freed
from permem.indexing import IndexResult
from permem.logs import LogBatch, batches, read_log
from permem.nightly_stages import (
    ANALYZED,
    DIRECT_STAGES,
    FINAL_STAGE,
    STAGES,
    Analysis,
    BatchRejected,
    analyze_partitions_stage,
    analyze_stage,
    classify_stage,
    extract_stage,
    gate_stage,
    index_stage,
    load_stage,
    merge,
    optimize_index_stage,
    partition,
    prepare_stage,
    redact_stage,
    validate_stage,
)
from permem.pipeline import Prepared, Proposal
from permem.quality import BatchValidation
from permem.runtime import end_night, runtime
from permem.settings import Settings
from permem.table_statistics import StatisticsRefresh

__all__ = [
    "ANALYZED",
    "DIRECT_STAGES",
    "FINAL_STAGE",
    "PROGRESS",
    "STAGES",
    "Analysis",
    "BatchRejected",
    "NightlySummary",
    "analyze_partitions_stage",
    "analyze_stage",
    "classify_stage",
    "extract_stage",
    "gate_stage",
    "index_stage",
    "load_stage",
    "merge",
    "optimize_index_stage",
    "partition",
    "prepare_stage",
    "redact_stage",
    "run",
    "validate_stage",
]

# Set by the CLI to drive its progress bar: called with the number of log lines done.
PROGRESS: contextvars.ContextVar[Callable[[int], None] | None] = contextvars.ContextVar(
    "permem_nightly_progress", default=None
)


@dataclass
class NightlySummary:
    """What a run did, for the flow's artifact and the CLI."""

    logs: str
    batches: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    decisions: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    decisions_by_kind: Counter[str] = field(default_factory=Counter)
    origins: Counter[str] = field(default_factory=Counter)
    sensitivities: Counter[str] = field(default_factory=Counter)
    seconds: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    # With workers: seconds each analyzed stage took inside the partitions, added up (CPU spent
    # in parallel; the wall time of the fan-out is `seconds["analyze"]`).
    worker_seconds: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    # Of the index step's seconds, those spent getting the claims' vectors.
    embed_seconds: float = 0.0
    quarantined: list[dict[str, Any]] = field(default_factory=list)
    validations: list[dict[str, Any]] = field(default_factory=list)

    def add_proposals(self, proposals: list[Proposal]) -> None:
        for proposal in proposals:
            assert proposal.outcome is not None
            decision = proposal.outcome.decision.value
            self.decisions[decision] += 1
            self.decisions_by_kind[f"{proposal.candidate.kind.value}:{decision}"] += 1
            for reason in proposal.outcome.reasons:
                if not reason.startswith(("categories:", "role:")):
                    self.reasons[reason] += 1
            if proposal.record is not None:
                self.origins[proposal.record.origin.value] += 1
                self.sensitivities[proposal.record.sensitivity.value] += 1

    def as_json(self) -> dict[str, Any]:
        total = sum(self.seconds.values())
        read = self.counts["read"] + self.counts["quarantined_lines"]
        return {
            "logs": self.logs,
            "batches": self.batches,
            "lines": read,
            "messages_per_second": round(read / total, 1) if total else None,
            "counts": dict(self.counts),
            "decisions": dict(self.decisions),
            "reasons": dict(self.reasons),
            "decisions_by_kind": dict(self.decisions_by_kind),
            "claims_by_origin": dict(self.origins),
            "claims_by_sensitivity": dict(self.sensitivities),
            "stage_seconds": {k: round(v, 3) for k, v in self.seconds.items()},
            "index_embed_seconds": round(self.embed_seconds, 3),
            **(
                {"worker_stage_seconds": {k: round(v, 3) for k, v in self.worker_seconds.items()}}
                if self.worker_seconds
                else {}
            ),
            "quarantined": self.quarantined[:100],
        }


def run(
    settings: Settings,
    logs: Path,
    *,
    stages: Mapping[str, Callable[..., Any]] = DIRECT_STAGES,
    after_stage: Callable[[str], None] | None = None,
    partitions: int | None = None,
) -> NightlySummary:
    """Process the log at `logs` batch by batch; return what was done.

    Indexing a batch (embedding, mostly) runs in the background while the next batch goes
    through the stages before it; the two never touch the same objects, and a batch's index
    step always finishes before the next one starts. `after_stage` is called with each
    stage's name once it has finished (tests use it to interrupt a run between two stages).
    With `partitions` (or, without it, `settings.workers` above 1), `stages["analyze"]` takes
    the place of the `ANALYZED` stages: it is called with the batch split into that many
    partitions (`settings.workers` by default) and returns their `Analysis`, in order.
    """
    parts = settings.workers if partitions is None else partitions
    partitioned = partitions is not None or settings.workers > 1
    summary = NightlySummary(logs=str(logs))
    progress = PROGRESS.get()

    def step(name: str, *args: Any) -> Any:
        started = time.perf_counter()
        value = stages[name](settings, *args)
        summary.seconds[name] += time.perf_counter() - started
        if after_stage is not None:
            after_stage(name)
        return value

    def finish_index(pending: tuple[Any, int] | None) -> None:
        if pending is None:
            return
        future, lines = pending
        started = time.perf_counter()
        indexed: IndexResult = future.result()
        summary.seconds["index_wait"] += time.perf_counter() - started
        summary.seconds["index"] += indexed.seconds
        summary.embed_seconds += indexed.embed_seconds
        summary.counts["indexed"] += indexed.indexed
        # The batch is done: what it freed goes back to the system instead of staying in the
        # heap (permem.heap; it halves the growth over a night, it does not stop it).
        started = time.perf_counter()
        release_freed()
        summary.seconds["release"] += time.perf_counter() - started
        if after_stage is not None:
            after_stage("index")
        if progress is not None:
            progress(lines)

    stream = batches(read_log(logs), settings.batch_size)
    pending: tuple[Any, int] | None = None
    # The planner's view of the tables, refreshed as the night grows them (table_statistics).
    statistics = StatisticsRefresh(runtime(settings).db)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="permem-index") as background:
        try:
            while True:
                started = time.perf_counter()
                batch = next(stream, None)
                summary.seconds["read"] += time.perf_counter() - started
                if batch is None:
                    break
                summary.batches += 1
                stored = summary.counts["stored"]
                if partitioned:
                    loaded = _through_load_partitioned(step, summary, batch, parts)
                else:
                    loaded = _through_load(step, summary, batch)
                started = time.perf_counter()
                if statistics.stored(summary.counts["stored"] - stored):
                    summary.counts["statistics_refreshes"] += 1
                summary.seconds["statistics"] += time.perf_counter() - started
                finish_index(pending)
                pending = (
                    _submit(stages["index"], background, settings, loaded[0], loaded[1]),
                    len(batch),
                )
            finish_index(pending)
            pending = None
            if summary.counts["indexed"]:
                step(FINAL_STAGE)
        finally:
            if pending is not None:
                # A stage failed and its error is on its way up; let the index step that is
                # still running settle first (its own error, if any, is reported by the
                # next run, which repeats it).
                with contextlib.suppress(Exception):
                    pending[0].result()
            end_night(settings)
    return summary


def _through_load(
    step: Callable[..., Any], summary: NightlySummary, batch: LogBatch
) -> tuple[list[str], list[tuple[str, str]]]:
    """Every stage of one batch up to and including the load; returns what indexing needs."""
    prepared: Prepared = step("prepare", batch)
    summary.counts.update(prepared.counts)
    summary.counts["quarantined_lines"] += len(batch.quarantined)
    candidates: list[Candidate] = step("extract", prepared)
    summary.counts["candidates"] += len(candidates)
    proposals: list[Proposal] = step("classify", candidates)
    proposals = step("redact", proposals)
    proposals = step("gate", prepared, proposals)
    return _validate_and_load(step, summary, batch, prepared, proposals)


def _through_load_partitioned(
    step: Callable[..., Any], summary: NightlySummary, batch: LogBatch, workers: int
) -> tuple[list[str], list[tuple[str, str]]]:
    """`_through_load` with extract, classify, redact and gate run per partition."""
    prepared: Prepared = step("prepare", batch)
    summary.counts.update(prepared.counts)
    summary.counts["quarantined_lines"] += len(batch.quarantined)
    analyses: list[Analysis] = step("analyze", partition(prepared, workers))
    for analysis in analyses:
        summary.counts["candidates"] += analysis.candidates
        for name, seconds in analysis.seconds.items():
            summary.worker_seconds[name] += seconds
    return _validate_and_load(step, summary, batch, prepared, merge(prepared, analyses))


def _validate_and_load(
    step: Callable[..., Any],
    summary: NightlySummary,
    batch: LogBatch,
    prepared: Prepared,
    proposals: list[Proposal],
) -> tuple[list[str], list[tuple[str, str]]]:
    """Validate, set aside the rows that failed, load the rest. On a systemic failure, record
    the batch as held back (so the next run moves past it), then let `BatchRejected` fail the
    run."""
    try:
        validation: BatchValidation = step("validate", prepared, proposals)
    except BatchRejected as rejected:
        held, refused = batch_quarantine.hold_back(prepared, proposals, rejected.validation)
        summary.add_proposals(refused)
        summary.validations.append(_validation_row(batch.number, rejected.validation))
        summary.counts["held_back"] += len(prepared.messages)
        _count_load(summary, held, step("load", held, refused, uuid.uuid4()))
        raise
    summary.validations.append(_validation_row(batch.number, validation))
    prepared, proposals = batch_quarantine.set_aside(prepared, proposals, validation)
    summary.counts["set_aside"] += len(validation.set_aside)
    summary.add_proposals(proposals)
    loaded: Loaded = step("load", prepared, proposals, uuid.uuid4())
    _count_load(summary, prepared, loaded)
    return sorted(prepared.tenants), loaded.result.status_changes()


def _validation_row(batch: int, validation: BatchValidation) -> dict[str, Any]:
    return {
        "batch": batch,
        "success": validation.success,
        "evaluated": validation.evaluated,
        "set_aside": len(validation.set_aside),
        "systemic": list(validation.systemic),
    }


def _count_load(summary: NightlySummary, prepared: Prepared, loaded: Loaded) -> None:
    summary.counts["stored"] += loaded.result.memories
    summary.counts["superseded"] += len(loaded.result.superseded)
    summary.counts["reinstated"] += len(loaded.result.reinstated)
    summary.counts["load_refused"] += len(loaded.refused)
    summary.quarantined.extend(
        {"file": q.file, "line": q.line_no, "reason": q.reason}
        for q in [*prepared.quarantined, *loaded.refused]
    )


def _submit(
    stage: Callable[..., Any], background: ThreadPoolExecutor, *args: Any
) -> Future[Any] | Any:
    """Start a stage in the background: as a Prefect task run when it is one, else a thread."""
    submit = getattr(stage, "submit", None)
    if submit is not None:
        return submit(*args)
    return background.submit(stage, *args)
