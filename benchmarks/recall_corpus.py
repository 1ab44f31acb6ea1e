"""The recall benchmark's generated claims and probe queries: short texts in the words the
pipeline stores them in, deterministic for a seed (`benchmarks/recall.py`, part 1)."""

from __future__ import annotations

import random
import re
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

QUERY_TS = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
GRANTED_SHARE = 0.02  # subjects whose memory another account may read through a grant
DELEGATED_QUERIES = 0.10  # probes asked by that other account


FOODS = ("peanuts", "shellfish", "coriander", "mushrooms", "blue cheese", "spicy curries",
         "oat milk", "sushi", "tofu", "lamb", "olives", "dark chocolate", "kimchi", "lentil soup",
         "gluten", "sesame", "raw onion", "aubergine", "ramen", "falafel")  # fmt: skip
CITIES = ("Lisbon", "Porto", "Lyon", "Ghent", "Bergen", "Krakow", "Valencia", "Bologna",
          "Tallinn", "Kyoto", "Hanoi", "Montreal", "Tucson", "Riga", "Basel",
          "Seville")  # fmt: skip
HOBBIES = ("bouldering", "birdwatching", "sea swimming", "pottery", "trail running", "chess",
           "baking bread", "sailing", "knitting", "film photography", "gardening", "kayaking",
           "board games", "cycling", "jazz piano", "salsa dancing")  # fmt: skip
STYLES = ("short answers", "bullet points", "metric units", "a formal tone", "British spelling",
          "code examples in Python", "answers in French", "no emojis", "step-by-step plans",
          "a summary first", "sources for every fact", "dark mode screenshots")  # fmt: skip
RELATIONS = ("daughter", "son", "partner", "mother", "brother", "best friend", "boss")
WHEN = ("", "", "", " on weekdays", " at work", " when travelling", " in the evenings",
        " since last year", " these days")  # fmt: skip

TEMPLATES: tuple[tuple[str, str, str], ...] = (
    # (kind, origin, template)
    ("preference", "user_fact", "prefers {style}{when}"),
    ("preference", "user_fact", "likes {food}{when}"),
    ("preference", "user_fact", "dislikes {food}"),
    ("preference", "observed_behavior", "often asks about {hobby}"),
    ("preference", "user_fact", "enjoys {hobby}{when}"),
    ("constraint", "user_fact", "is allergic to {food}"),
    ("constraint", "user_fact", "avoids {food}{when}"),
    ("constraint", "user_fact", "cannot travel before {hour} am"),
    ("instruction", "explicit_instruction", "wants {style}"),
    ("instruction", "explicit_instruction", "asks to always use {style}"),
    ("fact", "user_fact", "lives in {city}"),
    ("fact", "user_fact", "works as a {job} in {city}"),
    ("fact", "user_fact", "has a {relation} who loves {hobby}"),
    ("event", "user_fact", "visited {city} last {season}"),
    ("event", "user_fact", "ran a half marathon in {city}"),
    ("plan", "user_fact", "plans to visit {city} in {month}"),
    ("plan", "user_fact", "is going to start {hobby} next {season}"),
)
JOBS = ("nurse", "data analyst", "teacher", "carpenter", "pharmacist", "architect", "chef")
SEASONS = ("spring", "summer", "autumn", "winter")
MONTHS = ("January", "March", "May", "July", "September", "November")

QUERIES = ("What should I cook for dinner tonight?", "Suggest a snack for a long train ride.",
           "Can you find me a hotel in {city} for next weekend?",
           "Plan a three-day trip to {city} for me.", "Write a short email to my team.",
           "Recommend a weekend activity near {city}.", "What should I order at a sushi place?",
           "Help me pick a birthday present for my {relation}.",
           "Summarise this article about {hobby} for me.", "Draft my weekly plan.",
           "Is {food} safe to eat every day?", "How many calories are in {food}?",
           "Which flight should I book to {city}?", "Give me a recipe with {food}.",
           "I need ideas for a hobby I can do {when_q}.")  # fmt: skip
WHEN_Q = ("at home", "on weekends", "in winter", "with friends")


def _fill(template: str, rng: random.Random) -> str:
    slots = {
        "style": STYLES, "food": FOODS, "hobby": HOBBIES, "city": CITIES, "relation": RELATIONS,
        "when": WHEN, "job": JOBS, "season": SEASONS, "month": MONTHS, "when_q": WHEN_Q,
        "hour": ("6", "7", "8", "9", "10"),
    }  # fmt: skip
    return re.sub(r"\{(\w+)\}", lambda m: rng.choice(slots[m.group(1)]), template)


@dataclass(frozen=True)
class Corpus:
    """Where the generated claims live: names of tenants, subjects, the grants."""

    claims: int
    subjects: int
    tenants: int
    seed: int

    def tenant_of(self, subject: int) -> str:
        return f"tenant-{subject % self.tenants:02d}"

    @staticmethod
    def subject_name(subject: int) -> str:
        return f"user-{subject:05d}"

    def granted(self, subject: int) -> bool:
        """Whether the next subject of the same tenant holds a grant to read this one."""
        return subject % round(1 / GRANTED_SHARE) == 0 and subject + self.tenants < self.subjects

    def grantee(self, subject: int) -> int:
        return subject + self.tenants  # same tenant, another account


