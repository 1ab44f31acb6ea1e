"""The time a recall request is about, which need not be the time it is made.

"Am I free next Wednesday at 7pm?" asked on Friday is about next Wednesday: a claim that holds
until Sunday ("no football this week") does not answer it, and one that starts on Monday ("from
the 16th I'm in the office") does. `about` reads the day (or weekend, or week) a request names
for itself and gives the window recall judges validity in; a request that names no time is about
its own moment. Only days to come or today: a request about the past ("what did I eat last
Friday?") is judged at its own time, as before.

The window is [start, last], both inclusive: `start` is the request's own time when the window
opens today, or local midnight of the first day named; `last` the last instant of the last day
named. A claim may serve the request when it was said by the request's time, starts by `last`
and does not end by `start` (`permem.recall_filter.exclusion`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from permem.prefilter import guard_patterns
from permem.temporal import _next_date, _next_day_of_month
from permem.temporal_phrases import _MONTHS, _WEEKDAYS

_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
# A day of the month, not a time of day ("the 13:10 coach").
_ORDINAL = r"(?P<{name}>\d{{1,2}})(?:st|nd|rd|th)?(?![:.]\d)"

# Each alternative names one period; the first found in the text decides. A weekday in the
# plural ("on Wednesdays") or after "every"/"each" is a habit, not a day.
_PERIOD = re.compile(
    r"(?<!\bevery\s)(?<!\beach\s)(?<!\blast\s)\b(?:"
    r"(?P<today>today|tonight|this\s+(?:morning|afternoon|evening))|"
    r"(?P<tomorrow>tomorrow)|"
    # "the morning" said in the evening is tomorrow's.
    # Not a clock time: "at 8 in the morning".
    r"(?<!\d\s)(?<!\d\sin\s)(?<!o'clock\s)(?<!o'clock\sin\s)(?:in\s+)?the\s+(?P<morning>morning)\b(?!s)|"
    rf"the\s+weekend\s+of\s+(?:the\s+)?{_ORDINAL.format(name='wkend_of')}\b|"
    r"(?P<wkend_which>this|next|coming|this\s+coming)?\s*(?P<weekend>weekend)|"
    r"(?P<week_which>this|next|coming)\s+week\b(?!end)|"
    rf"(?:(?P<which>next|this|coming|on)\s+)?(?P<weekday>{_WEEKDAY})(?!s)"
    rf"(?:,?\s+(?:the\s+)?{_ORDINAL.format(name='wd_day')}\b|,?\s+(?P<wd_month>{_MONTH})\.?\s+"
    rf"{_ORDINAL.format(name='wd_mday')}\b)?|"
    rf"(?P<month>{_MONTH})\.?\s+{_ORDINAL.format(name='mday')}\b|"
    rf"(?:the\s+)?{_ORDINAL.format(name='dmon')}\s+(?:of\s+)?(?P<month2>{_MONTH})\b|"
    rf"on\s+the\s+{_ORDINAL.format(name='dom')}\b"
    r")"
    # A list or a range of days of one month: "March 7th and 8th", "the 3rd to the 5th".
    rf"(?:\s*(?:and|&|-|–|to|through|till|until)\s*(?:the\s+)?{_ORDINAL.format(name='to_day')}\b)?",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Window:
    """When a request is about: [start, last], both inclusive."""

    start: datetime
    last: datetime

    @property
    def is_now(self) -> bool:
        return self.start == self.last


def _days(match: re.Match[str], today: date, hour: int) -> tuple[date, date] | None:
    """The first and last day a `_PERIOD` match names, if they are today or later (`hour`:
    the local hour it was said at)."""
    g = {name: value or "" for name, value in match.groupdict().items()}
    found = _first_days(g, today, hour)
    if found is None or not g["to_day"]:
        return found
    # "March 7th and 8th": the list runs to its last day, in the first day's month.
    first = found[0]
    try:
        last = first.replace(day=int(g["to_day"]))
    except ValueError:
        return found
    return (first, last) if last >= first else found


def _first_days(g: dict[str, str], today: date, hour: int) -> tuple[date, date] | None:
    monday = today - timedelta(days=today.weekday())
    if g["today"]:
        return today, today
    if g["tomorrow"]:
        return today + timedelta(days=1), today + timedelta(days=1)
    if g["morning"]:
        day = today + timedelta(days=1) if hour >= 12 else today
        return day, day
    if g["wkend_of"]:
        named = _next_day_of_month(int(g["wkend_of"]), today)
        if named is None:
            return None
        weekday = named.weekday()
        saturday = named + timedelta(days=5 - weekday) if weekday <= 5 else named - timedelta(1)
        return max(saturday, today), saturday + timedelta(days=1)
    if g["weekend"]:
        saturday = monday + timedelta(days=5)
        if g["wkend_which"].lower() == "next" and today.weekday() >= 4:
            saturday += timedelta(days=7)
        return max(saturday, today), saturday + timedelta(days=1)
    if g["week_which"]:
        if g["week_which"].lower() == "this":
            return today, monday + timedelta(days=6)
        return monday + timedelta(days=7), monday + timedelta(days=13)
    if g["weekday"]:
        if g["wd_month"] and g["wd_mday"]:
            dated = _next_date(_MONTHS[g["wd_month"].lower()], int(g["wd_mday"]), today)
            return (dated, dated) if dated else None
        if g["wd_day"]:
            dated = _next_day_of_month(int(g["wd_day"]), today)
            return (dated, dated) if dated else None
        ahead = (_WEEKDAYS[g["weekday"].lower()] - today.weekday()) % 7
        if g["which"].lower() == "next":
            # "next Wednesday": the first after today, and never one of this week.
            ahead = ahead or 7
            if today + timedelta(days=ahead) < monday + timedelta(days=7):
                ahead += 7
        day = today + timedelta(days=ahead)
        return day, day
    if g["month"] or g["month2"]:
        month = _MONTHS[(g["month"] or g["month2"]).lower()]
        dated = _next_date(month, int(g["mday"] or g["dmon"]), today)
        return (dated, dated) if dated else None
    if g["dom"]:
        dated = _next_day_of_month(int(g["dom"]), today)
        return (dated, dated) if dated else None
    return None


def periods(text: str, ts: datetime) -> list[tuple[date, date]]:
    """The (first, last) local days of each period still to come (or today) that `text`,
    said at `ts`, names, in order."""
    found = []
    for match in _PERIOD.finditer(text):
        days = _days(match, ts.date(), ts.hour)
        if days is not None:
            found.append(days)
    return found


def about(text: str, ts: datetime) -> Window:
    """The window of time the request `text`, made at `ts`, is about (see the module
    docstring); `Window(ts, ts)` when it names none."""
    for first, last in periods(text, ts):
        start = ts if first <= ts.date() else datetime.combine(first, time(0), tzinfo=ts.tzinfo)
        end = datetime.combine(last + timedelta(days=1), time(0), tzinfo=ts.tzinfo)
        return Window(start, max(start, end - timedelta(microseconds=1)))
    return Window(ts, ts)


__all__ = ["Window", "about", "periods"]

guard_patterns(globals())
