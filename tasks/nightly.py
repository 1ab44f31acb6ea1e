"""Prefect tasks of the nightly flow: each stage of `permem.nightly`, one task per batch.

Tasks receive the small `Settings` and batch data; engines and models stay in the process's
runtime. Caching is off (inputs are large and runs must re-read the stored state); I/O stages
retry, since a dropped connection should not cost the night.

`on_dask` gives the `analyze` stage of a run with workers: one task per partition of a batch
on a Dask cluster (prefect-dask), local or at `PERMEM_DASK_ADDRESS`, whose worker processes
build their own parser and redactor from the settings.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from prefect import task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE
from prefect.utilities.annotations import opaque

from permem import nightly
from permem.nightly import Analysis
from permem.pipeline import Prepared, Proposal
from permem.quality import BatchValidation
from permem.settings import Settings

_IO = {"retries": 2, "retry_delay_seconds": 2}
# Set-aside claims listed one a line in a batch's validation artifact; the rest are counted.
_SET_ASIDE_SHOWN = 500


def _validate_and_publish(
    settings: Settings, prepared: Prepared, proposals: list[Proposal]
) -> BatchValidation:
    """Validate the batch and attach the Great Expectations result to the run, pass or fail:
    the claims set aside and the systemic failures, by claim id and expectation."""
    try:
        validation = nightly.validate_stage(settings, prepared, proposals)
    except nightly.BatchRejected as rejected:
        _publish_validation(prepared.batch, rejected.validation)
        raise
    _publish_validation(prepared.batch, validation)
    return validation


def _publish_validation(batch: int, validation: BatchValidation) -> None:
    if not validation.loadable:
        verdict = "FAILED: batch not loaded, its messages quarantined"
    elif validation.set_aside:
        verdict = f"{len(validation.set_aside)} claims set aside, the rest loaded"
    else:
        verdict = "passed"
    failures = "\n".join(f"- {line}" for line in validation.failures) or "- none"
    systemic = "\n".join(f"- {line}" for line in validation.systemic) or "- none"
    # Claim ids and expectation names only: never the claim's text.
    rows = [f"- `{key}`: {', '.join(names)}" for key, names in validation.set_aside.items()]
    if len(rows) > _SET_ASIDE_SHOWN:
        rows = [*rows[:_SET_ASIDE_SHOWN], f"- and {len(rows) - _SET_ASIDE_SHOWN} more"]
    result = json.dumps(validation.result, indent=1, default=str)[:20000]
    create_markdown_artifact(
        key=f"gx-batch-{batch}",
        description=f"Great Expectations validation of nightly batch {batch}",
        markdown=(
            f"# Batch {batch}: {verdict}\n\n"
            f"{validation.evaluated} expectations evaluated in {validation.seconds:.3f} s.\n\n"
            f"## Failed expectations\n{failures}\n\n"
            f"## Systemic failures (fail the batch)\n{systemic}\n\n"
            f"## Claims set aside (quarantined, not stored)\n{chr(10).join(rows) or '- none'}"
            f"\n\n## Result\n```json\n{result}\n```\n"
        ),
    )


def _task(name: str, fn: Callable[..., Any], io: bool) -> Any:
    options: dict[str, Any] = {"name": name, "cache_policy": NO_CACHE, "persist_result": False}
    if io:
        options.update(_IO)
    return task(**options)(fn)


class _OpaqueStage:
    """A stage task called with every argument wrapped in Prefect's `opaque`.

    Prefect walks every task argument twice, recursively (to find upstream runs, then to
    resolve futures), and rebuilds each dataclass it meets: on a batch's messages and
    proposals that cost more than the stage itself (py-spy, 100k messages: gate 22.7 s in the
    flow against 1.3 s as a plain function). `opaque` still links each argument to the task
    run that returned it (the UI's graph keeps its edges) without walking into it.
    """

    def __init__(self, stage: Any) -> None:
        self.stage = stage
        self.name: str = stage.name

    def __call__(self, *args: Any) -> Any:
        return self.stage(*(opaque(a) for a in args))

    def submit(self, *args: Any) -> Any:
        return self.stage.submit(*(opaque(a) for a in args))


def _stage(name: str, fn: Callable[..., Any], io: bool) -> _OpaqueStage:
    return _OpaqueStage(_task(name, fn, io))


TASK_STAGES: Mapping[str, Callable[..., Any]] = {
    "prepare": _stage("prepare", nightly.prepare_stage, io=True),
    "extract": _stage("extract", nightly.extract_stage, io=False),
    "classify": _stage("classify", nightly.classify_stage, io=False),
    "redact": _stage("redact", nightly.redact_stage, io=False),
    "gate": _stage("gate", nightly.gate_stage, io=False),
    "validate": _stage("validate", _validate_and_publish, io=False),
    "load": _stage("load", nightly.load_stage, io=True),
    "index": _stage("index", nightly.index_stage, io=True),
    "optimize_index": _stage("optimize_index", nightly.optimize_index_stage, io=True),
}

# One partition of a batch through extract, classify, redact and gate (runs on a Dask worker).
ANALYZE_PARTITION = _task("analyze", nightly.analyze_stage, io=False)


@dataclass(frozen=True)
class DaskAnalysis:
    """The `analyze` stage on a Dask cluster, and how many partitions to split a batch into."""

    analyze: Callable[[Settings, list[Prepared]], list[Analysis]]
    partitions: int


@contextmanager
def on_dask(settings: Settings) -> Iterator[DaskAnalysis]:
    """An `analyze` stage that runs each partition as a task on a Dask cluster, for as long as
    the context is open: the existing scheduler at `settings.dask_address` (one partition per
    worker thread it has now), else a local cluster of `settings.workers` processes, one
    thread each (one partition per process).

    Local workers are spawned, never forked: a fork of a process that has LanceDB or torch
    open can hang. Workers open no store; only `prepare`, `validate`, `load` and `index`
    touch PostgreSQL and LanceDB, in the flow's own process.
    """
    import dask
    from prefect_dask.task_runners import DaskTaskRunner

    if settings.dask_address:
        runner = DaskTaskRunner(address=settings.dask_address)
    else:
        runner = DaskTaskRunner(
            cluster_kwargs={
                "n_workers": settings.workers,
                "threads_per_worker": 1,
                "processes": True,
                "host": "127.0.0.1",
                # The scheduler serves HTTP in any case; a free port, so that two runs (or a
                # Dask cluster of someone else) never meet on 8787.
                "dashboard_address": "127.0.0.1:0",
            }
        )
    # Dask logs every start and stop at INFO, here and in each worker; the run's own log is
    # what matters.
    dask_log = logging.getLogger("distributed")
    saved = dask_log.level
    dask_log.setLevel(logging.WARNING)
    try:
        config = {
            "distributed.worker.multiprocessing-method": "spawn",
            # In the workers' environment, read when they import Dask.
            "distributed.nanny.pre-spawn-environ.DASK_LOGGING__DISTRIBUTED": "warning",
        }
        with dask.config.set(config), runner:
            # Connects (or starts the local cluster) now, not at the first batch.
            nthreads: dict[str, int] = runner.client.nthreads()  # type: ignore[no-untyped-call]
            threads = sum(nthreads.values())

            def analyze(settings: Settings, partitions: list[Prepared]) -> list[Analysis]:
                futures = [
                    runner.submit(ANALYZE_PARTITION, {"settings": settings, "prepared": part})
                    for part in partitions
                ]
                return [future.result() for future in futures]

            try:
                yield DaskAnalysis(analyze, max(1, threads))
            finally:
                # A worker that needs more than the nanny's 4 s to exit (freeing its models on
                # a busy machine) is killed with a warning; it holds nothing to lose.
                dask_log.setLevel(logging.ERROR)
    finally:
        dask_log.setLevel(saved)
