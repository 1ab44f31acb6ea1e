"""Explain: the eight answers for one claim, read from the real system of record, changing nothing.

Real PostgreSQL throughout; the selection and derivative answers are checked after a real recall
(`Recaller` over LanceDB in `tmp_path` with the hashing embedder), a real index run and a real
export.
"""

from __future__ import annotations

import shlex
import uuid
from collections.abc import Iterator
from dataclasses import astuple, dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from lineage import NodeKind
from permem.embedding import HashingEmbedder
from permem.errors import BadInput, NotFound
from permem.explain import ANSWER_KEYS, MEASUREMENTS, TEST_MAP, explain_claim
from permem.export import export_subject
from permem.grants import grant, revoke
from permem.indexing import embedding_node, enqueue, index_pending, index_row_node
from permem.recall import Recaller, RecallQuery
from permem.records import Confirmation, Kind, Sensitivity, Status, UserMemory
from permem.settings import Settings
from permem.stores import migrate
from permem.stores.database import Database, open_database, register_tenant, tenant_transaction
from permem.stores.memories import append_correction, append_memories, set_status
from permem.stores.schema import (
    erasure_ledger,
    exports,
    gate_decisions,
    grants,
    index_queue,
    legal_holds,
    lineage_edges,
    memories,
    memory_events,
    recall_log,
    subject_settings,
)
from permem.stores.sources import append_sources
from permem.stores.vectors import VectorIndex
from tests.conftest import T0, DatabaseFactory, memory, message

TENANT, OTHER = "acme", "globex"
NOW = T0 + timedelta(days=30)
REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Stored:
    diet: uuid.UUID  # exclusive topic, gated from m1, under a legal hold
    hobby: uuid.UUID  # non-exclusive topic
    trip: uuid.UUID  # valid T0+1d .. T0+10d
    old: uuid.UUID  # superseded by `new`
    new: uuid.UUID  # the correction: no source message
    paused: uuid.UUID  # this one claim paused
    pending: uuid.UUID  # awaiting confirmation
    redacted: uuid.UUID  # holds a placeholder, gated `redact`
    budget: uuid.UUID  # purpose budget_coach, scope project:launch
    session: uuid.UUID  # session_only
    mother: uuid.UUID  # a third party: alice:mother
    twin: uuid.UUID  # alice's claim in another tenant


def _gate(conn: Any, record: UserMemory, decision: str, reasons: list[str]) -> None:
    span = record.source.span or (0, 0)
    conn.execute(
        sa.insert(gate_decisions).values(
            tenant=record.tenant, source_message_id=record.source.message_id,
            span_start=span[0], span_end=span[1], subject=record.subject,
            kind=record.kind.value, candidate_hash=f"h-{record.id}", decision=decision,
            reasons=reasons, policy_version="gate-test", memory_id=record.id,
        )
    )  # fmt: skip


