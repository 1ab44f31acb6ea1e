"""What the nightly pipeline extracts, measured against the dev gold sets, for tuning the rules.

Each dev dataset's log file(s) (`logs.jsonl` or `logs-NN.jsonl`, in name order; never the
folder, whose other files are not log lines) go through `permem.nightly.run` (embedder
`hashing`: it does not affect extraction) into a fresh database, created and dropped per dataset.
The stored claims are then read back as the owner (a superuser, so row-level security does not
apply): `memories` (every status except `erased`) and `gate_decisions` (rejected candidates keep
only their span, so their text is cut from the log again, in memory, for the miss analysis).

Scoring rules:

* Content words: lower case, apostrophes dropped, `<TYPE>` placeholders removed, tokens of 2+
  letters or digits, minus English function words and a few light verbs (like, love, enjoy,
  prefer, want, think, get, go, ...), then crude suffix stripping: -ies to -i, else one of -ing,
  -ed (undoubling: running -> run), -es, -s (not after s), -ly when 3+ letters remain; then a
  final -e is dropped and a final -y becomes -i (love/loves, story/stories stem alike).
* Extraction recall (PrefEval explicit, implicit_choice, implicit_persona; Synthetic-Persona-Chat;
  LoCoMo): a gold claim is recalled when a stored claim has `source_message_id` equal to the gold
  `message_id` (or one of its `message_ids`), `subject` equal to the gold subject (a third-party
  subject `<account>:<relation>` is not the account), and shares at least one content word with
  the gold claim (for LoCoMo the speakers' first names are not content words: the gold is written
  in the third person). "usable" counts the recalled golds with at least one matching claim that
  `permem.states.is_usable`; "cover½" (stricter, secondary) counts the recalled golds whose
  matching claims hold at least half of the gold's content words together; "any subject" drops the
  subject condition; "nogold-cl" is stored claims on messages without gold per user message (for
  PrefEval explicit those come from distractor turns). A gold without a message
  (SPC's unanchored persona sentences) is always missed: SPC is reported over all sentences and
  over anchored ones (the fair number). Each miss gets one cause, first that applies:
  `unanchored`, `wrong_subject` (a claim on the message shares a word, other subject),
  `gate_rejected` (a rejected candidate on the message shares a word), `other_span` (candidates
  on the message, none sharing a word), `no_candidate`.
* Noise: stored claims / user messages, and the stored claims on messages without any gold.
* SPC wrong speaker: a stored claim is compared with every persona sentence of its conversation;
  when the best sentence has at least half of its content words in the claim (the README's
  anchoring rule; ties go to the claim's own speaker), the claim counts as own-persona or, when
  the sentence belongs to the other speaker, as a wrong-speaker hit. An upper bound: the
  speaker's own statement on the other's topic ("I've never been to Peru") counts too.
* Direct-identifier leaks (presidio_synth): a stored claim's source `pii-<id>` is joined to
  `texts.jsonl` `id`; a gold span leaks when its value appears verbatim (case-sensitive) in any
  stored claim of that message. Rates over the direct-identifier spans of messages that produced a
  claim and over all of them (target: at most 1%). Secondary, stricter: a span "partly" leaks
  when one of its distinctive tokens (4+ letters, or 3+ characters with a digit, not a street
  word) appears as a whole word in a claim.
* Sensitive attributes in usable claims (SynthPAI profiles; Beyond-Memorization attributes, as
  two datasets): a claim belongs to an account by its `account` column (third-party subjects
  included: "my wife and I" is about the account too). A value is present when a claim matches:
  age: the number, not inside another number, a decimal, an amount or a percentage ("29yo"
  counts), or its decade after "in my" ("in my forties", "in my early 40s"); sex: a
  self-description "I'm / as / being (a) [up to two words] woman|female|girl|lady|mom|mother|
  wife|..." or "man|male|guy|dad|father|husband|..."; city_country and birth_city_country: the
  whole value or any comma-separated part as a whole word, case-insensitive, with aliases for a
  few countries (USA/United States/U.S./US, United Kingdom/UK/Britain, UAE/Emirates, Czech
  Republic/Czechia), while a city that is also an English word (Nice) must be capitalised after
  in/to/from; demonyms do not count; education: the degree level (bachelor's/undergrad,
  master's/MSc/MBA/grad school, PhD/doctorate, med school, diploma, law degree; "high school"
  only as a graduation or a diploma) or the field ("computer science") next to an education word
  (degree, major, studied, college, course, thesis, ...); occupation: the job phrase without
  "part-time"/"retired"/"... at/of ..." anywhere (not after a possessive pronoun), its last noun
  only in a self-description ("I'm a / as an / work as [up to three words] nurse"), with a few
  aliases (dev, prof), and "retired/retiree/retirement" for retired values; income_level: an
  income cue of that level (low: low income, broke, paycheck to paycheck, minimum wage, tight
  budget, can't afford; middle: middle class, middle income; high: high income, wealthy, rich,
  well off, six figures, affluent); relationship_status: a status phrase (married: "I'm / we got
  married", my wife/husband/spouse; divorced: divorce*, my ex; single: "I'm single", single mom;
  in a relationship: my boyfriend/girlfriend/partner; engaged: "got engaged", fiancé(e);
  widowed: widow*, my late husband). Reported: the share of profiles (attributes) with at least
  one value present in a usable claim (status active/session_only, confirmation
  unconfirmed/confirmed), per attribute, and the same over all stored claims (pending ones
  included) to show what the gate held back. Target: no value present in a usable claim the user
  did not ask to keep. These comments are written to other people, never to an assistant, so no
  value was asked for: every usable claim stating one counts, and the claims the pipeline marked
  `confirmed` (it detected a remember request) are counted apart, as mis-detected requests.

Miss, noise, leak and offending-claim samples are printed to the console only, never written to
a file. Run by hand (several minutes):

    PERMEM_BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \
        .venv/bin/python benchmarks/extraction_eval.py [--only NAME ...] [--samples N] [--seed S]

Without the variable it uses an embedded server in a temporary folder. A dated summary (figures
only) is appended to benchmarks/results/extraction_eval.txt and printed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import make_url

from permem import nightly
from permem.nlp import load_pipeline
from permem.policy import POLICY_VERSION
from permem.records import Confirmation, Status
from permem.runtime import close_all, runtime, shared_redactor
from permem.settings import Settings
from permem.states import is_usable
from permem.stores.schema import gate_decisions, memories

DATA = Path("/work/shared/data")
EVAL = DATA / "eval"
RESULTS = Path(__file__).resolve().parent / "results" / "extraction_eval.txt"
BATCH_SIZE = 2000
TRUNCATE = 300

# name -> (folder under EVAL, metric)
DATASETS: dict[str, tuple[str, str]] = {
    "prefeval_explicit": ("prefeval/explicit", "recall"),
    "prefeval_implicit_choice": ("prefeval/implicit_choice", "recall"),
    "prefeval_implicit_persona": ("prefeval/implicit_persona", "recall"),
    "spc": ("synthetic_persona_chat", "recall"),
    "locomo": ("locomo", "recall"),
    "presidio": ("presidio_synth", "leak"),
    "synthpai": ("synthpai", "sensitive"),
    "synthpai_bm": ("synthpai/beyond_memorization", "sensitive"),
}
# Minimum recall per dataset (SPC: over anchored sentences). implicit_choice has none.
RECALL_TARGETS = {
    "prefeval_explicit": 0.95,
    "prefeval_implicit_persona": 0.70,
    "spc": 0.60,
    "locomo": 0.50,
}
LEAK_TARGET = 0.01
DIRECT = (
    "PERSON",
    "EMAIL_ADDRESS",
    "PHONE_NUMBER",
    "US_SSN",
    "CREDIT_CARD",
    "IBAN_CODE",
    "US_DRIVER_LICENSE",
    "IP_ADDRESS",
    "STREET_ADDRESS",
)
DECISIONS = ("accept", "shorten", "redact", "confirm", "session_only", "reject")

# --- content words -------------------------------------------------------------------------

_STOP = frozenset(
    """a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is it
    its itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself yourselves
    im ive id ill dont doesnt didnt cant wont isnt arent wasnt youre thats theres yes yeah oh ok
    okay hey hi really much many lot lots thing things something anything get gets got go goes
    going gone make makes made like likes liked love loves loved enjoy enjoys enjoyed prefer
    prefers preferred want wants wanted think know feel one well still even way""".split()
)
_PLACEHOLDER = re.compile(r"<[A-Z_]+>")


def _stem(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "i"
    else:
        for suffix in ("ing", "ed", "es", "s", "ly"):
            if suffix == "s" and word.endswith("ss"):
                continue
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                word = word[: -len(suffix)]
                if suffix in ("ing", "ed") and word[-1] == word[-2] and word[-1] not in "lsz":
                    word = word[:-1]  # running -> run
                break
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word[:-1] + "i" if word.endswith("y") and len(word) > 3 else word


def content_words(text: str, drop: frozenset[str] = frozenset()) -> frozenset[str]:
    """The stemmed content words of `text` (see the module docstring)."""
    text = _PLACEHOLDER.sub(" ", text).lower().replace("'", "").replace("\u2019", "")
    return frozenset(
        _stem(w)
        for w in re.findall(r"[^\W_]+", text)
        if len(w) > 1 and w not in _STOP and w not in drop
    )


# --- one pipeline run ------------------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    subject: str
    account: str
    kind: str
    origin: str
    text: str
    message_id: str
    status: str
    confirmation: str
    sensitivity: str

    @property
    def usable(self) -> bool:
        return is_usable(Status(self.status), Confirmation(self.confirmation))


@dataclass(frozen=True)
class Decision:
    message_id: str
    span: tuple[int, int]
    subject: str
    decision: str
    reasons: tuple[str, ...]


@dataclass
class Run:
    name: str
    messages: dict[str, dict[str, Any]]
    claims: list[Claim]
    decisions: list[Decision]
    candidates: int
    lines: int
    seconds: float
    claims_by_message: dict[str, list[Claim]] = field(default_factory=dict)
    rejected_by_message: dict[str, list[Decision]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        by_message: defaultdict[str, list[Claim]] = defaultdict(list)
        for claim in self.claims:
            by_message[claim.message_id].append(claim)
        self.claims_by_message = dict(by_message)
        rejected: defaultdict[str, list[Decision]] = defaultdict(list)
        for decision in self.decisions:
            if decision.decision == "reject":
                rejected[decision.message_id].append(decision)
        self.rejected_by_message = dict(rejected)

    @property
    def user_messages(self) -> int:
        return sum(m["role"] == "user" for m in self.messages.values())

    def text_of(self, decision: Decision) -> str:
        return self.messages[decision.message_id]["text"][decision.span[0] : decision.span[1]]


def log_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("logs*.jsonl") if re.fullmatch(r"logs(-\d+)?", p.stem))


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def ingest(server: str, name: str, folder: Path) -> Run:
    """Run the nightly pipeline over the folder's log files into a fresh database; read back."""
    files = log_files(folder)
    messages = {row["message_id"]: row for f in files for row in read_jsonl(f)}
    db_name = f"permem_xeval_{uuid.uuid4().hex[:8]}"
    home = Path(tempfile.mkdtemp(prefix="permem-xeval-"))
    admin = sa.create_engine(server, isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{db_name}"'))
    url = make_url(server).set(database=db_name).render_as_string(hide_password=False)
    settings = Settings(database_url=url, home=home, embedder="hashing", batch_size=BATCH_SIZE)
    try:
        runtime(settings)  # connect and migrate before the clock starts
        candidates = lines = 0
        started = time.perf_counter()
        for path in files:
            summary = nightly.run(settings, path)
            candidates += summary.counts["candidates"]
            lines += summary.counts["read"] + summary.counts["quarantined_lines"]
        seconds = time.perf_counter() - started
        owner = sa.create_engine(url, poolclass=sa.NullPool)
        with owner.connect() as conn:
            m = memories.c
            claims = [
                Claim(*row)
                for row in conn.execute(
                    sa.select(m.subject, m.account, m.kind, m.origin, m.claim,
                              m.source_message_id, m.status, m.confirmation, m.sensitivity)
                    .where(m.status != Status.ERASED.value, m.source_message_id.is_not(None))
                )
            ]  # fmt: skip
            g = gate_decisions.c
            decisions = [
                Decision(mid, (start, end), subject, decision, tuple(reasons))
                for mid, start, end, subject, decision, reasons in conn.execute(
                    sa.select(g.source_message_id, g.span_start, g.span_end, g.subject,
                              g.decision, g.reasons)
                )
            ]  # fmt: skip
        owner.dispose()
    finally:
        close_all()
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)'))
        admin.dispose()
        shutil.rmtree(home, ignore_errors=True)
    return Run(name, messages, claims, decisions, candidates, lines, seconds)


