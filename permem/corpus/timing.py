"""When a claim holds: temporal, correction and one-off-exception templates."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from permem.corpus import pools
from permem.corpus.templates import (
    MONTHS,
    WEEKDAYS,
    Scenario,
    first_of_month,
    ordinal,
    rfc3339,
    template,
)


def _end_bound(s: Scenario) -> tuple[str, datetime, datetime]:
    """A time expression ending a claim: (words, earliest end, latest end) in local time."""
    d = s.draw
    begin = s.day(0, 0)
    month = first_of_month(begin, d.between(2, 3))
    kind = d.pick(("month", "end-of-month", "dated", "weeks", "numeric"))
    if kind == "month":
        return f"until {MONTHS[month.month - 1]}", month, month + timedelta(days=31)
    if kind == "end-of-month":
        before = month - timedelta(days=1)
        return f"till the end of {MONTHS[before.month - 1]}", before, month + timedelta(days=1)
    if kind == "dated":
        end = month + timedelta(days=d.between(4, 20))
        return f"until {MONTHS[end.month - 1]} {ordinal(end.day)}", end, end + timedelta(days=1)
    if kind == "numeric":  # a day past the 12th: unambiguous in either order
        end = month + timedelta(days=d.between(12, 19))
        us = s.zone[1] in ("America/Denver", "America/Los_Angeles")
        words = f"{end.month}/{end.day}" if us else f"{end.day}/{end.month}"
        return f"until {words}", end, end + timedelta(days=1)
    weeks = d.between(6, 9)
    end = begin + timedelta(weeks=weeks)
    return f"for the next {weeks} weeks", end - timedelta(days=2), end + timedelta(days=2)


@template(
    "temporal",
    "bound-then-instruction",
    "A bound stated in one sentence ('on leave until "
    "X') governs the instruction in the next ('no work calls until then'); after X the "
    "standing preference applies and both are forbidden.",
)
def bound_then_instruction(s: Scenario) -> None:
    d = s.draw
    standing = s.chat(s.day(-25, 9)).user(
        d.pick(
            (
                "For work calls, mornings are best, never after 4pm.",
                "Work meetings: I like them before lunch if possible.",
            )
        )
    )
    words, earliest, latest = _end_bound(s)
    bound = d.pick(
        (
            f"I'm on parental leave {words}.",
            f"Heads up, I'm on sabbatical {words}.",
            f"I'm officially off work {words}, the baby's here!",
        )
    )
    rule = d.pick(
        (
            "No work calls until then.",
            "So please don't book any work calls before that.",
            "Don't put anything work-related in my calendar till then.",
            "Until that date, decline work meetings for me.",
        )
    )
    ids = s.chat(s.day(0, 14)).tell(bound, rule, acks=("Congratulations!", "Noted."))
    ask = d.pick(
        (
            "set up a call with my manager next week",
            "can you book the project sync for me?",
            "schedule a 30 minute catch-up with the team",
        )
    )
    during = s.day(d.between(7, 20), 10)
    after = (latest + timedelta(days=d.between(10, 25))).replace(hour=11)
    s.nightly()
    s.recall(s.ask(ask, during, relevant=ids[1:]))
    if d.chance():
        s.op("expire", at=rfc3339(latest + timedelta(days=2)))
    s.recall(s.ask(ask, after, relevant=[standing], forbidden=ids))
    assert during < earliest


@template(
    "temporal",
    "from-a-future-date",
    "A move stated to start at a future date ('from March "
    "I'm in B') is not used before it, and the old city is not used after it.",
)
def from_a_future_date(s: Scenario) -> None:
    d = s.draw
    home, away = d.rng.sample(pools.CITIES, 2)
    old = s.chat(s.day(-30, 19)).user(
        d.pick(
            (
                f"I live in {home}, near the old town.",
                f"I'm based in {home}.",
                f"Home is {home} for me.",
            )
        )
    )
    month = first_of_month(s.day(0, 0), d.between(2, 3))
    name = MONTHS[month.month - 1]
    when = d.pick(
        (
            f"From {name}",
            f"Starting {name} 1st",
            f"As of the 1st of {name}",
            f"Once {name} comes round",
        )
    )
    news = d.pick((f"I got the job in {away}!", f"It's official, I'm moving to {away}."))
    then = d.pick(
        (
            f"{when} I'll be living there, so use {away} for anything local from then on.",
            f"{when} that's where I live, so local stuff should be {away} after that.",
        )
    )
    ids = s.chat(s.day(0, 20)).tell(news, then, acks=("Congratulations!",))
    ask = d.pick(
        (
            "find me a dentist near me",
            "any good climbing gyms nearby?",
            "where can I get my bike serviced locally?",
        )
    )
    before = s.day(d.between(5, 15), 12)
    after = month + timedelta(days=d.between(15, 40))
    s.nightly()
    s.recall(
        s.ask(ask, before, relevant=[old], forbidden=ids[1:]),
        s.ask(ask, after.replace(hour=12), relevant=ids[1:], forbidden=[old]),
    )
    assert before < month


@template(
    "temporal",
    "temporary-window",
    "A temporary diet with an end ('for the next six weeks', "
    "'until the 20th') applies inside its window; after it the standing taste is back.",
)
def temporary_window(s: Scenario) -> None:
    d = s.draw
    standing = s.chat(s.day(-12, 20)).user(
        d.pick(
            (
                "Desserts are my weakness, I bake something sweet every weekend.",
                "I have a serious sweet tooth, cakes and pastries are my thing.",
            )
        )
    )
    words, earliest, latest = _end_bound(s)
    temp = d.pick(
        (
            f"I'm doing a no-sugar challenge with my sister {words}.",
            f"Cutting out sugar completely {words}, hold me to it.",
            f"{words[0].upper()}{words[1:]} I'm not eating anything sweet, "
            "it's a bet with my flatmate.",
        )
    )
    said = s.chat(s.day(0, 9)).user(temp)
    ask = d.pick(
        (
            "what should I make for dessert on Saturday?",
            "suggest a treat for tonight",
            "what should I bake this weekend?",
        )
    )
    during = s.day(d.between(3, 20), 19)
    after = (latest + timedelta(days=d.between(5, 20))).replace(hour=19)
    s.nightly()
    s.recall(s.ask(ask, during, relevant=[said]))
    if d.chance():
        s.op("expire", at=rfc3339(latest + timedelta(days=1)))
    s.recall(s.ask(ask, after, relevant=[standing], forbidden=[said]))
    assert during < earliest


@template(
    "temporal",
    "trip-in-another-zone",
    "A trip in another time zone with an end ('until "
    "Thursday the 14th') governs time display; the messages carry their zone's offset.",
)
def trip_in_another_zone(s: Scenario) -> None:
    d = s.draw
    home = s.chat(s.day(-20, 8)).user(
        d.pick((f"I'm based in {s.zone[0]}.", f"Home base is {s.zone[0]}, for time zones."))
    )
    city, zone_name = d.any([z for z in pools.ZONES if z != s.zone])
    nights = d.between(5, 10)
    end = s.day(nights, 23, 59).astimezone(ZoneInfo(zone_name))
    words = d.pick(
        (
            f"until {WEEKDAYS[end.weekday()]} the {ordinal(end.day)}",
            f"till the {ordinal(end.day)}",
            f"for the next {nights} days",
            f"through {WEEKDAYS[end.weekday()]} {MONTHS[end.month - 1]} {end.day}",
        )
    )
    first = d.pick((f"Landed in {city}, I'm here {words}.", f"I'm in {city} {words} for work."))
    second = d.pick(
        (
            f"While I'm in {city}, show all my meeting times in {city} time.",
            f"Until I leave, times in {city} time please, not {s.zone[0]}.",
        )
    )
    ids = s.chat(s.day(0, 9).astimezone(ZoneInfo(zone_name))).tell(first, second)
    ask = d.pick(
        (
            "when is my next meeting, and what time is that for me?",
            "set a reminder for the 3pm standup",
        )
    )
    during = s.day(d.between(1, max(1, nights - 3)), 11).astimezone(ZoneInfo(zone_name))
    after = s.day(nights + d.between(7, 14), 11)
    s.nightly()
    s.recall(
        s.ask(ask, during, relevant=ids[1:]),
        s.ask(ask, after, relevant=[home], forbidden=ids),
    )