def store(db: Database) -> Stored:
    """The records, sources, gate decisions, holds and grants every test explains."""
    day = timedelta(days=1)
    diet = memory(TENANT, "m1", claim="is vegetarian", kind=Kind.PREFERENCE, topic="diet",
                  sensitivity=Sensitivity.NONE)  # fmt: skip
    hobby = memory(TENANT, "m2", claim="plays chess", kind=Kind.FACT, topic="hobby")
    trip = memory(TENANT, "m3", claim="is in Porto", valid_from=T0 + day, valid_until=T0 + 10 * day)
    old = memory(TENANT, "m4", claim="uses metric units", topic="units")
    paused = memory(TENANT, "m5", claim="likes jazz")
    pending = memory(TENANT, "m6", claim="has asthma", confirmation=Confirmation.PENDING)
    redacted = memory(TENANT, "m7", claim="can be reached at <PHONE_NUMBER>")
    budget = memory(TENANT, "m8", claim="saves for a car", purpose="budget_coach",
                    scope="project:launch")  # fmt: skip
    session = memory(TENANT, "m9", claim="wants steak tonight", status=Status.SESSION_ONLY,
                     session="s1")  # fmt: skip
    mother = memory(TENANT, "mm", subject="alice:mother", claim="is diabetic")
    messages = [message(TENANT, f"m{i}", turn=i) for i in range(1, 10)]
    messages.append(message(TENANT, "mm", turn=10))
    with tenant_transaction(db.app, TENANT) as conn:
        register_tenant(conn, TENANT)
        append_sources(conn, messages)
        records = [diet, hobby, trip, old, paused, pending, redacted, budget, session, mother]
        append_memories(conn, records)
        enqueue(conn, records)
        _gate(conn, diet, "accept", ["accepted"])
        _gate(conn, redacted, "redact", ["direct_identifier_redacted"])
        conn.execute(sa.insert(legal_holds).values(
            tenant=TENANT, memory_id=diet.id, reason="litigation", placed_by="legal",
            placed_at=T0,
        ))  # fmt: skip
        conn.execute(sa.insert(legal_holds).values(
            tenant=TENANT, memory_id=hobby.id, reason="over", placed_by="legal",
            placed_at=T0, released_at=T0 + day, released_by="legal",
        ))  # fmt: skip
    with tenant_transaction(db.app, TENANT) as conn:
        new = append_correction(
            conn,
            memory(TENANT, None, claim="uses imperial units", topic="units", supersedes=old.id,
                   confirmation=Confirmation.CONFIRMED, observed_at=T0 + day,
                   valid_from=T0 + day),
            actor="alice",
        )  # fmt: skip
        set_status(conn, paused.id, Status.PAUSED, actor="alice", reason="not now")
    # Grants over alice: one active that covers assistant claims, one active for a purpose
    # that may not use them, one revoked, one expired, one not yet begun.
    for actor, purpose, expires, granted in (
        # Recall judges a grant at the later of the query's ts and the database clock, so an
        # active grant must outlast the real date the suite runs on, not just NOW.
        ("bob", "assistant", NOW + 3650 * day, T0),
        ("erin", "marketing", NOW + 3650 * day, T0),
        ("carol", "assistant", NOW + day, T0),
        ("dave", "assistant", T0 + 2 * day, T0),
        ("frank", "assistant", NOW + 5 * day, NOW + day),
    ):
        made = grant(db, TENANT, actor=actor, subject="alice", purpose=purpose,
                     expires_at=expires, granted_by="alice", now=granted)  # fmt: skip
        if actor == "carol":
            revoke(db, TENANT, made.id, revoked_by="alice", now=T0 + day)
    twin = memory(OTHER, "m1", claim="globex alice claim")
    with tenant_transaction(db.app, OTHER) as conn:
        register_tenant(conn, OTHER)
        append_sources(conn, [message(OTHER, "m1")])
        append_memories(conn, [twin])
    return Stored(
        diet=diet.id, hobby=hobby.id, trip=trip.id, old=old.id, new=new.id, paused=paused.id,
        pending=pending.id, redacted=redacted.id, budget=budget.id, session=session.id,
        mother=mother.id, twin=twin.id,
    )  # fmt: skip


@pytest.fixture
def stored(db: Database) -> Stored:
    """The records in this test's own database, for tests that change something first."""
    return store(db)


def explain(
    db: Database, claim: uuid.UUID, tenant: str = TENANT, now: datetime = NOW
) -> dict[str, Any]:
    return explain_claim(db, tenant, claim, now=now)


def answer(db: Database, claim: uuid.UUID, key: str, now: datetime = NOW) -> dict[str, Any]:
    found: dict[str, Any] = explain(db, claim, now=now)["answers"][key]
    return found


def vector_index(tmp_path: Path) -> tuple[VectorIndex, HashingEmbedder]:
    embedder = HashingEmbedder()
    index = VectorIndex(str(tmp_path / "lance"), embedder.dimension, embedder=embedder.name)
    return index, embedder


