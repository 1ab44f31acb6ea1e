"""Direct-identifier leaks: gold spans of presidio_synth found verbatim, or in part, in a stored
claim of their message."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from extraction_recall import _STOP
from extraction_run import Claim, Run
from harness import DIRECT_ENTITY_TYPES

DIRECT = DIRECT_ENTITY_TYPES


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
