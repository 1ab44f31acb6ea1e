"""The period a claim's context names, and the claims whose time phrase points at it ("until
then", "from then on", "after that", "for now"): `governed` gives such a claim the validity
of the period named before it."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, time

from permem.prefilter import guard_patterns
from permem.temporal import Validity, _month_span, _month_start, _parse_day, resolve
from permem.temporal_phrases import _DATE, _IN_MONTH, AFTER_THEN, STARTS_THEN, UNTIL_THEN


def period(text: str, ts: datetime) -> tuple[datetime, datetime | None] | None:
    """The period a text names, as [start, end) (end None: open), when it names one that is
    not simply "from now on": a span, a bound, a later start, or a month said with "in"."""
    named = resolve(text, ts)
    if named.valid_until is not None or named.valid_from > ts:
        return named.valid_from, named.valid_until
    month = _IN_MONTH.search(text)
    if month is None:
        return None
    first, end = _month_span(_month_start(month.group("month"), ts.date(), after=False), ts)
    return max(first, ts), end


def governed(text: str, context: str, own: Validity, ts: datetime) -> Validity:
    """The validity of a claim whose time phrase points at the period its context names
    (`GOVERNED`): "from then on" starts with it, "after that" starts when it ends, and the rest
    ("until then", "for now", "while I'm there", "until they're over") hold through it; a
    period that only starts later ("From April I'm in Berlin") ends "for now" when it starts."""
    named = period(context, ts)
    if named is None:
        return own
    start, end = named
    if STARTS_THEN.search(text):
        return replace(own, valid_from=max(own.valid_from, start))
    if AFTER_THEN.search(text):
        after = end if end is not None else start
        return replace(own, valid_from=max(own.valid_from, after))
    if end is None:
        # A change still to come: what holds "for now" or "until then" holds until it starts.
        return replace(own, valid_until=start) if start > ts else own
    if UNTIL_THEN.search(text):
        return replace(own, valid_until=end)
    return replace(own, valid_from=max(own.valid_from, start), valid_until=end)


# What starts on a day, said before the claim: "On 1 September the new rota starts and I'm on
# early shifts", "My new job starts on the 15th, I'll be working nights".
_STARTS = re.compile(
    r"\b(?:starts?|begins?|kicks?\s+in|takes?\s+effect|comes?\s+into\s+(?:effect|force)|"
    r"goes\s+live|is\s+changing|changes\s+over)\b",
    re.IGNORECASE,
)
_SENTENCES = re.compile(r"(?<=[.!?])\s+")
_A_DATE = re.compile(_DATE, re.IGNORECASE)


def started_before(before: str, ts: datetime) -> datetime | None:
    """The day, after `ts`, on which something said to start in the clause or sentence just
    before a claim (`before`, the message's text up to the claim) starts: the claim holds from
    then. None when that text says no such start."""
    pieces = [p for p in _SENTENCES.split(before.strip()) if p.strip()]
    said = " ".join(pieces[-2:])
    if not said or _STARTS.search(said) is None:
        return None
    named = _A_DATE.search(said)
    day = _parse_day(named.group(), ts) if named is not None else None
    if day is None:
        return None
    start = datetime.combine(day, time(0), tzinfo=ts.tzinfo)
    return start if start > ts else None


guard_patterns(globals())
