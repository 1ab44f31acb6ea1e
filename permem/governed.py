"""The period a claim's context names, and the claims whose time phrase points at it ("until
then", "from then on", "after that", "for now"): `governed` gives such a claim the validity
of the period named before it."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from permem.temporal import Validity, _month_span, _month_start, resolve
from permem.temporal_phrases import _IN_MONTH, AFTER_THEN, STARTS_THEN, UNTIL_THEN


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
