"""A cheap test before each pattern recognizer: the characters it cannot match without.

Presidio runs every pattern recognizer (cards, IBANs, IPs, national ids, e-mail, ...) over
every text, and on chat nearly all of them find nothing: a card number needs a digit, an e-mail
address an "@". `needs` reads, from a pattern's own parse (Python's `re` parser, which reads
these patterns as the `regex` module does), a set of characters one of which is in every match:
in a sequence, the characters of the most selective item that must occur ("@" in an e-mail
pattern, the digits in a card pattern); in an alternation, those of every branch together.
`guard` has a recognizer skip a text that holds none of the characters any of its patterns
needs, and run as before on every other text, so it finds exactly what it found.

Sound for ASCII text, and only tested there: under IGNORECASE every letter is read in both
cases, a pattern item that is not ASCII, a class that is negated or too wide, and syntax only
the `regex` module reads (`\\p{...}`, POSIX classes) give no test at all. A text with any other
character runs every recognizer. `tests/test_redaction_needs.py` checks that a guarded recognizer
finds the same as the bare one over the corpus and over texts built from what it needs.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Callable
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

from phonenumbers import phonenumbermatcher
from presidio_analyzer import PatternRecognizer
from presidio_analyzer.predefined_recognizers import PhoneRecognizer

__all__ = ["guard", "needs"]

_ASCII = frozenset(chr(i) for i in range(128))
_CATEGORIES = {
    sre.CATEGORY_DIGIT: frozenset(string.digits),
    sre.CATEGORY_SPACE: frozenset(" \t\n\r\f\v"),
}
# Syntax the `regex` module reads and Python's parser reads otherwise, or not at all.
_FOREIGN = re.compile(r"\\[pPLNXGKmM]|\[:\^?[a-z]+:\]|\(\?[V|&R]|\(\?\d")
_WIDEST = 40  # a class of more characters than this says little: no test


def _swapped(chars: frozenset[str]) -> frozenset[str]:
    return chars | {c.swapcase() for c in chars}


def _item(op: Any, arg: Any) -> frozenset[str] | None:
    """The characters one of which a single pattern item always consumes, or None."""
    if op is sre.LITERAL:
        char = chr(arg)
        if char in _ASCII:
            return _swapped(frozenset(char))
        # Another script's letter may fold to an ASCII one ("ſ" to "s"); any other character
        # is in no ASCII text, so the item can never match one.
        return None if char.isalpha() else frozenset()
    if op is sre.IN:
        chars: set[str] = set()
        for kind, value in arg:
            if kind is sre.LITERAL:
                chars.add(chr(value))
            elif kind is sre.RANGE:
                low, high = value
                if high > 127 and any(chr(i).isalpha() for i in range(max(low, 128), high + 1)):
                    return None
                chars.update(chr(i) for i in range(low, min(high, 127) + 1))
            elif kind is sre.CATEGORY and value in _CATEGORIES:
                chars.update(_CATEGORIES[value])
            else:  # a negated class, \w, \W, ...: too wide to say anything
                return None
        if any(c.isalpha() for c in chars - _ASCII):
            return None  # a letter of another script may fold to an ASCII one
        found = _swapped(frozenset(chars) & _ASCII)
        return found if len(found) <= _WIDEST else None
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", None)):
        low, _, body = arg
        return _sequence(body) if low >= 1 else None
    if op is sre.SUBPATTERN:
        return _sequence(arg[-1])
    if op is getattr(sre, "ATOMIC_GROUP", None):
        return _sequence(arg)
    if op is sre.BRANCH:
        found_all: set[str] = set()
        for branch in arg[1]:
            branch_needs = _sequence(branch)
            if branch_needs is None:
                return None
            found_all |= branch_needs
        return frozenset(found_all)
    return None


def _weight(chars: frozenset[str]) -> float:
    """How often a text holds one of `chars`, roughly: letters and spaces are in nearly every
    sentence of chat, digits and most punctuation in few."""
    return sum(1.0 if c.isalpha() else 5.0 if c.isspace() else 0.1 for c in chars)


def _sequence(items: Any) -> frozenset[str] | None:
    """The most selective set among the items of a sequence that must each occur."""
    best: frozenset[str] | None = None
    for op, arg in items:
        found = _item(op, arg)
        if found is not None and (best is None or _weight(found) < _weight(best)):
            best = found
    return best


@functools.lru_cache(maxsize=1024)
def needs(pattern: str) -> frozenset[str] | None:
    """ASCII characters one of which every match of `pattern` holds (in any case), or None."""
    if _FOREIGN.search(pattern):
        return None
    try:
        parsed = sre_parse.parse(pattern, re.IGNORECASE)
    except Exception:  # noqa: BLE001  (syntax only the regex module reads: no test)
        return None
    return _sequence(list(parsed))


@functools.lru_cache(maxsize=512)
def _chars(text: str) -> frozenset[str] | None:
    """The characters of `text`, or None when it is not ASCII (no test)."""
    return frozenset(text) if text.isascii() else None


def _patterns(recognizer: Any) -> list[str] | None:
    """The patterns every match of `recognizer` is a match of: its own, or for the phone
    recognizer the candidate pattern of `phonenumbers`' matcher (every number it finds was
    first a match of that pattern); None for any other recognizer."""
    if isinstance(recognizer, PatternRecognizer):
        target: Any = recognizer
        return [p.regex for p in target.patterns] or None
    if isinstance(recognizer, PhoneRecognizer):
        return [phonenumbermatcher._PATTERN.pattern]
    return None


def guard(recognizer: Any) -> bool:
    """Have a recognizer skip texts that hold no character any of its patterns needs (True),
    or leave it as it is when it has none or one of them needs none (False)."""
    patterns = _patterns(recognizer)
    if patterns is None:
        return False
    wanted: set[str] = set()
    for pattern in patterns:
        found = needs(pattern)
        if found is None:
            return False
        wanted |= found
    target: Any = recognizer
    analyze: Callable[..., list[Any]] = target.analyze
    target.analyze = functools.partial(_guarded, analyze, frozenset(wanted))
    target.bare_analyze = analyze
    return True


def _guarded(
    analyze: Callable[..., list[Any]], wanted: frozenset[str], text: str, *args: Any, **kw: Any
) -> list[Any]:
    chars = _chars(text)
    if chars is not None and wanted.isdisjoint(chars):
        return []
    return analyze(text, *args, **kw)
