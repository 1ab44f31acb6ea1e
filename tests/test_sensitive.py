"""Sensitive classes: what counts as finance, a criminal record, a precise location or a
child's data; how the gate and recall treat them; special categories only for the purposes
declared for them; a correction classified by its own text.

The classifier is tested directly (a pure function); everything else end to end: a nightly run
over a small log on real PostgreSQL, LanceDB, spaCy and Presidio, then the CLI and recall.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interfaces.cli import app
from permem import policy
from permem.extraction.sensitive import sensitivity_of
from permem.recall import RecallQuery, exclusion
from permem.records import Confirmation, Sensitivity
from permem.settings import Settings
from tests.conftest import memory, nightly_cli, user_line

T = "acme"


# --- The classifier: each class by several paraphrases, and the near misses ---------------

CLASSES: dict[tuple[Sensitivity, str], list[str]] = {
    (Sensitivity.PERSONAL, "finance"): [
        "I make $250k a year so I prefer premium options",
        "I earn about 80k",
        "I'm on 45k at the moment",
        "I bring home roughly £3,200 a month",
        "I get paid $30 an hour",
        "my salary just went up",
        "I make six figures",
        "I'm in debt up to my ears",
        "we're drowning in credit card debt",
        "I owe my sister $500",
        "I still have student loans",
        "my credit score is terrible",
        "I filed for bankruptcy in 2019",
        "my net worth is around 2 million",
        "I'm saving up for a house",
        "I spend €50 a week on coffee",
        "I'm totally broke until payday",
        "we live paycheck to paycheck",
        "I'm behind on my mortgage",
    ],
    (Sensitivity.SPECIAL, "criminal"): [
        "I have a criminal record",
        "I was convicted of fraud in 2015",
        "I got arrested at a protest last year",
        "I was in prison for two years",
        "I spent 3 years in jail",
        "I got out of prison in 2019",
        "I'm on probation until June",
        "I have a DUI from college",
        "my parole officer meets me on Mondays",
        "I have a felony on my record",
    ],
    (Sensitivity.SPECIAL, "precise_location"): [
        "I live at 12 Elm Street",
        "my address is 221B Baker Street",
        "I live on Maple Avenue",
        "we live at the corner of 5th and Main",
        "our house is at 48.8566, 2.3522",
        "my kids go to Lincoln Elementary",
        "the cafe is right by where my kids go to school",
        "my zip code is 90210",
    ],
    (Sensitivity.SPECIAL, "children"): [
        "my daughter is 5 and loves dinosaurs",
        "my 7-year-old hates broccoli",
        "my son has asthma",
        "our kids are in third grade",
        "I drop my kids at daycare every morning",
        "my son's teacher says he reads well",
    ],
    (Sensitivity.SPECIAL, "health"): ["I have anxiety", "I was diagnosed with ADHD"],
    (Sensitivity.SPECIAL, "religion"): ["I'm Catholic", "we go to mosque on Fridays"],
    (Sensitivity.SPECIAL, "sex_life"): ["I'm gay", "I came out last year"],
    (Sensitivity.SPECIAL, "ethnicity"): ["I'm biracial", "as an African-American woman"],
    (Sensitivity.SPECIAL, "politics"): ["I vote Labour", "I voted for the greens"],
    (Sensitivity.SPECIAL, "union"): ["I'm in a union", "I'm a union rep at the plant"],
    (Sensitivity.SPECIAL, "biometrics"): ["my fingerprint unlocks my phone"],
    (Sensitivity.SPECIAL, "genetics"): ["23andMe says I carry a BRCA1 mutation"],
}


@pytest.mark.parametrize(
    ("text", "sensitivity", "category"),
    [(text, s, c) for (s, c), texts in CLASSES.items() for text in texts],
)
def test_each_sensitive_class_by_its_paraphrases(
    text: str, sensitivity: Sensitivity, category: str
) -> None:
    found, categories = sensitivity_of(text)
    assert category in categories
    assert found is sensitivity


# Near misses: the words without the thing. Each must not carry the category named.
NEAR_MISSES = [
    ("I'm saving this article for later", "finance"),
    ("please pay attention to the details", "finance"),
    ("my laptop broke yesterday", "finance"),
    ("I run 5k a week", "finance"),
    ("I prefer hotels under $200 a night", "finance"),
    ("I owe you one", "finance"),
    ("I live on coffee", "finance"),
    ("the prison break movie was fun", "criminal"),
    ("I love documentaries about life in prison", "criminal"),
    ("I love Arrested Development", "criminal"),
    ("I have strong convictions about tabs", "criminal"),
    ("I'm still on probation at my new job", "criminal"),
    ("I live in Zurich", "precise_location"),
    ("I live on coffee", "precise_location"),
    ("I ran 5 miles on the road", "precise_location"),
    ("I love cooking with my kids", "children"),
]


@pytest.mark.parametrize(("text", "category"), NEAR_MISSES)
def test_near_misses_do_not_carry_the_category(text: str, category: str) -> None:
    _, categories = sensitivity_of(text)
    assert category not in categories


def test_plain_tastes_stay_not_sensitive() -> None:
    for text in ("I prefer window seats", "I'm a huge fan of jazz", "I run 5k a week"):
        assert sensitivity_of(text) == (Sensitivity.NONE, frozenset()), text


# --- Which purposes a special-category claim may serve (pure) ------------------------------


@pytest.mark.parametrize(
    ("request_purpose", "claim_purpose", "sensitivity", "categories", "allowed"),
    [
        # Ordinary claims follow may_use.
        ("travel", "assistant", Sensitivity.NONE, frozenset(), True),
        ("marketing", "assistant", Sensitivity.NONE, frozenset(), False),
        ("travel", "assistant", Sensitivity.PERSONAL, frozenset({"finance"}), True),
        # A special claim: its own purpose, or one that declares every category it carries.
        ("assistant", "assistant", Sensitivity.SPECIAL, frozenset({"health"}), True),
        ("travel", "assistant", Sensitivity.SPECIAL, frozenset({"health"}), False),
        ("health_coach", "assistant", Sensitivity.SPECIAL, frozenset({"health"}), True),
        ("budget_coach", "assistant", Sensitivity.SPECIAL, frozenset({"health"}), False),
        ("health_coach", "assistant", Sensitivity.SPECIAL, frozenset({"health", "religion"}),
         False),
        # Declaring the category never reaches a purpose outside may_use.
        ("health_coach", "budget_coach", Sensitivity.SPECIAL, frozenset({"health"}), False),
        # Stored special, category not recognised: its own purpose only (fail closed).
        ("health_coach", "assistant", Sensitivity.SPECIAL, frozenset(), False),
        # Recognised special category on a row stored before the lexicon knew it.
        ("travel", "assistant", Sensitivity.NONE, frozenset({"criminal"}), False),
    ],
)  # fmt: skip
def test_may_serve(
    request_purpose: str,
    claim_purpose: str,
    sensitivity: Sensitivity,
    categories: frozenset[str],
    allowed: bool,
) -> None:
    assert policy.may_serve(request_purpose, claim_purpose, sensitivity, categories) is allowed


def _query(purpose: str) -> RecallQuery:
    return RecallQuery("q", T, "alice", "alice", purpose, "global",
                       datetime(2026, 12, 1, tzinfo=UTC), "what should I pack?")  # fmt: skip


def test_recall_recomputes_the_categories_of_a_stored_claim() -> None:
    allergy = memory(T, claim="is allergic to peanuts", sensitivity=Sensitivity.SPECIAL)
    assert exclusion(allergy, _query("travel"), False) == "special_category_purpose"
    assert exclusion(allergy, _query("health_coach"), False) is None
    assert exclusion(allergy, _query("assistant"), False) is None
    # The row says `none`, the text says criminal record: the stricter wins.
    record = memory(T, claim="did two years in prison", sensitivity=Sensitivity.NONE)
    assert exclusion(record, _query("travel"), False) == "special_category_purpose"
    # The row says special and no category is recognised: only its own purpose.
    opaque = memory(T, claim="prefers the blue one", sensitivity=Sensitivity.SPECIAL)
    assert exclusion(opaque, _query("health_coach"), False) == "special_category_purpose"
    assert exclusion(opaque, _query("assistant"), False) is None


# --- End to end: nightly, inspect, confirm, correct, recall --------------------------------

LOG = [
    ("m1", "I make $250k a year so I prefer premium options", "assistant"),
    ("m2", "I'm drowning in credit card debt", "budget_coach"),
    ("m3", "I have a criminal record from my twenties", "assistant"),
    ("m4", "I'm allergic to peanuts", "assistant"),
    ("m5", "I only book morning flights", "assistant"),
    ("m6", "my daughter is 5 and loves dinosaurs", "assistant"),
]


@pytest.fixture
def cli(settings: Settings, tmp_path: Path) -> CliRunner:
    lines = (user_line(m, text, turn=i, purpose=p) for i, (m, text, p) in enumerate(LOG))
    cli: CliRunner = nightly_cli(settings, tmp_path / "log.jsonl", lines)
    return cli


def run(cli: CliRunner, *args: str) -> Any:
    result = cli.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.stderr
    return [json.loads(x) for x in result.stdout.splitlines()]


def live(cli: CliRunner, subject: str = "ana") -> dict[str, dict[str, Any]]:
    """The subject's active records by claim text."""
    found = run(cli, "inspect", "--tenant", T, "--subject", subject)
    return {r["claim"]: r for r in found if r["status"] == "active"}