def ask(
    recaller: Recaller, query_id: str, actor: str, purpose: str = "assistant"
) -> list[uuid.UUID]:
    """The ids a real recall for alice returns (and logs)."""
    query = RecallQuery(
        query_id=query_id, tenant=TENANT, actor=actor, subject="alice", purpose=purpose,
        scope="global", ts=NOW, text="what should I cook, I am vegetarian", k=10,
    )  # fmt: skip
    return [r.record.id for r in recaller.recall(query).records]


def pause(db: Database, subject: str) -> None:
    with tenant_transaction(db.app, TENANT) as conn:
        conn.execute(
            sa.insert(subject_settings).values(
                tenant=TENANT, subject=subject, paused=True, updated_by=subject
            )
        )


class TestOnSharedRecords:
    """Explaining changes nothing (`test_explaining_changes_nothing`), so these tests share one
    database, built once for the class."""

    @pytest.fixture(scope="class")
    @classmethod
    def db(
        cls, database_factory: DatabaseFactory, tmp_path_factory: pytest.TempPathFactory
    ) -> Iterator[Database]:
        with database_factory() as url:
            db = open_database(Settings(database_url=url, home=tmp_path_factory.mktemp("home")))
            try:
                migrate.upgrade(db)
                yield db
            finally:
                db.dispose()

    @pytest.fixture(scope="class")
    @classmethod
    def stored(cls, db: Database) -> Stored:
        return store(db)

    # 0. The shape: eight answers, each with facts and a summary.

    def test_every_claim_gets_the_eight_answers_each_with_a_summary(
        self, db: Database, stored: Stored
    ) -> None:
        for claim in (stored.diet, stored.new, stored.pending, stored.mother, stored.session):
            explained = explain(db, claim)
            assert explained["claim"]["id"] == str(claim)
            assert tuple(explained["answers"]) == ANSWER_KEYS and len(ANSWER_KEYS) == 8
            for key, facts in explained["answers"].items():
                assert isinstance(facts["summary"], str) and facts["summary"].strip(), key
                assert len(facts) > 1, f"{key} holds only a summary"
        claim = explain(db, stored.diet)["claim"]
        assert (claim["claim"], claim["status"], claim["subject"]) == (
            "is vegetarian",
            "active",
            "alice",
        )

    # 1. Subject and actors.

    def test_actors_are_the_subject_and_holders_of_active_covering_grants(
        self, db: Database, stored: Stored
    ) -> None:
        facts = answer(db, stored.diet, "subject_and_actors")
        assert (facts["subject"], facts["account"], facts["third_party"]) == (
            "alice",
            "alice",
            False,
        )
        assert [m["actor"] for m in facts["may_use"]] == ["alice"]
        by_actor = {g["actor"]: g for g in facts["grants"]}
        assert {a: g["state"] for a, g in by_actor.items()} == {
            "bob": "active",
            "erin": "active",
            "carol": "revoked",
            "dave": "expired",
            "frank": "not_yet_granted",
        }
        assert by_actor["carol"]["revoked"] is True and by_actor["bob"]["revoked"] is False
        assert by_actor["erin"]["covers_this_claim"] is False  # marketing may not use assistant
        assert {a for a, g in by_actor.items() if g["allows_use_now"]} == {"bob"}
        summary = facts["summary"]
        assert "bob (assistant)" in summary
        for absent in ("carol", "dave", "frank", "erin"):
            assert absent not in summary, absent

    def test_a_third_party_claim_names_the_account_holder(
        self, db: Database, stored: Stored
    ) -> None:
        facts = answer(db, stored.mother, "subject_and_actors")
        assert facts["subject"] == "alice:mother" and facts["third_party"] is True
        assert [m["actor"] for m in facts["may_use"]] == ["alice:mother", "alice"]
        assert facts["grants"] == []  # grants over alice do not reach alice:mother
        assert "bob" not in facts["summary"]

    # 2. Source and origin.

    def test_a_message_claim_names_its_message_span_role_and_gate_decision(
        self, db: Database, stored: Stored
    ) -> None:
        facts = answer(db, stored.diet, "source_and_origin")
        source = facts["source"]
        assert (source["message_id"], source["span"], source["role"]) == ("m1", [0, 23], "user")
        assert (source["conversation_id"], source["turn"], source["ts"]) == (
            "c1",
            1,
            T0.isoformat(),
        )
        assert "text" not in source  # permem never stores message text
        assert facts["origin"] == "user_fact" and facts["provenance"] == "provided"
        assert facts["origin_meaning"].startswith("user-provided")
        assert facts["gate"]["decision"] == "accept" and facts["gate"]["reasons"] == ["accepted"]
        assert "message m1 (user), span [0, 23]" in facts["summary"]
        assert "gate: accept (accepted; gate-test)" in facts["summary"]

    def test_a_correction_says_it_came_from_a_control_and_passed_no_gate(
        self, db: Database, stored: Stored
    ) -> None:
        facts = answer(db, stored.new, "source_and_origin")
        assert facts["source"]["message_id"] is None and facts["source"]["span"] is None
        assert "control" in facts["source"]["entered_through"]
        assert facts["gate"] is None
        assert "a correction entered through a control" in facts["summary"]
        assert "no write-gate decision" in facts["summary"]
        hobby = answer(db, stored.hobby, "source_and_origin")  # from a message, no gate row
        assert hobby["source"]["message_id"] == "m2" and hobby["gate"] is None
        assert "no write-gate decision" in hobby["summary"]

    # 3. Purpose and scope.

    def test_purpose_lists_the_request_purposes_that_may_use_the_claim(
        self, db: Database, stored: Stored
    ) -> None:
        facts = answer(db, stored.diet, "purpose_and_scope")
        assert facts["purpose"] == "assistant" and facts["purpose_declared"] is True
        assert facts["usable_by_request_purposes"] == [
            "assistant",
            "budget_coach",
            "health_coach",
            "travel",
        ]
        assert facts["scope"] == "global" and facts["scope_meaning"].startswith("global")
        budget = answer(db, stored.budget, "purpose_and_scope")
        assert budget["usable_by_request_purposes"] == ["budget_coach"]
        assert budget["scope"] == "project:launch"
        assert "only in requests scoped to project:launch" in budget["summary"]

    # 4. Currency.

    def test_validity_window_decides_whether_the_claim_is_current(
        self, db: Database, stored: Stored
    ) -> None:
        day = timedelta(days=1)
        before = answer(db, stored.trip, "currency", now=T0)
        during = answer(db, stored.trip, "currency", now=T0 + 5 * day)
        after = answer(db, stored.trip, "currency", now=T0 + 10 * day)
        assert during["valid_from"] == (T0 + day).isoformat()
        assert during["valid_until"] == (T0 + 10 * day).isoformat()
        assert during["as_of"] == (T0 + 5 * day).isoformat()
        assert (before["usable_now"], during["usable_now"], after["usable_now"]) == (
            False,
            True,
            False,
        )
        assert before["not_usable_because"] == ["not valid yet"]
        assert after["not_usable_because"] == ["validity ended"]  # the end is exclusive
        assert "expires at" in during["expiry"] and "ended" in after["expiry"]
        assert "usable now" in during["summary"] and "not usable now" in after["summary"]

    def test_an_exclusive_topic_is_replaced_by_a_newer_statement_others_only_by_correction(
        self, db: Database, stored: Stored
    ) -> None:
        diet = answer(db, stored.diet, "currency")
        assert diet["topic"] == "diet" and diet["exclusive_topic"] is True
        assert "newer standing statement on topic diet" in diet["would_be_superseded_by"]
        assert diet["expiry"].startswith("no end date")
        hobby = answer(db, stored.hobby, "currency")
        assert hobby["exclusive_topic"] is False
        assert "not exclusive" in hobby["would_be_superseded_by"]
        assert "newer standing statement" not in hobby["would_be_superseded_by"]

    def test_superseded_and_correction_point_at_each_other(
        self, db: Database, stored: Stored
    ) -> None:
        old = answer(db, stored.old, "currency")
        new = answer(db, stored.new, "currency")
        assert old["status"] == "superseded" and old["usable_now"] is False
        assert old["superseded_by"] == [str(stored.new)]
        assert "already superseded" in old["would_be_superseded_by"]
        assert "status superseded" in old["summary"]
        assert new["supersedes"] == str(stored.old) and new["superseded_by"] == []
        assert new["usable_now"] is True and new["confirmation"] == "confirmed"

    def test_paused_pending_and_session_claims_say_why_they_are_not_freely_usable(
        self, db: Database, stored: Stored
    ) -> None:
        paused = answer(db, stored.paused, "currency")
        assert paused["status"] == "paused" and paused["usable_now"] is False
        assert paused["not_usable_because"] == ["status paused, confirmation unconfirmed"]
        assert "only an active claim is superseded" in paused["would_be_superseded_by"]
        pending = answer(db, stored.pending, "currency")
        assert pending["confirmation"] == "pending" and pending["usable_now"] is False
        assert "confirmation pending" in pending["summary"]
        session = answer(db, stored.session, "currency")
        assert session["usable_now"] is True and "session s1 only" in session["summary"]
        assert "ends with its session (s1)" in session["expiry"]

    # 6. Controls (5, selection, needs a recall: below).

    def test_controls_name_the_tenant_and_the_claim(self, db: Database, stored: Stored) -> None:
        facts = answer(db, stored.diet, "controls")
        controls = {k: v for k, v in facts.items() if k != "summary"}
        for name, control in controls.items():
            argv = shlex.split(control["command"])
            assert argv[0] == "permem", name
            assert argv[argv.index("--tenant") + 1] == TENANT, name
            if "--claim" in argv:
                assert argv[argv.index("--claim") + 1] == str(stored.diet), name
            elif "--subject" in argv:
                assert argv[argv.index("--subject") + 1] == "alice", name
            else:
                assert argv[argv.index("--source") + 1] == "m1", name
        for name in ("correct", "confirm", "reject", "forget_claim", "feedback"):
            assert "--claim" in shlex.split(controls[name]["command"]), name
        available = {k for k, v in controls.items() if v["available"]}
        assert available == set(controls) - {"resume"}
        assert facts["summary"].startswith("Available now: inspect, correct")

    def test_controls_follow_the_transition_table(self, db: Database, stored: Stored) -> None:
        def available(claim: uuid.UUID) -> set[str]:
            facts = answer(db, claim, "controls")
            return {k for k, v in facts.items() if k != "summary" and v["available"]}

        old = available(stored.old)  # superseded: no correction, no confirmation change needed
        assert "correct" not in old and "forget_claim" in old
        new = available(stored.new)  # confirmed, and no source message
        assert "confirm" not in new and "forget_source" not in new and "feedback" in new
        paused = available(stored.paused)
        assert "correct" not in paused
        pending = available(stored.pending)
        assert {"confirm", "reject"} <= pending and "feedback" not in pending

    # 7. Derivatives.

    def test_derivatives_show_open_legal_holds_and_history_references(
        self, db: Database, stored: Stored
    ) -> None:
        diet = answer(db, stored.diet, "derivatives")
        assert diet["under_legal_hold"] is True
        assert [(h["covers"], h["reason"]) for h in diet["legal_holds"]] == [
            ("claim", "litigation")
        ]
        assert "1 open legal hold(s)" in diet["summary"]
        hobby = answer(db, stored.hobby, "derivatives")  # its hold was released
        assert hobby["under_legal_hold"] is False and "no legal hold" in hobby["summary"]
        assert answer(db, stored.old, "derivatives")["references"]["memory_events"] == 1
        new = answer(db, stored.new, "derivatives")
        assert new["derived_from"] == [] and "no source message" in new["summary"]

    # 8. Tests.

    def test_tests_answer_names_only_the_guarantees_the_claim_relies_on(
        self, db: Database, stored: Stored
    ) -> None:
        def relevant(claim: uuid.UUID) -> tuple[set[str], dict[str, str]]:
            facts = answer(db, claim, "tests")
            for item in facts["relevant"]:
                assert list(TEST_MAP[item["guarantee"]]) == item["files"] and item["why"]
            return {r["guarantee"] for r in facts["relevant"]}, facts["not_relevant"]

        everything = set(TEST_MAP)
        gated, not_gated = relevant(stored.redacted)
        assert gated == everything and not_gated == {}
        diet, why_not = relevant(stored.diet)
        assert diet == everything - {"redaction"} and "placeholder" in why_not["redaction"]
        hobby, why_not = relevant(stored.hobby)  # from a message, but no gate row
        assert hobby == everything - {"redaction", "write gate"}
        correction, why_not = relevant(stored.new)
        assert correction == everything - {"redaction", "write gate", "extraction"}
        assert "not extracted" in why_not["extraction"]
        facts = answer(db, stored.new, "tests")
        assert facts["gaps"] and set(facts["measurements"]) == set(MEASUREMENTS)

    # Errors and isolation.

    def test_an_unknown_or_another_tenants_claim_is_not_found(
        self, db: Database, stored: Stored
    ) -> None:
        with pytest.raises(NotFound):
            explain(db, uuid.uuid4())
        with pytest.raises(NotFound):
            explain(db, stored.twin)
        with pytest.raises(NotFound):
            explain(db, stored.diet, tenant=OTHER)
        theirs = explain(db, stored.twin, tenant=OTHER)["answers"]
        assert theirs["subject_and_actors"]["grants"] == []  # acme's grants over alice stay in acme
        assert theirs["selection"]["times_returned"] == 0

    def test_a_naive_time_or_a_bad_tenant_is_refused(self, db: Database, stored: Stored) -> None:
        with pytest.raises(BadInput, match="timezone"):
            explain(db, stored.diet, now=NOW.replace(tzinfo=None))
        with pytest.raises(BadInput, match="tenant"):
            explain_claim(db, " acme", stored.diet, now=NOW)


