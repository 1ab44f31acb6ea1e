"""The generated scenario corpus (permem.corpus), both halves, through the scenario harness.

Generates the development and the held-apart half into a temporary folder, runs each through
`permem.scenarios.run_scenarios` (fresh stores per scenario, the hashing embedder unless
PERMEM_EMBEDDER says otherwise) and appends a dated per-family table of both halves to
benchmarks/results/corpus.txt. Run by hand:

    PERMEM_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \
        nice -n 19 .venv/bin/python benchmarks/scenario_corpus.py [--seed N] [--per-template N]

Without PERMEM_DATABASE_URL the harness starts an embedded server. Exit 0 whatever the scores:
this measures, it does not gate.
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from permem import corpus
from permem.scenario_report import HarnessReport, Outcome
from permem.scenarios import run_scenarios
from permem.settings import Settings

RESULTS = Path(__file__).resolve().parent / "results" / "corpus.txt"
COLUMNS = ("scen", "queries", "hits", "relevant", "wrong", "denied≠", "empty≠", "leaks", "errors")


def _row(name: str, scenarios: int, o: Outcome) -> str:
    cells = (scenarios, o.queries, o.hits, o.hits + o.misses, o.wrong,
             o.denied_mismatches, o.empty_mismatches, o.leaks, o.errors)  # fmt: skip
    return f"    {name:<20}" + "".join(f"{c:>9}" for c in cells)


def table(report: HarnessReport) -> list[str]:
    counts: dict[str, int] = {}
    for scenario in report.scenarios:
        for family in scenario.families:
            counts[family] = counts.get(family, 0) + 1
    lines = [f"    {'family':<20}" + "".join(f"{c:>9}" for c in COLUMNS)]
    lines += [_row(name, counts[name], o) for name, o in report.families.items()]
    total = report.total
    lines.append(_row("total", len(report.scenarios), total))
    relevant = total.hits + total.misses
    share = f"{100 * total.hits / relevant:.1f} %" if relevant else "-"
    not_run = [s.name for s in report.scenarios if s.not_run]
    lines.append(f"    hits/relevant {share}; scenarios stopped early: {len(not_run)}")
    # Counts only: where each miss stopped and how each wrong came to be returned.
    lines.append("    causes: " + "; ".join(f"{k} {v}" for k, v in report.causes().items()))
    kinds = report.wrong_kinds()
    lines.append("    wrong by kind: " + ("; ".join(f"{k} {v}" for k, v in kinds.items()) or "-"))
    # The same causes family by family: where each family's misses and wrongs come from.
    for family in report.families:
        causes = report.causes(family)
        if causes:
            lines.append(f"    {family}: " + "; ".join(f"{k} {v}" for k, v in causes.items()))
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=corpus.DEFAULT_SEED)
    parser.add_argument("--per-template", type=int, default=corpus.PER_TEMPLATE)
    parser.add_argument("--out", type=Path, default=RESULTS, help="results file (appended to)")
    args = parser.parse_args(argv)
    os.environ.setdefault("PERMEM_EMBEDDER", "hashing")
    base = Settings()
    lines = [
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC  corpus seed {args.seed}, "
        f"{args.per_template} variants per template, {len(corpus.FAMILIES)} families, "
        f"embedder {base.embedder}, {platform.node()}"
    ]
    with tempfile.TemporaryDirectory(prefix="permem-corpus-") as scratch:
        for half in ("dev", "held"):
            folder = Path(scratch) / half
            corpus.generate(folder, seed=args.seed, half=half, per_template=args.per_template)
            started = time.monotonic()
            report = run_scenarios([folder], base)
            took = time.monotonic() - started
            rows = [f"  {half} half: {len(report.scenarios)} scenarios ({took:.0f} s)"]
            rows += table(report)
            lines += rows
            print("\n".join(rows), flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("a", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n\n")
    print(f"appended to {args.out}")


if __name__ == "__main__":
    main()
