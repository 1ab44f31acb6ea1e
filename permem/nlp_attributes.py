"""The attribute ruler's rules applied by lookup: the same attributes, without its Matcher.

en_core_web_sm's `attribute_ruler` sets each token's coarse part of speech and morphology from
its fine tag (the tag map), with some exceptions by word ("ai n't", "gon na", "let 's"). It
runs spaCy's `Matcher` over every token for 179 rules, nearly all of one token, and that was as
much time as the dependency parser. Here the rules are read once from the ruler itself
(`AttributeRuler.patterns`, `.attrs`): what the one-token rules give a token depends only on its
tag, lower-cased text, dependency label and whether it is a space, so it is worked out once per
such tuple and remembered; the few rules of two tokens are tested where their first token
stands. As in the ruler, a later rule overrides an earlier one on the same token.

`install` has the ruler's own call find nothing to match and set its annotations by lookup; the
component, its name, its rules and its place in the pipeline stay. `tests/test_nlp_attributes.py`
checks that every token of the scenario corpus gets the same attributes either way.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from spacy.language import Language
from spacy.pipeline import AttributeRuler
from spacy.tokens import Doc, Token
from spacy.tokens._retokenize import set_token_attrs

__all__ = ["install"]

_Test = Callable[[Token], bool]
# The token attributes the model's rules read, and how to read each.
_READ: dict[str, Callable[[Token], Any]] = {
    "TAG": lambda t: t.tag_,
    "LOWER": lambda t: t.lower_,
    "DEP": lambda t: t.dep_,
    "IS_SPACE": lambda t: t.is_space,
}


class _Unsupported(ValueError):
    """A rule this lookup does not read (another model's ruler): the ruler is left as it is."""


def _value_test(spec: Any) -> Callable[[Any], bool]:
    if not isinstance(spec, dict):
        return lambda value: value == spec
    if len(spec) != 1:
        raise _Unsupported(spec)
    ((op, arg),) = spec.items()
    if op == "IN":
        allowed = frozenset(arg)
        return lambda value: value in allowed
    if op == "NOT_IN":
        barred = frozenset(arg)
        return lambda value: value not in barred
    if op == "REGEX":
        pattern = re.compile(arg)
        return lambda value: pattern.search(value) is not None
    raise _Unsupported(spec)


def _token_test(spec: dict[str, Any]) -> _Test:
    if not spec or set(spec) - set(_READ) or "OP" in spec:
        raise _Unsupported(spec)
    tests = [(_READ[name], _value_test(value)) for name, value in spec.items()]
    return lambda token: all(test(read(token)) for read, test in tests)


class _Lookup:
    """The ruler's rules, read for lookups (see the module docstring)."""

    def __init__(self, ruler: AttributeRuler) -> None:
        self._attrs: Sequence[dict[Any, Any]] = ruler.attrs
        single: list[tuple[int, _Test]] = []
        double: list[tuple[int, _Test, _Test, int]] = []
        # The ruler numbers its rules in the order they were added; `patterns` lists them in
        # that order, one entry per rule, each with its alternatives and the token it sets.
        rules: list[Any] = list(ruler.patterns)
        for number, rule in enumerate(rules):
            index = rule.get("index", 0)
            for alternative in rule["patterns"]:
                if len(alternative) == 1 and index in (0, -1):
                    single.append((number, _token_test(alternative[0])))
                elif len(alternative) == 2 and index in (0, 1, -1, -2):
                    first, second = (_token_test(t) for t in alternative)
                    double.append((number, first, second, index % 2))
                else:
                    raise _Unsupported(alternative)
        if len(rules) != len(ruler.attrs):
            raise _Unsupported("rules and attributes differ in number")
        self._single = single
        self._double = double
        # What the rules say of a token, by what they read of it (`_Read`).
        self._reads: dict[tuple[str, str, str, bool], _Read] = {}

    def apply(self, doc: Doc, _matches: object = None) -> None:
        """Set every token's attributes (the ruler's `set_annotations`; no matches needed)."""
        reads = [self._read(token) for token in doc]
        extra: dict[int, list[int]] = {}
        for i, read in enumerate(reads[:-1]):
            for k in read.firsts:
                number, _, second, index = self._double[k]
                if second(doc[i + 1]):
                    extra.setdefault(i + index, []).append(number)
        for token, read in zip(doc, reads, strict=True):
            more = extra.get(token.i)
            merged = read.merged if more is None else self._merge(read.numbers + tuple(more))
            if merged:
                set_token_attrs(token, merged)

    def _read(self, token: Token) -> _Read:
        key = (token.tag_, token.lower_, token.dep_, token.is_space)
        found = self._reads.get(key)
        if found is None:
            numbers = tuple(n for n, test in self._single if test(token))
            firsts = tuple(k for k, (_, first, _, _) in enumerate(self._double) if first(token))
            found = _Read(numbers, self._merge(numbers), firsts)
            if len(self._reads) < _REMEMBERED:
                self._reads[key] = found
        return found

    def _merge(self, numbers: Sequence[int]) -> dict[Any, Any]:
        """The attributes of rules `numbers` together, later rules over earlier ones."""
        merged: dict[Any, Any] = {}
        for number in sorted(set(numbers)):
            merged.update(self._attrs[number])
        return merged


@dataclass(frozen=True, slots=True)
class _Read:
    """What the rules say of a token: the one-token rules it matches (`numbers`), their
    attributes together (`merged`), and the two-token rules it can begin (`firsts`)."""

    numbers: tuple[int, ...]
    merged: dict[Any, Any]
    firsts: tuple[int, ...]


_REMEMBERED = 200_000


def install(nlp: Language) -> bool:
    """Have `nlp`'s attribute ruler set its attributes by lookup (True), or leave it as it is
    when there is none or it holds a rule the lookup does not read (False)."""
    if "attribute_ruler" not in nlp.pipe_names:
        return False
    ruler = nlp.get_pipe("attribute_ruler")
    if not isinstance(ruler, AttributeRuler):
        return False
    try:
        lookup = _Lookup(ruler)
    except _Unsupported:
        return False
    # `AttributeRuler.__call__` is `set_annotations(doc, match(doc))`: both read per instance.
    ruler.match = _no_matches  # type: ignore[method-assign]
    ruler.set_annotations = lookup.apply  # type: ignore[method-assign]
    return True


def _no_matches(doc: Doc) -> None:
    return None
