"""Dates in local days near midnight (temporal): a day or span said in a zone whose local
day differs from the UTC day."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from permem.corpus.schedules import ACKS, _cap, _month_end, _next_month, _on
from permem.corpus.templates import WEEKDAYS, Scenario, ordinal, rfc3339, template

# Zones whose local day differs from the UTC day late in the evening (behind UTC) or early in
# the morning (ahead of UTC).
BEHIND = ("America/Toronto", "America/Denver", "America/Los_Angeles", "America/Sao_Paulo")
AHEAD = ("Asia/Tokyo", "Australia/Sydney", "Pacific/Auckland", "Asia/Singapore")
CITY = {
    "America/Toronto": "Toronto",
    "America/Denver": "Denver",
    "America/Los_Angeles": "Seattle",
    "America/Sao_Paulo": "Sao Paulo",
    "Asia/Tokyo": "Tokyo",
    "Australia/Sydney": "Sydney",
    "Pacific/Auckland": "Auckland",
    "Asia/Singapore": "Singapore",
}

ONE_DAY = (
    "I'm at a training workshop all day {when}",
    "{When} is my sister's wedding, I'm out the whole day",
    "I've got jury duty {when}",
    "{When} I'm moving flats, total chaos",
    "{When} I'm taking a proper day off",
    "I'm at the hospital with my dad {when}, his operation",
)
SPAN = (
    "I'm trekking with no signal {when}",
    "I'm on a silent retreat {when}",
    "I'm sailing across the Atlantic {when}",
    "I'm walking the Camino {when}",
)
BLOCK_RULES = (
    "Don't book me a single call or meeting {then}.",
    "Keep my calendar clear of any meeting or call {then}.",
    "So no meetings or calls {then}, decline anything that comes in.",
    "If anyone asks for a meeting or a call {then}, the answer is no.",
)
CALL_HABITS = (
    "For calls and meetings, afternoons suit me best.",
    "I like my meetings and calls after 11, never first thing.",
    "Please keep any call or meeting to 30 minutes max.",
    "I prefer a video call over an in-person meeting whenever possible.",
)
CALL_ASKS = (
    "book a call with {name} today",
    "can you fit a meeting with {name} in today?",
    "set up a quick call with {name} for today",
    "put a meeting with {name} in my calendar for today",
)


def _blocked_days(s: Scenario, said: datetime, ahead: bool) -> tuple[str, date, date]:
    """A day or span written one of many ways, relative to the local day of `said`: the words
    and the first and last local day."""
    d = s.draw
    day = said.date()
    kind = d.pick(
        ("tomorrow", "day-after", "weekday", "nth", "iso", "week-from-tomorrow", "next-month")
    )
    if kind == "tomorrow":
        one = day + timedelta(days=1)
        return "tomorrow", one, one
    if kind == "day-after":
        one = day + timedelta(days=2)
        return "the day after tomorrow", one, one
    if kind == "weekday":
        # Behind UTC, late at night the UTC day is already tomorrow: name tomorrow's weekday.
        one = day + timedelta(days=1 if not ahead else d.between(2, 6))
        return f"on {WEEKDAYS[one.weekday()]}", one, one
    if kind == "nth":
        one = day + timedelta(days=d.between(3, 12))
        return f"on the {ordinal(one.day)}", one, one
    if kind == "iso":
        one = day + timedelta(days=d.between(3, 20))
        return f"on {one.isoformat()}", one, one
    if kind == "week-from-tomorrow":
        one = day + timedelta(days=8)
        return "a week from tomorrow", one, one
    first = _next_month(day)
    return d.any(("all of next month", "for the whole of next month")), first, _month_end(first)


@template(
    "temporal",
    "local-day-near-midnight",
    "A day blocked for calls, written many ways ('tomorrow', "
    "'on Friday', 'the 14th', an ISO date, 'all of next month'), said near midnight UTC in a zone "
    "whose local day differs from the UTC day; the block holds on that local day only.",
)
def local_day_near_midnight(s: Scenario) -> None:
    d = s.draw
    ahead = d.chance()
    zone = d.any(AHEAD if ahead else BEHIND)
    s.zone = (CITY[zone], zone)
    habit_at = s.day(-d.between(5, 30), d.between(10, 17))
    c = s.chat(habit_at)
    habit = c.user(d.pick(CALL_HABITS))
    c.assistant(d.pick(ACKS))
    said = s.day(0, d.between(6, 7) if ahead else d.between(22, 23), d.between(0, 55))
    reason_first = d.chance(0.7)
    # A month span only makes the local/UTC difference count at a month's edge.
    probe = _blocked_days(s, said, ahead)
    if probe[2] != probe[1]:
        edge = _next_month(said.date()) if ahead else _month_end(said.date())
        said = _on(s, edge, said.hour, said.minute)
        probe = (probe[0], _next_month(said.date()), _month_end(_next_month(said.date())))
    words, first, last = probe
    utc_day = said.astimezone(ZoneInfo("UTC")).date()
    assert utc_day != said.date(), (said, utc_day)
    single = first == last
    reason = d.pick(ONE_DAY if single else SPAN)
    rule = d.pick(BLOCK_RULES).format(then="that day" if single else "while I'm away")
    c = s.chat(said)
    if reason_first:
        ids = c.tell(
            reason.replace("{When}", _cap(words)).replace("{when}", words), rule, acks=ACKS
        )
    else:
        then = "that day" if single else "then"
        heads_up = f"Heads up: no call or meeting {words}, please."
        ids = c.tell(heads_up, reason.replace("{When}", _cap(then)).replace("{when}", then))
    name = s.other_person().first
    ask = d.pick(CALL_ASKS).format(name=name)
    inside_day = first if single else first + timedelta(days=d.between(3, 20))
    inside = _on(s, inside_day, d.between(9, 13))
    if ahead and first - timedelta(days=1) >= said.date():
        outside_day = first - timedelta(days=1)
    else:
        outside_day = last + timedelta(days=1)
    outside = _on(s, outside_day, d.between(9, 13))
    later = _on(s, last + timedelta(days=d.between(4, 12)), d.between(9, 16))
    s.nightly()
    queries = [
        s.ask(ask, inside, relevant=[habit, *ids]),
        s.ask(ask, outside, relevant=[habit], forbidden=ids),
    ]
    if outside_day < first:
        queries.append(s.ask(ask, later, relevant=[habit], forbidden=ids))
    s.recall(*queries)
    s.notes.append(
        f"Said at {rfc3339(said)} (local day {said.date()}, UTC day {utc_day}); "
        f"'{words}' is local {first}..{last}."
    )
