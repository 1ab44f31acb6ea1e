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

The script by job: `extraction_run.py` (one dataset through the pipeline, read back),
`extraction_recall.py`, `extraction_leaks.py` and `extraction_sensitive.py` (the three metrics),
`extraction_report.py` (the summary and the samples); `harness.py` holds the server, the fresh
database, the data readers and the results header.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from permem.nlp import load_pipeline
from permem.policy import POLICY_VERSION
from permem.runtime import shared_redactor

from extraction_leaks import score_leaks
from extraction_recall import score_recall
from extraction_report import (
    Report,
    print_leak_samples,
    print_recall_samples,
    print_sensitive_samples,
    summary,
)
from extraction_run import BATCH_SIZE, ingest
from extraction_sensitive import score_sensitive, sensitive_targets
from harness import benchmark_server, header, load_average, log_files, read_jsonl

DATA = Path("/work/shared/data")
EVAL = DATA / "eval"
RESULTS = Path(__file__).resolve().parent / "results" / "extraction_eval.txt"

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


def main(names: list[str], samples: int, seed: int) -> str:
    load_start = load_average()
    server, stop = benchmark_server(prefix="permem-xeval-pg-")
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
    facts = f"; policy={POLICY_VERSION} embedder=hashing batch={BATCH_SIZE}"
    first = header("extraction_eval", server, seed, load_start) + facts
    return summary(report, first)


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