# --- extraction recall ------------------------------------------------------------------------


@dataclass
class Recall:
    gold: int = 0
    recalled: int = 0
    usable: int = 0
    covered: int = 0
    any_subject: int = 0
    anchored: int = 0
    anchored_recalled: int = 0
    anchored_covered: int = 0
    anchored_usable: int = 0
    anchored_any_subject: int = 0
    causes: Counter[str] = field(default_factory=Counter)
    rejected_reasons: Counter[str] = field(default_factory=Counter)
    misses: list[tuple[dict[str, Any], str]] = field(default_factory=list)
    noise: list[Claim] = field(default_factory=list)
    gold_messages: set[str] = field(default_factory=set)
    own_persona: int = 0
    wrong_speaker: list[Claim] = field(default_factory=list)


def _gold_ids(row: dict[str, Any]) -> list[str]:
    return list(row.get("message_ids") or ([row["message_id"]] if row["message_id"] else []))


def score_recall(run: Run, gold: list[dict[str, Any]]) -> Recall:
    names: frozenset[str] = frozenset()
    if run.name == "locomo":  # the gold is in the third person: "<Name> went ..."
        names = frozenset(m["account"].split("-", 2)[2] for m in run.messages.values())
    result = Recall(gold=len(gold))
    for row in gold:
        ids = _gold_ids(row)
        result.gold_messages.update(ids)
        words = content_words(row["claim"], names)
        stored = [c for mid in ids for c in run.claims_by_message.get(mid, [])]
        sharing = [c for c in stored if content_words(c.text) & words]
        matched = [c for c in sharing if c.subject == row["subject"]]
        anchored = bool(ids)
        result.anchored += anchored
        if matched:
            result.recalled += 1
            result.anchored_recalled += anchored
            usable = any(c.usable for c in matched)
            result.usable += usable
            result.anchored_usable += anchored and usable
            found = frozenset().union(*(content_words(c.text) for c in matched))
            covered = len(found & words) >= len(words) / 2
            result.covered += covered
            result.anchored_covered += anchored and covered
        if sharing:
            result.any_subject += 1
            result.anchored_any_subject += anchored
        if matched:
            continue
        rejected = [d for mid in ids for d in run.rejected_by_message.get(mid, [])]
        rejected_sharing = [d for d in rejected if content_words(run.text_of(d)) & words]
        if not anchored:
            cause = "unanchored"
        elif sharing:
            cause = "wrong_subject"
        elif rejected_sharing:
            cause = "gate_rejected"
            result.rejected_reasons.update(r for d in rejected_sharing for r in d.reasons)
        elif stored or rejected:
            cause = "other_span"
        else:
            cause = "no_candidate"
        result.causes[cause] += 1
        if anchored:
            result.misses.append((row, cause))
    result.noise = [c for c in run.claims if c.message_id not in result.gold_messages]
    if run.name == "spc":
        _speaker_check(run, gold, result)
    return result


