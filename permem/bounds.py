"""A bound read as a marker and the time phrase after it, whatever words name the day.

`permem.temporal`'s patterns know the common shapes of a date ("until Feb 5", "the 3rd of
August"). A person has many more ("until August the 3rd", "till around the 20th", "from next
month", "until the new year", "over the next three weeks"). This module reads the structure
instead of the wording: a **marker** says which end of the claim's validity the phrase names
(`until`, `till`, `through`, `up to`: the end; `from`, `starting`, `as of`, `beginning`,
`after`: the start), and the **phrase** after it, up to where the clause goes on, is read as a
day: by temporal's own patterns first, then by `dateparser` (maintained), anchored at the
message's local time and preferring days to come. A phrase is read only when it holds a word of
time (a digit, a month, a weekday, a unit, a named day), so "until I'm back" or "from my
sister" are left to what reads clauses (`permem.temporal.GOVERNED`).

A duration said as a stretch ahead ("for the next fortnight", "over the coming three weeks",
"the next 10 days") ends the claim that long after the message; "in two weeks I start" starts
it then. Pure functions; nothing here reads the clock.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta

from permem.prefilter import guard_patterns
from permem.temporal import _add, _end_day, _end_of, _month_span, _month_start, _parse_day
from permem.temporal_phrases import (
    _LENGTH_FROM,
    _MONTH_RE,
    _MONTHS,
    _MONTHS_SPAN,
    _NUMBERS,
)

__all__ = ["ahead", "end_day", "month_part", "names_bound", "start_day"]

_END = re.compile(r"\b(?:up\s+until|up\s+till|until|till|til|through|thru|up\s+to)\s+", re.I)
_START = re.compile(
    r"\b(?:from|starting(?:\s+(?:on|from|in))?|as\s+of|beginning(?:\s+(?:on|in))?|"
    r"effective|after)\s+",
    re.IGNORECASE,
)
# Where the phrase ends: punctuation, or a word that goes on with the clause.
_STOP = re.compile(
    r"[,.;:!?()\"]|\s(?:and|but|so|or|then|because|as|while|when|if|i|i'm|i'll|i've|we|we're|"
    r"we'll|you|they|he|she|it|it's|that|which|who|for|to|at|with|without|please|no|not)\b",
    re.IGNORECASE,
)
_HEDGE = re.compile(
    r"^(?:(?:around|about|roughly|approximately|circa|sometime|some\s+time|probably|"
    r"maybe|at\s+least|at\s+the\s+earliest|at\s+the\s+latest|on|in)\s+)+",
    re.IGNORECASE,
)
_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
# A word of time: without one the phrase names no day ("until I'm back", "from my sister").
_TIME_WORD = re.compile(
    # A number is a day only as an ordinal, a year or an ISO date ("after 11" is an hour).
    rf"\b\d{{1,2}}(?:st|nd|rd|th)\b|\b(?:19|20)\d\d\b|\b(?:{_MONTH_RE})\b|\b{_WEEKDAY}\b|"
    r"\b(?:tomorrow|tonight|weekend|week|fortnight|month|quarter|year|new\s+year|christmas|easter|spring|summer|autumn|fall|winter)\b",
    re.IGNORECASE,
)
# "May" and "March" are verbs as often as months: a month alone is read only as a month
# word the phrase starts with ("until May", "from March 3").
_MODAL_MONTH = re.compile(r"\b(?:may|march)\b", re.IGNORECASE)
# "08/03" is the 3rd of August in one country and the 8th of March in another: not read; nor
# is a time of day ("from 6:30", "after 4pm").
_SLASHED = re.compile(r"\d\s*/\s*\d|\d\s*(?:am|pm|a\.m\.|p\.m\.|o'clock|h)\b|\d:\d\d", re.I)
_NEW_YEAR = re.compile(r"^(?:the\s+)?new\s+year(?:'s)?(?:\s+day)?$", re.IGNORECASE)
# A feast named as a day: "until Easter", "from Christmas on", "till Easter Sunday".
_FEAST_DAY = re.compile(
    r"^(?P<feast>easter|christmas|xmas)(?:\s+(?:day|sunday|eve|break|holidays?))?\b", re.I
)
_YEAR = re.compile(r"^(?:20\d\d)$")
# How many of a unit of time, in digits or words: "3 weeks", "a couple of months", "a few days".
_COUNT = (
    r"(?P<n>\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"(?:a\s+)?couple\s+of|(?:a\s+)?few)"
)
_UNITS = rf"{_COUNT}\s+(?P<unit>day|week|fortnight|month|year)s?"
_IN_UNITS = re.compile(rf"^in\s+{_UNITS}$", re.IGNORECASE)
_RELATIVE = re.compile(r"^(?P<which>next|this|the\s+coming)\s+(?P<unit>week|month|year)$", re.I)
# A stretch ahead: "for the next fortnight", "over the coming three weeks", "the next 10
# days", "for another 3 weeks", "within the next two months".
_AHEAD = re.compile(
    r"(?:\b(?:for|over|during|within|throughout)\s+(?:the\s+)?|\bthe\s+)(?:next|coming|following)\s+"
    rf"(?:{_COUNT}\s+)?(?P<unit>day|week|fortnight|month|year)(?P<plural>s)?\b|"
    # Said first, with a length: "Next fortnight I'm in Porto", "next two weeks I'm away" ("next
    # week" alone is the calendar week: `occasions.next_period`).
    rf"^\W*(?:next|coming)\s+(?:(?:{_COUNT.replace('?P<n>', '?P<n_2>')}\s+)"
    r"(?P<unit2>day|week|month)(?P<plural2>s)?|"
    r"(?P<unit3>fortnight))\b",
    re.IGNORECASE,
)
_AHEAD_PAST = re.compile(r"\b(?:past|last|previous)\s+$", re.IGNORECASE)
# "in two weeks I start the new job", "in a month we move": a change that starts later.
_IN_UNITS_OPENS = re.compile(
    rf"^\W*in\s+{_UNITS}(?:'\s*time)?\s*,?\s+(?:i|i'm|i'll|we|we're|we'll)\b", re.IGNORECASE
)
_MAX_WORDS = 6
_REFERENCE = datetime(2000, 1, 3, 12, tzinfo=UTC)


def _count(text: str) -> int:
    return int(text) if text.isdigit() else _NUMBERS.get(" ".join(text.lower().split()), 1)


def _later(day: date, n: int, unit: str) -> date:
    return _add(datetime.combine(day, time(12)), n, unit).date()


def _phrase(text: str, at: int) -> str:
    """The time phrase that starts at `at`: up to where the clause goes on, at most a few
    words."""
    rest = text[at:]
    stop = _STOP.search(rest)
    phrase = rest[: stop.start()] if stop else rest
    return " ".join(phrase.split()[:_MAX_WORDS])


def _day(phrase: str, ts: datetime) -> tuple[date, bool] | None:
    """The day `phrase` names, the next one on or after the message's local day, and whether
    the phrase names a longer period that starts that day ("2027", "next month", "the new
    year": "until" then means until it starts); None when it names no day."""
    phrase = _HEDGE.sub("", phrase.strip())
    if not phrase or _TIME_WORD.search(phrase) is None or _SLASHED.search(phrase):
        return None
    today = ts.date()
    if _NEW_YEAR.match(phrase):
        return date(today.year + 1, 1, 1), True
    feast = _FEAST_DAY.match(phrase)
    if feast:
        return _feast_day(feast.group("feast").lower(), today), False
    if _YEAR.match(phrase):
        year = int(phrase)
        return (date(year, 1, 1), True) if year > today.year else None
    units = _IN_UNITS.match(phrase)
    if units:
        return _later(today, _count(units.group("n")), units.group("unit")), False
    relative = _RELATIVE.match(phrase)
    if relative:
        unit, which = relative.group("unit").lower(), relative.group("which").lower()
        if which == "this":
            return None  # "until this week" says little; the patterns read "this week"
        if unit == "week":
            return today + timedelta(days=7 - today.weekday()), True
        if unit == "month":
            return date(today.year + (today.month == 12), today.month % 12 + 1, 1), True
        return date(today.year + 1, 1, 1), True
    words = phrase.split()
    if _MODAL_MONTH.fullmatch(words[0]) and len(words) > 1 and not re.match(r"\d", words[1]):
        return None  # "until may be", "from march on": not a date
    month_only = re.fullmatch(rf"(?:early\s+)?(?:{_MONTH_RE})", phrase, re.IGNORECASE)
    # The longest prefix that reads as a day: "August the 3rd at noon" reads "August the 3rd".
    for size in range(len(words), 0, -1):
        prefix = " ".join(words[:size])
        if _TIME_WORD.search(prefix) is None:
            break
        found = _parse_day(prefix, ts)
        if found is not None:
            return (found, month_only is not None) if found >= today else None
    return None


_INSIDE = re.compile(r"\b(?:on|by)\s+", re.IGNORECASE)


def _feast_day(feast: str, today: date) -> date:
    """The next Easter Sunday or Christmas Day on or after `today`."""
    from dateutil.easter import easter

    for year in (today.year, today.year + 1):
        day = easter(year) if feast == "easter" else date(year, 12, 25)
        if day >= today:
            return day
    raise AssertionError("a feast falls every year")  # pragma: no cover


def _day_inside(phrase: str, ts: datetime) -> tuple[date, bool] | None:
    """The day a clause after the marker names, when the marker opens an event rather than a
    date: "until my exams finish on June 12", "till I'm back on the 3rd"."""
    for found in _INSIDE.finditer(phrase):
        day = _day(phrase[found.end() :], ts)
        if day is not None:
            return day
    return None


def _until_day(phrase: str, ts: datetime) -> tuple[date, bool] | None:
    """The day the phrase after an end marker names: a day ("until Friday"), or the day of
    the event it opens ("until my exams finish on June 12")."""
    return _day(phrase, ts) or _day_inside(phrase, ts)


def end_day(text: str, ts: datetime) -> datetime | None:
    """When a claim said at `ts` ends, read from an end marker and the day after it: the
    local midnight after that day (an end date is inclusive of its day), or None."""
    for marker in _END.finditer(text):
        found = _until_day(_phrase(text, marker.end()), ts)
        if found is not None:
            day, period = found
            # "until Friday" holds through Friday; "until 2027" ends as 2027 begins.
            last = day if period else day + timedelta(days=1)
            return datetime.combine(last, time(0), tzinfo=ts.tzinfo)
    return None


def start_day(text: str, ts: datetime) -> datetime | None:
    """When a claim said at `ts` starts, read from a start marker and the day after it (the
    day after it for "after"), or from an opening "in two weeks I …": local midnight of that
    day, if it is still to come; else None."""
    today = ts.date()
    opens = _IN_UNITS_OPENS.match(text)
    if opens:
        day = _later(today, _count(opens.group("n")), opens.group("unit"))
        return datetime.combine(day, time(0), tzinfo=ts.tzinfo)
    for marker in _START.finditer(text):
        if re.search(r"\b(?:weeks?|days?)\s+$", text[: marker.start()], re.IGNORECASE):
            continue  # "a week from tomorrow" names one day, not a start
        found = _day(_phrase(text, marker.end()), ts)
        if found is None:
            continue
        day = found[0] + timedelta(days=1 if marker.group().strip().lower() == "after" else 0)
        if day > today:
            return datetime.combine(day, time(0), tzinfo=ts.tzinfo)
    return None


def ahead(text: str, ts: datetime) -> datetime | None:
    """The end of a stretch ahead that the text names ("for the next fortnight", "over the
    coming three weeks"), counted from `ts`; None for a stretch behind ("the past few days")
    or one of no length ("the coming weeks")."""
    for found in _AHEAD.finditer(text):
        if _AHEAD_PAST.search(text[: found.start()]):
            continue
        n_text = found.group("n") or found.group("n_2")
        if n_text is None and found.group("plural"):
            continue
        unit = found.group("unit") or found.group("unit2") or found.group("unit3")
        return _add(ts, _count(n_text) if n_text else 1, unit)
    return None


def names_bound(text: str) -> bool:
    """The text names a bound this module reads: a stretch ahead, or a marker whose phrase
    reads as a day (read against a fixed past reference, so that the answer does not depend
    on when it is asked; "from this week" names none)."""
    if _AHEAD.search(text) or _IN_UNITS_OPENS.match(text):
        return True
    if any(
        p.search(text)
        for p in (_PARTS_RANGE, _FEAST, _AFTER_NEXT, _WEEK_OF_DAY, _WEEKEND_SAID, _DATES_RANGE)
    ):
        return True
    days = _DAY_RANGE.search(text)
    if days is not None and (days.group("month") or days.group("month2") or days.group("a_th")):
        return True
    return any(
        read(_phrase(text, marker.end()), _REFERENCE) is not None
        for pattern, read in ((_END, _until_day), (_START, _day))
        for marker in pattern.finditer(text)
    )


# A part of a month: "at the start of October", "the end of September", "early March",
# "mid-June", "late August".
_MONTH_PART = re.compile(
    rf"\b(?:(?:at|by|around|towards?|from)\s+)?(?:the\s+)?(?P<part>start|beginning|middle|end)\s+of\s+"
    rf"(?P<month>{_MONTH_RE})\b|\b(?P<early>early|mid|late)[-\s]+(?P<month2>{_MONTH_RE})\b",
    re.IGNORECASE,
)
_PART_DAY = {"start": 1, "beginning": 1, "early": 1, "middle": 15, "mid": 15}


def month_part(text: str, ts: datetime) -> datetime | None:
    """The first day of the part of a month the text names ("at the start of October": the
    1st; "mid-June": the 15th; "the end of September", "late August": the month's last week),
    the next such day after `ts`'s local day: local midnight of it; else None."""
    found = _MONTH_PART.search(text)
    if found is None:
        return None
    part = (found.group("part") or found.group("early")).lower()
    month = _MONTHS[(found.group("month") or found.group("month2")).lower()]
    today = ts.date()
    for year in (today.year, today.year + 1):
        last = _end_of("month", date(year, month, 1)).day
        day = date(year, month, _PART_DAY.get(part, last - 6))
        if day > today:
            return datetime.combine(day, time(0), tzinfo=ts.tzinfo)
    return None


def month_pair(text: str, ts: datetime) -> tuple[datetime, datetime] | None:
    """Months named by both ends ("July and August"): the first's 1st to the end of the last."""
    found = _MONTHS_SPAN.search(text)
    if found is None:
        return None
    first = _month_start(found.group("m1"), ts.date(), after=False)
    last = _month_start(found.group("m2"), first, after=False)
    return _month_span(first, ts)[0], _month_span(last, ts)[1]


def length_from(text: str, ts: datetime) -> tuple[datetime, datetime] | None:
    """A length from a named day ("for two weeks starting Monday"), as local [start, end)."""
    found = _LENGTH_FROM.search(text)
    day = None if found is None else _end_day(found.group("day"), ts)
    if found is None or day is None:
        return None
    n = _count(found.group("n") or found.group("n2") or "a")
    start = datetime.combine(day, time(0), tzinfo=ts.tzinfo)
    unit = (found.group("unit") or found.group("unit2") or found.group("unit3")).lower().rstrip("s")
    return start, _add(start, n, "day" if unit == "night" else unit)


# Days of one month named by both ends without "from": "the 14th-21st", "May 3 to 9",
# "the 2nd till the 6th of June" (an ordinal, "the" or a month tells days from a count: "2-3
# days" and "9-5" are none).
_DAY_RANGE = re.compile(
    rf"(?<!\bfrom\s)(?<!\bbetween\s)(?:\b(?P<month>{_MONTH_RE})\.?\s+|\bthe\s+)?"
    r"\b(?P<a>\d{1,2})(?P<a_th>st|nd|rd|th)?\s*(?:-|–|to|till|until|thru|through)\s*(?:the\s+)?"
    rf"(?:{_WEEKDAY},?\s+(?:the\s+)?)?"
    r"(?P<b>\d{1,2})(?P<b_th>st|nd|rd|th)?\b(?!\s*(?:am|pm|h\b|:|\.\d|%|days?|weeks?|nights?|"
    r"hours?|minutes?|mins?|years?|people|kids?|times?))"
    rf"(?:\s+(?:of\s+)?(?P<month2>{_MONTH_RE})\b)?",
    re.IGNORECASE,
)
# Parts of months named by both ends: "mid-May to early June", "late July till mid-August".
_PART = r"(?:early|mid|late|the\s+start\s+of|the\s+beginning\s+of|the\s+middle\s+of|the\s+end\s+of)"
_PARTS_RANGE = re.compile(
    rf"\b(?P<p1>{_PART})[\s-]+(?P<m1>{_MONTH_RE})\s+(?:to|till|until|through|thru|-|–)\s+"
    rf"(?P<p2>{_PART})[\s-]+(?P<m2>{_MONTH_RE})\b",
    re.IGNORECASE,
)
_AFTER_NEXT = re.compile(r"\bthe\s+(?P<unit>week|weekend)\s+after\s+next\b", re.IGNORECASE)
# The week a day falls in: "the week of the 22nd", "the week of 3 August" (Monday to Sunday).
_WEEK_OF_DAY = re.compile(
    rf"\bthe\s+week\s+of\s+(?:the\s+)?(?:(?P<month>{_MONTH_RE})\s+)?(?P<day>\d{{1,2}})"
    rf"(?:st|nd|rd|th)?\b(?:\s+(?:of\s+)?(?P<month2>{_MONTH_RE})\b)?",
    re.IGNORECASE,
)
# Two dates, each with its month: "July 3 to July 10", "28 June - 4 July".
_DATES_RANGE = re.compile(
    rf"\b(?:(?P<m1>{_MONTH_RE})\.?\s+(?P<d1>\d{{1,2}})|(?P<e1>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?"
    rf"(?P<n1>{_MONTH_RE}))(?:st|nd|rd|th)?\s*(?:-|–|to|till|until|through|thru)\s*"
    rf"(?:(?P<m2>{_MONTH_RE})\.?\s+(?P<d2>\d{{1,2}})|(?P<e2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?"
    rf"(?P<n2>{_MONTH_RE}))\b",
    re.IGNORECASE,
)
# A weekend said as a stretch: "over the long weekend", "during the bank holiday weekend".
_WEEKEND_SAID = re.compile(
    r"\b(?:over|during|across|for)\s+the\s+(?:long\s+|bank[\s-]+holiday\s+)?weekend\b", re.I
)
_PART_FIRST = {
    "early": 1,
    "start": 1,
    "beginning": 1,
    "mid": 11,
    "middle": 11,
    "late": 21,
    "end": 21,
}
# Feasts whose days move or that people name alone: "over Easter", "during the Christmas
# holidays", "at New Year".
_FEAST = re.compile(
    r"\b(?:over|during|for|at|on|across|throughout)\s+(?:the\s+)?(?P<feast>easter|christmas|xmas|"
    r"new\s+year(?:['’]s)?)(?:\s+(?:weekend|holidays?|break|week|period))?\b",
    re.IGNORECASE,
)


def _part_day(part: str, month: int, year: int, *, last: bool) -> date:
    first = next(_PART_FIRST[w] for w in part.lower().split() if w in _PART_FIRST)
    if not last:
        return date(year, month, first)
    if first == 21:
        return _end_of("month", date(year, month, 1))
    return date(year, month, first + 9)


def other_span(text: str, ts: datetime) -> tuple[datetime, datetime] | None:
    """A span named by days of a month ("the 14th-21st"), by parts of months ("mid-May to
    early June") or by a feast ("over Easter"), as local [start, end); None otherwise."""
    today = ts.date()
    parts = _PARTS_RANGE.search(text)
    if parts is not None:
        m1, m2 = _MONTHS[parts.group("m1").lower()], _MONTHS[parts.group("m2").lower()]
        year = today.year + (m1 < today.month)
        first = _part_day(parts.group("p1"), m1, year, last=False)
        last = _part_day(parts.group("p2"), m2, year + (m2 < m1), last=True)
        return _local(first, ts), _local(last + timedelta(days=1), ts)
    days = _DAY_RANGE.search(text)
    if days is not None and (days.group("month") or days.group("month2") or days.group("a_th")):
        month_name = days.group("month") or days.group("month2")
        a, b = int(days.group("a")), int(days.group("b"))
        for year, month in _months_ahead(today, month_name):
            last_day = _end_of("month", date(year, month, 1)).day
            if a <= b <= last_day and date(year, month, b) >= today:
                return _local(date(year, month, a), ts), _local(
                    date(year, month, b) + timedelta(1), ts
                )
        return None
    dates = _DATES_RANGE.search(text)
    if dates is not None:
        g = dates.groupdict()
        m1, m2 = _MONTHS[(g["m1"] or g["n1"]).lower()], _MONTHS[(g["m2"] or g["n2"]).lower()]
        d1, d2 = int(g["d1"] or g["e1"]), int(g["d2"] or g["e2"])
        for year in (today.year, today.year + 1):
            try:
                first, last = date(year, m1, d1), date(year + (m2 < m1), m2, d2)
            except ValueError:
                return None
            if first <= last and last >= today:
                return _local(first, ts), _local(last + timedelta(days=1), ts)
        return None
    week_of = _WEEK_OF_DAY.search(text)
    if week_of is not None:
        month_name = week_of.group("month") or week_of.group("month2")
        for year, month in _months_ahead(today, month_name):
            if int(week_of.group("day")) <= _end_of("month", date(year, month, 1)).day:
                day = date(year, month, int(week_of.group("day")))
                monday = day - timedelta(days=day.weekday())
                if monday + timedelta(days=7) > today:
                    return _local(monday, ts), _local(monday + timedelta(days=7), ts)
        return None
    after_next = _AFTER_NEXT.search(text)
    if after_next is not None:
        # "the week after next": the Monday two weeks on to its Sunday; "the weekend after
        # next": the Saturday after next weekend's, and its Sunday.
        monday = today - timedelta(days=today.weekday()) + timedelta(weeks=2)
        if after_next.group("unit").lower() == "weekend":
            saturday = monday + timedelta(days=5)
            return _local(saturday, ts), _local(saturday + timedelta(days=2), ts)
        return _local(monday, ts), _local(monday + timedelta(days=7), ts)
    feast = _FEAST.search(text)
    if feast is not None:
        from dateutil.easter import easter

        name = feast.group("feast").lower()
        for year in (today.year, today.year + 1):
            if name == "easter":
                sunday = easter(year)
                first, after = sunday - timedelta(days=2), sunday + timedelta(days=2)
            elif name.startswith("new"):
                first, after = date(year - 1, 12, 31), date(year, 1, 2)
            else:
                first, after = date(year, 12, 24), date(year, 12, 27)
            if after > today:
                return _local(first, ts), _local(after, ts)
    return None


def _months_ahead(today: date, month_name: str | None) -> list[tuple[int, int]]:
    """The (year, month) a range of days may fall in: the month named, this year or next, or
    this month and the next when none is named."""
    if month_name:
        month = _MONTHS[month_name.lower()]
        return [(today.year, month), (today.year + 1, month)]
    nxt = date(today.year + (today.month == 12), today.month % 12 + 1, 1)
    return [(today.year, today.month), (nxt.year, nxt.month)]


def _local(day: date, ts: datetime) -> datetime:
    return datetime.combine(day, time(0), tzinfo=ts.tzinfo)


guard_patterns(globals())