# Answers after something happened: each test has its own database.


def test_a_grant_for_a_coaching_purpose_covers_assistant_claims_but_not_the_reverse(
    db: Database, stored: Stored
) -> None:
    # The budget claim is scoped to project:launch: a global grant would not reach it.
    grant(db, TENANT, actor="coach", subject="alice", purpose="budget_coach",
          expires_at=NOW + timedelta(days=1), granted_by="alice", now=T0,
          scope="project:launch")  # fmt: skip
    on_assistant = {
        g["actor"]: g["allows_use_now"]
        for g in answer(db, stored.diet, "subject_and_actors")["grants"]
    }
    on_budget = {
        g["actor"]: g["allows_use_now"]
        for g in answer(db, stored.budget, "subject_and_actors")["grants"]
    }
    assert on_assistant["coach"] is True and on_budget["coach"] is True
    assert on_budget["bob"] is False  # an assistant request may not use a budget claim


def test_a_paused_subject_or_account_holder_makes_the_claim_unusable(
    db: Database, stored: Stored
) -> None:
    pause(db, "alice")
    diet = answer(db, stored.diet, "currency")
    assert diet["usable_now"] is False and diet["paused_by"] == ["alice"]
    assert diet["not_usable_because"] == ["the subject's memory is paused"]
    mother = answer(db, stored.mother, "currency")
    assert mother["usable_now"] is False and mother["paused_by"] == ["alice"]
    assert "account holder alice" in mother["summary"]


