"""The lifecycle metrics on hand-built answers whose figures are known: hit rate, lift and its
bootstrap interval, the wrong-personalization rate, each cause, severe harms, each stratum."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from permem.eval import metrics as m

TS = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def query(key: str = "q", **fields: Any) -> m.QueryFacts:
    base: dict[str, Any] = {
        "key": key, "tenant": "acme", "actor": "ana", "subject": "ana",
        "purpose": "assistant", "scope": "global", "ts": TS,
    }  # fmt: skip
    return m.QueryFacts(**{**base, **fields})


def evidence(message_id: str = "m1", **fields: Any) -> m.Evidence:
    base: dict[str, Any] = {
        "message_id": message_id, "tenant": "acme", "subject": "ana",
        "origin": "user_fact", "sensitivity": "none", "scope": "global",
        "purpose": "assistant", "observed_at": TS - timedelta(days=3), "kind": "preference",
        "status": "active", "confirmation": "unconfirmed", "confidence": 0.85,
        "valid_from": TS - timedelta(days=3),
    }  # fmt: skip
    return m.Evidence(**{**base, **fields})


def answer(
    *items: m.Evidence, q: m.QueryFacts | None = None, relevant: Any = (), forbidden: Any = ()
) -> m.Answer:
    return m.Answer(
        query=q or query(),
        items=tuple(m.Supplied((e,)) for e in items),
        relevant=frozenset(relevant),
        forbidden=frozenset(forbidden),
    )


def test_hit_rate_counts_only_queries_with_relevant_messages() -> None:
    answers = [
        answer(evidence("m1"), q=query("a"), relevant={"m1"}),
        answer(evidence("m2"), q=query("b"), relevant={"m1"}),
        answer(q=query("c"), relevant={"m3"}),
        answer(evidence("m4"), q=query("d")),  # no relevant: not in the denominator
    ]
    assert m.hit_rate(answers) == pytest.approx(1 / 3)
    assert m.hit_rate([answer(q=query("x"))]) is None


def test_suitability_and_wrong_rate() -> None:
    good = answer(evidence("m1"), q=query("a"), relevant={"m1"})
    harmful = answer(evidence("m2"), q=query("b"), forbidden={"m2"})
    both = answer(evidence("m1"), evidence("m2"), q=query("c"), relevant={"m1"}, forbidden={"m2"})
    assert [m.suitability(a) for a in (good, harmful, both)] == [1, -1, 0]
    assert m.wrong_rate([good, harmful, both]) == pytest.approx(2 / 3)
    assert m.wrong_rate([]) == 0.0


def _pairs(diffs: list[int]) -> tuple[list[m.Answer], list[m.Answer]]:
    """Variant answers whose suitability over an empty baseline is each of `diffs`."""
    variant, baseline = [], []
    for n, d in enumerate(diffs):
        q = query(f"q{n}")
        e = evidence(f"m{n}")
        if d == 1:
            variant.append(answer(e, q=q, relevant={e.message_id}))
        elif d == -1:
            variant.append(answer(e, q=q, forbidden={e.message_id}))
        else:
            variant.append(answer(q=q, relevant={e.message_id}))
        baseline.append(answer(q=q, relevant={e.message_id}))
    return variant, baseline


def test_lift_is_the_paired_mean_and_a_constant_difference_has_a_point_interval() -> None:
    variant, baseline = _pairs([1] * 10)
    assert m.bootstrap_lift(variant, baseline) == (1.0, (1.0, 1.0))
    variant, baseline = _pairs([-1] * 4)
    assert m.bootstrap_lift(variant, baseline) == (-1.0, (-1.0, -1.0))
    assert m.bootstrap_lift([], []) == (0.0, (0.0, 0.0))


def test_lift_interval_of_half_hits_is_about_two_standard_errors() -> None:
    # 100 queries, half improved by 1: mean 0.5, standard error 0.05, so the 95 % interval
    # is about 0.5 +- 0.098.
    variant, baseline = _pairs([1, 0] * 50)
    lift, (low, high) = m.bootstrap_lift(variant, baseline)
    assert lift == 0.5
    assert 0.39 <= low <= 0.42 and 0.58 <= high <= 0.61
    # Seeded: the same answers give the same interval; another seed another one.
    assert m.bootstrap_lift(variant, baseline) == (lift, (low, high))
    assert m.bootstrap_lift(variant, baseline, seed=99)[1] != (low, high)


def test_lift_needs_the_baseline_answer_of_every_query() -> None:
    variant, baseline = _pairs([1, 1])
    with pytest.raises(ValueError, match="no baseline answer"):
        m.bootstrap_lift(variant, baseline[:1])


@pytest.mark.parametrize(
    ("fields", "query_fields", "cause"),
    [
        ({"incognito": True}, {}, "control_violating"),
        ({"paused": True}, {}, "control_violating"),
        ({"forgotten": True}, {}, "control_violating"),
        ({"confirmation": "rejected"}, {}, "control_violating"),
        ({"status": "blocked"}, {}, "control_violating"),
        ({"subject": "ben"}, {}, "mis_scoped"),
        ({"tenant": "other"}, {}, "mis_scoped"),
        ({}, {"actor": "ben", "denied": True}, "mis_scoped"),
        ({"scope": "project:taxes"}, {"scope": "workspace:home"}, "mis_scoped"),
        ({"purpose": "marketing"}, {}, "mis_scoped"),
        ({"status": "superseded"}, {}, "stale"),
        ({"status": "expired"}, {}, "stale"),
        ({"valid_until": TS - timedelta(hours=1)}, {}, "stale"),
        ({"valid_from": TS + timedelta(days=1)}, {}, "stale"),
        ({"status": "session_only", "session": "s1"}, {"session": "s2"}, "stale"),
        ({"status": None, "observed_at": TS + timedelta(days=1)}, {}, "stale"),
        ({}, {"factual": True}, "fact_distorting"),
        ({"origin": "inferred_profile"}, {}, "overconfident"),
        ({"origin": "message:document", "status": None}, {}, "overconfident"),
        ({"confirmation": "pending"}, {}, "overconfident"),
        ({"confidence": 0.51}, {}, "overconfident"),
        ({}, {}, "unexplained"),
        # A raw message the write gate rejected: its reasons name the cause.
        ({"status": None, "gate_reasons": frozenset({"subject_paused"})}, {}, "control_violating"),
        ({"status": None, "gate_reasons": frozenset({"inferred_sensitive"})}, {}, "mis_scoped"),
        ({"status": None, "gate_reasons": frozenset({"withdrawn"})}, {}, "stale"),
        ({"status": None, "gate_reasons": frozenset({"hedged_plan"})}, {}, "overconfident"),
        ({"status": None, "gate_reasons": frozenset({"nothing_left"})}, {}, "unexplained"),
        # Confirmed by the user: neither observed nor hedged makes it overconfident.
        ({"origin": "inferred_profile", "confirmation": "confirmed"}, {}, "unexplained"),
        # The first rule wins: a paused subject's superseded claim in another scope.
        (
            {"paused": True, "status": "superseded", "scope": "project:x"},
            {},
            "control_violating",
        ),
        ({"status": "superseded", "scope": "project:x"}, {"factual": True}, "mis_scoped"),
    ],
)
def test_each_cause(fields: dict[str, Any], query_fields: dict[str, Any], cause: str) -> None:
    e = evidence("bad", **fields)
    a = answer(e, evidence("ok"), q=query(**query_fields), forbidden={"bad"})
    [wrong] = m.wrong_items(a)
    assert m.cause_of(wrong, a) == cause
    assert m.cause_of(a.items[1], a) is None  # not forbidden: no cause
    assert m.wrong_by_cause([a]) == {c: int(c == cause) for c in m.CAUSES}


def test_an_item_with_several_sources_takes_the_first_cause_of_its_forbidden_ones() -> None:
    item = m.Supplied(
        (evidence("old", status="superseded"), evidence("inc", incognito=True), evidence("ok"))
    )
    a = m.Answer(query(), (item,), forbidden=frozenset({"old", "inc"}))
    assert m.cause_of(item, a) == "control_violating"
    a = m.Answer(query(), (item,), forbidden=frozenset({"old"}))
    assert m.cause_of(item, a) == "stale"


@pytest.mark.parametrize(
    ("fields", "query_fields", "severe"),
    [
        ({"sensitivity": "special"}, {}, True),
        ({"subject": "ben"}, {}, True),
        ({"tenant": "other"}, {}, True),
        ({}, {"actor": "ben", "denied": True}, True),
        ({"sensitivity": "personal", "status": "superseded"}, {}, False),
    ],
)
def test_severe_harm(fields: dict[str, Any], query_fields: dict[str, Any], severe: bool) -> None:
    a = answer(evidence("bad", **fields), q=query(**query_fields), forbidden={"bad"})
    assert m.is_severe(a.items[0], a) is severe
    # A special-category claim rightly supplied is no harm: severity counts forbidden items.
    fine = answer(evidence("ok", sensitivity="special"), relevant={"ok"})
    assert m.summarize([fine], [answer()])["severe"] == 0


def test_age_buckets_scope_relations_and_control_modes() -> None:
    assert [m.age_bucket(timedelta(hours=h)) for h in (1, 30, 24 * 8, 24 * 40, 24 * 400)] == [
        "<1d", "1-7d", "7-30d", "30-365d", ">365d",
    ]  # fmt: skip
    q = query(scope="workspace:home")
    assert m.scope_relation(evidence(), q) == "global"
    assert m.scope_relation(evidence(scope="workspace:home"), q) == "query"
    assert m.scope_relation(evidence(scope="project:x"), q) == "other"
    modes = [
        ({"forgotten": True, "paused": True}, "forgotten"),
        ({"paused": True, "incognito": True}, "paused"),
        ({"incognito": True}, "incognito"),
        ({"confirmation": "pending"}, "pending"),
        ({"confirmation": "confirmed"}, "confirmed"),
        ({"status": "session_only"}, "one_off"),
        ({}, "none"),
    ]
    for fields, mode in modes:
        assert m.control_mode(evidence(**fields)) == mode


def test_each_stratum_counts_supplied_hits_wrong_and_severe() -> None:
    q = query("a", scope="workspace:home")
    a = answer(
        evidence("rel", observed_at=TS - timedelta(hours=2)),
        evidence(
            "bad", origin="inferred_profile", sensitivity="special", scope="project:x",
            observed_at=TS - timedelta(days=400), paused=True,
        ),
        evidence("other", origin="message:user", status=None, scope="workspace:home"),
        q=q, relevant={"rel"}, forbidden={"bad"},
    )  # fmt: skip
    table = m.strata([a])
    assert set(table) == set(m.STRATA)
    row = {"supplied": 1, "hits": 0, "wrong": 0, "severe": 0}
    hit = {**row, "hits": 1}
    harm = {**row, "wrong": 1, "severe": 1}
    assert table["origin"] == {"inferred_profile": harm, "message:user": row, "user_fact": hit}
    assert table["sensitivity"] == {"none": {**row, "supplied": 2, "hits": 1}, "special": harm}
    assert table["age"] == {"1-7d": row, "<1d": hit, ">365d": harm}
    assert table["scope"] == {"global": hit, "other": harm, "query": row}
    assert table["control"] == {"none": {**row, "supplied": 2, "hits": 1}, "paused": harm}


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert (m.percentile(values, 0.5), m.percentile(values, 0.99)) == (50.0, 99.0)
    assert m.percentile([7.0], 0.99) == 7.0 and m.percentile([], 0.5) == 0.0


def test_summaries_have_the_contract_fields() -> None:
    none = [answer(q=query("a"), relevant={"m1"}), answer(q=query("b"), forbidden={"m2"})]
    full = [
        replace(none[0], items=(m.Supplied((evidence("m1"),)),), millis=3.0),
        replace(none[1], items=(m.Supplied((evidence("m2", status="expired"),)),), millis=5.0),
    ]
    out = m.summaries({"none": none, "permem": full})
    assert set(out["permem"]) == {
        "queries", "hit_rate", "lift", "lift_ci", "wrong_rate", "wrong_by_cause", "severe",
        "p50_ms", "p99_ms", "strata",
    }  # fmt: skip
    p = out["permem"]
    assert (p["queries"], p["hit_rate"], p["lift"], p["wrong_rate"]) == (2, 1.0, 0.0, 0.5)
    assert p["wrong_by_cause"]["stale"] == 1 and (p["p50_ms"], p["p99_ms"]) == (3.0, 5.0)
    assert out["none"]["lift"] == 0.0 and out["none"]["hit_rate"] == 0.0
