"""Recall: filter before rank, authorization, attribution, the authoritative re-check.

Real PostgreSQL, LanceDB, spaCy and Presidio: the memories come from the nightly pipeline
over a small hand-written log.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sqlalchemy as sa

from permem import controls, grants, nightly, recall
from permem.embedding import HashingEmbedder, TextVectors
from permem.recall import (
    OWN_MEMORY,
    Access,
    Recaller,
    above_floor,
    column_exclusion,
    exclusion,
    is_factual_question,
    parse_query,
    relevance_floor,
)
from permem.recall_asof import status_as_of
from permem.records import Kind, Status
from permem.runtime import runtime
from permem.settings import Settings
from permem.stores.database import tenant_transaction
from permem.stores.memories import record_from_row, set_status
from permem.stores.schema import erasure_ledger, memories, recall_log

T = "acme"
NOW = datetime(2026, 3, 20, 12, 0, tzinfo=UTC)


def line(mid: str, account: str, text: str, day: int, **extra: Any) -> str:
    return json.dumps({
        "message_id": mid, "tenant": extra.pop("tenant", T), "account": account,
        "conversation_id": f"c-{account}", "turn": int(mid.split("-")[-1]), "role": "user",
        "text": text, "ts": f"2026-03-{day:02d}T10:00:00Z", **extra,
    })  # fmt: skip


LOG = [
    line("ana-1", "ana", "I'm vegetarian and I love spicy food", 1),
    line("ana-2", "ana", "I only book morning flights", 1),
    line("ana-3", "ana", "I'm allergic to peanuts", 1),
    line(
        "ana-4",
        "ana",
        "the launch deck uses the dark theme with teal accents",
        2,
        scope="project:launch",
    ),  # fmt: skip
    line("ana-5", "ana", "I'm at my sister's in Porto until March 10, so suggest places there", 2),
    line("ana-6", "ana", "I'm a month behind on rent", 3, purpose="budget_coach"),
    line("ana-7", "ana", "I'm going to start a pottery course next year", 3),
    line("ben-1", "ben", "I'm vegetarian too and I love mild food", 1),
    line("ben-2", "ben", "please answer in metric units", 1, session="tablet-1"),
    line("ana-8", "ana", "please answer in imperial units", 1, session="tablet-1"),
    line("oth-1", "ana", "I love vegetarian ramen", 1, tenant="globex"),
    line("ana-9", "ana", "I run a small bakery in the old town", 4),
]


@pytest.fixture
def loaded(settings: Settings, tmp_path: Path) -> Settings:
    configured = settings.model_copy(update={"embedder": "hashing"})
    log = tmp_path / "log.jsonl"
    log.write_text("\n".join(LOG) + "\n")
    nightly.run(configured, log)
    return configured


def ask(settings: Settings, text: str, **fields: Any) -> Any:
    rt = runtime(settings)
    query = {
        "query_id": "q", "tenant": T, "actor": "ana", "subject": "ana", "purpose": "assistant",
        "scope": "global", "ts": NOW.isoformat(), "text": text, "k": 10, **fields,
    }  # fmt: skip
    return Recaller(rt.db, rt.index, rt.embedder).recall(parse_query(query))


def claims(answer: Any) -> set[str]:
    return {r.record.claim for r in answer.records}


def sources(answer: Any) -> set[str]:
    return {r.record.source.message_id for r in answer.records}


def test_own_live_claims_come_back_with_provenance(loaded: Settings) -> None:
    # k=2 of ana's five live claims: ranking has to pick the two the query is about.
    answer = ask(loaded, "vegetarian spicy food for dinner", k=2)
    assert answer.denied is None
    assert claims(answer) == {"I love spicy food", "I'm vegetarian"}
    first = answer.records[0].as_json()
    assert set(first) >= {"id", "claim", "origin", "source", "score", "valid_from"}
    assert first["source"]["message_id"].startswith("ana-")
    # Never another subject's or another tenant's claim, however similar.
    assert not any(s.startswith(("ben-", "oth-")) for s in sources(answer))
    scores = [r.score for r in answer.records]
    assert scores == sorted(scores, reverse=True)


def test_pending_claims_are_not_used_until_confirmed(loaded: Settings) -> None:
    assert "ana-3" not in sources(ask(loaded, "any snacks with nuts?"))
    rt = runtime(loaded)
    with tenant_transaction(rt.db.app, T) as conn:
        peanut = conn.execute(
            sa.select(memories.c.id).where(memories.c.source_message_id == "ana-3")
        ).scalar_one()
    controls.confirm(rt.db, T, peanut, actor="ana")
    assert "ana-3" in sources(ask(loaded, "any snacks with nuts?"))


# k=1, below the five or more claims that pass each filter; the text names `target`, so a
# recall that ranked first and filtered after would take `target` first and, when the filter
# refuses it, return nothing instead of the best claim that passes.
@pytest.mark.parametrize(
    ("fields", "text", "target", "served"),
    [
        ({"scope": "project:launch"}, "the launch deck theme", "ana-4", True),
        ({"scope": "project:other"}, "the launch deck theme", "ana-4", False),
        ({}, "the launch deck theme", "ana-4", False),
        ({"purpose": "budget_coach"}, "behind on rent", "ana-6", True),
        ({}, "behind on rent", "ana-6", False),
        # budget_coach may also use the assistant's claims.
        ({"purpose": "budget_coach"}, "morning flights", "ana-2", True),
        ({"ts": "2026-03-05T12:00:00Z"}, "my sister in Porto", "ana-5", True),
        ({"ts": "2026-03-12T12:00:00Z"}, "my sister in Porto", "ana-5", False),
    ],
)
def test_scope_purpose_and_validity_filter_before_ranking(
    loaded: Settings, fields: dict[str, Any], text: str, target: str, served: bool
) -> None:
    answer = ask(loaded, text, k=1, **fields)
    assert len(answer.records) == 1
    assert (sources(answer) == {target}) is served


def test_a_purpose_no_claim_serves_gets_nothing(loaded: Settings) -> None:
    answer = ask(loaded, "behind on rent", purpose="marketing")
    assert answer.records == [] and answer.denied is None
    # The six claims the checks before purpose let through are refused there.
    assert answer.filtered_out["purpose"] == 6


def test_a_plan_is_not_a_current_fact(loaded: Settings) -> None:
    assert "ana-7" not in sources(ask(loaded, "what hobbies do I have?"))
    later = ask(loaded, "what hobbies do I have?", ts="2027-02-01T12:00:00Z")
    assert "ana-7" in sources(later)


def test_actor_needs_a_valid_grant(loaded: Settings) -> None:
    rt = runtime(loaded)
    denied = ask(loaded, "what does ana eat?", actor="ben")
    assert denied.records == [] and "holds no valid grant" in (denied.denied or "")
    made = grants.grant(
        rt.db, T, actor="ben", subject="ana", purpose="assistant",
        expires_at=datetime(2099, 1, 1, tzinfo=UTC), granted_by="ana",
        now=NOW - timedelta(hours=1),
    )  # fmt: skip
    assert ask(loaded, "what does ana eat?", actor="ben").records
    # Another purpose; a request dated before the grant was made: denied.
    assert ask(loaded, "what does ana eat?", actor="ben", purpose="travel").denied
    before = (NOW - timedelta(days=2)).isoformat()
    assert ask(loaded, "what does ana eat?", actor="ben", ts=before).denied
    # A grant that has expired by now is no use, even to a request dated before its expiry.
    grants.grant(
        rt.db, T, actor="cy", subject="ana", purpose="assistant",
        expires_at=NOW + timedelta(days=1), granted_by="ana", now=NOW - timedelta(hours=1),
    )  # fmt: skip
    assert ask(loaded, "what does ana eat?", actor="cy").denied
    # Revoked now: a request dated before the revocation is denied too.
    grants.revoke(rt.db, T, made.id, revoked_by="ana", now=datetime.now(UTC))
    assert ask(loaded, "what does ana eat?", actor="ben").denied
    with tenant_transaction(rt.db.app, T) as conn:
        events = conn.execute(sa.text("SELECT event, by FROM grant_events ORDER BY at")).all()
    assert [tuple(e) for e in events] == [
        ("granted", "ana"),
        ("granted", "ana"),
        ("revoked", "ana"),
    ]


def test_shared_device_accounts_see_only_their_own(loaded: Settings) -> None:
    ana = sources(ask(loaded, "which units?"))
    ben = sources(ask(loaded, "which units?", actor="ben", subject="ben"))
    assert "ana-8" in ana and "ben-2" not in ana
    assert "ben-2" in ben and "ana-8" not in ben


def test_paused_subject_gets_nothing_and_resume_restores(loaded: Settings) -> None:
    rt = runtime(loaded)
    controls.set_paused(rt.db, T, "ana", paused=True, actor="ana", now=NOW)
    paused = ask(loaded, "what should I cook?")
    assert paused.records == [] and paused.filtered_out["subject_paused"] > 0
    controls.set_paused(rt.db, T, "ana", paused=False, actor="ana", now=NOW)
    assert ask(loaded, "what should I cook?").records


def test_authoritative_recheck_drops_a_claim_blocked_after_indexing(loaded: Settings) -> None:
    rt = runtime(loaded)
    before = ask(loaded, "book me a flight")
    target = next(r.record for r in before.records if r.record.source.message_id == "ana-2")
    assert str(target.id) in rt.index.ids(T)  # the index still holds it, as active
    with tenant_transaction(rt.db.app, T) as conn:
        set_status(conn, target.id, Status.BLOCKED, actor="ana", reason="forget")
    after = ask(loaded, "book me a flight")
    assert target.id not in {r.record.id for r in after.records}
    assert str(target.id) in rt.index.ids(T)
    # An erasure-ledger entry alone is enough to keep a claim out.
    other = next(r.record for r in after.records)
    with tenant_transaction(rt.db.app, T) as conn:
        conn.execute(sa.insert(erasure_ledger).values(
            tenant=T, request_id=other.id, target_kind="claim", target_id=str(other.id),
            node_kind="memory", node_id=str(other.id), state="blocked", requested_by="ana",
        ))  # fmt: skip
    assert other.id not in {r.record.id for r in ask(loaded, "book me a flight").records}


def test_unindexed_claims_are_ranked_too(loaded: Settings) -> None:
    """A claim committed after the last index run is still found (and filtered) by recall."""
    rt = runtime(loaded)
    rt.index.erase([str(i) for i in rt.index.ids(T)])
    assert rt.index.ids(T) == set()
    assert "ana-2" in sources(ask(loaded, "book me a flight"))


def test_recall_log_holds_ids_and_counts_never_text(loaded: Settings, owner: sa.Engine) -> None:
    answer = ask(loaded, "a very particular query about morning flights")
    denied = ask(loaded, "a very particular query about morning flights", actor="mallory")
    assert denied.denied
    with owner.connect() as conn:
        logged = conn.execute(sa.select(recall_log).order_by(recall_log.c.at)).mappings().all()
    assert [r["returned_ids"] for r in logged][-2:] == [
        [r.record.id for r in answer.records],
        [],
    ]
    assert logged[-1]["denied"] and logged[-2]["filtered_out"]
    flat = json.dumps([dict(r) for r in logged], default=str)
    assert "particular query" not in flat and "morning flights" not in flat


def test_factual_questions_get_no_biography(loaded: Settings) -> None:
    assert "ana-9" in sources(ask(loaded, "ideas for my bakery"))
    answer = ask(loaded, "is bread from a bakery safe to eat?")
    assert all(r.record.kind.value not in ("fact", "event", "plan") for r in answer.records)
    assert answer.filtered_out["factual_question"] >= 1


def test_the_current_request_wins_for_this_action_only(loaded: Settings) -> None:
    answer = ask(loaded, "just this once I want a steak instead of vegetarian food")
    flagged = [r for r in answer.records if r.conflicts_with_request]
    assert any("vegetarian" in r.record.claim for r in flagged)
    # The memory itself is unchanged.
    again = ask(loaded, "what should I cook?")
    assert any("vegetarian" in r.record.claim for r in again.records)
    assert not any(r.conflicts_with_request for r in again.records)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("ts", "tomorrow", "not an RFC 3339"),
        ("k", 0, "field k must be"),
        ("scope", "team", "field scope"),
        ("actor", "", "field actor"),
        # The log's rules: nothing PostgreSQL cannot hold reaches the query's transaction.
        ("tenant", "ac\x00me", "field tenant holds U\\+0000"),
        ("text", "x\ud800", "field text holds a lone UTF-16 surrogate"),
        ("subject", " ana", "field subject must not have leading"),
        ("actor", "a\u200bb", "field actor holds control or format character"),
        ("ts", "0001-01-01T00:00:00+14:00", "field ts is not a valid date"),
        ("ts", "2200-01-01T00:00:00Z", "field ts is outside"),
    ],
)
def test_invalid_queries_are_refused_with_a_reason(field: str, value: Any, message: str) -> None:
    query = {
        "query_id": "q", "tenant": T, "actor": "a", "subject": "a", "purpose": "assistant",
        "scope": "global", "ts": NOW.isoformat(), "text": "x", field: value,
    }  # fmt: skip
    with pytest.raises(ValueError, match=message):
        parse_query(query)


def test_recall_cli_answers_in_order_with_errors_inline(loaded: Settings, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from interfaces.cli import app

    queries = tmp_path / "queries.jsonl"
    base = {
        "tenant": T, "actor": "ana", "subject": "ana", "purpose": "assistant",
        "scope": "global", "ts": NOW.isoformat(), "text": "book me a flight", "k": 3,
    }  # fmt: skip
    queries.write_text("\n".join([
        json.dumps({**base, "query_id": "one"}),
        json.dumps({**base, "query_id": "two", "ts": "soon"}),
        "{not json",
        json.dumps({**base, "query_id": "four", "actor": "ben"}),
        json.dumps({**base, "query_id": "five", "tenant": "ac\x00me"}),
        json.dumps({**base, "query_id": "six"}),
    ]) + "\n")  # fmt: skip
    env = {"PERMEM_DATABASE_URL": loaded.database_url or "", "PERMEM_HOME": str(loaded.home),
           "PERMEM_EMBEDDER": "hashing"}  # fmt: skip
    result = CliRunner(env=env).invoke(app, ["recall", "--queries", str(queries), "--json"])
    assert result.exit_code == 0, result.stderr
    answers = [json.loads(x) for x in result.stdout.splitlines()]
    assert [a["query_id"] for a in answers] == ["one", "two", "line 3", "four", "five", "six"]
    assert answers[0]["records"] and answers[0]["denied"] is None
    assert "error" in answers[1] and "error" in answers[2]
    assert answers[3]["records"] == [] and answers[3]["denied"]
    # A NUL in a tenant is one query's error, not the end of the command.
    assert "U+0000" in answers[4]["error"]
    assert answers[5]["records"] == answers[0]["records"]


@pytest.mark.parametrize(
    ("text", "subject", "factual"),
    [
        ("Is MSG bad for you?", "ana", True),
        ("How tall is the Great Wall?", "ana", True),
        ("Is my flight on time?", "ana", False),  # about the user
        ("When did Caroline go to the support group?", "lc-26-caroline", False),  # by name
        ("When did Melanie paint a sunrise?", "lc-26-caroline", True),  # someone else
        ("Can you recommend a hotel in Lisbon?", "ana", False),  # a request, not a question
        ("Could you suggest a recipe?", "ana", False),
        ("Book me a table for two", "ana", False),
    ],
)
def test_factual_question_rule(text: str, subject: str, factual: bool) -> None:
    assert is_factual_question(text, subject) is factual


# The checks PostgreSQL makes (`column_exclusion`) give the reason `exclusion` gives, for every
# claim and every kind of request: the log's counts do not depend on where a check runs.
@pytest.mark.parametrize(
    ("fields", "access"),
    [
        ({}, OWN_MEMORY),
        ({"session": "tablet-1"}, OWN_MEMORY),
        ({"session": "tablet-2", "scope": "project:launch"}, OWN_MEMORY),
        ({"purpose": "budget_coach", "ts": "2026-03-05T12:00:00Z"}, OWN_MEMORY),
        ({"purpose": "marketing", "ts": "2026-02-01T12:00:00Z"}, OWN_MEMORY),
        ({"scope": "project:launch"}, Access(frozenset({"global"}))),
        ({"scope": "project:launch"}, Access(frozenset({"project:launch"}))),
        ({"scope": "project:launch"}, Access(frozenset({"*"}))),
        ({"scope": "project:launch"}, Access(frozenset())),
    ],
)
def test_the_sql_filter_gives_the_reasons_exclusion_gives(
    loaded: Settings, fields: dict[str, Any], access: Access
) -> None:
    rt = runtime(loaded)
    query = parse_query({
        "query_id": "q", "tenant": T, "actor": "ana", "subject": "ana", "purpose": "assistant",
        "scope": "global", "ts": NOW.isoformat(), "text": "anything", **fields,
    })  # fmt: skip
    with tenant_transaction(rt.db.app, T) as conn:
        flight = conn.execute(
            sa.select(memories.c.id).where(memories.c.source_message_id == "ana-2")
        ).scalar_one()
        set_status(conn, flight, Status.PAUSED, actor="ana", reason="test")
        reason = column_exclusion(query, access)
        status = status_as_of(query.ts).label("status_as_of")
        rows = list(
            conn.execute(
                sa.select(memories, status, reason.label("sql_reason")).where(
                    memories.c.subject == "ana"
                )
            ).mappings()
        )
    seen = set()
    for row in rows:
        # Each claim as it stood at the request's time (`recall_asof`), as recall reads it.
        record = dataclasses.replace(record_from_row(row), status=Status(row["status_as_of"]))
        python = exclusion(record, query, False, access)
        seen.add(python)
        if row["sql_reason"] is not None:
            assert row["sql_reason"] == python, record.claim
        else:  # left to Python: it passes the column checks, or is an open-ended plan
            assert python not in COLUMN_REASONS or (
                record.kind is Kind.PLAN and record.valid_until is None
            ), record.claim
    assert len(seen) > 1  # the cases differ: something is filtered in each


COLUMN_REASONS = {
    "other_session", "confirmation_pending", "confirmation_rejected", "not_yet_valid",
    "expired", "scope", "grant_scope", "purpose", *(f"status_{s.value}" for s in Status),
}  # fmt: skip


def test_a_request_nothing_in_memory_speaks_to_gets_no_records(loaded: Settings) -> None:
    floors = {runtime(loaded).embedder.name: 0.15}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(recall, "RELEVANCE_FLOORS", floors)
        answer = ask(loaded, "quantum chromodynamics lattice gauge theory")
        assert answer.records == [] and answer.denied is None
        assert answer.filtered_out["below_relevance_floor"] > 0
        # A request memory speaks to is still answered under the same floor.
        assert "ana-1" in sources(ask(loaded, "vegetarian spicy food for dinner"))


def test_the_floor_keeps_what_reaches_it_in_order() -> None:
    scored = [("a", 0.9), ("b", 0.31), ("c", 0.3), ("d", -0.2)]
    assert above_floor(scored, 0.3) == ([("a", 0.9), ("b", 0.31), ("c", 0.3)], 1)
    assert above_floor(scored, None) == (scored, 0)
    assert above_floor([], 0.5) == ([], 0)
    assert relevance_floor("no-such-embedder") is None


def test_query_vectors_are_cached_per_embedder_and_bounded() -> None:
    calls: list[str] = []

    class Counting(HashingEmbedder):
        def embed(self, texts: Sequence[str]) -> Any:
            calls.extend(texts)
            return super().embed(texts)

    cache, one, other = TextVectors(size=2), Counting(64), Counting(128)
    first = cache.vector(one, "vegan dinner")
    assert np.array_equal(cache.vector(one, "vegan dinner"), first) and calls == ["vegan dinner"]
    assert cache.vector(other, "vegan dinner").shape == (128,)  # another name, another key
    cache.vector(one, "morning flights")  # the oldest entry goes
    assert len(cache) == 2
    cache.vector(one, "vegan dinner")
    assert calls == ["vegan dinner", "vegan dinner", "morning flights", "vegan dinner"]