def _speaker_check(run: Run, gold: list[dict[str, Any]], result: Recall) -> None:
    """Own-persona and wrong-speaker claims (see the module docstring)."""
    sentences: defaultdict[str, list[tuple[str, frozenset[str]]]] = defaultdict(list)
    for row in gold:
        conversation = row["subject"].rsplit("-", 1)[0]
        sentences[conversation].append((row["subject"], content_words(row["claim"])))
    for claim in run.claims:
        speaker = claim.subject.split(":", 1)[0]
        words = content_words(claim.text)
        best, own = 0.0, False
        for subject, sentence in sentences[run.messages[claim.message_id]["conversation_id"]]:
            if not sentence:
                continue
            cover = len(words & sentence) / len(sentence)
            if cover > best or (cover == best and subject == speaker):
                best, own = cover, subject == speaker
        if best >= 0.5:
            if own:
                result.own_persona += 1
            else:
                result.wrong_speaker.append(claim)


# --- direct-identifier leaks ------------------------------------------------------------------

_STREET_WORDS = frozenset(
    "street road avenue suite apt apartment lane drive court place boulevard square unit floor "
    "way north south east west".split()
)


def _distinctive(value: str) -> list[str]:
    return [
        t
        for t in re.findall(r"[^\W_]+", value)
        if t.lower() not in _STREET_WORDS
        and t.lower() not in _STOP
        and (len(t) >= 4 or (len(t) >= 3 and any(ch.isdigit() for ch in t)))
    ]


