"""How much PII permem.redaction lets through, and how fast it is, on labelled synthetic texts.

Reads the Presidio synthetic PII set (dev split): each text with its gold spans. Redacts every
text and counts, per gold entity type, the gold values that still appear verbatim in the
redacted text (a leak) and the gold spans not wholly covered by a redacted entity (partial:
stricter, since redacting part of a long address already breaks its verbatim value). The leak
rate over the direct-identifier types is the number to watch (target: at most 1%).

Throughput is measured twice: redact() parsing each text itself, and one nlp.pipe() call for
all texts followed by redact(text, doc); the ratio shows what passing the parse saves. When the
persona-chat and PrefEval claims are present, it also reports how many of those ordinary
claims redaction changes (their text is never printed). Run by hand:

    .venv/bin/python benchmarks/redaction_eval.py [texts.jsonl]

The report is appended to benchmarks/results/redaction.txt and printed.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter
from datetime import datetime
from pathlib import Path

from permem.nlp import load_pipeline
from permem.redaction import Redaction, Redactor

from harness import DIRECT_ENTITY_TYPES

DATA = Path("/work/shared/data/eval/presidio_synth/texts.jsonl")
CHAT_CLAIMS = [
    Path("/work/shared/data/eval/synthetic_persona_chat/gold_claims.jsonl"),
    *sorted(Path("/work/shared/data/eval/prefeval").glob("*/gold_claims.jsonl")),
]
RESULTS = Path(__file__).resolve().parent / "results" / "redaction.txt"
DIRECT = DIRECT_ENTITY_TYPES


def _covered(redaction: Redaction, start: int, end: int) -> bool:
    """Whether every non-space character of text[start:end] lies inside a redacted entity."""
    inside = [False] * (end - start)
    for entity in redaction.entities:
        for i in range(max(start, entity.start), min(end, entity.end)):
            inside[i - start] = True
    return all(inside[i] or redaction.text[start + i].isspace() for i in range(end - start))


def main(path: Path) -> str:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    texts = [row["text"] for row in rows]
    nlp = load_pipeline()
    redactor = Redactor(nlp)
    redactor.redact("warm-up: call me at 555-0134")

    # Best of two rounds of each, interleaved, so a busy machine skews both alike.
    self_s = pipe_s = reuse_s = float("inf")
    for _ in range(2):
        started = time.perf_counter()
        redactions = [redactor.redact(text) for text in texts]
        self_s = min(self_s, time.perf_counter() - started)
        started = time.perf_counter()
        docs = list(nlp.pipe(texts))
        parsed = time.perf_counter()
        reused = [redactor.redact(text, doc) for text, doc in zip(texts, docs, strict=True)]
        if (time.perf_counter() - started) < pipe_s + reuse_s:
            pipe_s, reuse_s = parsed - started, time.perf_counter() - parsed
    mismatches = sum(a.redacted != b.redacted for a, b in zip(redactions, reused, strict=True))

    gold: Counter[str] = Counter()
    leaked: Counter[str] = Counter()
    partial: Counter[str] = Counter()
    for row, redaction in zip(rows, redactions, strict=True):
        for span in row["spans"]:
            kind, start, end = span["entity_type"], span["start"], span["end"]
            gold[kind] += 1
            leaked[kind] += row["text"][start:end] in redaction.redacted
            partial[kind] += not _covered(redaction, start, end)

    n = len(texts)
    lines = [
        f"{datetime.now():%Y-%m-%d %H:%M} {path.parent.name}/{path.name}: {n} texts, "
        f"{sum(gold.values())} gold spans (load average {os.getloadavg()[0]:.1f} on "
        f"{os.cpu_count()} CPUs)",
        f"  {'type':<20} {'gold':>5} {'leaked':>7} {'leak %':>7} {'partial':>8}",
    ]
    for kind in sorted(gold, key=lambda k: (k not in DIRECT, k)):
        mark = "*" if kind in DIRECT else " "
        lines.append(
            f"{mark} {kind:<20} {gold[kind]:>5} {leaked[kind]:>7} "
            f"{100 * leaked[kind] / gold[kind]:>6.1f}% {partial[kind]:>8}"
        )
    direct_gold = sum(gold[k] for k in DIRECT)
    direct_leaked = sum(leaked[k] for k in DIRECT)
    direct_partial = sum(partial[k] for k in DIRECT)
    lines += [
        f"  direct identifiers (*): leaked {direct_leaked}/{direct_gold} = "
        f"{100 * direct_leaked / max(direct_gold, 1):.1f}% (target <= 1%), "
        f"partially covered {direct_partial}/{direct_gold}",
        f"  throughput: redact(text) parsing itself {n / self_s:,.0f} texts/s | "
        f"one nlp.pipe + redact(text, doc) {n / (pipe_s + reuse_s):,.0f} texts/s "
        f"(pipe {pipe_s:.2f} s, redact {reuse_s:.2f} s) | ratio "
        f"{self_s / (pipe_s + reuse_s):.2f}x",
        f"  doc reuse gives the same redactions: {'yes' if mismatches == 0 else 'NO'}"
        + ("" if mismatches == 0 else f" ({mismatches} differ)"),
    ]
    lines += _chat_damage(redactor)
    return "\n".join(lines)


def _chat_damage(redactor: Redactor) -> list[str]:
    """How many ordinary first-person claims redaction changes (counts only, no text)."""
    claims = list(
        dict.fromkeys(  # the persona sentences repeat across conversations
            json.loads(line)["claim"]
            for path in CHAT_CLAIMS
            if path.exists()
            for line in path.read_text(encoding="utf-8").splitlines()
            if line
        )
    )
    if not claims:
        return []
    changed = [r for r in redactor.redact_many(claims) if r.changed]
    kinds = Counter(e.type for r in changed for e in r.entities)
    summary = ", ".join(f"{k} {v}" for k, v in kinds.most_common()) or "nothing"
    return [
        f"  distinct ordinary claims changed (persona-chat + PrefEval): "
        f"{len(changed)}/{len(claims)} = {100 * len(changed) / len(claims):.1f}% ({summary})"
    ]


if __name__ == "__main__":
    data = Path(sys.argv[1]) if len(sys.argv) > 1 else DATA
    if not data.exists():
        print(f"redaction_eval: {data} not found; nothing to measure (see its README.md).")
        sys.exit(0)
    report = main(data)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a", encoding="utf-8") as out:
        out.write(report + "\n\n")
    print(report)
