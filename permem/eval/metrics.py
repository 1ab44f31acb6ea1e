"""The lifecycle evaluation's metrics: pure functions over scored answers.

A variant answers a query with up to k **supplied items** (a recalled claim, a profile line,
a raw message); each item stands on one or more **evidence** rows: a source message with the
fields that say what the item is (the stored claim's fields, or a raw message's metadata).
Gold (FORMATS.md) names the relevant and forbidden source messages of each query.

- **hit rate**: of the queries with relevant messages, the share whose answer supplied one.
- **suitability** of an answer: 1 if it supplied a relevant message, minus 1 if it supplied a
  forbidden one (so -1, 0 or 1). **Lift** is the mean, over the same queries, of a variant's
  suitability minus the baseline's (`none`: always 0), with a paired bootstrap 95 % interval
  (queries resampled with replacement, seeded: the same answers give the same interval).
- **wrong-personalization rate**: the share of queries whose answer supplied a forbidden item.
  Each forbidden item has one **cause** (`cause_of`, rules below); a **severe** harm is a
  forbidden item of special-category sensitivity or another subject's (or tenant's) data.
- **strata**: every evidence row of every supplied item counted by origin, sensitivity, age,
  scope and control mode: supplied, hits, wrong, severe.

Causes, the first rule that fires (docs/evaluation.md):

Each rule also fires when the write gate rejected the message's candidates for a reason of
that cause (`GATE_CAUSES`; a raw message with no stored claim).

1. `control_violating`: the message was incognito; the subject was paused at the query's
   time; the claim or message is forgotten (in the erasure ledger) or the claim is blocked,
   erased, retracted or paused; the user rejected the claim.
2. `mis_scoped`: another tenant or subject than the query's; the actor may not read the
   subject (recall denies the query); a scope other than the query's and not `global`; a
   purpose the query's purpose may not use (`policy.may_serve`).
3. `stale`: superseded or expired; outside its validity at the query's time (ended, not begun,
   a one-off outside its session); a raw message written after the query.
4. `fact_distorting`: the query is a factual question (`recall_filter.is_factual_question`):
   any remembered belief supplied for it distorts the facts.
5. `overconfident`: observed, inferred or imported (or a raw message that is not the user's
   own) and not confirmed; or hedged (confidence below `HEDGED_BELOW`) and not confirmed.
6. `unexplained`: none of the above: the item's fields look usable, the gold says otherwise
   (an extraction or classification error).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from permem import policy
from permem.records import Sensitivity

__all__ = [
    "AGE_BUCKETS",
    "CAUSES",
    "GATE_CAUSES",
    "HEDGED_BELOW",
    "STRATA",
    "Answer",
    "Evidence",
    "QueryFacts",
    "Supplied",
    "age_bucket",
    "bootstrap_lift",
    "cause_of",
    "control_mode",
    "hit_rate",
    "is_severe",
    "percentile",
    "scope_relation",
    "strata",
    "suitability",
    "summaries",
    "summarize",
    "wrong_by_cause",
    "wrong_items",
    "wrong_rate",
]

CAUSES: tuple[str, ...] = (
    "control_violating",
    "mis_scoped",
    "stale",
    "fact_distorting",
    "overconfident",
    "unexplained",
)
STRATA: tuple[str, ...] = ("origin", "sensitivity", "age", "scope", "control")
# A claim below this confidence was said with a hedge (policy.confidence: x0.6).
HEDGED_BELOW = 0.55
TRUSTED_ORIGINS = frozenset({"explicit_instruction", "user_fact", "message:user"})
_UNUSABLE_STATUSES = frozenset({"blocked", "erased", "retracted", "paused"})
# The write gate's rejection reasons (permem.policy) read as causes.
GATE_CAUSES: dict[str, frozenset[str]] = {
    "control_violating": frozenset({"incognito", "subject_paused", "erased_previously"}),
    "mis_scoped": frozenset({"inferred_sensitive", "sensitive_passing_mention"}),
    "stale": frozenset({"plan_called_off", "withdrawn"}),
    "overconfident": frozenset({
        "hedged_plan", "hypothetical", "considered_not_done", "belief_about_world",
        "planted_instruction", "untrusted_content", "not_user_evidence", "quoted_content",
        "import_metadata", "import_privilege",
    }),
}  # fmt: skip
# (upper bound, label): the age of the evidence at the query's time.
AGE_BUCKETS: tuple[tuple[timedelta | None, str], ...] = (
    (timedelta(days=1), "<1d"),
    (timedelta(days=7), "1-7d"),
    (timedelta(days=30), "7-30d"),
    (timedelta(days=365), "30-365d"),
    (None, ">365d"),
)
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 13


@dataclass(frozen=True, slots=True)
class QueryFacts:
    """What the causes read from the query: who asks for whom, where, why, when, and whether
    it is a factual question or one recall denies (the actor may not read the subject)."""

    key: str  # unique in a run: pairs a variant's answer with the baseline's
    tenant: str
    actor: str
    subject: str
    purpose: str
    scope: str
    ts: datetime
    session: str | None = None
    factual: bool = False
    denied: bool = False


@dataclass(frozen=True, slots=True)
class Evidence:
    """One source message behind a supplied item, with the fields causes and strata read.

    `origin` is a claim's origin, or `message:<role>` for a raw message; `status`,
    `confirmation` and the validity are None when no stored claim speaks for the message."""

    message_id: str
    tenant: str
    subject: str
    origin: str
    sensitivity: str
    scope: str
    purpose: str
    observed_at: datetime
    categories: frozenset[str] = frozenset()
    kind: str | None = None
    status: str | None = None
    confirmation: str | None = None
    confidence: float | None = None
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    session: str | None = None
    incognito: bool = False
    forgotten: bool = False
    paused: bool = False
    # Why the write gate rejected the message's candidates, when it stored no claim from it.
    gate_reasons: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Supplied:
    """One item a variant supplied (a claim, a profile line, a message) and its evidence."""

    evidence: tuple[Evidence, ...]

    @property
    def sources(self) -> frozenset[str]:
        return frozenset(e.message_id for e in self.evidence)


@dataclass(frozen=True, slots=True)
class Answer:
    """One variant's answer to one query, with the query's gold and its latency."""

    query: QueryFacts
    items: tuple[Supplied, ...]
    relevant: frozenset[str] = frozenset()
    forbidden: frozenset[str] = frozenset()
    millis: float = 0.0

    @property
    def hit(self) -> bool:
        return any(item.sources & self.relevant for item in self.items)

    @property
    def wrong(self) -> bool:
        return any(item.sources & self.forbidden for item in self.items)


# ---------------------------------------------------------------------------- causes


def _serves_purpose(query: QueryFacts, e: Evidence) -> bool:
    try:
        sensitivity = Sensitivity(e.sensitivity)
    except ValueError:
        sensitivity = Sensitivity.SPECIAL
    return policy.may_serve(query.purpose, e.purpose, sensitivity, e.categories)


def _gate_says(e: Evidence, cause: str) -> bool:
    return bool(e.gate_reasons & GATE_CAUSES[cause])


def _cause_of_evidence(e: Evidence, q: QueryFacts) -> str:
    if (
        _gate_says(e, "control_violating")
        or e.incognito
        or e.paused
        or e.forgotten
        or e.status in _UNUSABLE_STATUSES
        or e.confirmation == "rejected"
    ):
        return "control_violating"
    if (
        _gate_says(e, "mis_scoped")
        or e.tenant != q.tenant
        or e.subject != q.subject
        or q.denied
        or e.scope not in ("global", q.scope)
        or not _serves_purpose(q, e)
    ):
        return "mis_scoped"
    if (
        _gate_says(e, "stale")
        or e.status in ("superseded", "expired")
        or (e.valid_until is not None and e.valid_until <= q.ts)
        or (e.valid_from is not None and e.valid_from > q.ts)
        or (e.status == "session_only" and (q.session is None or q.session != e.session))
        or (e.status is None and e.observed_at > q.ts)
    ):
        return "stale"
    if q.factual:
        return "fact_distorting"
    if (
        _gate_says(e, "overconfident")
        or e.confirmation != "confirmed"
        and (
            e.origin not in TRUSTED_ORIGINS
            or e.confirmation == "pending"
            or (e.confidence is not None and e.confidence < HEDGED_BELOW)
        )
    ):
        return "overconfident"
    return "unexplained"


def cause_of(item: Supplied, answer: Answer) -> str | None:
    """Why a supplied item is a wrong personalization (None: none of its sources is
    forbidden): the first cause, in `CAUSES` order, that any forbidden evidence shows."""
    q, forbidden = answer.query, answer.forbidden
    found = {_cause_of_evidence(e, q) for e in item.evidence if e.message_id in forbidden}
    return next((c for c in CAUSES if c in found), None)


def _severe_evidence(e: Evidence, q: QueryFacts) -> bool:
    return (
        e.sensitivity == Sensitivity.SPECIAL.value
        or e.subject != q.subject
        or e.tenant != q.tenant
        or q.denied
    )


def is_severe(item: Supplied, answer: Answer) -> bool:
    """A forbidden item of special-category sensitivity or of another subject or tenant (or
    supplied to an actor who may not read the subject)."""
    return any(
        _severe_evidence(e, answer.query) for e in item.evidence if e.message_id in answer.forbidden
    )


def wrong_items(answer: Answer) -> list[Supplied]:
    return [item for item in answer.items if item.sources & answer.forbidden]


def wrong_by_cause(answers: Iterable[Answer]) -> dict[str, int]:
    """Forbidden items supplied, counted by cause (every cause listed, zeros included)."""
    counts = Counter({c: 0 for c in CAUSES})
    for answer in answers:
        for item in wrong_items(answer):
            cause = cause_of(item, answer)
            assert cause is not None
            counts[cause] += 1
    return dict(counts)


# ---------------------------------------------------------------------------- rates


def hit_rate(answers: Sequence[Answer]) -> float | None:
    """Of the queries with relevant messages, the share whose answer supplied one (None:
    no query has any)."""
    with_relevant = [a for a in answers if a.relevant]
    if not with_relevant:
        return None
    return sum(a.hit for a in with_relevant) / len(with_relevant)


def wrong_rate(answers: Sequence[Answer]) -> float:
    """The share of queries whose answer supplied a forbidden item (0 with no query)."""
    return sum(a.wrong for a in answers) / len(answers) if answers else 0.0


def suitability(answer: Answer) -> int:
    """1 for a relevant message supplied, minus 1 for a forbidden one."""
    return int(answer.hit) - int(answer.wrong)


def _paired(answers: Sequence[Answer], baseline: Sequence[Answer]) -> list[int]:
    base = {a.query.key: suitability(a) for a in baseline}
    missing = [a.query.key for a in answers if a.query.key not in base]
    if missing:
        raise ValueError(f"no baseline answer for {len(missing)} queries, e.g. {missing[0]}")
    return [suitability(a) - base[a.query.key] for a in answers]


def bootstrap_lift(
    answers: Sequence[Answer],
    baseline: Sequence[Answer],
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> tuple[float, tuple[float, float]]:
    """The mean paired suitability difference over the baseline, and its percentile bootstrap
    95 % interval (queries resampled with replacement, `seed`ed). No query: (0, (0, 0))."""
    diffs = _paired(answers, baseline)
    if not diffs:
        return 0.0, (0.0, 0.0)
    n = len(diffs)
    rng = random.Random(seed)
    means = sorted(sum(rng.choices(diffs, k=n)) / n for _ in range(resamples))
    low = means[int(0.025 * (resamples - 1))]
    high = means[int(round(0.975 * (resamples - 1)))]
    return sum(diffs) / n, (low, high)


def percentile(values: Sequence[float], q: float) -> float:
    """The `q` quantile (0..1) by the nearest-rank method (0 for no value)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered) - 1e-9))
    return ordered[min(rank, len(ordered)) - 1]