def recalled(cli: CliRunner, tmp_path: Path, purpose: str, actor: str = "ana") -> set[str]:
    """The claims recall returns for `purpose`."""
    queries = tmp_path / "q.jsonl"
    queries.write_text(json.dumps({
        "query_id": "q", "tenant": T, "actor": actor, "subject": "ana", "purpose": purpose,
        "scope": "global", "ts": datetime.now(UTC).isoformat(), "text": "plan my trip and money",
        "k": 20,
    }) + "\n")  # fmt: skip
    (answer,) = run(cli, "recall", "--queries", str(queries))
    assert answer["denied"] is None, answer
    return {r["claim"] for r in answer["records"]}


INCOME, PREMIUM = "I make $250k a year", "I prefer premium options"
DEBT, CRIME = "I'm drowning in credit card debt", "I have a criminal record from my twenties"
ALLERGY, FLIGHTS = "I'm allergic to peanuts", "I only book morning flights"


def test_income_and_other_sensitive_classes_wait_for_confirmation(
    cli: CliRunner, tmp_path: Path
) -> None:
    records = live(cli)
    # The income is held back; the taste said in the same sentence is not about money.
    assert (records[INCOME]["sensitivity"], records[INCOME]["confirmation"]) == (
        "personal",
        "pending",
    )
    assert records[PREMIUM]["sensitivity"] == "none"
    # budget_coach declares finance: a debt said there is kept without asking.
    assert (records[DEBT]["sensitivity"], records[DEBT]["confirmation"]) == (
        "personal",
        "unconfirmed",
    )
    assert (records[CRIME]["sensitivity"], records[CRIME]["confirmation"]) == (
        "special",
        "pending",
    )
    (child,) = live(cli, "ana:daughter").values()
    assert (child["sensitivity"], child["confirmation"]) == ("special", "pending")
    assert recalled(cli, tmp_path, "assistant") == {PREMIUM, FLIGHTS}
    assert recalled(cli, tmp_path, "budget_coach") == {PREMIUM, FLIGHTS, DEBT}
    run(cli, "confirm", "--tenant", T, "--claim", records[INCOME]["id"])
    assert recalled(cli, tmp_path, "assistant") == {INCOME, PREMIUM, FLIGHTS}


