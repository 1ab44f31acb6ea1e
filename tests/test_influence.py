"""Influence reports in the core: stored beside the recall log, reported by explain's
selection answer, refused for a recall of someone else or an id it did not return, and
removed with the claims they name when those are forgotten."""

from __future__ import annotations

import dataclasses
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest

from permem import forget
from permem.errors import BadInput, Forbidden, NotFound
from permem.explain import explain_claim
from permem.influence import MAX_NOTE, report_influence
from permem.recall import Recaller, parse_query
from permem.runtime import runtime
from permem.settings import Settings
from tests.conftest import sql_rows
from tests.serve_support import fill


def test_a_report_is_stored_explained_and_erased_with_its_claim(
    settings: Settings, tmp_path: Path
) -> None:
    configured = fill(settings, tmp_path / "log.jsonl")
    rt = runtime(configured)
    query = parse_query({
        "query_id": "q", "tenant": "acme", "actor": "ana", "subject": "ana",
        "purpose": "assistant", "scope": "global", "ts": "2026-03-10T12:00:00Z",
        "text": "what should I cook", "k": 10,
    })  # fmt: skip
    answer = Recaller(rt.db, rt.index, rt.embedder).recall(dataclasses.replace(query, via="bot"))
    assert answer.recall_id is not None and answer.records
    logged = sql_rows(configured, f"SELECT via FROM recall_log WHERE id = '{answer.recall_id}'")
    assert logged == [{"via": "bot"}]
    used = answer.records[0].record.id
    now = datetime.now(UTC)
    made = report_influence(
        rt.db, "acme", answer.recall_id, [used, used], actor="ana", via="bot", note="n", now=now
    )
    assert made.used_ids == (used,) and made.reported_by == "ana via bot"
    with pytest.raises(Forbidden):
        report_influence(rt.db, "acme", answer.recall_id, [used], actor="ana", now=now)
    with pytest.raises(BadInput, match="did not return"):
        report_influence(
            rt.db, "acme", answer.recall_id, [uuid.uuid4()], actor="ana", via="bot", now=now
        )
    with pytest.raises(BadInput, match=f"at most {MAX_NOTE}"):
        report_influence(
            rt.db, "acme", answer.recall_id, [], actor="ana", via="bot", note="x" * 501, now=now
        )
    with pytest.raises(NotFound):
        report_influence(rt.db, "globex", answer.recall_id, [], actor="ana", now=now)
    selection = explain_claim(rt.db, "acme", used, now=now)["answers"]["selection"]
    assert selection["times_influenced"] == 1 and "reported used by 1" in selection["summary"]
    forget.block(rt.db, "acme", forget.Target.of(subject=None, source=None, claim=str(used)),
                 actor="ana", now=now)  # fmt: skip
    forget.erase(rt.db, rt.index, "acme", now=now)
    assert sql_rows(configured, "SELECT * FROM recall_influence") == []
    assert forget.verify(rt.db, rt.index, "acme", now=now).residue == []