def test_a_claim_in_the_erasure_ledger_is_not_current(db: Database, stored: Stored) -> None:
    with tenant_transaction(db.app, TENANT) as conn:
        conn.execute(sa.insert(erasure_ledger).values(
            tenant=TENANT, request_id=uuid.uuid4(), target_kind="claim",
            target_id=str(stored.hobby), node_kind="memory", node_id=str(stored.hobby),
            state="blocked", requested_by="alice",
        ))  # fmt: skip
    facts = answer(db, stored.hobby, "currency")
    assert facts["usable_now"] is False and facts["being_erased"] is True
    ledger = answer(db, stored.hobby, "derivatives")["erasure_ledger"]
    assert [e["state"] for e in ledger] == ["blocked"]


def test_selection_counts_the_recalls_that_returned_the_claim(
    db: Database, stored: Stored, tmp_path: Path
) -> None:
    before = answer(db, stored.diet, "selection")
    assert before["times_returned"] == 0 and before["recent"] == []
    assert before["summary"] == "Never returned to a request."
    recaller = Recaller(db, *vector_index(tmp_path))
    assert stored.diet in ask(recaller, "q1", "alice")
    assert stored.diet in ask(recaller, "q2", "bob")
    assert ask(recaller, "q3", "carol") == []  # revoked: denied, logged, returns nothing
    assert stored.diet not in ask(recaller, "q4", "alice", purpose="marketing")
    facts = answer(db, stored.diet, "selection")
    assert facts["times_returned"] == 2
    assert [(r["query_id"], r["actor"], r["purpose"], r["scope"]) for r in facts["recent"]] == [
        ("q2", "bob", "assistant", "global"),
        ("q1", "alice", "assistant", "global"),
    ]
    assert facts["recent"][0]["at"] > facts["recent"][1]["at"]  # each recall logs its own time
    assert facts["summary"].startswith(
        f"Returned 2 time(s); last at {facts['recent'][0]['at']} to bob for assistant"
    )
    # A claim recall never returned (not usable) stays unselected.
    assert answer(db, stored.paused, "selection")["times_returned"] == 0
    assert answer(db, stored.diet, "derivatives")["references"]["recall_log"] == 2


