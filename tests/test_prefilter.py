"""The cue pass's string test (permem.prefilter): what it reads off a pattern, and
that a guarded pattern answers exactly as the bare one."""

from __future__ import annotations

import importlib
import pkgutil
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import permem
import permem.extraction
from permem.extraction.cues import sentences
from permem.prefilter import Guarded, required
from tests.conftest import corpus_texts


@pytest.mark.parametrize(
    ("pattern", "strings"),
    [
        (r"\bno\s+longer\b", {"longer"}),
        (r"(?:fell|falls)\s+through", {"through"}),
        (r"\b(?:i'm|i am)\s+(?:vegan|vegetarian)\b", {"vegan", "vegetarian"}),
        (r"\bis\s+o(?:ld|utdated|ut\s+of\s+date)\b", {"old", "outdated", "out"}),
        (r"^(?-i:IT)\s+dept", {"dept"}),
        (r"colou?r", {"color", "colour"}),
    ],
)
def test_the_strings_a_pattern_cannot_match_without(pattern: str, strings: set[str]) -> None:
    assert required(re.compile(pattern, re.IGNORECASE)) == strings


@pytest.mark.parametrize(
    "pattern",
    [r"\w+\s+\w+", r"\b(?:a|an|the)\s+\w+", r"^\s*\d{1,2}:\d\d", r"(?:long|x)\s+\w+", r"(a)b\1"],
)
def test_no_test_for_a_pattern_that_needs_no_long_string(pattern: str) -> None:
    assert required(re.compile(pattern)) is None


def _guarded() -> list[Guarded]:
    """Every guarded pattern of permem: module names and the values of named categories
    (`extraction.sensitive.SPECIAL`), in the cue pass and the classifier's time readers."""
    found: dict[int, Guarded] = {}
    for package in (permem, permem.extraction):
        for module in pkgutil.iter_modules(package.__path__):
            if module.ispkg:
                continue
            loaded = importlib.import_module(f"{package.__name__}.{module.name}")
            for value in vars(loaded).values():
                held = value.values() if isinstance(value, dict) else (value,)
                for item in held:
                    if isinstance(item, Guarded):
                        found[id(item)] = item
    return list(found.values())


def _answers(pattern: Guarded | re.Pattern[str], text: str) -> tuple[object, ...]:
    def span(m: re.Match[str] | None) -> tuple[int, int] | None:
        return None if m is None else m.span()

    return (
        span(pattern.search(text)),
        span(pattern.match(text)),
        [m.span() for m in pattern.finditer(text)],
        pattern.sub("#", text),
    )


def test_the_cue_pass_and_the_classifier_guard_their_patterns() -> None:
    guarded = _guarded()
    assert len(guarded) >= 200
    from permem import temporal_phrases
    from permem.extraction import modality, sensitive

    assert isinstance(modality.RETRACTION, Guarded)
    assert isinstance(temporal_phrases.WEEKLY_RUN, Guarded)
    assert isinstance(sensitive.PERSONAL["location"], Guarded)


def test_a_guarded_pattern_answers_as_the_bare_one_on_the_corpus(tmp_path: Path) -> None:
    """Over every user message of the corpus's development half and each of its sentences
    (and the same lower-cased, upper-cased, and with a curly apostrophe, which is not ASCII)."""
    texts = corpus_texts(tmp_path, per_template=2)
    texts |= {text[a:b] for text in texts for a, b in sentences(text)}
    texts |= {t.lower() for t in texts} | {t.upper() for t in texts}
    texts |= {t.replace("'", "\u2019") for t in list(texts)[:500]}
    assert len(texts) > 2_000
    for pattern in _guarded():
        for text in texts:
            assert _answers(pattern, text) == _answers(pattern.bare, text), (
                pattern.bare.pattern[:80],
                text,
            )


_WORDS = sorted({s for g in _guarded() for s in required(g.bare) or ()})


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_WORDS + ["i", "my", "not", "we're", ",", "."]), max_size=12),
       st.randoms(use_true_random=False))  # fmt: skip
def test_a_guarded_pattern_answers_as_the_bare_one_on_texts_of_its_strings(
    words: list[str], rnd: random.Random
) -> None:
    """Texts made of the very strings the tests look for, in any order and case."""
    text = " ".join(w.upper() if rnd.random() < 0.2 else w for w in words)
    for pattern in _guarded():
        assert _answers(pattern, text) == _answers(pattern.bare, text), (pattern.bare.pattern, text)


def test_no_code_tells_a_pattern_by_its_compiled_object() -> None:
    """A guarded pattern is not the compiled object its matches point back to: code that asks
    `match.re is PATTERN` would take a guarded pattern's match for another's (it did, once, in
    speaker_markers). The source of permem must not ask it."""
    root = Path(permem.extraction.__file__).parent.parent
    asked = [
        f"{path.relative_to(root)}:{n}"
        for path in sorted(root.rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\.re\s+(?:is|==)\s", line)
    ]
    assert asked == []


def test_a_pattern_guarded_after_a_text_was_scanned_still_finds_it() -> None:
    """The scanner remembers what it found in recent texts; a pattern guarded later (a module
    imported late) must not read a remembered text as lacking its strings."""
    text = "the zyxwvut protocol is what I use"
    early = Guarded(re.compile(r"\bprotocol\b"), frozenset({"protocol"}))
    assert early.search(text) is not None  # the text is scanned and remembered
    late = Guarded(re.compile(r"\bzyxwvut\b"), frozenset({"zyxwvut"}))
    assert late.search(text) is not None


def test_a_guarded_pattern_copies_and_pickles_as_itself() -> None:
    import copy
    import pickle

    guarded = Guarded(re.compile(r"\bno\s+longer\b"), frozenset({"longer"}))
    for twin in (copy.copy(guarded), copy.deepcopy(guarded), pickle.loads(pickle.dumps(guarded))):
        assert isinstance(twin, Guarded) and twin.bare.pattern == guarded.bare.pattern
        assert twin.search("I no longer eat meat") is not None and twin.search("later") is None
