"""The pattern recognizers' character test (permem.redaction._needs): what it reads off a
pattern, and that a guarded recognizer finds exactly what the bare one finds."""

from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from permem.nlp import load_pipeline
from permem.redaction._needs import needs
from permem.redaction._recognizers import recognizers
from tests.conftest import corpus_texts


@pytest.mark.parametrize(
    ("pattern", "chars"),
    [
        (r"\b[\w.+-]+@[\w-]+\.[\w.]+\b", "@"),
        (r"\b\d{3}-\d{2}-\d{4}\b", "-"),
        (r"\b(?:4\d{3}|5[0-5]\d{2})\d{12}\b", "45"),
        (r"(?:bc1|[13])[a-km-zA-HJ-NP-Z1-9]{25,34}", "13"),
        (r"\b[a-d]{2}\d{6}\b", "0123456789"),  # digits are rarer than letters
    ],
)
def test_the_characters_a_pattern_cannot_match_without(pattern: str, chars: str) -> None:
    assert needs(pattern) == frozenset(chars)


@pytest.mark.parametrize(
    "pattern",
    [r"\w+", r"[^@]+", r".+", r"(?:\d+)?", r"\p{L}+\d", r"[[:alpha:]]\d", r"(a|\w)"],
)
def test_no_test_for_a_pattern_that_needs_no_character(pattern: str) -> None:
    assert needs(pattern) is None


@functools.cache
def _guarded() -> list[Any]:
    found = [r for r in recognizers(load_pipeline()) if hasattr(r, "bare_analyze")]
    assert len(found) >= 20
    return found


def _same(recognizer: Any, text: str) -> None:
    def spans(results: list[Any]) -> list[tuple[object, ...]]:
        return sorted((r.entity_type, r.start, r.end, r.score) for r in results)

    entities = recognizer.supported_entities
    assert spans(recognizer.analyze(text, entities, None)) == spans(
        recognizer.bare_analyze(text, entities, None)
    ), (recognizer.name, text)


def test_a_guarded_recognizer_finds_what_the_bare_one_finds_on_the_corpus(tmp_path: Path) -> None:
    texts = corpus_texts(tmp_path)
    texts |= {
        "card 4111 1111 1111 1111, iban GB82 WEST 1234 5698 7654 32, ssn 078-05-1120",
        "mail me at ana@example.org or 10.0.0.1; btc 1BoatSLRHtKNngkdXEeobR76b53LETtpyT",
        "MY NINO IS QQ123456C AND MY NHS NUMBER 943 476 5919",
        "call me on +44 20 7946 0958 or (212) 555-0147 ext. 12, not after 9pm",
    }
    assert len(texts) > 1_000
    for recognizer in _guarded():
        for text in texts:
            _same(recognizer, text)


_PIECES = sorted(set("0123456789@.:-?/ abcdXYZ") | {"4111", "GB82", "@x.io", "078-05-", "1Boat"})


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30), st.randoms(use_true_random=False))
def test_a_guarded_recognizer_finds_what_the_bare_one_finds_on_texts_of_its_characters(
    pieces: list[str], rnd: random.Random
) -> None:
    text = "".join(p.upper() if rnd.random() < 0.3 else p for p in pieces)
    for recognizer in _guarded():
        _same(recognizer, text)


def test_the_phone_recognizer_needs_a_digit() -> None:
    """Every number `phonenumbers` finds was first a match of its candidate pattern, and that
    pattern needs a digit (the other characters it allows are not in ASCII text)."""
    [phone] = [r for r in _guarded() if r.name == "PhoneRecognizer"]
    assert phone.analyze.args[1] == frozenset("0123456789")
    assert phone.analyze("call me on +44 20 7946 0958", ["PHONE_NUMBER"], None)


def test_only_a_text_without_any_needed_character_is_skipped() -> None:
    [email] = [r for r in _guarded() if r.name == "EmailRecognizer"]
    assert email.analyze("no address here", ["EMAIL_ADDRESS"], None) == []
    found = email.analyze("write to ana@example.org", ["EMAIL_ADDRESS"], None)
    assert [(r.start, r.end) for r in found] == [(9, 24)]