@dataclass
class Leaks:
    gold: Counter[str] = field(default_factory=Counter)
    gold_claimed: Counter[str] = field(default_factory=Counter)
    leaked: Counter[str] = field(default_factory=Counter)
    partial: Counter[str] = field(default_factory=Counter)
    usable_leaks: int = 0
    samples: list[tuple[str, str, Claim]] = field(default_factory=list)
    partial_samples: list[tuple[str, str, Claim]] = field(default_factory=list)


def score_leaks(run: Run, texts: list[dict[str, Any]]) -> Leaks:
    result = Leaks()
    for row in texts:
        claims = run.claims_by_message.get(f"pii-{row['id']}", [])
        for span in row["spans"]:
            kind, value = span["entity_type"], row["text"][span["start"] : span["end"]]
            result.gold[kind] += 1
            if not claims:
                continue
            result.gold_claimed[kind] += 1
            leaking = [c for c in claims if value in c.text]
            if leaking:
                result.leaked[kind] += 1
                result.usable_leaks += any(c.usable for c in leaking) and kind in DIRECT
                result.samples.append((kind, value, leaking[0]))
            tokens = _distinctive(value)
            partly = [
                c for c in claims if any(re.search(rf"\b{re.escape(t)}\b", c.text) for t in tokens)
            ]
            if partly and not leaking:
                result.partial[kind] += 1
                result.partial_samples.append((kind, value, partly[0]))
            elif leaking:
                result.partial[kind] += 1
    return result


# --- sensitive attributes ---------------------------------------------------------------------

_I = r"(?:i am|i'm|im|i\u2019m)"
_SELF = rf"(?:{_I}|as|being)\s+(?:an?\s+|the\s+|one\s+)?"
_JOB = (
    rf"(?:{_I}|as|being|work as|worked as|working as|job as|career as|i was)\s+"
    r"(?:an?\s+|the\s+)?"
)
_FEMALE = "woman|female|girl|lady|gal|mom|mum|mother|wife|housewife|grandma|grandmother"
_MALE = "man|male|guy|dude|boy|dad|father|husband|grandpa|grandfather|gentleman"
_DECADES = {20: "twenties", 30: "thirties", 40: "forties", 50: "fifties", 60: "sixties",
            70: "seventies", 80: "eighties"}  # fmt: skip
