"""A cheap test before each costly pattern of the cue pass: the strings it cannot match without.

The cue pass runs a few hundred regular expressions over every sentence of every user message,
and nearly all of them fail (`benchmarks/cue_patterns.py`). Most patterns cannot match unless
one of a few literal strings is in the text: `\\b(?:no\\s+longer|fell\\s+through|...)` needs
"longer" or "fell" or ... . `required` reads that set off the pattern's own parse (Python's
`re` parser), and `guard_patterns` puts each pattern of a module behind a `Guarded` that
first asks whether any of its strings is in the text. The strings of all guarded patterns are
found in one pass over a text with an Aho-Corasick automaton (`pyahocorasick`), once per distinct
text, so that the forty patterns read of a sentence cost one scan and forty set lookups.

The test is sound by construction for ASCII text: a match of the pattern contains one of the
strings, lower-cased, at least as the text lower-cased does. A text with any other character
(where case folding has exceptions: "ſ" matches "s" under IGNORECASE) skips the test and runs
the pattern. A pattern whose set cannot be read (no literal of at least `_SHORTEST` characters
in every way it can match) is left as it is. `tests/test_prefilter.py` checks that every
guarded pattern answers as the bare one over the corpus and a generated log.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, MutableMapping
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

import ahocorasick

__all__ = ["Guarded", "guard_patterns", "required"]

_SHORTEST = 3  # a shorter string ("is", "my") is in nearly every sentence: no test at all
_MOST = 200  # the most strings one set may hold before it says nothing


class _Strings:
    """What a piece of a pattern can match: `exact`, every string it can match (None when
    there are too many or they are unbounded), `needed`, strings one of which is in every
    match, and `starts`, strings one of which every match begins with (None: not known)."""

    __slots__ = ("exact", "needed", "starts")

    def __init__(
        self, exact: set[str] | None, needed: set[str] | None, starts: set[str] | None = None
    ) -> None:
        self.exact, self.needed = exact, needed
        self.starts = exact if starts is None else starts


def _useful(strings: set[str] | None) -> set[str] | None:
    if strings and len(strings) <= _MOST and all(len(s) >= _SHORTEST for s in strings):
        return set(strings)
    return None


def _better(a: set[str] | None, b: set[str] | None) -> set[str] | None:
    """The more selective of two sets: longer shortest string, then fewer strings."""
    if a is None or b is None:
        return a if b is None else b
    return a if _selectivity(a) >= _selectivity(b) else b


def _selectivity(strings: set[str]) -> tuple[int, int]:
    return min(map(len, strings)), -len(strings)


def _joined(a: set[str] | None, b: set[str] | None) -> set[str] | None:
    if a is None or b is None or len(a) * len(b) > _MOST:
        return None
    return {x + y for x in a for y in b}


def _sequence(items: Any) -> _Strings:
    best: set[str] | None = None
    run: set[str] = {""}  # the strings of the literal run so far
    whole: set[str] | None = {""}
    starts: set[str] | None = {""}
    opening = True  # every piece so far had an exact set
    for op, arg in items:
        piece = _piece(op, arg)
        best = _better(best, piece.needed)
        whole = _joined(whole, piece.exact)
        if opening:
            opened = _joined(starts, piece.exact if piece.exact is not None else piece.starts)
            opening = piece.exact is not None and opened is not None
            starts = opened if opened is not None else starts
        longer = _joined(run, piece.exact)
        if longer is None:
            # The run ends here; it goes on into how this piece begins.
            best = _better(best, _useful(_joined(run, piece.starts)))
            best = _better(best, _useful(run))
            run = piece.exact if piece.exact is not None and len(piece.exact) <= _MOST else {""}
        else:
            run = longer
    return _Strings(whole, _better(best, _useful(run)), starts)


def _piece(op: Any, arg: Any) -> _Strings:  # noqa: PLR0911  (one case per parse node)
    if op is sre.LITERAL:
        return _Strings({chr(arg).lower()}, None)
    if op is sre.IN:
        if len(arg) <= 6 and all(o is sre.LITERAL for o, _ in arg):
            return _Strings({chr(a).lower() for _, a in arg}, None)
        return _Strings(None, None, {""})
    if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
        return _Strings({""}, None)  # zero width
    if op is sre.SUBPATTERN:
        return _sequence(arg[-1])
    if op is sre.ATOMIC_GROUP:
        return _sequence(arg)
    if op is sre.BRANCH:
        return _branch([_sequence(b) for b in arg[1]])
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        low, high, body = arg
        inner = _sequence(body)
        if low == 0:
            optional = high == 1 and inner.exact is not None
            return _Strings(inner.exact | {""} if optional else None, None, {""})  # type: ignore[operator]
        exact: set[str] | None = inner.exact if low == high == 1 else None
        if low == high and inner.exact is not None and low <= 3:
            exact = {""}
            for _ in range(low):
                exact = _joined(exact, inner.exact)
        return _Strings(exact, _better(inner.needed, _useful(inner.exact)), inner.starts)
    return _Strings(None, None, {""})  # any character, a class, a back reference


def _branch(ways: list[_Strings]) -> _Strings:
    exact: set[str] | None = set()
    needed: set[str] | None = set()
    starts: set[str] | None = set()
    for way in ways:
        exact = None if exact is None or way.exact is None else exact | way.exact
        starts = None if starts is None or way.starts is None else starts | way.starts
        own = _better(way.needed, _useful(way.exact))
        needed = None if needed is None or own is None else needed | own
    if exact is not None and len(exact) > _MOST:
        exact = None
    if needed is not None and len(needed) > _MOST:
        needed = None
    if starts is not None and len(starts) > _MOST:
        starts = None
    return _Strings(exact, needed, {""} if starts is None else starts)


def required(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """Lower-cased strings one of which is in every ASCII text `pattern` matches, or None."""
    try:
        parsed = sre_parse.parse(pattern.pattern, pattern.flags)
    except Exception:  # noqa: BLE001  (another Python's parser: no test, never a wrong one)
        return None
    found = _sequence(list(parsed))
    strings = _better(found.needed, _useful(found.exact))
    return frozenset(strings) if strings else None


class _Scanner:
    """One automaton over the strings of every guarded pattern; which of them a text holds,
    remembered for the last few hundred texts (a sentence is read by many patterns in turn)."""

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}
        self._automaton: Any = None
        self._seen: MutableMapping[str, frozenset[int] | None] = {}

    def ids(self, strings: frozenset[str]) -> frozenset[int]:
        # The automaton is built again, with these, on the next scan; what was found in the
        # texts seen so far does not include them, so it is forgotten too (a pattern guarded
        # after texts were scanned must not read a remembered text as missing its strings).
        self._automaton = None
        self._seen.clear()
        return frozenset(self._ids.setdefault(s, len(self._ids)) for s in strings)

    def holds(self, text: str) -> frozenset[int] | None:
        """The ids of the strings in `text`, or None when it cannot be tested (not ASCII)."""
        found = self._seen.get(text, _UNSEEN)
        if found is not _UNSEEN:
            return found
        if len(self._seen) >= _REMEMBERED:
            self._seen.clear()
        if text.isascii():
            if self._automaton is None:
                self._automaton = _automaton(self._ids)
            found = frozenset(i for _, i in self._automaton.iter(text.lower()))
        else:
            found = None
        self._seen[text] = found
        return found


_UNSEEN = frozenset({-1})
_REMEMBERED = 512


def _automaton(ids: dict[str, int]) -> Any:
    automaton = ahocorasick.Automaton()
    for string, i in ids.items():
        automaton.add_word(string, i)
    automaton.make_automaton()
    return automaton


_SCANNER = _Scanner()


class Guarded:
    """A compiled pattern behind its string test; the same methods, the same answers."""

    __slots__ = ("_ids", "bare")

    def __init__(self, bare: re.Pattern[str], strings: frozenset[str]) -> None:
        self.bare = bare
        self._ids = _SCANNER.ids(strings)

    def _cannot(self, text: str) -> bool:
        held = _SCANNER.holds(text)
        return held is not None and self._ids.isdisjoint(held)

    def search(self, text: str, *span: int) -> re.Match[str] | None:
        return None if self._cannot(text) else self.bare.search(text, *span)

    def match(self, text: str, *span: int) -> re.Match[str] | None:
        return None if self._cannot(text) else self.bare.match(text, *span)

    def fullmatch(self, text: str, *span: int) -> re.Match[str] | None:
        return None if self._cannot(text) else self.bare.fullmatch(text, *span)

    def finditer(self, text: str, *span: int) -> Iterator[re.Match[str]]:
        return iter(()) if self._cannot(text) else self.bare.finditer(text, *span)

    def findall(self, text: str, *span: int) -> list[Any]:
        return [] if self._cannot(text) else self.bare.findall(text, *span)

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str, count: int = 0) -> str:
        return text if self._cannot(text) else self.bare.sub(repl, text, count)

    def split(self, text: str, maxsplit: int = 0) -> list[str | Any]:
        return [text] if self._cannot(text) else self.bare.split(text, maxsplit)

    def __getattr__(self, name: str) -> Any:  # pattern, flags, groupindex, groups
        if name.startswith("_"):  # copy and pickle ask before `bare` is set
            raise AttributeError(name)
        return getattr(self.bare, name)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Guarded, (self.bare, required(self.bare) or frozenset()))


def guard_patterns(namespace: MutableMapping[str, Any]) -> None:
    """Put every compiled pattern of a module's namespace behind its string test (called at
    the end of the module, before anything imports its names), and every pattern held in a
    dict of the namespace (named categories of patterns), in place."""
    for name, value in list(namespace.items()):
        if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
            strings = required(value)
            if strings is not None:
                namespace[name] = Guarded(value, strings)
        elif (
            isinstance(value, dict)
            and value
            and all(isinstance(v, re.Pattern) for v in value.values())
        ):
            guard_patterns(value)
