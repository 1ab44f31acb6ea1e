"""Prefect tasks of the nightly flow: each stage of `permem.nightly`, one task per batch.

Tasks receive the small `Settings` and batch data; engines and models stay in the process's
runtime. Caching is off (inputs are large and runs must re-read the stored state); I/O stages
retry, since a dropped connection should not cost the night.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from prefect import task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE

from permem import nightly
from permem.pipeline import Prepared, Proposal
from permem.quality import BatchValidation
from permem.settings import Settings

_IO = {"retries": 2, "retry_delay_seconds": 2}


def _validate_and_publish(
    settings: Settings, prepared: Prepared, proposals: list[Proposal]
) -> BatchValidation:
    """Validate the batch and attach the Great Expectations result to the run, pass or fail."""
    try:
        validation = nightly.validate_stage(settings, prepared, proposals)
    except nightly.BatchRejected as rejected:
        _publish_validation(prepared.batch, rejected.validation)
        raise
    _publish_validation(prepared.batch, validation)
    return validation


def _publish_validation(batch: int, validation: BatchValidation) -> None:
    verdict = "passed" if validation.success else "FAILED: batch not loaded"
    failures = "\n".join(f"- {line}" for line in validation.failures) or "- none"
    result = json.dumps(validation.result, indent=1, default=str)[:20000]
    create_markdown_artifact(
        key=f"gx-batch-{batch}",
        description=f"Great Expectations validation of nightly batch {batch}",
        markdown=(
            f"# Batch {batch}: {verdict}\n\n"
            f"{validation.evaluated} expectations evaluated in {validation.seconds:.3f} s.\n\n"
            f"## Failed expectations\n{failures}\n\n"
            f"## Result\n```json\n{result}\n```\n"
        ),
    )


def _task(name: str, fn: Callable[..., Any], io: bool) -> Any:
    options: dict[str, Any] = {"name": name, "cache_policy": NO_CACHE, "persist_result": False}
    if io:
        options.update(_IO)
    return task(**options)(fn)


TASK_STAGES: Mapping[str, Callable[..., Any]] = {
    "prepare": _task("prepare", nightly.prepare_stage, io=True),
    "extract": _task("extract", nightly.extract_stage, io=False),
    "classify": _task("classify", nightly.classify_stage, io=False),
    "redact": _task("redact", nightly.redact_stage, io=False),
    "gate": _task("gate", nightly.gate_stage, io=False),
    "validate": _task("validate", _validate_and_publish, io=False),
    "load": _task("load", nightly.load_stage, io=True),
    "index": _task("index", nightly.index_stage, io=True),
    "optimize_index": _task("optimize_index", nightly.optimize_index_stage, io=True),
}
