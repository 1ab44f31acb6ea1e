"""Can sentence vectors tell what a user's sentence does? A measurement, not a pipeline stage.

The cue rules tell a standing statement from a one-off, a plan, a hypothetical, a change or
someone else typing by the wordings they list (issue 15: they fit the wordings they were
written against). This measures the learned alternative tried in stop 26: a multinomial
logistic regression (scikit-learn) over MiniLM sentence vectors, trained on the labelled
sentences of `benchmarks/data/clauses.jsonl` (398, written for it apart from the corpus and
from the rules; labels below), scored by stratified 10-fold cross-validation for several
regularisations C: accuracy, and for each label but `standing` the precision and recall of
"verdict is this label with probability >= t".

The stop-26 note on issue 15 has what happened when it acted in the pipeline (the branch
`judgement-experiment`): at best 3 held-apart wrongs fewer, one development wrong more, and
151 sentences/s, too slow for the nightly budget. Appends to
benchmarks/results/clause_judgement.txt. Run by hand:

    .venv/bin/python benchmarks/clause_judgement.py
"""

from __future__ import annotations

import json
import platform
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression  # type: ignore[import-untyped]
from sklearn.model_selection import StratifiedKFold  # type: ignore[import-untyped]

from permem.embedding import MiniLMEmbedder

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE / "data" / "clauses.jsonl"
RESULTS = HERE / "results" / "clause_judgement.txt"
LABELS = ("standing", "one_off", "plan", "not_real", "change", "other_speaker")
REGULARISATIONS = (1.0, 4.0, 16.0, 64.0)
THRESHOLDS = (0.6, 0.8, 0.9)


def examples(path: Path = EXAMPLES) -> tuple[list[str], list[str]]:
    texts, labels = [], []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        row = json.loads(line)
        if row["label"] not in LABELS:
            raise SystemExit(f"{path.name}:{number}: unknown label {row['label']!r}")
        texts.append(row["text"])
        labels.append(row["label"])
    return texts, labels


def cross_validated(vectors: np.ndarray, y: np.ndarray, c: float) -> np.ndarray:
    """Each sentence's class probabilities from a model that never saw it."""
    probabilities = np.zeros((len(y), len(LABELS)))
    folds = StratifiedKFold(n_splits=10, shuffle=True, random_state=0)
    for train, test in folds.split(vectors, y):
        model = LogisticRegression(C=c, max_iter=5000).fit(vectors[train], y[train])
        columns = [LABELS.index(str(label)) for label in model.classes_]
        probabilities[np.ix_(test, columns)] = model.predict_proba(vectors[test])
    return probabilities


def main() -> None:
    texts, labels = examples()
    y = np.array(labels)
    embedder = MiniLMEmbedder()
    embedder.embed(texts[:1])  # the model loads outside the clock
    started = time.perf_counter()
    vectors = embedder.embed(texts)
    rate = len(texts) / (time.perf_counter() - started)
    counts = {label: int((y == label).sum()) for label in LABELS}
    lines = [
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC  clause judgement, stratified 10-fold CV, "
        f"{len(y)} sentences {counts}, MiniLM ({rate:.0f} sentences/s embedded), "
        f"{platform.node()}"
    ]
    for c in REGULARISATIONS:
        p = cross_validated(vectors, y, c)
        predicted = np.array(LABELS)[p.argmax(axis=1)]
        confidence = p.max(axis=1)
        cells = []
        for label in LABELS[1:]:
            for t in THRESHOLDS:
                acted = (predicted == label) & (confidence >= t)
                cells.append(f"{label}@{t}: {int((acted & (y == label)).sum())}/{int(acted.sum())}")
        lines.append(f"  C={c:g}: accuracy {float((predicted == y).mean()):.3f}")
        lines.append("    right/acted: " + ", ".join(cells))
    print("\n".join(lines))
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n\n")


if __name__ == "__main__":
    main()
