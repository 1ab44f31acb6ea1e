"""How a word list becomes a pattern: the builders of `permem.extraction.lexicon`'s lists."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping


def words(*alternatives: str) -> re.Pattern[str]:
    """A case-insensitive pattern matching any alternative as whole words."""
    body = "|".join(sorted(alternatives, key=len, reverse=True))
    # An apostrophe inside a word ("don't", "man's") joins it; one used as a quotation mark
    # ("'being a man'") does not.
    return re.compile(rf"(?<!\w)(?<!\w')(?:{body})(?!\w)(?!'\w)", re.IGNORECASE)


def categories(table: Mapping[str, Iterable[str]]) -> dict[str, re.Pattern[str]]:
    return {name: words(*alternatives) for name, alternatives in table.items()}