def test_resume_names_whoever_paused(db: Database, stored: Stored) -> None:
    pause(db, "alice")
    mine = answer(db, stored.diet, "controls")
    assert mine["resume"]["available"] and not mine["pause"]["available"]
    assert mine["resume"]["command"] == f"permem resume --tenant {TENANT} --subject alice"
    theirs = answer(db, stored.mother, "controls")
    assert theirs["resume"]["available"]
    assert theirs["resume"]["command"] == f"permem resume --tenant {TENANT} --subject alice"
    assert "account holder alice" in theirs["resume"]["does"]


def test_commands_quote_odd_tenant_names(db: Database) -> None:
    tenant = "o'brien & co"
    record = memory(tenant, None, claim="prefers tea")
    with tenant_transaction(db.app, tenant) as conn:
        register_tenant(conn, tenant)
        append_memories(conn, [record])
    facts = explain_claim(db, tenant, record.id, now=NOW)["answers"]["controls"]
    argv = shlex.split(facts["correct"]["command"])
    assert argv[argv.index("--tenant") + 1] == tenant
    assert argv[argv.index("--text") + 1] == "<corrected claim>"


def test_derivatives_follow_lineage_to_index_rows_and_exports(
    db: Database, stored: Stored, tmp_path: Path
) -> None:
    before = answer(db, stored.diet, "derivatives")
    assert before["derivatives"] == [] and before["index_queued"] is True
    assert before["derived_from"] == [{"kind": "source", "id": "m1", "relation": "extracted"}]
    index, embedder = vector_index(tmp_path)
    index_pending(db, index, embedder, tenants=[TENANT])
    exported = export_subject(
        db, TENANT, "alice", "json", directory=tmp_path / "exports", actor="alice", now=NOW
    )
    facts = answer(db, stored.diet, "derivatives")
    embedding = embedding_node(embedder, str(stored.diet))
    row = index_row_node(index, str(stored.diet))
    by_kind = {d["kind"]: d for d in facts["derivatives"]}
    # The export made the subject's profile current first: it cites the claim.
    assert set(by_kind) == {"embedding", "index_row", "export", "profile"}
    # One profile per purpose and scope the subject's claims name (budget_coach may use
    # assistant claims); the global claim serves all of them.
    made = sorted(
        (d["purpose"], d["scope"], d["version"])
        for d in facts["derivatives"]
        if d["kind"] == "profile"
    )
    assert made == [
        (purpose, scope, 1)
        for purpose in ("assistant", "budget_coach")
        for scope in ("global", "project:launch")
    ]
    assert by_kind["embedding"]["id"] == embedding.id and by_kind["index_row"]["id"] == row.id
    assert by_kind["export"] == {
        "kind": "export",
        "id": str(exported.id),
        "path": str(exported.path),
        "format": "json",
        "created_at": NOW.isoformat(),
        "erased_at": None,
    }
    assert facts["index_queued"] is False
    assert "1 embedding, 1 export, 1 index_row, 4 profile" in facts["summary"]
    with tenant_transaction(db.app, TENANT) as conn:
        edges = {
            tuple(edge)
            for edge in conn.execute(
                sa.select(
                    lineage_edges.c.parent_kind,
                    lineage_edges.c.child_kind,
                    lineage_edges.c.relation,
                ).where(lineage_edges.c.parent_id.in_([str(stored.diet), embedding.id]))
            )
        }
    assert edges == {
        ("memory", "embedding", "embedded"),
        ("embedding", "index_row", "indexed"),
        ("memory", "export", "exported"),
        ("memory", "profile", "summarized"),
    }
    # A pending claim is never embedded: only the export reaches it.
    pending = answer(db, stored.pending, "derivatives")
    assert [d["kind"] for d in pending["derivatives"]] == [NodeKind.EXPORT.value]