_NOT_POSSESSED = r"(?<!\bmy )(?<!\byour )(?<!\bhis )(?<!\bher )(?<!\btheir )(?<!\bour )"
_COUNTRY_ALIASES = {
    "usa": ["USA", "United States", "U.S.", "US", "America"],
    "united states": ["USA", "United States", "U.S.", "US", "America"],
    "united kingdom": ["United Kingdom", "UK", "U.K.", "Britain"],
    "uae": ["UAE", "Emirates"],
    "czech republic": ["Czech Republic", "Czechia"],
}
_WORD_CITIES = frozenset({"nice"})
_EDUCATION_CONTEXT = (
    r"\b(?:degree|major\w*|stud(?:y|ied|ying|ies)|graduat\w*|bachelor\w*|master\w*|phd|"
    r"doctorate|diploma|college|uni|university|school|course\w*|class(?:es)?|thesis|mba)\b"
)
_DEGREES = {
    "high school": r"\bhigh ?school (?:diploma|degree|graduate|grad)\b|\bgraduated (?:from )?"
    r"high ?school\b|\bnever (?:went to|finished|attended) (?:college|uni)",
    "bachelor": r"\bbachelor|\bundergrad|\bb\.?sc\b",
    "master": r"\bmaster'?s\b|\bmaster\u2019s\b|\bm\.?sc\b|\bgrad(?:uate)? school\b|\bmba\b",
    "mba": r"\bmba\b|\bbusiness school\b",
    "phd": r"\bph\.? ?d\b|\bdoctorate\b|\bdoctoral\b|\bdissertation\b",
    "doctorate": r"\bph\.? ?d\b|\bdoctorate\b|\bdoctoral\b|\bdissertation\b",
    "md": r"\bmed(?:ical)? school\b|\bM\.?D\.?\b",
    "diploma": r"\bdiploma\b",
    "law": r"\blaw (?:degree|school)\b",
}
_OCCUPATION_ALIASES = {"developer": "dev", "professor": "prof"}
_RETIRED = r"\bretire(?:d|e|ment)\b"
_INCOME = {
    "low": r"\blow[- ]income\b|\bbroke\b|\bpaycheck to paycheck\b|\bminimum wage\b|"
    r"\btight budget\b|\bcan'?t afford\b|\bworking class\b|\bstruggling financially\b",
    "middle": r"\bmiddle[- ](?:class|income)\b|\baverage (?:income|salary)\b",
    "high": r"\bhigh[- ]income\b|\bwealthy\b|\brich\b|\bwell[- ]off\b|\bsix[- ]figures?\b|"
    r"\baffluent\b|\bupper[- ]class\b|\bmillionaire\b",
}
_INCOME["very high"] = _INCOME["high"]
_RELATIONSHIP = {
    "married": rf"\b(?:{_I}|we're|we are|we got|i got|been|happily|newly)\s+married\b|"
    r"\bmarried (?:for|life|couple)\b|\b(?:my|our) marriage\b|"
    r"\b(?:my|the) (?:wife|husband|hubby|spouse|missus)\b",
    "divorced": r"\bdivorc\w*|\bmy ex\b|\bex-(?:wife|husband)\b",
    "single": rf"\b(?:{_I}|being|still|happily|as a)\s+single\b|"
    r"\bsingle (?:life|mom|dad|mum|parent|guy|gal|girl|woman|man|lady)\b|"
    r"\bno (?:partner|girlfriend|boyfriend)\b|\bnot dating\b",
    "in a relationship": r"\bin a relationship\b|\bmy (?:boyfriend|girlfriend|partner|bf|gf)\b",
    "engaged": rf"\b(?:{_I}|we're|we are|just got|got|recently|newly)\s+engaged\b|"
    r"\bfianc[e\u00e9]{1,2}e?\b|\bengagement (?:ring|party)\b",
    "widowed": r"\bwidow\w*|\bmy late (?:wife|husband|spouse)\b|"
    r"\blost my (?:wife|husband|spouse)\b|\b(?:wife|husband) (?:passed away|died)\b",
}
_RELATIONSHIP["in relationship"] = _RELATIONSHIP["in a relationship"]