def test_special_category_claims_flow_only_to_purposes_declared_for_them(
    cli: CliRunner, tmp_path: Path
) -> None:
    allergy = live(cli)[ALLERGY]
    assert allergy["sensitivity"] == "special"
    run(cli, "confirm", "--tenant", T, "--claim", allergy["id"])
    assert ALLERGY in recalled(cli, tmp_path, "assistant")
    assert ALLERGY in recalled(cli, tmp_path, "health_coach")  # declares health
    travel = recalled(cli, tmp_path, "travel")
    assert ALLERGY not in travel and FLIGHTS in travel  # assistant claims, but not this one
    # A grant never widens it: a travel grantee over every scope gets no allergy either, and
    # a health_coach grantee does.
    for actor, purpose in (("tom", "travel"), ("hana", "health_coach")):
        run(cli, "grant", "--tenant", T, "--actor", actor, "--subject", "ana", "--purpose",
            purpose, "--expires", "2099-01-01T00:00:00Z", "--by", "ana",
            "--scope", "all")  # fmt: skip
    assert recalled(cli, tmp_path, "travel", actor="tom") == travel
    assert ALLERGY in recalled(cli, tmp_path, "health_coach", actor="hana")


def test_a_correction_takes_the_sensitivity_of_its_own_text(cli: CliRunner) -> None:
    records = live(cli)
    allergy, flights = records[ALLERGY], records[FLIGHTS]
    assert (allergy["sensitivity"], flights["sensitivity"]) == ("special", "none")
    richer = "I fly business since I earn $300k a year"
    run(cli, "correct", "--tenant", T, "--claim", allergy["id"], "--text", "I prefer tea")
    run(cli, "correct", "--tenant", T, "--claim", flights["id"], "--text", richer)
    after = live(cli)
    assert ALLERGY not in after and FLIGHTS not in after  # superseded
    assert after["I prefer tea"]["sensitivity"] == "none"
    assert after[richer]["sensitivity"] == "personal"
    assert after["I prefer tea"]["confirmation"] == Confirmation.CONFIRMED.value
