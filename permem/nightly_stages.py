"""The stages of the nightly run (`permem.nightly.run`), as plain functions of the small
`Settings`: each looks up the heavy objects in `permem.runtime`. The Prefect flow wraps the same
functions as tasks. `analyze_stage` runs extract, classify, redact and gate over one partition
of a batch (`partition`), and `merge` puts the partitions' proposals back in batch order (both
from `permem.analysis`, which a Dask worker imports without the rest of this module).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Mapping
from typing import Any

from permem import batch_quarantine, pipeline
from permem.analysis import Analysis, analyze_stage, merge, partition
from permem.batch_quarantine import Loaded
from permem.errors import CheckFailed
from permem.extraction import Candidate
from permem.indexing import IndexResult, index_pending, sync_status
from permem.logs import LogBatch
from permem.pipeline import Prepared, Proposal
from permem.quality import BatchValidation
from permem.revisions import meaning_for
from permem.runtime import runtime
from permem.settings import Settings

__all__ = [
    "ANALYZED",
    "DIRECT_STAGES",
    "FINAL_STAGE",
    "STAGES",
    "Analysis",
    "BatchRejected",
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
    "validate_stage",
]

STAGES = ("prepare", "extract", "classify", "redact", "gate", "validate", "load", "index")
# With more than one worker these four run as one `analyze` call per partition of a batch.
ANALYZED = ("extract", "classify", "redact", "gate")
# After the last batch: scalar indexes of the vector index brought up to date once per run.
FINAL_STAGE = "optimize_index"


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
    quarantined and the rest is loaded (`permem.batch_quarantine.load_isolating`). A
    retraction takes back by meaning too when the configured embedder has a calibrated
    threshold (`permem.revisions.Meaning`)."""
    rt = runtime(settings)
    meaning = meaning_for(rt.embedder, rt.vectors)
    return batch_quarantine.load_isolating(rt.db, prepared, proposals, batch_id, meaning)


def index_stage(
    settings: Settings, tenants: list[str], changes: list[tuple[str, str]]
) -> IndexResult:
    """Index the claims the load queued, then carry the load's status changes (claim id, new
    status, in the order they happened: `LoadResult.status_changes`) into the index."""
    started = time.perf_counter()
    rt = runtime(settings)
    result = index_pending(rt.db, rt.writer, rt.embedder, tenants=tenants, vectors=rt.vectors)
    # Rows that are not in the index are left alone by the update.
    result.status_synced = sync_status(rt.writer, changes)
    result.seconds = time.perf_counter() - started
    return result


def optimize_index_stage(settings: Settings) -> None:
    runtime(settings).writer.ensure_scalar_indexes()


def analyze_partitions_stage(settings: Settings, partitions: list[Prepared]) -> list[Analysis]:
    """`analyze_stage` over each partition in turn, in this process (the flow fans them out)."""
    return [analyze_stage(settings, part) for part in partitions]


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