# ---------------------------------------------------------------------------- strata


def age_bucket(age: timedelta) -> str:
    for bound, label in AGE_BUCKETS:
        if bound is None or age < bound:
            return label
    raise AssertionError("the last bucket is open")


def scope_relation(e: Evidence, q: QueryFacts) -> str:
    """`global`, `query` (the query's own named scope) or `other`."""
    if e.scope == "global":
        return "global"
    return "query" if e.scope == q.scope else "other"


def control_mode(e: Evidence) -> str:
    """The control that governs the evidence, the strongest first (`none`: no control)."""
    if e.forgotten or e.status == "erased":
        return "forgotten"
    if e.paused or e.status == "paused":
        return "paused"
    if e.incognito:
        return "incognito"
    if e.confirmation in ("rejected", "pending", "confirmed"):
        return str(e.confirmation)
    if e.status == "session_only":
        return "one_off"
    return "none"


def _stratum_values(e: Evidence, q: QueryFacts) -> dict[str, str]:
    return {
        "origin": e.origin,
        "sensitivity": e.sensitivity,
        "age": age_bucket(q.ts - e.observed_at),
        "scope": scope_relation(e, q),
        "control": control_mode(e),
    }


def strata(answers: Iterable[Answer]) -> dict[str, dict[str, dict[str, int]]]:
    """Every evidence row of every supplied item, by stratum: how many were supplied, how
    many were relevant (hits), forbidden (wrong) and forbidden and severe."""
    table: dict[str, dict[str, Counter[str]]] = {name: {} for name in STRATA}
    for answer in answers:
        q = answer.query
        for item in answer.items:
            for e in item.evidence:
                wrong = e.message_id in answer.forbidden
                counts = {
                    "supplied": 1,
                    "hits": int(e.message_id in answer.relevant),
                    "wrong": int(wrong),
                    "severe": int(wrong and _severe_evidence(e, q)),
                }
                for name, value in _stratum_values(e, q).items():
                    table[name].setdefault(value, Counter()).update(counts)
    return {
        name: {
            value: {k: c[k] for k in ("supplied", "hits", "wrong", "severe")}
            for value, c in sorted(values.items())
        }
        for name, values in table.items()
    }


# ---------------------------------------------------------------------------- summary


def _r(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def summarize(
    answers: Sequence[Answer],
    baseline: Sequence[Answer],
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> dict[str, Any]:
    """One variant's figures as `permem eval lifecycle --json` prints them."""
    r = _r
    lift, (low, high) = bootstrap_lift(answers, baseline, resamples=resamples, seed=seed)
    millis = [a.millis for a in answers]
    return {
        "queries": len(answers),
        "hit_rate": r(hit_rate(answers)),
        "lift": r(lift),
        "lift_ci": [r(low), r(high)],
        "wrong_rate": r(wrong_rate(answers)),
        "wrong_by_cause": wrong_by_cause(answers),
        "severe": sum(is_severe(i, a) for a in answers for i in wrong_items(a)),
        "p50_ms": r(percentile(millis, 0.5)),
        "p99_ms": r(percentile(millis, 0.99)),
        "strata": strata(answers),
    }


def summaries(
    by_variant: Mapping[str, Sequence[Answer]], baseline: str = "none"
) -> dict[str, dict[str, Any]]:
    """`summarize` for every variant against `baseline`'s answers."""
    base = by_variant[baseline]
    return {name: summarize(answers, base) for name, answers in by_variant.items()}