def test_every_test_and_measurement_file_named_exists() -> None:
    named = [f for files in (*TEST_MAP.values(), *MEASUREMENTS.values()) for f in files]
    missing = [f for f in named if not (REPO / f).is_file()]
    assert missing == []
    assert "tests/test_explain.py" in TEST_MAP["explain"]


def _snapshot(db: Database) -> dict[str, Any]:
    counted = (memories, memory_events, recall_log, lineage_edges, exports, index_queue,
               gate_decisions, grants, legal_holds, erasure_ledger)  # fmt: skip
    with tenant_transaction(db.app, TENANT) as conn:
        found: dict[str, Any] = {
            t.name: conn.execute(sa.select(sa.func.count()).select_from(t)).scalar_one()
            for t in counted
        }
        found["states"] = sorted(
            tuple(row)
            for row in conn.execute(
                sa.select(memories.c.id, memories.c.status, memories.c.confirmation)
            )
        )
    return found


def test_explaining_changes_nothing(db: Database, stored: Stored, tmp_path: Path) -> None:
    index, embedder = vector_index(tmp_path)
    index_pending(db, index, embedder, tenants=[TENANT])
    export_subject(db, TENANT, "alice", "csv", directory=tmp_path, actor="alice", now=NOW)
    assert ask(Recaller(db, index, embedder), "q1", "alice")
    before = _snapshot(db)
    assert (before["memories"], before["recall_log"], before["exports"]) == (11, 1, 1)
    for claim in astuple(stored):
        if claim != stored.twin:
            for now in (T0, NOW):
                explain(db, claim, now=now)
    assert _snapshot(db) == before
