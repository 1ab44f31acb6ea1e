"""The nightly run: the log, batch by batch, through every stage of `permem.pipeline`.

`run` is the single orchestration of the stages. Called with `DIRECT_STAGES` it runs them as
plain functions (tests, benchmarks); the Prefect flow (`flows/nightly.py`) passes the same
stages wrapped as tasks, one task per stage per batch. Stages receive the small `Settings` and
look up the heavy objects in `permem.runtime`.

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
import hashlib
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from permem import batch_quarantine, pipeline
from permem.batch_quarantine import Loaded
from permem.errors import CheckFailed
from permem.extraction import Candidate
from permem.indexing import IndexResult, index_pending, sync_status
from permem.logs import LogBatch, batches, read_log
from permem.pipeline import Prepared, Proposal
from permem.quality import BatchValidation
from permem.records import Message, Status
from permem.runtime import analyzers, runtime
from permem.settings import Settings

STAGES = ("prepare", "extract", "classify", "redact", "gate", "validate", "load", "index")
# With more than one worker these four run as one `analyze` call per partition of a batch.
ANALYZED = ("extract", "classify", "redact", "gate")
# After the last batch: scalar indexes of the vector index brought up to date once per run.
FINAL_STAGE = "optimize_index"

# Set by the CLI to drive its progress bar: called with the number of log lines done.
PROGRESS: contextvars.ContextVar[Callable[[int], None] | None] = contextvars.ContextVar(
    "permem_nightly_progress", default=None
)


class BatchRejected(CheckFailed):
    """Great Expectations found a systemic failure in a batch (`permem.quality`): none of its
    claims is loaded; the run records its messages as processed and quarantined (see
    `permem.batch_quarantine.hold_back`) and fails, and the next run moves past them."""

    def __init__(self, batch: int, validation: BatchValidation) -> None:
        reasons = validation.systemic or validation.failures
        first = reasons[0] if reasons else "see the validation result"
        super().__init__(
            f"batch {batch} failed validation and was not loaded "
            f"(its messages are quarantined): {first}"
        )
        self.validation = validation


def prepare_stage(settings: Settings, batch: LogBatch) -> Prepared:
    return pipeline.prepare(runtime(settings).db, batch)


def extract_stage(settings: Settings, prepared: Prepared) -> list[Candidate]:
    return pipeline.extract(runtime(settings).extractor, prepared)


def classify_stage(settings: Settings, candidates: list[Candidate]) -> list[Proposal]:
    return pipeline.classify_all(candidates)


def redact_stage(settings: Settings, proposals: list[Proposal]) -> list[Proposal]:
    return pipeline.redact(runtime(settings).redactor, proposals)


def gate_stage(settings: Settings, prepared: Prepared, proposals: list[Proposal]) -> list[Proposal]:
    return pipeline.gate(prepared, proposals, session_ttl=settings.session_ttl)


def validate_stage(
    settings: Settings, prepared: Prepared, proposals: list[Proposal]
) -> BatchValidation:
    """Validate the batch's claims; raise `BatchRejected` only on a systemic failure (rows that
    failed a row-level expectation are named in `set_aside` and dropped before the load)."""
    validation = pipeline.validate(prepared, proposals)
    if not validation.loadable:
        raise BatchRejected(prepared.batch, validation)
    return validation


def load_stage(
    settings: Settings, prepared: Prepared, proposals: list[Proposal], batch_id: uuid.UUID
) -> Loaded:
    """One transaction for the batch; if PostgreSQL refuses a value, the refused messages are
    quarantined and the rest is loaded (`permem.batch_quarantine.load_isolating`)."""
    return batch_quarantine.load_isolating(runtime(settings).db, prepared, proposals, batch_id)


def index_stage(settings: Settings, tenants: list[str], superseded: list[str]) -> IndexResult:
    started = time.perf_counter()
    rt = runtime(settings)
    result = index_pending(rt.db, rt.index, rt.embedder, tenants=tenants)
    # Rows that are not in the index are left alone by the update.
    result.status_synced = sync_status(rt.index, [(i, Status.SUPERSEDED.value) for i in superseded])
    result.seconds = time.perf_counter() - started
    return result


def optimize_index_stage(settings: Settings) -> None:
    runtime(settings).index.ensure_scalar_indexes()


@dataclass
class Analysis:
    """One partition of a batch through extract, classify, redact and gate."""

    proposals: list[Proposal]
    candidates: int
    seconds: dict[str, float]


def partition(prepared: Prepared, parts: int) -> list[Prepared]:
    """The batch's messages split into at most `parts` non-empty partitions, in batch order.

    A message goes to the partition that a stable hash of its (tenant, account) names, so a
    subject's messages stay together whatever the process. Each partition carries only what
    the analysis needs: its messages and the state of their tenants.
    """
    grouped: list[list[Message]] = [[] for _ in range(parts)]
    for message in prepared.messages:
        key = f"{message.tenant}\x1f{message.account}".encode()
        digest = hashlib.blake2b(key, digest_size=8).digest()
        grouped[int.from_bytes(digest, "big") % parts].append(message)
    return [
        Prepared(
            batch=prepared.batch,
            messages=messages,
            record_only=[],
            quarantined=[],
            tenants={t: prepared.tenants[t] for t in sorted({m.tenant for m in messages})},
            counts=Counter(),
        )
        for messages in grouped
        if messages
    ]


def analyze_stage(settings: Settings, prepared: Prepared) -> Analysis:
    """Extract, classify, redact and gate one partition, in any process.

    The extractor and redactor are this process's (built from `settings` on first use; no
    store is opened). The parses stay here: a spaCy `Doc` pickles with its whole vocabulary,
    and nothing after the gate reads it.
    """
    extractor, redactor = analyzers(settings)
    seconds: dict[str, float] = {}
    started = time.perf_counter()
    candidates = pipeline.extract(extractor, prepared)
    seconds["extract"] = time.perf_counter() - started
    started = time.perf_counter()
    proposals = pipeline.classify_all(candidates)
    seconds["classify"] = time.perf_counter() - started
    started = time.perf_counter()
    proposals = pipeline.redact(redactor, proposals)
    seconds["redact"] = time.perf_counter() - started
    started = time.perf_counter()
    proposals = pipeline.gate(prepared, proposals, session_ttl=settings.session_ttl)
    seconds["gate"] = time.perf_counter() - started
    for proposal in proposals:
        proposal.candidate = replace(proposal.candidate, doc=None)
    return Analysis(proposals, len(candidates), seconds)


def analyze_partitions_stage(settings: Settings, partitions: list[Prepared]) -> list[Analysis]:
    """`analyze_stage` over each partition in turn, in this process (the flow fans them out)."""
    return [analyze_stage(settings, part) for part in partitions]


def merge(prepared: Prepared, analyses: list[Analysis]) -> list[Proposal]:
    """The partitions' proposals as one list in the batch's message order (a message's own
    proposals keep the extractor's order: they all come from one partition)."""
    position = {(m.tenant, m.message_id): i for i, m in enumerate(prepared.messages)}
    proposals = [p for analysis in analyses for p in analysis.proposals]
    return sorted(
        proposals,
        key=lambda p: position[(p.candidate.message.tenant, p.candidate.message.message_id)],
    )


DIRECT_STAGES: Mapping[str, Callable[..., Any]] = {
    "optimize_index": optimize_index_stage,
    "prepare": prepare_stage,
    "extract": extract_stage,
    "classify": classify_stage,
    "redact": redact_stage,
    "gate": gate_stage,
    "validate": validate_stage,
    "load": load_stage,
    "index": index_stage,
    "analyze": analyze_partitions_stage,
}


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
) -> NightlySummary:
    """Process the log at `logs` batch by batch; return what was done.

    Indexing a batch (embedding, mostly) runs in the background while the next batch goes
    through the stages before it; the two never touch the same objects, and a batch's index
    step always finishes before the next one starts. `after_stage` is called with each
    stage's name once it has finished (tests use it to interrupt a run between two stages).
    With `settings.workers` above 1, `stages["analyze"]` takes the place of the `ANALYZED`
    stages: it is called with the batch's partitions and returns their `Analysis`, in order.
    """
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
        summary.counts["indexed"] += indexed.indexed
        if after_stage is not None:
            after_stage("index")
        if progress is not None:
            progress(lines)

    stream = batches(read_log(logs), settings.batch_size)
    pending: tuple[Any, int] | None = None
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="permem-index") as background:
        try:
            while True:
                started = time.perf_counter()
                batch = next(stream, None)
                summary.seconds["read"] += time.perf_counter() - started
                if batch is None:
                    break
                summary.batches += 1
                if settings.workers > 1:
                    loaded = _through_load_partitioned(step, summary, batch, settings.workers)
                else:
                    loaded = _through_load(step, summary, batch)
                finish_index(pending)
                pending = (
                    _submit(stages["index"], background, settings, loaded[0], loaded[1]),
                    len(batch),
                )
            finish_index(pending)
            pending = None
        finally:
            if pending is not None:
                # A stage failed and its error is on its way up; let the index step that is
                # still running settle first (its own error, if any, is reported by the
                # next run, which repeats it).
                with contextlib.suppress(Exception):
                    pending[0].result()
    if summary.counts["indexed"]:
        step(FINAL_STAGE)
    return summary


def _through_load(
    step: Callable[..., Any], summary: NightlySummary, batch: LogBatch
) -> tuple[list[str], list[str]]:
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
) -> tuple[list[str], list[str]]:
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
) -> tuple[list[str], list[str]]:
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
    return sorted(prepared.tenants), loaded.result.superseded


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
