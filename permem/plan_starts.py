"""When a plan is for, said without a marker of its start ("after the summer", "in spring",
"in the new year", "at the end of the year", "in a couple of months": `plan_start`), and a
season said as a start ("from the autumn I'll be living there": `season_opens`). Read by
`permem.temporal.resolve` after `permem.bounds.start_day`."""

from __future__ import annotations

import re
from datetime import date, datetime, time

from permem.bounds import _UNITS, _count, _later
from permem.prefilter import guard_patterns
from permem.temporal import _end_of
from permem.temporal_phrases import _SEASON_START

__all__ = ["plan_start", "season_opens"]

# When a plan is for, said without a marker of its start: "after the summer", "in spring", "in
# the new year", "at the end of the year", "in a couple of months".
_PLAN_SEASON = re.compile(
    r"\b(?P<prep>in|after|around|by|over|during|this|next)\s+(?:the\s+)?(?:early\s+|late\s+)?"
    r"(?P<season>spring|summer|autumn|fall|winter)\b",
    re.IGNORECASE,
)
# A season said as a start: "from the autumn", "starting in the spring".
_SEASON_OPENS = re.compile(
    r"\b(?P<prep>from|starting(?:\s+in)?|beginning(?:\s+in)?|come|once)\s+(?:the\s+)?"
    r"(?P<season>spring|summer|autumn|fall|winter)\b(?!\s+(?:term|semester|holidays?|break))",
    re.IGNORECASE,
)
_PLAN_NEW_YEAR = re.compile(r"\b(?:in|after|around|by|at|from)\s+the\s+new\s+year\b", re.I)
_PLAN_END_OF = re.compile(
    r"\b(?:at|by|towards?|around)\s+the\s+end\s+of\s+(?:the\s+|this\s+)?(?P<unit>year|month)\b",
    re.I,
)
_PLAN_IN_UNITS = re.compile(
    rf"\bin\s+(?:about\s+|around\s+)?{_UNITS}(?:'\s*time)?\b", re.IGNORECASE
)
_SEASON_AFTER = {"spring": "summer", "summer": "autumn", "autumn": "winter", "fall": "winter",
                 "winter": "spring"}  # fmt: skip


def _season_start(season: str, today: date) -> date:
    month, day = _SEASON_START[season]
    start = date(today.year, month, day)
    return start if start > today else date(today.year + 1, month, day)


def plan_start(text: str, ts: datetime) -> datetime | None:
    """When a plan said at `ts` is for, when it names a season, the new year, the end of the
    year or month, or a stretch from now, without a marker of its start (`start_day`): local
    midnight of that day, if it is still to come; else None."""
    today = ts.date()
    day: date | None = None
    season = _PLAN_SEASON.search(text)
    units = _PLAN_IN_UNITS.search(text)
    end_of = _PLAN_END_OF.search(text)
    if season is not None:
        name = season.group("season").lower()
        if season.group("prep").lower() == "after":
            name = _SEASON_AFTER[name]  # "after the summer": when autumn starts
        day = _season_start(name, today)
    elif _PLAN_NEW_YEAR.search(text):
        day = date(today.year + 1, 1, 1)
    elif end_of is not None:
        day = _end_of(end_of.group("unit").lower(), today)
    elif units is not None:
        day = _later(today, _count(units.group("n")), units.group("unit"))
    if day is None or day <= today:
        return None
    return datetime.combine(day, time(0), tzinfo=ts.tzinfo)


def season_opens(text: str, ts: datetime) -> datetime | None:
    """The start of the season a claim says it starts with ("from the autumn", "starting in
    the spring"; not "the autumn term"): local midnight of its first day, the next one to come."""
    season = _SEASON_OPENS.search(text)
    if season is None:
        return None
    day = _season_start(season.group("season").lower(), ts.date())
    return datetime.combine(day, time(0), tzinfo=ts.tzinfo)


guard_patterns(globals())
