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

from permem.extraction.context import bound_only
from permem.prefilter import guard_patterns
from permem.temporal import has_window, resolve
from permem.temporal_phrases import _MONTH_RE, _WEEKDAY_RE, ONE_STRETCH

_NOT_PLACES = "|".join(
    [_MONTH_RE, _WEEKDAY_RE, "easter|christmas|english|french|spanish|german|italian|portuguese",
     "dutch|polish|chinese|mandarin|japanese|korean|arabic|hindi|russian|turkish|swedish|i"]
)  # fmt: skip
_AWAY_IN = re.compile(
    r"\b(?i:i['’]m|i\s+am|i['’]ll\s+be|i\s+will\s+be|we['’]re|we\s+are|we['’]ll\s+be|"
    r"i['’]m\s+going\s+to\s+be)\s+(?:[\w'-]+\s+){0,5}?(?i:in|(?:working|remotely)\s+from)\s+"
    rf"(?:the\s+)?(?!(?i:{_NOT_PLACES})\b)[A-Z][\w'-]+\b"
    r"(?!\s+(?i:time|mode|love|charge|trouble|person))|"
    # Whatever the verb: "we've rented a cabin in Tasmania for the first week of March", "I'm
    # spending the summer, June to August, at my aunt's in Vermont", "I'm on secondment to our
    # Calgary office between 1 and 19 September". The place is a name after "in", or a named
    # site of the user's work; not a month, a day or a language ("in June", "in French").
    rf"\b(?i:i|we)\b[^.!?;]{{0,60}}?\b(?:in\s+(?:the\s+)?(?!(?i:{_NOT_PLACES})\b)[A-Z][\w'-]+|"
    # Or gone there: "I'm heading to Kyoto on June 8. Back on the 22nd."
    r"(?i:heading|headed|off|flying|going|travel+ing|driving|over)\s+(?i:out\s+)?(?i:to)\s+(?:the\s+)?"
    rf"(?!(?i:{_NOT_PLACES})\b)[A-Z][\w'-]+|"
    # A named site of the user's work, with or without a preposition ("I'm covering the
    # Frankfurt branch next week").
    r"(?:(?i:in|at|to|from)\s+)?(?i:our|the|my|their)\s+[A-Z][\w'-]+\s+"
    r"(?i:office|branch|site|campus|plant|headquarters|hq|studio|lab|base|depot))\b"
    r"(?!\s+(?i:time|mode|love|charge|trouble|person))"
)


# Where the speaker lives, by form: "I'm in Bergen", "we're in Ghent, east side", "living in
# Leeds", "relocating there", "home's Oslo" (a place name: capitalised; "I'm in love" is not).
HOME_PLACE = re.compile(
    r"\b(?i:i'm|i\s+am|im|we're|we\s+are|i've\s+been|we've\s+been)\s+(?i:in|living\s+in|based\s+in)\s+"
    r"(?:the\s+)?[A-Z][\w'-]+\b(?!\s+(?:time|mode|love|charge|trouble))|"
    r"\b(?i:live|living|lives|move|moving|moved|relocat\w+|settl\w+|based)\s+(?i:in|to|there|here)\b"
    # Not a time: "the roundup moved to the evening".
    r"(?!\s+(?i:the\s+)?(?i:morning|afternoon|evening|night|weekend|lunchtime|\d|next|later|earlier|"
    r"mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?))|"
    r"\b(?i:home(?:'s|\s+is)|home\s+base\s+is|home,?\s+for\s+(?:me|us),?\s+is)\s+[A-Z]|"
    r"\b[A-Z][\w'-]+\s+(?i:is\s+(?:home|where\s+i\s+live))\b|"
    # "my flat is in Glasgow", "our house is just outside Leeds": where the user's home stands.
    r"\b(?i:my|our)\s+(?i:flat|house|apartment|place|home|condo|cottage)\s+(?i:is|['’]s)\s+"
    r"(?i:(?:just\s+)?(?:in|near|outside|on\s+the\s+edge\s+of))\s+(?:the\s+)?[A-Z]|"
    r"\b(?i:i'm|i\s+am|we're|we\s+are)\s+[A-Z][\w]+-(?i:based)\b|"
    # A stay elsewhere is where the user is for its span: "house-sitting for my cousin in
    # Bergen", "minding my sister's place in Ghent", "staying with friends in Lyon".
    # "spending August at my in-laws' in Cork", "I'll be at my sister's in Ghent", "working
    # from our Madrid office".
    r"\b(?i:(?:house|flat|pet|cat|dog|plant)-?sitting|minding|looking\s+after|staying|"
    r"spending|renting|borrowing|(?:i['’]ll|i\s+will|we['’]ll|we\s+will)\s+be\s+(?:at|in|with)|"
    # "I'm at my gran's in Cork", "we're at a friend's place in Nice": at someone's home.
    r"(?:i['’]m|i\s+am|we['’]re|we\s+are)\s+(?:at|with)\s+(?:my|our|a|an|some)\s+(?:[\w-]+(?:['’]s?|s['’])|"
    r"in-laws|folks|parents|grandparents))"
    r"\b[^.!?]{0,40}?\b(?i:in)\s+[A-Z][\w'-]+|"
    r"\b(?i:working\s+(?:from|out\s+of)\s+(?:our|the|my))\s+[A-Z][\w'-]+"
)


# Gone somewhere, said by the going ("I'm heading to Kyoto", "off to Lisbon").
_GONE_TO = re.compile(
    r"\b(?i:i|we)\b[^.!?;]{0,60}?\b(?i:heading|headed|off|flying|going|travel+ing|driving|over)\s+"
    r"(?i:out\s+)?(?i:to)\b"
)


# Words that open the start of a window: "from the 12th", "starting Monday", "between ...".
_SAYS_START = re.compile(
    r"\b(?:from|starting|beginning|as\s+of|between|after|once|come|effective)\s+(?:on\s+)?"
    r"(?:the\s+)?(?:\d|(?:next|this|tomorrow|tonight|mid|early|late|end|day|week|weekend|month|"
    rf"year|first|second|last|{_MONTH_RE}|{_WEEKDAY_RE})\b)",
    re.IGNORECASE,
)


def away_for_a_while(text: str, ts: datetime) -> bool:
    """The text places the speaker somewhere for a window read to its end (module docstring)."""
    found = _AWAY_IN.search(text)
    if found is None:
        return False
    if _GONE_TO.match(found.group()) and _AWAY_IN.search(text, found.end()) is None:
        # "I'm flying to Kenya next month" names a trip, not how long it lasts: a stay only
        # with an end of its own ("heading to Kyoto on June 8, back on the 22nd").
        return resolve(text, ts).valid_until is not None
    from permem.occasions import occasion, stay_window  # occasions reads the extraction lexicon

    if stay_window(text, ts) is not None:
        return True  # this week, the rest of the month, next month, in July, late June
    if not has_window(text):
        return False
    read = resolve(text, ts)
    if read.valid_until is None:
        return occasion(text, ts) is not None
    # A window that says when it starts must have been read from that start: one read from
    # now would stand in for the home before the stay begins.
    return read.valid_from > ts or _SAYS_START.search(text) is None


def stay_bounded_after(core: str, bound: str, ts: datetime) -> str:
    """`core` with `bound`, the sentence after it, when that one only bounds it and the two
    tell where the speaker is for a while ("I'm off to Lisbon on Friday. Back by the 30th.");
    "" otherwise."""
    both = f"{core} {bound}"
    return both if bound and bound_only(bound) and away_for_a_while(both, ts) else ""


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


# Last, so that what imports these names gets them guarded (permem.prefilter).
guard_patterns(globals())
