"""What came of a plan, in the third wave: plan-vs-fact templates (a resolution that lapsed, a
journey planned one way and booked another, a rough date later fixed). The plan is not the
present state; what the user later says happened, or was fixed, is.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

from permem.corpus import pools
from permem.corpus.templates import (
    MONTHS,
    WEEKDAYS,
    Conversation,
    Scenario,
    first_of_month,
    nightlies,
    ordinal,
    staged,
    template,
)

ACKS = ("Good luck!", "Noted.", "Okay!", "Sounds good.", "Got it.")
SMALL_TALK = (
    ("ugh, Mondays", "Hang in there."),
    ("do you ever sleep?", "Not really, no."),
    ("tell me something cheerful", "Sea otters hold hands while they sleep."),
    ("what's a good word for 'busy'?", "Hectic, or swamped."),
    ("is it pronounced 'gif' or 'jif'?", "Both are used; its creator said 'jif'."),
    ("how do you say thanks in Japanese?", "Arigatou."),
)


def _chatter(s: Scenario, c: Conversation) -> None:
    if s.draw.chance(0.45):
        said, reply = s.draw.any(SMALL_TALK)
        c.user(said)
        c.assistant(reply)


def _fill(frame: str, **parts: str) -> str:
    """`{key}` filled with each part, and `{Key}` with it capitalised."""
    for key, value in parts.items():
        frame = frame.replace("{" + key.capitalize() + "}", value[0].upper() + value[1:])
        frame = frame.replace("{" + key + "}", value)
    return frame


def _the_day(s: Scenario, day: date) -> str:
    """A date some weeks ahead, in one of six spellings that each pin it down."""
    month, weekday = MONTHS[day.month - 1], WEEKDAYS[day.weekday()]
    return s.draw.pick(
        (
            f"{month} {ordinal(day.day)}",
            f"the {ordinal(day.day)} of {month}",
            f"{weekday} {ordinal(day.day)} {month}",
            day.isoformat(),
            f"{weekday}, {month} {day.day}",
            f"{day.day} {month}",
        )
    )


# (the resolution, what happened instead, questions)
RESOLUTIONS: tuple[tuple[str, str, Sequence[str]], ...] = (
    (
        "get up at 5 and write for an hour before work",
        "I still get up at 7:30 and there's no writing happening",
        (
            "set my alarm for tomorrow",
            "plan my weekday mornings",
            "what should my morning look like on Tuesday?",
            "build me a realistic morning routine",
            "can I do a 6am video call with the Sydney team on Thursday?",
            "what time should I go to bed on weeknights?",
        ),
    ),
    (
        "run 5k before work every weekday",
        "mornings are coffee and the bus, no running at all",
        (
            "plan my weekday mornings",
            "what should I eat for breakfast before work?",
            "do I need to pack running kit for work this week?",
            "how early should I get up on workdays?",
            "help me plan my mornings next week",
            "suggest a morning routine for the workweek",
        ),
    ),
    (
        "cook dinner from scratch every night instead of ordering in",
        "we still order takeaway most nights",
        (
            "plan this week's dinners",
            "do I need a big grocery shop this week?",
            "how much should I budget for food this month?",
            "what should we do about dinner on Wednesday?",
            "what's a realistic meal plan for my week?",
            "help me write the shopping list for dinners",
        ),
    ),
)
RESOLVE = (
    "{When} I'm going to {r}.",
    "New plan {when}: I {r}.",
    "I've decided to {r}, {when}.",
    "going to {r} {when}, wish me luck",
    "Resolution: {r}, {when}. No excuses.",
    "{When} I {r}. Holding myself to it.",
)
LAPSED = (
    "Confession: that plan lasted two days. {L}.",
    "Who was I kidding. {L}.",
    "ok the new routine is dead, {l}",
    "Reality check: {l}, the plan never stuck.",
    "Honestly, I gave up on it after a week. {L}.",
    "Didn't work out. {L}, same as before.",
)


@template(
    "plan-vs-fact",
    "resolution-lapsed",
    "A resolution with a start ('from Monday I'm going to get up at 5 and write') that later "
    "lapsed ('who was I kidding, I still get up at 7:30'); the lapse is relevant, the "
    "resolution forbidden.",
)
def resolution_lapsed(s: Scenario) -> None:
    d = s.draw
    plan, lapse, asks = d.any(RESOLUTIONS)
    frame, after, ask = d.pick(RESOLVE), d.pick(LAPSED), d.pick(asks)
    said = s.day(0, d.between(8, 22))
    soon = said.date() + timedelta(days=d.between(3, 10))
    when = d.pick(
        (
            "from Monday",
            "from next week",
            "from the 1st",
            "from tomorrow",
            f"from {MONTHS[soon.month - 1]} {ordinal(soon.day)}",
            f"from {WEEKDAYS[soon.weekday()]} the {ordinal(soon.day)}",
        )
    )
    c1 = s.chat(said)
    _chatter(s, c1)
    resolved = c1.user(_fill(frame, when=when, r=plan))
    c1.assistant(d.any(ACKS))
    later = staged(s)
    c2 = s.chat(s.day(d.between(45, 70), d.between(8, 22)), **later)
    _chatter(s, c2)
    lapsed = c2.user(_fill(after, l=lapse))
    c2.assistant(d.any(("No shame in that.", "Happens to everyone.", "Okay, noted.")))
    nightlies(s, later)
    at = s.day(d.between(75, 90), 18)
    s.recall(s.ask(ask, at, relevant=[lapsed], forbidden=[resolved]))


TRAVEL_PLAN = (
    "I'm planning to take the {t1} {mode} to {city} {day}.",
    "Thinking I'll catch the {t1} {mode} to {city} {day}.",
    "My plan is the {t1} {mode}, heading to {city} {day}.",
    "{Day} I'll probably hop on the {t1} {mode} to {city}.",
    "going to {city} {day}, aiming for the {t1} {mode}",
    "I want to be on the {t1} {mode} to {city} {day}, if there are seats.",
)
TRAVEL_BOOKED = (
    "The {t1} to {city} {on} was fully booked, so I got a ticket for the {t2} instead.",
    "Booked it: I'm on the {t2} {mode} to {city} {on}, not the {t1}.",
    "ended up with the {t2} to {city} {on}, the earlier one was sold out",
    "Ticket's bought, the {t2} departure to {city} {on}. Cheaper than the {t1}.",
    "Couldn't get the {t1}. I'm on the {t2} to {city} {on} now, confirmed.",
    "Change: {on} it's the {t2} {mode} to {city}, got a seat reservation and everything.",
)
TRAVEL_ASKS = (
    "book me a taxi from the station when I arrive in {city}",
    "what time should I leave home for my {mode} to {city}?",
    "set a reminder an hour before my {mode} to {city}",
    "roughly what time will I be in {city}?",
    "can I fit a 10am meeting in before my {mode} to {city}?",
    "plan the morning of my trip to {city}",
)
DEPARTURES = (
    ("9:15", "11:40"),
    ("7:05", "10:20"),
    ("8:30", "13:10"),
    ("6:50", "9:45"),
    ("10:10", "14:25"),
    ("8:00", "12:35"),
)


@template(
    "plan-vs-fact",
    "booked-otherwise",
    "A journey planned on one departure ('planning to take the 9:15 train to Ghent on the "
    "12th') and booked on another ('the 9:15 to Ghent on May 12th was full, I'm on the "
    "11:40'), the day spelled differently; the booking is relevant, the plan forbidden.",
)
def booked_otherwise(s: Scenario) -> None:
    d = s.draw
    planned, booked, ask = d.pick(TRAVEL_PLAN), d.pick(TRAVEL_BOOKED), d.pick(TRAVEL_ASKS)
    t1, t2 = d.any(DEPARTURES)
    said = s.day(0, d.between(8, 22))
    trip = said.date() + timedelta(days=d.between(12, 25))
    values = {
        "t1": t1,
        "t2": t2,
        "mode": d.any(("train", "coach")),
        "city": d.any(pools.CITIES),
        "day": "on " + _the_day(s, trip),
        "on": "on " + _the_day(s, trip),
    }
    c1 = s.chat(said)
    _chatter(s, c1)
    plan = c1.user(_fill(planned, **values))
    c1.assistant(d.any(("Nice trip!", *ACKS)))
    booked_on = d.between(1, 6)
    c2 = s.chat(s.day(booked_on, d.between(8, 22)))
    _chatter(s, c2)
    booking = c2.user(_fill(booked, **values))
    c2.assistant(d.any(("Good, you're sorted.", *ACKS)))
    s.nightly()
    at = s.day((trip - said.date()).days - d.between(1, 4), d.between(9, 20))
    s.recall(s.ask(_fill(ask, **values), at, relevant=[booking], forbidden=[plan]))


ROUGH = (
    "{Event} is probably going to be sometime in {month}.",
    "Looks like {event} will happen around {month}, nothing fixed yet.",
    "{Event}? Roughly {month}, maybe later.",
    "no firm date for {event} yet, guessing {month}",
    "We're aiming for {month} for {event}, fingers crossed.",
    "If all goes well, {event} will be in {month}.",
)
FIXED = (
    "It's official: {event} is on {date}.",
    "Date's confirmed, {event} happens on {date}.",
    "{Event} got pushed back, now fixed for {date}.",
    "finally have a date for {event}: {date}",
    "Signed and sealed, {event} is on {date}.",
    "{Event} is locked in for {date}.",
)
FIXED_ASKS = (
    "how many weeks do I have until {event}?",
    "put {event} in my calendar",
    "remind me a week before {event}",
    "when exactly is {event} again?",
    "what's on my plate over the next few months?",
    "can I book a holiday in {month}, or does {event} clash?",
)
EVENTS = (
    "the house move",
    "my start at the new job",
    "the kitchen install",
    "the loft conversion",
    "my sister's wedding",
    "the garden landscaping",
)


@template(
    "plan-vs-fact",
    "date-firmed-up",
    "A rough plan ('the house move is probably sometime in June') is later fixed on a date in "
    "another month ('it's official: the 14th of August'); the fixed date is relevant, the "
    "rough one forbidden, including when asked about the rough month.",
)
def date_firmed_up(s: Scenario) -> None:
    d = s.draw
    rough, fixed, ask = d.pick(ROUGH), d.pick(FIXED), d.pick(FIXED_ASKS)
    said = s.day(0, d.between(8, 22))
    guessed = first_of_month(said, d.between(2, 4))
    start = first_of_month(guessed, d.between(1, 2))
    on = (start + timedelta(days=d.between(0, 25))).date()
    values = {
        "event": d.any(EVENTS),
        "month": MONTHS[guessed.month - 1],
        "date": _the_day(s, on),
    }
    c1 = s.chat(said)
    _chatter(s, c1)
    old = c1.user(_fill(rough, **values))
    c1.assistant(d.any(("Exciting!", *ACKS)))
    later = staged(s)
    c2 = s.chat(s.day(d.between(10, 40), d.between(8, 22)), **later)
    _chatter(s, c2)
    new = c2.user(_fill(fixed, **values))
    c2.assistant(d.any(("Great, it's in the diary.", *ACKS)))
    nightlies(s, later)
    at = s.day(d.between(45, 55), d.between(9, 20))
    s.recall(s.ask(_fill(ask, **values), at, relevant=[new], forbidden=[old]))