def generate_chunk(corpus: Corpus, start: int, stop: int) -> list[tuple[Any, Any]]:
    """Claims `start`..`stop` as (Message, UserMemory) pairs, deterministic for the seed.

    Claim i belongs to subject i mod S: a subject's claims are spread through the tables as
    they would be after months of nightly runs, not stored next to each other.
    """
    from permem.records import (
        Confirmation,
        Kind,
        Message,
        Origin,
        Role,
        Sensitivity,
        SourceRef,
        Status,
        UserMemory,
    )

    rng = random.Random(f"{corpus.seed}:{start}")
    pairs = []
    for i in range(start, stop):
        s = i % corpus.subjects
        tenant, subject = corpus.tenant_of(s), corpus.subject_name(s)
        kind, origin, template = rng.choice(TEMPLATES)
        claim = _fill(template, rng)
        observed = QUERY_TS - timedelta(days=rng.uniform(1, 720))
        valid_from, valid_until = observed, None
        roll = rng.random()
        if roll < 0.04:  # "until Friday": already over
            valid_until = observed + rng.uniform(0.2, 0.9) * (QUERY_TS - observed)
        elif roll < 0.07:
            valid_until = QUERY_TS + timedelta(days=rng.uniform(1, 90))
        elif roll < 0.09:  # a plan that starts later
            valid_from = QUERY_TS + timedelta(days=rng.uniform(1, 60))
        roll = rng.random()
        status, session = Status.ACTIVE, None
        if roll < 0.07:
            status = Status.SUPERSEDED
        elif roll < 0.10:
            status = Status.EXPIRED
        elif roll < 0.12:
            status, session = Status.SESSION_ONLY, f"s-{subject}-{rng.randrange(3)}"
        elif roll < 0.13:
            status = Status.RETRACTED
        roll = rng.random()
        confirmation = Confirmation.UNCONFIRMED
        if roll < 0.06:
            confirmation = Confirmation.PENDING
        elif roll < 0.07:
            confirmation = Confirmation.REJECTED
        elif roll < 0.15:
            confirmation = Confirmation.CONFIRMED
        roll = rng.random()
        purpose = "assistant"
        if roll < 0.04:
            purpose = "travel"
        elif roll < 0.07:
            purpose = "health_coach"
        elif roll < 0.10:
            purpose = "budget_coach"
        roll = rng.random()
        scope = "global"
        if roll < 0.10:
            scope = f"project:{rng.choice(('alpha', 'beta', 'gamma'))}"
        elif roll < 0.15:
            scope = "workspace:home"
        text = f"Remember this: {claim}."  # only its salted hash is stored
        message = Message(
            message_id=f"m-{i:08d}",
            tenant=tenant,
            account=subject,
            conversation_id=f"c-{subject}-{i // corpus.subjects // 8}",
            turn=i // corpus.subjects,
            role=Role.USER,
            text=text,
            ts=observed,
            scope=scope,
            purpose=purpose,
            session=session,
        )
        memory = UserMemory(
            tenant=tenant,
            subject=subject,
            account=subject,
            origin=Origin(origin),
            kind=Kind(kind),
            claim=claim,
            source=SourceRef(message.message_id, (15, len(text) - 1)),
            scope=scope,
            purpose=purpose,
            observed_at=observed,
            valid_from=valid_from,
            valid_until=valid_until,
            confidence=round(rng.uniform(0.55, 0.95), 3),
            sensitivity=Sensitivity.SPECIAL if "allergic" in claim else Sensitivity.NONE,
            confirmation=confirmation,
            status=status,
            session=session,
            policy_version="bench",
            id=uuid.UUID(int=rng.getrandbits(128), version=4),
        )
        pairs.append((message, memory))
    return pairs


@dataclass(frozen=True)
class Probe:
    tenant: str
    actor: str
    subject: str
    purpose: str
    scope: str
    text: str


def probes(corpus: Corpus, n: int) -> list[Probe]:
    rng = random.Random(f"{corpus.seed}:probes")
    granted = [s for s in range(corpus.subjects) if corpus.granted(s)]
    found = []
    for _ in range(n):
        if granted and rng.random() < DELEGATED_QUERIES:
            s = rng.choice(granted)
            actor = corpus.subject_name(corpus.grantee(s))
        else:
            s = rng.randrange(corpus.subjects)
            actor = corpus.subject_name(s)
        roll = rng.random()
        purpose = "assistant" if roll < 0.85 or actor != corpus.subject_name(s) else "travel"
        scope = "global" if rng.random() < 0.85 else "project:alpha"
        found.append(
            Probe(
                corpus.tenant_of(s),
                actor,
                corpus.subject_name(s),
                purpose,
                scope,
                _fill(rng.choice(QUERIES), rng),
            )  # fmt: skip
        )
    return found
