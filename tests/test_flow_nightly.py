"""The nightly flow as Prefect runs it: real flow runs, tasks and artifacts, real stores."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from prefect.client.orchestration import get_client
from prefect.client.schemas.filters import (
    ArtifactFilter,
    ArtifactFilterFlowRunId,
    ArtifactFilterKey,
)

from permem.runtime import close_all
from permem.settings import Settings
from tests.test_nightly import LOG, snapshot, write_log


@pytest.fixture
def env(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """The flow reads its settings from the environment, as in production."""
    monkeypatch.setenv("PERMEM_DATABASE_URL", settings.database_url or "")
    monkeypatch.setenv("PERMEM_HOME", str(settings.home))
    monkeypatch.setenv("PERMEM_BATCH_SIZE", "6")
    return Settings(database_url=settings.database_url, home=settings.home, batch_size=6)


def _artifacts(keys: list[str], flow_run_id: Any) -> dict[str, Any]:
    """The artifacts of one flow run, by key."""

    async def read() -> dict[str, Any]:
        async with get_client() as client:
            found = await client.read_artifacts(
                artifact_filter=ArtifactFilter(
                    key=ArtifactFilterKey(any_=keys),
                    flow_run_id=ArtifactFilterFlowRunId(any_=[flow_run_id]),
                )
            )
            return {a.key: a for a in found}

    return asyncio.run(read())


def test_nightly_flow_runs_loads_and_publishes(
    prefect_server: str, env: Settings, tmp_path: Path
) -> None:
    from flows.nightly import NightlyParams, nightly_extract

    log = write_log(tmp_path / "log.jsonl")
    state = nightly_extract(NightlyParams(logs=str(log)), return_state=True)
    assert state.is_completed(), state.message
    report = state.result()
    assert report["counts"]["stored"] > 5 and report["counts"]["quarantined"] == 2
    assert report["decisions"]["reject"] >= 2
    artifacts = _artifacts(
        ["nightly-summary", "nightly-gate-reasons", "nightly-quarantine", "gx-batch-1"],
        state.state_details.flow_run_id,
    )
    assert set(artifacts) == {
        "nightly-summary", "nightly-gate-reasons", "nightly-quarantine", "gx-batch-1"
    }  # fmt: skip
    assert "invalid JSON" in str(artifacts["nightly-quarantine"].data)
    assert "passed" in str(artifacts["gx-batch-1"].data)
    # Default embedder: all-MiniLM-L6-v2, offline.
    engine = sa.create_engine(env.database_url or "", poolclass=sa.NullPool)
    with engine.connect() as conn:
        edge = conn.execute(
            sa.text("SELECT child_id FROM lineage_edges WHERE child_kind = 'embedding' LIMIT 1")
        ).scalar()
    engine.dispose()
    assert edge is not None and "MiniLM" in edge


def test_failed_index_task_fails_the_flow_and_a_rerun_completes_it(
    prefect_server: str, env: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from flows.nightly import NightlyParams, nightly_extract

    log = write_log(tmp_path / "log.jsonl", LOG)
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("LanceDB cannot create a table under a file")
    monkeypatch.setenv("PERMEM_LANCE_URI", str(blocker / "lance"))
    failed = nightly_extract(NightlyParams(logs=str(log)), return_state=True)
    assert failed.is_failed()
    engine = sa.create_engine(env.database_url or "", poolclass=sa.NullPool)
    with engine.connect() as conn:
        committed = conn.execute(sa.text("SELECT count(*) FROM memories")).scalar()
    assert committed  # the first batch was committed before its index task failed
    close_all()
    monkeypatch.delenv("PERMEM_LANCE_URI")
    rerun = nightly_extract(NightlyParams(logs=str(log)), return_state=True)
    assert rerun.is_completed(), rerun.message
    with engine.connect() as conn:
        active = conn.execute(
            sa.text(
                "SELECT count(*) FROM memories WHERE status IN ('active', 'session_only') "
                "AND confirmation <> 'pending'"
            )
        ).scalar()
    engine.dispose()
    state = snapshot(sa.create_engine(env.database_url or "", poolclass=sa.NullPool), env)
    assert len(state["index"]) == active


class KeepsEverything:
    """A redactor that finds nothing (a real implementation of the interface, standing in
    for a redactor that fails silently): the batch validation must catch what it lets by."""

    def analyze(self, text: str, doc: object = None) -> list[object]:
        return []

    def analyze_many(self, texts: list[str]) -> dict[str, list[object]]:
        return {text: [] for text in texts}

    def analyze_contexts(self, contexts: list[tuple[str, str, object]]) -> dict[str, list[object]]:
        return {context: [] for context, _, _ in contexts}

    def analyze_claims(
        self, items: list[tuple[str, str | None, object]]
    ) -> tuple[list[list[object]], dict[str, list[object]]]:
        return [[] for _ in items], {context: [] for _, context, _ in items if context}


def test_claims_failing_validation_are_set_aside_with_the_result_attached(
    prefect_server: str, env: Settings, tmp_path: Path
) -> None:
    from flows.nightly import NightlyParams, nightly_extract
    from permem.runtime import install, runtime

    install(runtime(env).with_parts(redactor=KeepsEverything()))
    state = nightly_extract(NightlyParams(logs=str(write_log(tmp_path / "log.jsonl"))),
                            return_state=True)  # fmt: skip
    assert state.is_completed(), state.message
    assert state.result()["counts"]["set_aside"] == 2  # the e-mail and the phone number
    engine = sa.create_engine(env.database_url or "", poolclass=sa.NullPool)
    with engine.connect() as conn:
        (claim_id,) = conn.execute(
            sa.text("SELECT memory_id FROM gate_decisions WHERE source_message_id = 'm3' "
                    "AND reasons[1] LIKE 'validation:%'")
        ).all()  # fmt: skip
        held = conn.execute(sa.text("SELECT reason FROM quarantine WHERE file = '<validation>'"))
        reasons = list(held.scalars())
        claims = list(conn.execute(sa.text("SELECT claim FROM memories")).scalars())
    engine.dispose()
    assert claim_id == (None,) and len(reasons) == 2 and len(claims) >= 8
    assert not any("ana.lopez@example.com" in claim for claim in claims)
    artifact = _artifacts(["gx-batch-1"], state.state_details.flow_run_id)["gx-batch-1"]
    text = str(artifact.data)
    assert "1 claims set aside, the rest loaded" in text
    assert "expect_column_values_to_not_match_regex_list(claim)" in text
    assert "ana.lopez@example.com" not in text
    (set_aside,) = [r for r in reasons if "message m3" in r]
    claim = set_aside.split(": claim ")[1].split(" ")[0]
    assert f"`{claim}`" in text  # the set-aside claim's id is listed in the artifact
