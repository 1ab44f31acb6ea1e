"""When a claim holds: temporal templates for a window that opens and closes in the future, a
bound that the user extends before it ends, and a state that was already over when it was told.

Dates are local days in the person's zone, worked out from the message's own time; every slot is
drawn before anything is written, so each half keeps its own share of the wordings.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from permem.corpus import pools
from permem.corpus.templates import (
    MONTHS,
    WEEKDAYS,
    Conversation,
    Scenario,
    ordinal,
    rfc3339,
    template,
)

ACKS = (
    "Noted.",
    "Got it.",
    "Okay, I'll keep that in mind.",
    "Understood.",
    "Sure thing.",
    "Thanks!",
)
OPENERS = (
    ("hi", "Hi! What's up?"),
    ("quick one", "Sure, go ahead."),
    ("hey again", "Hey! What can I do for you?"),
    ("ok so", "Go on."),
)


def _at(s: Scenario, day: date, hour: int, minute: int | None = None) -> datetime:
    minute = s.draw.between(0, 59) if minute is None else minute
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=s.tz)


def _first_of(day: date, months_ahead: int) -> date:
    index = day.month - 1 + months_ahead
    return date(day.year + index // 12, index % 12 + 1, 1)


def _last_of(day: date) -> date:
    return _first_of(day, 1) - timedelta(days=1)


def _month(day: date) -> str:
    return MONTHS[day.month - 1]


def _fill(text: str, words: str) -> str:
    return text.replace("{W}", words[0].upper() + words[1:]).replace("{w}", words)


def _opener(s: Scenario, at: datetime) -> Conversation:
    c = s.chat(at)
    if s.draw.chance(0.4):
        said, reply = s.draw.any(OPENERS)
        c.user(said)
        c.assistant(reply)
    return c


def _window(s: Scenario, said: date) -> tuple[str, date, date]:
    """Words for a window that opens at least three days after `said` and lasts at least six
    days, and its first and last local day."""
    d = s.draw
    kind = d.pick(("nth", "month-day", "iso", "weekday", "fortnight", "whole-month", "to-end"))
    first = said + timedelta(days=d.between(10, 24))
    last = first + timedelta(days=d.between(7, 16))
    if kind == "nth":
        return f"from the {ordinal(first.day)} to the {ordinal(last.day)}", first, last
    if kind == "month-day":
        return f"from {_month(first)} {first.day} until {_month(last)} {last.day}", first, last
    if kind == "iso":
        return f"from {first.isoformat()} to {last.isoformat()}", first, last
    if kind == "weekday":
        start, end = WEEKDAYS[first.weekday()], WEEKDAYS[last.weekday()]
        words = f"from {start} the {ordinal(first.day)} till {end} the {ordinal(last.day)}"
        return words, first, last
    if kind == "fortnight":
        n = d.between(8, 20)
        first = said + timedelta(days=n)
        return f"for two weeks, starting {n} days from today", first, first + timedelta(13)
    if kind == "whole-month":
        first = _first_of(said, 1)
        if (first - said).days >= 5:
            return (
                d.any(("for the whole of next month", "all of next month")),
                first,
                _last_of(first),
            )
        first = _first_of(said, 2)
        return f"for the whole of {_month(first)}", first, _last_of(first)
    first = _first_of(said, 1) + timedelta(days=d.between(2, 12))
    return (
        f"from the {ordinal(first.day)} of {_month(first)} until the end of that month",
        first,
        _last_of(first),
    )


HOMES = (
    "I live in {home}, right by the old market.",
    "Home for me is {home}, I've been here six years.",
    "i'm based in {home}, north side of the river",
    "My flat is in {home}, in the centre.",
    "I'm a {home} local, born and raised.",
    "We moved to {home} a couple of years ago and love it.",
)
SITTINGS = (
    "I'm house-sitting for my cousin in {away} {w}.",
    "{W}, I'll be in {away}, looking after a friend's flat and cat.",
    "Heads up: {w}, I'm minding my sister's place in {away}, so local stuff means {away} then.",
    "booked to house-sit in {away} {w}! anything near me = {away} for that stretch",
    "I'm swapping flats with a colleague and living in {away} {w}.",
    "{W}, I'm in {away} for a work placement, staying in a rented room.",
)
LOCAL_ASKS = (
    "find me a climbing gym near me",
    "any good bakeries nearby?",
    "book me a haircut somewhere close by",
    "is there a decent swimming pool near me?",
    "recommend a café near me to work from",
    "where can I get my bike fixed locally?",
)


@template(
    "temporal",
    "window-ahead",
    "A stay elsewhere that opens and closes in the future ('house-sitting in Ghent from the "
    "10th to the 24th', 'for two weeks, starting 12 days from today'): before it and after it "
    "the home city is relevant and the stay forbidden, inside it the reverse.",
)
def window_ahead(s: Scenario) -> None:
    d = s.draw
    home_text, sit_text, ask = d.pick(HOMES), d.pick(SITTINGS), d.pick(LOCAL_ASKS)
    here, away = s.zone[0], d.any(pools.CITIES)
    home = _opener(s, s.day(-d.between(10, 90), d.between(9, 21))).user(home_text.format(home=here))
    said = s.day(0, d.between(7, 22))
    words, first, last = _window(s, said.date())
    c = _opener(s, said)
    sit = c.user(_fill(sit_text, words).format(away=away))
    c.assistant(d.any(("Nice, enjoy!", "Sounds lovely.", *ACKS)))
    before = _at(s, said.date() + timedelta(days=d.between(1, (first - said.date()).days - 1)), 12)
    during = _at(s, first + timedelta(days=d.between(1, (last - first).days - 1)), 11)
    after = _at(s, last + timedelta(days=d.between(3, 20)), 16)
    s.nightly()
    s.recall(
        s.ask(ask, before, relevant=[home], forbidden=[sit]),
        s.ask(ask, during, relevant=[sit], forbidden=[home]),
    )
    if d.chance(0.4):
        s.op("expire", at=rfc3339(_at(s, last + timedelta(days=2), 0, 0)))
    s.recall(s.ask(ask, after, relevant=[home], forbidden=[sit]))
    s.notes.append(f"Said {said.date()} local; the stay is local {first}..{last}.")


def _bound(s: Scenario, said: date) -> tuple[str, date]:
    """Words ending a state two to four weeks after `said`, and its last local day."""
    d = s.draw
    kind = d.pick(("nth", "weeks", "weekday", "month-day", "iso", "days"))
    end = said + timedelta(days=d.between(14, 26))
    if kind == "nth":
        return d.any((f"until the {ordinal(end.day)}", f"till the {ordinal(end.day)}")), end
    if kind == "weeks":
        n = d.between(2, 3)
        return f"for the next {('two', 'three')[n - 2]} weeks", said + timedelta(weeks=n)
    if kind == "weekday":
        return f"till {WEEKDAYS[end.weekday()]} the {ordinal(end.day)}", end
    if kind == "month-day":
        return f"until {_month(end)} {ordinal(end.day)}", end
    if kind == "iso":
        return f"until {end.isoformat()}", end
    n = d.between(14, 21)
    return f"for {n} days", said + timedelta(days=n)


def _extension(s: Scenario, said: date, old_end: date) -> tuple[str, date]:
    """Words (said on `said`) pushing a bound past `old_end` by at least twelve days, and the new
    last local day."""
    d = s.draw
    kind = d.pick(("quarter", "end-of", "month-day", "nth-of", "iso", "through"))
    if kind == "quarter":
        end = _last_of(date(said.year, (said.month - 1) // 3 * 3 + 3, 1))
        if (end - old_end).days >= 12:
            return "until the end of the quarter", end
        return "until the end of next quarter", _last_of(_first_of(end, 3))
    if kind == "end-of":
        end = _last_of(_first_of(old_end, 1))
        return f"until the end of {_month(end)}", end
    if kind == "through":
        end = _last_of(old_end + timedelta(days=20))
        return f"through {_month(end)}", end
    end = old_end + timedelta(days=d.between(15, 35))
    if kind == "month-day":
        return f"till {_month(end)} {ordinal(end.day)}", end
    if kind == "nth-of":
        return f"to the {ordinal(end.day)} of {_month(end)}", end
    return f"until {end.isoformat()}", end


TREATS = (
    "I'm a sucker for vintage clothes, always hunting for a good jacket.",
    "Secondhand fashion is my thing, I love a vintage find.",
    "i basically live in charity shops, vintage denim especially",
    "Vintage jackets and old band tees are my weakness.",
    "If it's retro and in my size I'll buy it. Vintage clothes are my hobby.",
    "I love thrifting, the older the jacket the better.",
)
FREEZES = (
    "No-buy month for me: no new clothes or gadgets {w}.",
    "I'm on a spending freeze {w}, nothing except food and bills.",
    "{W}, I'm not buying any clothes, I need to save for the deposit.",
    "doing a no-spend challenge {w}, so talk me out of any shopping",
    "Shopping ban {w}. Groceries and rent only.",
    "I've promised myself: zero clothes shopping {w}.",
)
EXTENSIONS = (
    "The no-buy thing is going well, I'm keeping it going {w}.",
    "Update: I'm extending the spending freeze {w}.",
    "still no clothes shopping, and now {w}, the deposit needs it",
    "Decided to stretch the shopping ban {w}.",
    "The challenge is working. Same rules, {w}.",
    "I'm not done: no-buy continues {w}.",
)
BUY_ASKS = (
    "should I buy this leather jacket I found?",
    "there's a vintage sale on Saturday, should I go?",
    "help me pick a new coat for the autumn",
    "is it worth getting these boots while they're on offer?",
    "what should I look for at the flea market this weekend?",
    "find me a denim jacket under 80",
)


@template(
    "temporal",
    "extended-past-its-end",
    "A bounded no-buy rule ('until the 20th') is extended before it ends ('keeping it going "
    "until the end of the quarter'); between the two ends both messages are relevant, after "
    "the new end both are forbidden and the standing taste is back.",
)
def extended_past_its_end(s: Scenario) -> None:
    d = s.draw
    treat_text, freeze_text, extend_text, ask = (
        d.pick(TREATS),
        d.pick(FREEZES),
        d.pick(EXTENSIONS),
        d.pick(BUY_ASKS),
    )
    treat = _opener(s, s.day(-d.between(15, 80), d.between(9, 21))).user(treat_text)
    said = s.day(0, d.between(8, 22))
    words, old_end = _bound(s, said.date())
    c = _opener(s, said)
    freeze = c.user(_fill(freeze_text, words))
    c.assistant(d.any(("Good luck!", "You've got this.", *ACKS)))
    told = _at(s, said.date() + timedelta(days=d.between(4, (old_end - said.date()).days - 3)), 20)
    words, new_end = _extension(s, told.date(), old_end)
    c = _opener(s, told)
    extend = c.user(_fill(extend_text, words))
    c.assistant(d.any(("Impressive!", "Noted, keep it up.", *ACKS)))
    between = _at(s, old_end + timedelta(days=d.between(2, 8)), 13)
    after = _at(s, new_end + timedelta(days=d.between(3, 25)), 13)
    s.nightly()
    s.recall(s.ask(ask, between, relevant=[freeze, extend]))
    if d.chance(0.4):
        s.op("expire", at=rfc3339(_at(s, new_end + timedelta(days=2), 0, 0)))
    s.recall(s.ask(ask, after, relevant=[treat], forbidden=[freeze, extend]))
    s.notes.append(f"First end local {old_end}, extended on {told.date()} to {new_end}.")


def _past(s: Scenario, said: date) -> str:
    """Words for a stretch that ended before the local day `said`."""
    d = s.draw
    kind = d.pick(("nth", "last-week", "last-weekday", "yesterday", "last-month", "month-day"))
    first, last = said - timedelta(days=d.between(16, 24)), said - timedelta(days=d.between(3, 6))
    if kind == "nth":
        return f"from the {ordinal(first.day)} to the {ordinal(last.day)}"
    if kind == "last-week":
        return d.any(("all of last week", "the whole of last week"))
    if kind == "last-weekday":
        return f"for two weeks, until last {WEEKDAYS[last.weekday()]}"
    if kind == "yesterday":
        return d.any(("until yesterday", "for ten days, till yesterday"))
    if kind == "last-month":
        return d.any(("the whole of last month", f"for all of {_month(_first_of(said, -1))}"))
    return f"from {_month(first)} {ordinal(first.day)} to {_month(last)} {ordinal(last.day)}"


COMMUTES = (
    "I cycle to work every day, about 8 km along the canal.",
    "Bike commuter here, rain or shine, 25 minutes each way.",
    "my commute is by bike, I hate buses",
    "I ride my bike to the office, it's the best part of my day.",
    "Work is 8 km away and I cycle it every morning.",
    "I get to work on my bike. Always have.",
)
OVER = (
    "My bike was in the shop {w}, so I was stuck on the bus.",
    "The bike was at the repair place {w} and I had to take the bus to work.",
    "ugh, I was on the bus {w} while my bike got a new wheel",
    "{W}, my bike was being fixed, so it was buses every day.",
    "I had no bike {w}, the frame was cracked, bus commute the whole time.",
    "While the bike was in for repairs {w}, I took the 14 bus.",
)
COMMUTE_ASKS = (
    "plan my commute for tomorrow",
    "how should I get to work on Monday?",
    "it might rain tomorrow, what's my best way to the office?",
    "should I renew my monthly bus pass?",
    "what time do I need to leave for work tomorrow?",
    "help me plan getting to the office this week",
)


@template(
    "temporal",
    "over-before-said",
    "A temporary state told only after it ended ('my bike was in the shop from the 3rd to the "
    "14th, so I was on the bus', 'till yesterday', 'all of last month'); it never applies, "
    "and the standing habit is relevant.",
)
def over_before_said(s: Scenario) -> None:
    d = s.draw
    habit_text, over_text, ask = d.pick(COMMUTES), d.pick(OVER), d.pick(COMMUTE_ASKS)
    habit = _opener(s, s.day(-d.between(50, 120), d.between(7, 21))).user(habit_text)
    said = s.day(0, d.between(7, 22))
    c = _opener(s, said)
    over = c.user(_fill(over_text, _past(s, said.date())))
    c.assistant(d.any(("That sounds annoying.", "Glad that's sorted.", *ACKS)))
    s.nightly()
    s.recall(s.ask(ask, s.day(d.between(1, 10), 8), relevant=[habit], forbidden=[over]))