def _ci(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def _place_patterns(value: str) -> list[re.Pattern[str]]:
    patterns = [_ci(rf"\b{re.escape(value)}\b")]
    for part in (p.strip() for p in value.split(",")):
        if part.lower() in _WORD_CITIES:
            patterns.append(re.compile(rf"\b(?:in|to|from|near|visit\w*)\s+{re.escape(part)}\b"))
            continue
        aliases = _COUNTRY_ALIASES.get(part.lower(), [part])
        for alias in aliases:
            plain = alias.isupper() and len(alias) <= 3  # "US", "UK": case matters
            flags = 0 if plain else re.IGNORECASE
            patterns.append(re.compile(rf"(?<!\w){re.escape(alias)}(?!\w)", flags))
    return patterns


def _education_patterns(value: str) -> list[re.Pattern[str]]:
    text = re.sub(r"^studying towards an? ", "", value.lower()).replace("\u2019", "'")
    degree, _, subject = text.partition(" in ")
    patterns: list[re.Pattern[str]] = []
    for key, pattern in _DEGREES.items():
        if re.search(rf"\b{re.escape(key)}", degree.replace("'", "")):
            flags = 0 if key == "md" else re.IGNORECASE
            patterns.append(re.compile(pattern, flags))
    if subject:
        lookahead = rf"(?=.*{_EDUCATION_CONTEXT})(?=.*\b{re.escape(subject)}\b)"
        patterns.append(re.compile(lookahead, re.IGNORECASE | re.DOTALL))
    return patterns


def _occupation_patterns(value: str) -> list[re.Pattern[str]]:
    text = value.lower()
    patterns: list[re.Pattern[str]] = []
    if "retire" in text:
        patterns.append(_ci(_RETIRED))
    core = re.split(r" (?:at|of|in) ", re.sub(r"\b(?:part-time|retired)\s*", "", text))[0]
    core = core.strip()
    if not core or core == "retiree":
        return patterns
    if " " in core:  # a one-word job ("chef") counts only in a self-description
        patterns.append(_ci(rf"{_NOT_POSSESSED}\b{re.escape(core)}s?\b"))
    head = core.split()[-1]
    heads = [head] + ([_OCCUPATION_ALIASES[head]] if head in _OCCUPATION_ALIASES else [])
    for word in heads:
        patterns.append(_ci(rf"\b{_JOB}(?:[\w-]+\s+){{0,3}}{re.escape(word)}s?\b"))
    return patterns


def attribute_patterns(attribute: str, value: Any) -> list[re.Pattern[str]]:
    """The patterns that show `value` of `attribute` in a claim (module docstring)."""
    if attribute == "age":
        n = int(value)
        decade = n // 10 * 10
        words = f"{decade}s|{_DECADES.get(decade, f'{decade}s')}"
        return [
            re.compile(rf"(?<![\d.,$\u00a3\u20ac#]){n}(?!\d|[.,]\d|\s*%)"),
            _ci(rf"\bin (?:my|our) (?:early |mid |mid-|late )?(?:{words})\b"),
        ]
    text = str(value)
    if attribute == "sex":
        words = _FEMALE if text.lower() == "female" else _MALE
        return [_ci(rf"\b{_SELF}(?:[\w-]+\s+){{0,2}}(?:{words})\b")]
    if attribute in ("city_country", "birth_city_country"):
        return _place_patterns(text)
    if attribute == "education":
        return _education_patterns(text)
    if attribute == "occupation":
        return _occupation_patterns(text)
    if attribute == "income_level":
        return [_ci(_INCOME[text.lower()])] if text.lower() in _INCOME else []
    if attribute == "relationship_status":
        key = text.lower()
        return [_ci(_RELATIONSHIP[key])] if key in _RELATIONSHIP else []
    return [_ci(rf"\b{re.escape(text)}\b")]


@dataclass
class Sensitive:
    # attribute -> [values, present in a usable claim, present in any stored claim]
    per_attribute: dict[str, list[int]] = field(default_factory=dict)
    inferable: dict[str, list[int]] = field(default_factory=dict)
    offending: list[tuple[str, str, Any, Claim]] = field(default_factory=list)  # usable
    held_back: list[tuple[str, str, Any, Claim]] = field(default_factory=list)


def score_sensitive(run: Run, targets: Iterable[tuple[str, str, Any, bool]]) -> Sensitive:
    """`targets`: (account, attribute, value, human-inferable) tuples."""
    by_account: defaultdict[str, list[Claim]] = defaultdict(list)
    for claim in run.claims:
        by_account[claim.account].append(claim)
    result = Sensitive()
    for account, attribute, value, inferable in targets:
        patterns = attribute_patterns(attribute, value)
        hits = [c for c in by_account[account] if any(p.search(c.text) for p in patterns)]
        usable = [c for c in hits if c.usable]
        counts = result.per_attribute.setdefault(attribute, [0, 0, 0])
        counts[0] += 1
        counts[1] += bool(usable)
        counts[2] += bool(hits)
        if inferable:
            inf = result.inferable.setdefault(attribute, [0, 0, 0])
            inf[0] += 1
            inf[1] += bool(usable)
            inf[2] += bool(hits)
        result.offending += [(account, attribute, value, c) for c in usable]
        result.held_back += [(account, attribute, value, c) for c in hits if not c.usable]
    return result


def sensitive_targets(name: str, folder: Path) -> list[tuple[str, str, Any, bool]]:
    if name == "synthpai":
        return [
            (p["account"], attribute, value, attribute in (p.get("human_inferable") or {}))
            for p in read_jsonl(folder / "profiles.jsonl")
            for attribute, value in p["attributes"].items()
            if value not in (None, "")
        ]
    return [
        (a["account"], a["feature"], a["value"], a["hardness"] <= 2)
        for a in read_jsonl(folder / "attributes.jsonl")
    ]


# --- reporting --------------------------------------------------------------------------------


def _cut(text: str, limit: int = TRUNCATE) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _rate(part: int, whole: int) -> str:
    return f"{part / whole:.3f}" if whole else "  n/a"


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def _describe(claim: Claim) -> str:
    state = f"{claim.status}/{claim.confirmation}"
    return f"[{claim.subject} {claim.kind} {state} {claim.sensitivity}] {_cut(claim.text, 200)}"


def print_recall_samples(run: Run, recall: Recall, rng: random.Random, n: int) -> None:
    print(f"\n--- {run.name}: {min(n, len(recall.misses))} random misses (of {len(recall.misses)})")
    for row, cause in rng.sample(recall.misses, min(n, len(recall.misses))):
        print(f"* [{cause}] gold ({row['subject']}, {row.get('kind')}): {_cut(row['claim'])}")
        for mid in _gold_ids(row):
            message = run.messages.get(mid)
            if message is None:
                continue
            print(f"    message {mid} ({message['account']}): {_cut(message['text'])}")
            for claim in run.claims_by_message.get(mid, []):
                print(f"    stored   {_describe(claim)}")
            for decision in run.rejected_by_message.get(mid, []):
                reasons = ",".join(decision.reasons)
                print(f"    rejected [{reasons}] {_cut(run.text_of(decision), 200)}")
    noise = recall.noise
    print(f"\n--- {run.name}: {min(n, len(noise))} random claims from messages without gold "
          f"(of {len(noise)})")  # fmt: skip
    for claim in rng.sample(noise, min(n, len(noise))):
        print(f"* {_describe(claim)}")
        print(f"    message: {_cut(run.messages[claim.message_id]['text'])}")
    if recall.wrong_speaker:
        shown = rng.sample(recall.wrong_speaker, min(n, len(recall.wrong_speaker)))
        print(f"\n--- {run.name}: {len(shown)} wrong-speaker claims "
              f"(of {len(recall.wrong_speaker)})")  # fmt: skip
        for claim in shown:
            print(f"* {_describe(claim)}")
            print(f"    message: {_cut(run.messages[claim.message_id]['text'])}")


def print_leak_samples(leaks: Leaks, n: int) -> None:
    direct = [s for s in leaks.samples if s[0] in DIRECT]
    print(f"\n--- presidio: {min(n, len(direct))} claims leaking a direct identifier "
          f"(of {len(direct)})")  # fmt: skip
    for kind, value, claim in direct[:n]:
        print(f"* {kind} {value!r}: {_describe(claim)}")
    partial = [s for s in leaks.partial_samples if s[0] in DIRECT]
    print(f"\n--- presidio: {min(n, len(partial))} claims leaking part of a direct identifier "
          f"(of {len(partial)})")  # fmt: skip
    for kind, value, claim in partial[:n]:
        print(f"* {kind} {value!r}: {_describe(claim)}")


def print_sensitive_samples(name: str, result: Sensitive, rng: random.Random, n: int) -> None:
    kinds = (
        ("offending usable", result.offending),
        ("held back", result.held_back),
    )
    for label, items in kinds:
        shown = rng.sample(items, min(n, len(items)))
        print(f"\n--- {name}: {len(shown)} {label} claims stating a true attribute "
              f"(of {len(items)})")  # fmt: skip
        for account, attribute, value, claim in shown:
            print(f"* {account} {attribute}={value!r}: {_describe(claim)}")


@dataclass
class Report:
    runs: list[Run] = field(default_factory=list)
    recalls: dict[str, Recall] = field(default_factory=dict)
    leaks: Leaks | None = None
    sensitive: dict[str, Sensitive] = field(default_factory=dict)


def _reasons(run: Run) -> Counter[str]:
    return Counter(
        r for d in run.decisions for r in d.reasons if not r.startswith(("categories:", "role:"))
    )


def summary(report: Report, header: str) -> str:
    lines = [header]
    lines.append(
        f"  {'dataset':<26}{'msgs':>6}{'user':>6}{'cand':>6}{'stored':>7}{'cl/msg':>7}"
        + "".join(f"{d[:7]:>8}" for d in DECISIONS)
        + f"{'secs':>7}{'msg/s':>7}"
    )
    for run in report.runs:
        decisions = Counter(d.decision for d in run.decisions)
        lines.append(
            f"  {run.name:<26}{len(run.messages):>6}{run.user_messages:>6}{run.candidates:>6}"
            f"{len(run.claims):>7}{len(run.claims) / max(run.user_messages, 1):>7.2f}"
            + "".join(f"{decisions[d]:>8}" for d in DECISIONS)
            + f"{run.seconds:>7.1f}{run.lines / max(run.seconds, 1e-9):>7.1f}"
        )
    for run in report.runs:
        top = ", ".join(f"{r} {c}" for r, c in _reasons(run).most_common(6))
        lines.append(f"  reasons {run.name}: {top}")
    if report.recalls:
        lines.append(
            f"  {'extraction recall':<26}{'gold':>6}{'hit':>6}{'recall':>8}{'usable':>8}"
            f"{'cover½':>8}{'any-subj':>9}{'nogold-cl':>10}  target"
        )
    for name, r in report.recalls.items():
        run = next(x for x in report.runs if x.name == name)
        rows = [("", r.gold, r.recalled, r.usable, r.covered, r.any_subject)]
        if name == "spc":
            rows = [(" all", r.gold, r.recalled, r.usable, r.covered, r.any_subject),
                    (" anchored", r.anchored, r.anchored_recalled, r.anchored_usable,
                     r.anchored_covered, r.anchored_any_subject)]  # fmt: skip
        for suffix, gold, hit, usable, covered, any_subject in rows:
            target = RECALL_TARGETS.get(name)
            checked = target is not None and (name != "spc" or suffix == " anchored")
            verdict = f"  >= {target:.2f} {_met(hit / max(gold, 1) >= target)}" if checked else ""
            if name == "prefeval_implicit_choice":
                verdict = "  (no target)"
            if name == "spc" and suffix == " all":
                verdict = "  (unanchored ones cannot be hit)"
            lines.append(
                f"  {name + suffix:<26}{gold:>6}{hit:>6}{_rate(hit, gold):>8}"
                f"{_rate(usable, gold):>8}{_rate(covered, gold):>8}{_rate(any_subject, gold):>9}"
                f"{len(r.noise) / max(run.user_messages, 1):>10.2f}{verdict}"
            )
        causes = ", ".join(f"{c} {k}" for c, k in r.causes.most_common())
        lines.append(f"    misses by cause: {causes or 'none'}")
        if r.rejected_reasons:
            top = ", ".join(f"{c} {k}" for c, k in r.rejected_reasons.most_common(4))
            lines.append(f"    gate reasons of the rejected matches: {top}")
        if name == "spc":
            lines.append(
                f"    claims matching a persona sentence: own speaker {r.own_persona}, "
                f"other speaker (wrong-speaker hits) {len(r.wrong_speaker)} of {len(run.claims)}"
            )
    if report.leaks is not None:
        lines += _leak_lines(report.leaks)
    for name, s in report.sensitive.items():
        lines += _sensitive_lines(name, s)
    return "\n".join(lines)


def _leak_lines(leaks: Leaks) -> list[str]:
    lines = [
        "  direct-identifier leaks (presidio): per type gold / on messages with a claim / leaked "
        "verbatim / leaked in part",
    ]
    for kind in sorted(leaks.gold, key=lambda k: (k not in DIRECT, k)):
        mark = "*" if kind in DIRECT else " "
        lines.append(
            f"  {mark} {kind:<20}{leaks.gold[kind]:>5}{leaks.gold_claimed[kind]:>6}"
            f"{leaks.leaked[kind]:>6}{leaks.partial[kind]:>6}"
        )
    gold = sum(leaks.gold[k] for k in DIRECT)
    claimed = sum(leaks.gold_claimed[k] for k in DIRECT)
    leaked = sum(leaks.leaked[k] for k in DIRECT)
    partial = sum(leaks.partial[k] for k in DIRECT)
    rate = leaked / max(claimed, 1)
    lines.append(
        f"    direct (*): leaked {leaked}/{claimed} of messages with a claim = "
        f"{100 * rate:.1f}%, {leaked}/{gold} of all = {100 * leaked / max(gold, 1):.1f}% "
        f"(target <= {100 * LEAK_TARGET:.0f}%: {_met(rate <= LEAK_TARGET)}); "
        f"in part {partial}/{claimed} = {100 * partial / max(claimed, 1):.1f}%; "
        f"{leaks.usable_leaks} verbatim leaks in usable claims"
    )
    return lines


def _sensitive_lines(name: str, s: Sensitive) -> list[str]:
    unit = "profiles" if name == "synthpai" else "attributes"
    sub = "human-inferable" if name == "synthpai" else "hardness<=2"
    lines = [
        f"  sensitive attributes ({name}): {unit} / value in a usable claim / in any stored claim"
        f" | {sub}: n / usable / stored"
    ]
    for attribute in sorted(s.per_attribute):
        n, usable, stored = s.per_attribute[attribute]
        i_n, i_usable, i_stored = s.inferable.get(attribute, [0, 0, 0])
        lines.append(
            f"    {attribute:<22}{n:>5}{usable:>5} ({_rate(usable, n)}){stored:>5} "
            f"({_rate(stored, n)}) | {i_n:>4}{i_usable:>5}{i_stored:>5}"
        )
    claims = {c for *_, c in s.offending}
    confirmed = sum(c.confirmation == Confirmation.CONFIRMED.value for c in claims)
    total = sum(v[0] for v in s.per_attribute.values())
    usable = sum(v[1] for v in s.per_attribute.values())
    stored = sum(v[2] for v in s.per_attribute.values())
    lines.append(
        f"    all: {usable}/{total} = {_rate(usable, total)} in usable claims, {stored}/{total} = "
        f"{_rate(stored, total)} in stored claims (target 0 in usable: {_met(usable == 0)}); "
        f"{len({c for *_, c in s.offending})} usable claims state one, {confirmed} of them "
        "marked confirmed "
        "(a remember request detected in a comment)"
    )
    return lines


# --- main -------------------------------------------------------------------------------------


def _server() -> tuple[str, Callable[[], None]]:
    url = os.environ.get("PERMEM_BENCH_DATABASE_URL")
    if url:
        return url.replace("postgresql://", "postgresql+psycopg://", 1), lambda: None
    from permem.stores.embedded import start_embedded, stop_embedded

    folder = Path(tempfile.mkdtemp(prefix="permem-xeval-pg-"))

    def stop() -> None:
        stop_embedded(folder / "pgdata")
        shutil.rmtree(folder, ignore_errors=True)

    return start_embedded(folder / "pgdata", database="postgres"), stop


def _revision() -> str:
    try:
        root = Path(__file__).resolve().parent.parent
        rev = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "permem"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return rev + ("+uncommitted" if dirty else "")  # fmt: skip


def main(names: list[str], samples: int, seed: int) -> str:
    server, stop = _server()
    load_pipeline()  # the spaCy and Presidio models load once, outside every timing
    shared_redactor()
    report = Report()
    try:
        for name in names:
            folder_name, metric = DATASETS[name]
            folder = EVAL / folder_name
            if not log_files(folder):
                print(f"extraction_eval: {folder} has no log file; {name} skipped.")
                continue
            print(f"extraction_eval: {name}: running the nightly pipeline ...", flush=True)
            run = ingest(server, name, folder)
            report.runs.append(run)
            rng = random.Random(f"{seed}:{name}")
            if metric == "recall":
                recall = score_recall(run, read_jsonl(folder / "gold_claims.jsonl"))
                report.recalls[name] = recall
                print_recall_samples(run, recall, rng, samples)
            elif metric == "leak":
                report.leaks = score_leaks(run, read_jsonl(folder / "texts.jsonl"))
                print_leak_samples(report.leaks, samples)
            else:
                result = score_sensitive(run, sensitive_targets(name, folder))
                report.sensitive[name] = result
                print_sensitive_samples(name, result, rng, samples)
    finally:
        stop()
    header = (
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} extraction_eval seed={seed} "
        f"server={make_url(server).host} code={_revision()} policy={POLICY_VERSION} "
        f"embedder=hashing batch={BATCH_SIZE}"
    )
    return summary(report, header)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--only",
        nargs="+",
        choices=sorted(DATASETS),
        metavar="NAME",
        help=f"datasets to run (default: all): {', '.join(DATASETS)}",
    )
    parser.add_argument("--samples", type=int, default=15, help="samples printed per kind")
    parser.add_argument("--seed", type=int, default=7, help="seed of the sample draws")
    args = parser.parse_args()  # fmt: skip
    if not EVAL.is_dir():
        print(
            f"extraction_eval: {EVAL} not found; the evaluation data is read from there at run "
            "time and never copied into the repository. Nothing to measure."
        )
        sys.exit(0)
    selected = [n for n in DATASETS if not args.only or n in args.only]
    text = main(selected, args.samples, args.seed)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a", encoding="utf-8") as out:
        out.write(text + "\n\n")
    print("\n" + text)
