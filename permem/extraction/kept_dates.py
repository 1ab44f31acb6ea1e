"""A date of someone's that comes round every year: a birthday, an anniversary, a name day.

"Pavel's birthday is July 21st", "July 21 is Mum's birthday", "Ugo was born on 5 June", "it's
my mum whose birthday is March 28th", and, in a message that names such a date, the ellipses
that lean on it: "Pavel's is November 19", "Pavel's is on the 19th", "June 5th is my mum".
Such a claim is kept (`Cue.KEPT_DATE`): it is a fact about the user's people, and the day it
names is when the occasion falls, never a window of the claim's own validity
(`permem.classify`): "Pavel's birthday falls on November 19" holds today and after the 19th.
"""

from __future__ import annotations

import re

from permem.prefilter import guard_patterns
from permem.temporal_phrases import _MONTH_RE

_MONTH = rf"(?:{_MONTH_RE})\.?"
_NTH = r"\d{1,2}(?:st|nd|rd|th)?"
# A day of a month, either way round: "July 21st", "21 July", "the 19th of November".
_DATE = rf"(?:{_MONTH}\s+(?:the\s+)?{_NTH}|(?:the\s+)?{_NTH}\s+(?:of\s+)?{_MONTH}|the\s+{_NTH})\b"
_OCCASION = r"(?:birthday|bday|b-day|anniversary|name\s+day|wedding\s+day)"
# Whose it is: a name or a possessive ("Pavel's", "my mum's", "her", "Mum").
_WHOSE = r"(?:(?:(?:my|our|his|her|their)\s+)?[^\W\d_][\w'-]*['’]s|his|her|their|my|our)"
_WHO = r"(?:(?:my|our)\s+[^\W\d_][\w-]*|(?-i:[A-Z])[\w'-]+)"

# Said outright: "Pavel's birthday is July 21st", "her anniversary falls on the 3rd",
# "it's my mum whose birthday is March 28th", "Ugo was born on 5 June".
_SAID = re.compile(
    rf"\b(?:{_WHOSE}|whose)\s+{_OCCASION}\s+(?:is|falls|'s|lands|comes)\b(?=.*\d)|"
    rf"\b(?:was|were)\s+born\s+(?:on\s+)?{_DATE}|"
    rf"\b(?:{_DATE}|(?:that|the)\s+(?:date|day))\s+(?:is|'s|was)\s+{_WHOSE}\s+{_OCCASION}\b",
    re.IGNORECASE,
)
# Leaning on an occasion the message names: "Pavel's is November 19", "June 5th is my mum",
# "Pavel's is on the 19th of November".
_ELLIPSIS = re.compile(
    rf"\b{_WHO}['’]s\s+(?:is\s+)?(?:on\s+|falls\s+on\s+)?{_DATE}|"
    rf"\b{_DATE}\s+(?:is|'s)\s+{_WHO}(?:['’]s)?(?=\s*(?:[,.;:!)]|$|\s+(?:and|but|not)\b))",
    re.IGNORECASE,
)
_NAMES_OCCASION = re.compile(rf"\b{_OCCASION}s?\b|\bborn\b", re.IGNORECASE)

guard_patterns(globals())


def kept_date(text: str, message_text: str) -> bool:
    """`text`, a claim of `message_text`, says on which day someone's yearly occasion falls."""
    if _SAID.search(text):
        return True
    return _ELLIPSIS.search(text) is not None and _NAMES_OCCASION.search(message_text) is not None


def without_kept_dates(text: str) -> str:
    """`text` with its kept dates said outright blanked: "July 21 is my mum's birthday" names
    no occasion to shop for (`lexicon.FOR_SOMEONE`)."""
    return _SAID.sub(lambda m: " " * len(m.group()), text)
