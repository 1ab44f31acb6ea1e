"""The speaker somewhere for a while, whatever brings them there: a stay on the topic `home`.

"I'll be in Madrid next week", "we're on holiday in Sicily in July", "I'm on a placement in
Lyon from 1 to 14 July", "working remotely from Seville this coming week": while the window
lasts, "near me" means that place. A place said with no window ("I'm a nurse in Leeds") is no
stay, and neither is one whose window is not read to its end: on an exclusive topic, an
open-ended claim would take the place of the user's home for good.
"""

from __future__ import annotations

import re
from datetime import datetime

from permem.extraction.prefilter import guard_patterns
from permem.temporal import has_window, resolve
from permem.temporal_phrases import _THIS_SPAN, ONE_STRETCH

_AWAY_IN = re.compile(
    r"\b(?i:i['’]m|i\s+am|i['’]ll\s+be|i\s+will\s+be|we['’]re|we\s+are|we['’]ll\s+be|"
    r"i['’]m\s+going\s+to\s+be)\s+(?:[\w'-]+\s+){0,5}?(?i:in|(?:working|remotely)\s+from)\s+"
    r"(?:the\s+)?[A-Z][\w'-]+\b"
    r"(?!\s+(?i:time|mode|love|charge|trouble|person))"
)


# Words that open the start of a window: "from the 12th", "starting Monday", "between ...".
_SAYS_START = re.compile(
    r"\b(?:from|starting|beginning|as\s+of|between|after|once|come|effective)\b", re.IGNORECASE
)


def away_for_a_while(text: str, ts: datetime) -> bool:
    """The text places the speaker somewhere for a window read to its end (module docstring)."""
    if _AWAY_IN.search(text) is None or not has_window(text):
        return False
    from permem.occasions import next_period, occasion  # occasions reads the extraction lexicon

    if _THIS_SPAN.search(text) is not None or next_period(text, ts) is not None:
        return True  # this week, the rest of the month, next month, in July: read whole
    read = resolve(text, ts)
    if read.valid_until is None:
        return occasion(text, ts) is not None
    # A window that says when it starts must have been read from that start: one read from
    # now would stand in for the home before the stay begins.
    return read.valid_from > ts or _SAYS_START.search(text) is None


# A state taken on for a while: "I'm looking after ...", "fostering a puppy", "I've got my
# friend's labrador", "the neighbours' dog is staying with us", "I'm here till the 21st".
_CHARGE = re.compile(
    r"^\W*\w+ing\b|\b(?:i|we)(?:['’]ve)?\s+(?:got|have)\s+(?:my|our|the|a|an)\b|^\W*got\s+my\b|"
    r"\bstaying\s+with\s+(?:us|me)\b|\b(?:i['’]m|i\s+am|we['’]re|we\s+are|i['’]ll\s+be|we['’]ll\s+be)\s+"
    r"(?:here|there|in|at|away|abroad|on|off|out\s+of)\b|"
    r"\b(?:while|whilst|as\s+long\s+as|until|till)\s+(?:i|we)\b",
    re.IGNORECASE,
)


def taken_on_for_a_while(text: str) -> bool:
    """A state the speaker took on for a window read in the text (`_CHARGE`): a charge, not a
    guess ("pretty sure it's good until 2031?") nor a habit; it ends with its window."""
    said_so = ONE_STRETCH.search(text) is not None or _CHARGE.search(text) is not None
    return "?" not in text and said_so and has_window(text)


# Last, so that what imports these names gets them guarded (permem.extraction.prefilter).
guard_patterns(globals())
