"""The cue pass's regular expressions: their cost over a generated log, and their worst case on
one long line without a sentence break.

The cue pass (permem.extraction.cues) runs a few hundred patterns over every sentence of every
user message before anything is parsed. A pattern that backtracks or looks ahead from every
position costs time quadratic in the line's length: invisible on chat-length sentences, and a
whole night on one pasted page with no full stop (stop 27: `modality._HYPOTHETICAL` took
7 s on a 16,000-character line, results/cue_patterns.txt). This times every compiled pattern
at module level in `permem` (the corpus generator and the migrations aside), each through
`search` (its first match: a pattern the code runs with `finditer` or `sub` reads on):

- over the sentences of the user messages of a generated log (benchmarks/conversation_log.py),
  the ten slowest, and all of them together;
- on lines of 2,000 and 16,000 characters of several shapes (plain words, first person with
  conditionals, names, digits): a pattern whose time grows more than 16x for 8x the length is
  listed as superlinear (when it takes over 0.05 s on the long line: below, timer noise);
- the whole analysis (extract, classify, redact, gate: `analysis.analyze_stage`) of one user
  message of 8,000 and 32,000 characters, one sentence of many clauses ("I love hiking and we
  go to the hills every weekend and ..."), with its stage seconds.

Appends to benchmarks/results/cue_patterns.txt. Run by hand:

    .venv/bin/python benchmarks/cue_patterns.py [--messages N]
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import platform
import re
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import permem
from permem.extraction.cues import sentences
from permem.logs import read_log
from permem.records import Message, Role

from conversation_log import generate
from harness import Results, code_version

RESULTS = Path(__file__).resolve().parent / "results" / "cue_patterns.txt"
_SHAPES = {
    "words": "so we went to the market and bought some apples and then walked home ",
    "conditional": "if I ever get the chance I would love to live by the sea one day and we'd ",
    "names": "Anna Maria Lopez Garcia met Tom O'Neill in New York City on Friday ",
    "digits": "12 34 5.6 7,8 2026-01-05 09:30 ",
}


def patterns() -> dict[str, re.Pattern[str]]:
    """Every compiled pattern bound at module level in permem, by the dotted name of the module
    that assigns it (`NAME = re.compile(...)`, `NAME = words(...)`), not of one that imports it."""
    found: dict[str, re.Pattern[str]] = {}
    named: dict[int, str] = {}
    for module in pkgutil.walk_packages(permem.__path__, "permem."):
        if module.name.startswith(("permem.corpus", "permem.migrations")):
            continue  # the generator is no pipeline; migrations run only under alembic
        loaded = importlib.import_module(module.name)
        source = Path(loaded.__file__ or "").read_text(encoding="utf-8")
        for name, value in vars(loaded).items():
            value = getattr(value, "bare", value)  # behind its string test (prefilter.Guarded)
            if not isinstance(value, re.Pattern):
                continue
            assigned = re.search(rf"^{re.escape(name)}\s*(?::[^=\n]+)?=", source, re.M)
            if id(value) not in named or assigned:
                found.pop(named.get(id(value), ""), None)
                named[id(value)] = f"{module.name}.{name}"
                found[named[id(value)]] = value
    return found


def _seconds(pattern: re.Pattern[str], texts: list[str]) -> float:
    started = time.perf_counter()
    for text in texts:
        pattern.search(text)
    return time.perf_counter() - started


def _one_long_message(size: int) -> str:
    """The analysis of one long user message (see the module docstring), timed."""
    from permem.analysis import analyze_stage
    from permem.pipeline_batch import Prepared, TenantState
    from permem.settings import Settings

    piece = "I love hiking and we go to the hills every weekend and I would never skip it "
    settings = Settings(embedder="hashing")

    def analyzed(text: str) -> tuple[float, Any]:
        message = Message(
            message_id="m1", tenant="t", account="a", conversation_id="c", turn=1,
            role=Role.USER, text=text, ts=datetime(2026, 3, 1, 9, tzinfo=UTC),
        )  # fmt: skip
        prepared = Prepared(1, [message], [], [], {"t": TenantState(salt=b"bench")}, Counter())
        started = time.perf_counter()
        analysis = analyze_stage(settings, prepared)
        return time.perf_counter() - started, analysis

    analyzed("I love hiking.")  # models load outside the clock
    took, analysis = analyzed((piece * (size // len(piece) + 1))[:size])
    stages = ", ".join(f"{k} {v:.2f}" for k, v in analysis.seconds.items())
    return f"{took:.1f} s ({analysis.candidates} candidates; {stages})"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=10_000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="permem-patterns-") as scratch:
        log = Path(scratch) / "log.jsonl"
        generate(log, args.messages, seed=1)
        user = [m for m in read_log(log) if isinstance(m, Message) and m.role is Role.USER]
    texts = [m.text[a:b] for m in user for a, b in sentences(m.text)]
    found = patterns()
    costs = sorted(((_seconds(p, texts), name) for name, p in found.items()), reverse=True)
    lines = [
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC  cue patterns: {len(found)} module-level "
        f"patterns in permem; {len(texts):,} sentences of {len(user):,} user messages "
        f"(conversation_log seed 1, {args.messages:,} messages), "
        f"code {code_version()}, {platform.node()}",
        f"  all patterns once over every sentence: {sum(c for c, _ in costs):.2f} s; slowest: "
        + ", ".join(f"{name.removeprefix('permem.')} {c:.3f}" for c, name in costs[:10]),
    ]
    superlinear = []
    for shape, piece in _SHAPES.items():
        short = (piece * (2_000 // len(piece) + 1))[:2_000]
        long = (piece * (16_000 // len(piece) + 1))[:16_000]
        for name, pattern in found.items():
            a, b = _seconds(pattern, [short]), _seconds(pattern, [long])
            if b > 0.05 and b > 16 * a:
                superlinear.append(f"{name.removeprefix('permem.')} [{shape}] {a:.4f} -> {b:.3f} s")
    lines.append(
        "  superlinear on one line of 2,000 -> 16,000 characters (> 16x for 8x): "
        + ("; ".join(superlinear) if superlinear else "none")
    )
    for size in (8_000, 32_000):
        lines.append(f"  one user message of {size:,} characters: {_one_long_message(size)}")
    Results(RESULTS).emit("\n".join(lines) + "\n\n")


if __name__ == "__main__":
    main()
