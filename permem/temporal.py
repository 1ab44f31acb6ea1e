"""When a claim holds: relative time in a message resolved against the message's own time.

"until Feb 5" ends the claim at the end of that day; "for two weeks" ends it two weeks after
the message; "next year" / "in the fall" start a plan later; "just tonight" / "for this trip
only" make it a one-off for the session. Times are resolved in the message's time zone (the
offset of its `ts`); an end date is exclusive (`valid_until` is the midnight after the day
named). Nothing here reads the clock. The phrases themselves are in `permem.temporal_phrases`.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

import dateparser

from permem.prefilter import guard_patterns
from permem.temporal_phrases import (
    _ALREADY,
    _BACK_ON,
    _BARE_WEEKDAY,
    _COUNTED_BEFORE,
    _DATE,
    _FOR,
    _FROM,
    _HABITUAL,
    _LASTING_CHANGE,
    _LENGTH_FROM,
    _MONTHS,
    _MONTHS_SPAN,
    _NEXT,
    _NOT_DAYS,
    _NUMBERS,
    _ONE_DAY,
    _ONE_MONTH,
    _RANGE,
    _SEASON_START,
    _THIS,
    _THIS_SPAN,
    _TOLD_AFTER,
    _UNTIL,
    _UNTIL_MONTH,
    _WEEKDAY_BEFORE_DATE,
    _WEEKDAYS,
    _WEEKS_OF,
    FOR_GOOD,
    GOVERNED,
    KEEPS_A_DAY_FREE,
    ONE_STRETCH,
    POINTS_TO_DAY,
    SECOND_DAY,
    WEEKLY_RUN,
    _with_month,
)

__all__ = [
    "GOVERNED",
    "KEEPS_A_DAY_FREE",
    "POINTS_TO_DAY",
    "Validity",
    "has_bound",
    "resolve",
    "single_day",
    "span",
    "starts",
]


def single_day(text: str, ts: datetime, *, told: bool = True) -> tuple[datetime, datetime] | None:
    """The one local day (or whole month) still to come that the text names for itself, as
    [start, end), or None; never for a habit ("every Friday") or a change that lasts ("I start
    the new job tomorrow"). `told`: also for a statement (not only an instruction) unless it
    speaks of the past or of now ("got the keys on Monday")."""
    if _HABITUAL.search(text) or _LASTING_CHANGE.search(text):
        return None
    if told and _TOLD_AFTER.search(text):
        return None
    today = ts.date()
    month = _whole_month(text, ts)
    if month is not None:
        return month
    found = _ONE_DAY.search(text)
    if found is None or SECOND_DAY.match(text, found.end()):
        return None
    g = found.groupdict()
    day: date | None
    if g["after"]:
        day = today + timedelta(days=2)
    elif g["weeks"]:
        weeks = 2 if g["weeks"].lower() == "two" else 1
        day = today + timedelta(days=7 * weeks + (1 if g["base"].lower() == "tomorrow" else 0))
    elif g["tomorrow"]:
        day = today + timedelta(days=1)
    else:
        phrase = g["weekday"] or g["dayof"] or g["date"] or g["iso"] or ""
        if re.fullmatch(r"\d{1,2}(?:st|nd|rd|th)?", phrase):
            phrase = f"the {phrase}"
        if g["weekday"] and re.match(r"next\b", found.group(0), re.I):
            phrase = f"next {phrase}"
        day = _parse_day(phrase, ts)
    if day is None or day < today:
        return None
    return datetime.combine(day, time(0), tzinfo=ts.tzinfo), _midnight_after(day, ts)


_TONIGHT = re.compile(r"\b(?:tonight|today only|just today|for today)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Validity:
    valid_from: datetime
    valid_until: datetime | None
    one_off: bool = False


def _midnight_after(day: date, ts: datetime) -> datetime:
    return datetime.combine(day + timedelta(days=1), time(0), tzinfo=ts.tzinfo)


def _next_date(month: int, day: int, today: date) -> date | None:
    for year in (today.year, today.year + 1):
        try:
            candidate = date(year, month, day)
        except ValueError:
            continue
        if candidate >= today:
            return candidate
    return None


def _next_day_of_month(day: int, today: date) -> date | None:
    """The next date on or after `today` whose day of the month is `day`."""
    month, year = today.month, today.year
    for _ in range(13):
        try:
            found = date(year, month, day)
            if found >= today:
                return found
        except ValueError:
            pass
        month, year = (1, year + 1) if month == 12 else (month + 1, year)
    return None


def _resolve_date(match: re.Match[str], today: date) -> date | None:
    g = match.groupdict()
    month_name = g.get("m1") or g.get("m2")
    day_text = g.get("d1") or g.get("d2")
    if month_name and day_text:
        return _next_date(_MONTHS[month_name.lower()], int(day_text), today)
    part_month = g.get("m3") or g.get("m4")
    if part_month:
        # "the end of March" (its last day), "mid-April" (the 15th), "early May" (the 1st).
        month = _MONTHS[part_month.lower()]
        part = (g.get("part") or g.get("part2") or "").lower()
        last = calendar.monthrange(today.year, month)[1]
        day = {"end": last, "late": last, "middle": 15, "mid": 15}.get(part, 1)
        return _next_date(month, day, today)
    if g.get("d3") or g.get("d4"):
        return _next_day_of_month(int(g.get("d3") or g["d4"]), today)
    if g.get("iso"):
        try:
            return date.fromisoformat(g["iso"])
        except ValueError:
            return None
    if g.get("weekday"):
        target = _WEEKDAYS[g["weekday"].lower()]
        ahead = (target - today.weekday()) % 7
        return today + timedelta(days=ahead or 7)
    if g.get("endof"):
        end = _end_of(g["endof"].lower(), today)
        # "the end of next quarter": the end of the period after this one.
        return _end_of(g["endof"].lower(), end + timedelta(days=1)) if g.get("nextof") else end
    if g.get("tomorrow"):
        return today + timedelta(days=1)
    if g.get("weekend"):
        return today + timedelta(days=(6 - today.weekday()) % 7)
    return None


def _end_of(unit: str, today: date) -> date:
    if unit in ("week", "weekend"):
        return today + timedelta(days=6 - today.weekday())
    if unit == "month":
        return date(today.year, today.month, calendar.monthrange(today.year, today.month)[1])
    if unit == "quarter":
        last_month = 3 * ((today.month - 1) // 3) + 3
        return date(today.year, last_month, calendar.monthrange(today.year, last_month)[1])
    return date(today.year, 12, 31)


def _add(ts: datetime, n: int, unit: str) -> datetime:
    unit = unit.lower()
    if unit == "hour":
        return ts + timedelta(hours=n)
    if unit == "day":
        return ts + timedelta(days=n)
    if unit == "week":
        return ts + timedelta(weeks=n)
    if unit == "fortnight":
        return ts + timedelta(weeks=2 * n)
    months = n * (12 if unit == "year" else 1)
    year, month = divmod(ts.month - 1 + months, 12)
    day = min(ts.day, calendar.monthrange(ts.year + year, month + 1)[1])
    return ts.replace(year=ts.year + year, month=month + 1, day=day)


def _start_of(match: re.Match[str], ts: datetime) -> datetime | None:
    """Start of the future period named by a `_NEXT` match ("next year", "in the fall")."""
    today = ts.date()
    unit = (match.group("unit") or "").lower()
    season = (match.group("season") or "").lower() or (unit if unit in _SEASON_START else "")
    if season:
        month, day = _SEASON_START[season]
        start = date(today.year, month, day)
        if start <= today:
            start = date(today.year + 1, month, day)
    elif unit == "week":
        start = today + timedelta(days=7 - today.weekday())
    elif unit == "month":
        start = date(today.year + (today.month == 12), today.month % 12 + 1, 1)
    elif unit == "year":
        start = date(today.year + 1, 1, 1)
    elif match.group("month"):
        month = _MONTHS[match.group("month").lower()]
        start = date(today.year + (month <= today.month), month, 1)
    else:
        return None
    return datetime.combine(start, time(0), tzinfo=ts.tzinfo)


def _month_start(month_name: str, today: date, *, after: bool) -> date:
    """The first day of the next `month_name` (this year's if still ahead, or if `after` is
    False and it is the current month)."""
    month = _MONTHS[month_name.lower()]
    year = today.year
    if month < today.month or (after and month == today.month):
        year += 1
    return date(year, month, 1)


def _parse_day(phrase: str, ts: datetime) -> date | None:
    """A day named in `phrase`, the next one on or after the message's local day: the
    patterns here first, then `dateparser` (maintained; relative to the local time)."""
    today = ts.date()
    match = re.fullmatch(_DATE, phrase.strip(), re.IGNORECASE)
    if match is not None:
        found = _resolve_date(match, today)
        if found is not None:
            return found
    parsed = dateparser.parse(
        phrase,
        languages=["en"],
        settings={
            "RELATIVE_BASE": ts.replace(tzinfo=None),
            "PREFER_DATES_FROM": "future",
            "PREFER_DAY_OF_MONTH": "first",
        },
    )
    return parsed.date() if parsed is not None else None


def _end_day(phrase: str, ts: datetime) -> date | None:
    """A day that ends or opens a span: "Friday the 12th" is the 12th, "the 3rd" or "June 9"
    as `_parse_day` reads them; a bare number is a day of the month."""
    phrase = _WEEKDAY_BEFORE_DATE.sub("", phrase.strip())
    if re.fullmatch(r"\d{1,2}(?:st|nd|rd|th)?", phrase):
        phrase = f"the {phrase}"
    return _parse_day(phrase, ts)


_RELATIVE_END = re.compile(r"\b(?:next|this|coming)\b", re.IGNORECASE)
_BARE_DAY = re.compile(r"(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?", re.IGNORECASE)


def span(text: str, ts: datetime) -> tuple[datetime, datetime] | None:
    """The span a text names by both ends ("from the 10th to the 24th") or as one whole month
    ("all of next month", "throughout May"), as local [start, end), if it lies (at least
    partly) ahead of `ts`; None otherwise. The end is read on or after the start."""
    found = _RANGE.search(text)
    if (
        found is not None
        # A working week ("from Monday to Friday") is no span, one stretch said of weekdays is.
        and (
            ONE_STRETCH.search(text)
            or not all(_BARE_WEEKDAY.fullmatch(found.group(end).strip()) for end in ("a", "b"))
        )  # fmt: skip
        and not _NOT_DAYS.search(f"{found.group('a')} | {found.group('b')}")
    ):
        first = _end_day(_with_month(found.group("a"), found.group("b")), ts)
        if first is not None:
            # "the 14th of next month" says next from the message's day, not from the start.
            relative = _RELATIVE_END.search(found.group("b")) is not None
            anchor = ts if relative else datetime.combine(first, time(12), tzinfo=ts.tzinfo)
            last = _end_day(found.group("b"), anchor)
            bare = _BARE_DAY.fullmatch(found.group("a").strip())
            if relative and last is not None and bare and int(bare.group(1)) <= last.day:
                # "from the 3rd until the 21st of next month": both days of next month.
                first = last.replace(day=int(bare.group(1)))
            if last is not None and first <= last and last >= ts.date():
                return (
                    max(datetime.combine(first, time(0), tzinfo=ts.tzinfo), ts),
                    _midnight_after(last, ts),
                )
    from permem import bounds  # reads the days with this module's day reader

    month = (
        _whole_month(text, ts)
        or _weeks_of(text, ts)
        or bounds.month_pair(text, ts)
        or bounds.length_from(text, ts)
        or bounds.other_span(text, ts)
    )
    return None if month is None or month[1] <= ts else (max(month[0], ts), month[1])


def _weeks_of(text: str, ts: datetime) -> tuple[datetime, datetime] | None:
    """The weeks at one end of a month the text names ("the first two weeks of July": the 1st
    to the 14th; "the last week of May": its last seven days), as local [start, end)."""
    found = _WEEKS_OF.search(text)
    if found is None:
        return None
    today = ts.date()
    if found.group("which"):  # "the first two weeks of next month"
        ahead = found.group("which").lower() == "next"
        first = date(
            today.year + (ahead and today.month == 12), (today.month - 1 + ahead) % 12 + 1, 1
        )
    else:
        first = _month_start(found.group("month"), today, after=False)
    n = (found.group("n") or "one").lower()
    days = 7 * (int(n) if n.isdigit() else _NUMBERS[n])
    end = _month_span(first, ts)[1].date()
    part = (found.group("part") or "").lower()
    if part == "half":
        days = 15 if found.group("end").lower() == "first" else (end - first).days - 15
    elif part == "fortnight":
        days = 14
    if found.group("end").lower() == "first":
        start = first
    else:
        start = end - timedelta(days=days)
    return (
        datetime.combine(start, time(0), tzinfo=ts.tzinfo),
        datetime.combine(start + timedelta(days=days), time(0), tzinfo=ts.tzinfo),
    )


def _whole_month(text: str, ts: datetime) -> tuple[datetime, datetime] | None:
    """The whole month the text names ("all of next month", "throughout May"), as local
    [first midnight, midnight after its last day), or None."""
    found = _ONE_MONTH.search(text)
    if found is None:
        return None
    today = ts.date()
    if found.group("next"):
        first = date(today.year + (today.month == 12), today.month % 12 + 1, 1)
    else:
        first = _month_start(found.group("month"), today, after=False)
    return _month_span(first, ts)


def _month_span(first: date, ts: datetime) -> tuple[datetime, datetime]:
    """The month starting on `first`, as local [first midnight, midnight after its last day)."""
    last = calendar.monthrange(first.year, first.month)[1]
    return (
        datetime.combine(first, time(0), tzinfo=ts.tzinfo),
        _midnight_after(date(first.year, first.month, last), ts),
    )


_BOUNDS = (_UNTIL, _UNTIL_MONTH, _FOR, _FROM, _NEXT, GOVERNED, _RANGE, _ONE_MONTH, _WEEKS_OF,
           _MONTHS_SPAN, _LENGTH_FROM)  # fmt: skip


def has_window(text: str) -> bool:
    """`has_bound`, or a stretch named as this one ("this week", "the rest of the month"): a
    window for a state said now, though no bound of a change ("got a Mac this week")."""
    return has_bound(text) or _THIS_SPAN.search(text) is not None


def has_bound(text: str) -> bool:
    """The text names when something ends or starts (cheap: patterns only)."""
    from permem import bounds  # reads the days with this module's day reader

    return any(p.search(text) for p in _BOUNDS) or bounds.names_bound(text)


def starts(text: str, ts: datetime) -> datetime | None:
    """When a claim stated at `ts` starts, if it names a later start ("as of October 1st",
    "starting August 1st", "from March"): local midnight of that day."""
    found = _FROM.search(text)
    if found is None:
        return None
    if _COUNTED_BEFORE.search(text[: found.start()]):
        # "a week from tomorrow" names one day, not a start (`single_day`).
        return None
    today = ts.date()
    if found.group("month") and not found.group("date"):
        day: date | None = _month_start(found.group("month"), today, after=True)
    else:
        day = _parse_day(found.group("date"), ts)
    if day is None or day <= today:
        return None
    return datetime.combine(day, time(0), tzinfo=ts.tzinfo)


# A part of a month said first: "Early October I'll be living in Rotterdam" starts then.
_PART_FIRST = re.compile(
    r"^\W*(?:early|mid|late|the\s+(?:start|beginning|middle|end)\s+of)\b", re.IGNORECASE
)


def resolve(text: str, ts: datetime, *, plan: bool = False, one_off: bool = False) -> Validity:
    """Validity of a claim stated in `text` at `ts`.

    `plan`: the claim is a plan, so a future period named in it starts its validity.
    `one_off`: the extractor already saw a one-off cue ("for this trip only").
    A span named by both ends, or a whole month, is the claim's validity (`span`).
    """
    from permem import bounds, plan_starts  # read the days with this module's day reader

    one_off = one_off or _TONIGHT.search(text) is not None
    # "in the office Tuesday to Thursday" every week names no end ("to Thursday").
    text = WEEKLY_RUN.sub(" ", text)
    named = None if _HABITUAL.search(text) else span(text, ts)
    if named is not None:
        # "Beginning the first week of May I'm on nights permanently": it starts then.
        ends = None if FOR_GOOD.search(text) else named[1]
        return Validity(valid_from=named[0], valid_until=ends, one_off=one_off)
    valid_from = (
        starts(text, ts) or bounds.start_day(text, ts) or plan_starts.season_opens(text, ts) or ts
    )
    if valid_from == ts and (plan or _LASTING_CHANGE.search(text) or _PART_FIRST.match(text)):
        # "We're relocating at the start of October": a change for a part of a month.
        valid_from = bounds.month_part(text, ts) or ts
    valid_until: datetime | None = None
    if plan and valid_from == ts:
        upcoming = _NEXT.search(text)
        start = _start_of(upcoming, ts) if upcoming else None
        # Or any other wording of when a plan is for ("after the summer", "in the new year",
        # "at the end of the year", "in a couple of months"): `permem.bounds`.
        start = start if start is not None and start > ts else plan_starts.plan_start(text, ts)
        if start is not None and start > ts:
            valid_from = start
    until = _UNTIL.search(text)
    if until:
        day = _resolve_date(until, valid_from.date())
        if day is not None:
            valid_until = _midnight_after(day, ts)
    if valid_until is None:
        back = _BACK_ON.search(text)
        # "Off to Kyoto on June 8. Back on the 22nd.": the day of return follows the start.
        day = _parse_day(back.group("date"), max(ts, valid_from)) if back else None
        if day is not None and day > valid_from.date():
            valid_until = datetime.combine(day, time(0), tzinfo=ts.tzinfo)
    if valid_until is None:
        month_bound = _UNTIL_MONTH.search(text)
        if month_bound:
            first = _month_start(month_bound.group("month"), valid_from.date(), after=False)
            if first > valid_from.date():
                valid_until = datetime.combine(first, time(0), tzinfo=ts.tzinfo)
    if valid_until is None:
        duration = _FOR.search(text)
        if duration and _ALREADY.search(text):
            # "meat-free for five years now", "I've been vegan for a decade": how long it has
            # held, not when it ends.
            duration = None
        if duration:
            n_text = duration.group("n").lower()
            n = int(n_text) if n_text.isdigit() else _NUMBERS.get(n_text.replace("a ", "", 1), 1)
            valid_until = _add(valid_from, n, duration.group("unit"))
    if valid_until is None:
        # Any other wording of a day after an end marker ("until August the 3rd", "till
        # around the 20th", "until the new year"), or a stretch ahead ("for the next
        # fortnight"): `permem.bounds`.
        valid_until = bounds.end_day(text, valid_from)
        if valid_until is None and not _ALREADY.search(text):
            valid_until = bounds.ahead(text, valid_from)
    if valid_until is None and not plan:
        this = _THIS.search(text)
        if this and re.search(r"\b(?:only|just|for|busy|until|during|away)\b", text, re.I):
            valid_until = _midnight_after(_end_of(this.group("unit").lower(), ts.date()), ts)
    one_off = one_off or _TONIGHT.search(text) is not None
    if valid_until is not None and valid_until <= valid_from:
        valid_until = None
    return Validity(valid_from=valid_from, valid_until=valid_until, one_off=one_off)


guard_patterns(globals())
