"""The extraction evaluation's report: the summary written to the results file, and the
samples printed to the console only."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from permem.records import Confirmation

from extraction_leaks import DIRECT, Leaks
from extraction_recall import Recall, _gold_ids
from extraction_run import Claim, Run
from extraction_sensitive import Sensitive

TRUNCATE = 300
# Minimum recall per dataset (SPC: over anchored sentences). implicit_choice has none.
RECALL_TARGETS = {
    "prefeval_explicit": 0.95,
    "prefeval_implicit_persona": 0.70,
    "spc": 0.60,
    "locomo": 0.50,
}
LEAK_TARGET = 0.01
DECISIONS = ("accept", "shorten", "redact", "confirm", "session_only", "reject")


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
