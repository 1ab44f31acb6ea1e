"""Dates that decide what holds: the calendar words the temporal templates share, bounds
that govern the next sentence, and claims that start later (local days near midnight are
in `local_days`, temporary states and durations that are not bounds in
`temporary_states`)."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from permem.corpus.templates import (
    MONTHS,
    WEEKDAYS,
    Conversation,
    Scenario,
    ordinal,
    rfc3339,
    template,
)

NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}

SMALL_TALK = (
    ("hi!", "Hi! What can I do for you?"),
    ("ugh, long day", "Sorry to hear that. Anything I can help with?"),
    ("quick one before I forget", "Sure, go ahead."),
    ("hey, you there?", "I'm here."),
    ("ok so", "Go on."),
)

ACKS = ("Got it.", "Noted.", "Okay, I'll keep that in mind.", "Understood.", "Sure thing.")


def _on(s: Scenario, day: date, hour: int, minute: int = 0) -> datetime:
    """Local time `hour:minute` on the local calendar day `day`."""
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=s.tz)


def _cap(text: str) -> str:
    return text[0].upper() + text[1:]


def _next_month(day: date, months: int = 1) -> date:
    index = day.month - 1 + months
    return date(day.year + index // 12, index % 12 + 1, 1)


def _month_end(day: date) -> date:
    return _next_month(day) - timedelta(days=1)


def _chatter(s: Scenario, c: Conversation) -> None:
    """Sometimes a line of small talk opens a conversation."""
    if s.draw.chance(0.4):
        said, reply = s.draw.any(SMALL_TALK)
        c.user(said)
        c.assistant(reply)


def _end_words(s: Scenario, said: date) -> tuple[str, date]:
    """Words ending a state said on local day `said`, and the last local day it holds. Every
    bound lies at least two weeks ahead."""
    d = s.draw
    kind = d.pick(("weeks", "days", "nth", "month-day", "iso", "weekday-nth", "end-of-month"))
    if kind == "weeks":
        n = d.between(3, 6)
        count = NUMBERS[n] if d.chance() else str(n)
        return d.any((f"for the next {count} weeks", f"for {count} more weeks")), said + timedelta(
            weeks=n
        )
    if kind == "days":
        n = d.between(14, 21)
        return d.any((f"for the next {n} days", f"for {n} days")), said + timedelta(days=n)
    end = said + timedelta(days=d.between(15, 30))
    if kind == "nth":
        return d.any((f"until the {ordinal(end.day)}", f"till the {ordinal(end.day)}")), end
    if kind == "month-day":
        month = MONTHS[end.month - 1]
        words = d.any((f"until {month} {ordinal(end.day)}", f"till {end.day} {month}"))
        return words, end
    if kind == "iso":
        return f"until {end.isoformat()}", end
    if kind == "weekday-nth":
        return f"till {WEEKDAYS[end.weekday()]} the {ordinal(end.day)}", end
    month_end = _month_end(said)
    if (month_end - said).days >= 14:
        return d.any(("until the end of the month", "till the end of this month")), month_end
    month_end = _month_end(_next_month(said))
    return f"until the end of {MONTHS[month_end.month - 1]}", month_end


# (bound sentences with {w} for the end, rules leaning on them, the standing claim, queries)
BOUNDED = (
    (
        (
            "Our kitchen is being gutted {w}.",
            "Kitchen renovation {w}, so no oven and no hob.",
            "The builders have taken over the kitchen {w}.",
            "We've got no working kitchen {w}, the renovation is finally happening.",
        ),
        (
            "So for dinner only suggest things I can make with a kettle and a microwave.",
            "Until then, dinner ideas need to be microwave or no-cook only.",
            "Meaning no dinner suggestions that need the stove or the oven till it's done.",
            "Keep dinner to microwave stuff and salads while that's going on.",
        ),
        (
            "Dinner is my favourite part of the day, I love slow-roasting things in the oven.",
            "For dinner I usually cook big stews and roasts from scratch.",
            "I'm a proper home cook, dinner is usually something braised or baked.",
            "Oven dinners are my comfort zone: roasts, bakes, gratins.",
        ),
        (
            "what should I make for dinner tonight?",
            "dinner idea for this evening?",
            "give me three dinner options for the week",
            "plan tomorrow's dinner for me",
        ),
    ),
    (
        (
            "My car's in the garage {w}.",
            "The car is off the road {w}, gearbox trouble.",
            "No car for me {w}, it's at the mechanic's.",
            "Someone reversed into my car, it's in the body shop {w}.",
        ),
        (
            "So plan any trip by train or bus until I get it back.",
            "Any trip you plan for me has to work on public transport till then.",
            "Until it's fixed, assume I'm on foot, bike or bus for every trip.",
            "Don't plan a trip that needs a car while it's away.",
        ),
        (
            "I drive everywhere, any trip means the car, I can't stand buses.",
            "For any trip I take the car, I live out of town.",
            "I do every trip by car, public transport out here is hopeless.",
            "Driving is how I get around, every trip, I've got a little hatchback.",
        ),
        (
            "plan my trip to the garden centre on Saturday",
            "how should I do the trip to my aunt's on Sunday?",
            "plan a day trip for me this weekend",
            "what's the best way to make the trip to the airport on Friday?",
        ),
    ),
    (
        (
            "I've got exams {w}.",
            "Exam season for me {w}.",
            "My finals run {w}.",
            "I'm in the middle of bar exam prep {w}.",
        ),
        (
            "No social plans on my weekends until they're over, please.",
            "So keep my weekends free of plans till then, I need to study.",
            "Don't suggest weekend plans with friends before that.",
            "Until then, weekends are for revision, not plans.",
        ),
        (
            "Weekends are for friends, I like them packed with plans.",
            "I'm very social, my weekend plans are usually brunch, a gig and a party.",
            "Love filling my weekends with plans, the busier the better.",
            "On weekends I always make plans with my friends, staying in is boring.",
        ),
        (
            "any ideas for plans this weekend?",
            "help me fill my weekend with plans",
            "what should my weekend plans be?",
            "suggest weekend plans for Saturday and Sunday",
        ),
    ),
    (
        (
            "My in-laws are staying with us {w}.",
            "We've got family visiting {w}, four extra people.",
            "My partner's parents and sister are here {w}, plus their dog.",
            "Full house {w}, my brother's family is with us while their place is fixed.",
        ),
        (
            "So plan dinners for six, not two, till they leave.",
            "While they're here, every dinner plan needs to feed six.",
            "Until they go, scale dinner portions for six people please.",
            "Dinner plans should be for a crowd of six until then.",
        ),
        (
            "It's just the two of us at home, so dinner portions for two.",
            "We're a household of two, dinner for two is the default.",
            "I cook dinner for two people most nights.",
            "Dinner is for me and my partner, two portions, no leftovers.",
        ),
        (
            "plan my dinners for this week",
            "dinner plan for the next three days?",
            "shopping list for this week's dinners",
            "what dinners should I cook this week?",
        ),
    ),
    (
        (
            "I'm covering night shifts at the ward {w}.",
            "Nights for me {w}, 8pm to 8am.",
            "I've been put on the night rota {w}.",
            "Working nights {w}, the team is short.",
        ),
        (
            "So no appointments before 2pm, I'll be asleep.",
            "Don't book me any appointment in the morning until then.",
            "Any appointment has to be late afternoon while I'm on nights.",
            "Mornings are off-limits for appointments till the rota changes.",
        ),
        (
            "I'm a morning person, book my appointments as early as possible.",
            "Early appointments suit me best, 8am is perfect.",
            "For appointments, the first slot of the day is always my pick.",
            "I like getting appointments out of the way first thing in the morning.",
        ),
        (
            "book me a dentist appointment",
            "find a slot for my haircut appointment",
            "schedule the car service appointment",
            "can you book my GP appointment?",
        ),
    ),
)


@template(
    "temporal",
    "bound-governs-next-sentence",
    "A temporary situation with an end ('kitchen "
    "renovation until the 20th') governs the instruction in the next sentence ('so microwave "
    "dinners only'); before the end both apply, after it the standing claim does.",
)
def bound_governs_next_sentence(s: Scenario) -> None:
    d = s.draw
    bounds, rules, standings, asks = d.any(BOUNDED)
    c = s.chat(s.day(-d.between(10, 45), d.between(8, 21)))
    _chatter(s, c)
    standing = c.user(d.pick(standings))
    c.assistant(d.pick(ACKS))
    said = s.day(0, d.between(8, 21), d.between(0, 59))
    words, last = _end_words(s, said.date())
    c = s.chat(said)
    _chatter(s, c)
    ids = c.tell(d.pick(bounds).format(w=words), d.pick(rules), acks=ACKS)
    ask = d.pick(asks)
    span = (last - said.date()).days
    during = _on(s, said.date() + timedelta(days=d.between(2, span - 7)), d.between(9, 18))
    after = _on(s, last + timedelta(days=d.between(3, 20)), d.between(9, 18))
    s.nightly()
    s.recall(s.ask(ask, during, relevant=ids))
    if d.chance(0.4):
        s.op("expire", at=rfc3339(_on(s, last + timedelta(days=2), 0)))
    s.recall(s.ask(ask, after, relevant=[standing], forbidden=ids))


def _start_words(s: Scenario, said: date) -> tuple[str, date]:
    """Words naming a start at least three weeks after `said`, and the local start day."""
    d = s.draw
    kind = d.pick(("first-of-month", "weekday-nth", "iso", "in-weeks", "month-day", "next-month"))
    if kind == "first-of-month":
        start = _next_month(said, 2 if said.day > 8 else 1)
        month = MONTHS[start.month - 1]
        return d.any((f"from the 1st of {month}", f"starting {month} 1st")), start
    if kind == "next-month":
        start = _next_month(said)
        if (start - said).days >= 21:
            return d.any(("from next month", "as of next month")), start
        start = _next_month(said, 2)
        return "from the month after next", start
    if kind == "in-weeks":
        n = d.between(3, 6)
        count = NUMBERS[n] if d.chance() else str(n)
        return d.any((f"in {count} weeks", f"{count} weeks from now")), said + timedelta(weeks=n)
    start = said + timedelta(days=d.between(21, 45))
    if kind == "weekday-nth":
        return f"starting {WEEKDAYS[start.weekday()]} the {ordinal(start.day)}", start
    if kind == "iso":
        return d.any((f"as of {start.isoformat()}", f"from {start.isoformat()}")), start
    month = MONTHS[start.month - 1]
    return d.any((f"from {month} {ordinal(start.day)}", f"from {start.day} {month}")), start


# (the claim that holds now, the claim from {when} on, queries)
STARTS = (
    (
        (
            "I work from home full time.",
            "I'm fully remote, I work from the spare room.",
            "Work is from my kitchen table, no commute at all.",
            "I haven't worked in an office in years, remote job.",
        ),
        (
            "{When} my company wants everyone at work in the office Tuesday to Thursday.",
            "{When} I'm back in the office three days a week, new work policy.",
            "{When} the remote days are over: I work from the office Tue, Wed, Thu.",
            "New work contract kicks in {when}: in the office three days a week.",
        ),
        (
            "plan my work week",
            "how should I organise my work days?",
            "help me set up a routine for my work week",
            "when should I do laundry around work this week?",
        ),
    ),
    (
        (
            "The kids' school starts at 8:45, so mornings are calm.",
            "The school run is easy, the bell goes at 8:45.",
            "Our school mornings are relaxed, drop-off at school is 8:45.",
            "The kids start school at quarter to nine.",
        ),
        (
            "{When} they move to the new school, which starts at 7:50.",
            "{When} it's the new school for both kids, and that school starts at 7:50.",
            "The kids switch schools {when}; the new school starts at ten to eight.",
            "{When} school drop-off is 7:50, they're changing schools.",
        ),
        (
            "plan our school mornings",
            "what time should we get up on school days?",
            "set a morning alarm for the school run",
            "help me plan the school run routine",
        ),
    ),
    (
        (
            "I'm on the early shift, 6am to 2pm.",
            "My shift is 6 to 2, so I'm up at 4:30.",
            "Early shift worker here: 6am start, done at 2.",
            "I work the 6-2 shift at the depot.",
        ),
        (
            "{When} I'm moving to the late shift, 2pm to 10pm.",
            "I've been moved to the late shift, 2 till 10, {when}.",
            "{When} my shift changes to 2pm-10pm.",
            "New rota {when}: I'm on the 2 to 10 shift.",
        ),
        (
            "when should I go to the gym around my shift?",
            "plan my meals around my shift",
            "when's a good time for a dentist visit, given my shift?",
            "help me plan my sleep around my shift",
        ),
    ),
    (
        (
            "I train at the gym round the corner from my flat.",
            "My gym is the one on my street, I go at lunchtime.",
            "I lift at the little gym near home.",
            "The gym by my flat is where I work out, three times a week.",
        ),
        (
            "{When} I'm switching to the climbing gym across town, the membership starts then.",
            "I've cancelled the old gym; {when} I'm at the bouldering gym instead.",
            "{When} my gym is the climbing place by the river, new membership.",
            "Signed up for the bouldering gym, it starts {when}, and the old gym ends then.",
        ),
        (
            "what should I do at the gym this week?",
            "plan my gym sessions for the week",
            "write me a gym plan for the next few days",
            "what should I pack for the gym tomorrow?",
        ),
    ),
)

LEADS = ("Some news.", "Big change coming up.", "Heads up about something.", "Update for you.")


@template(
    "temporal",
    "starts-on-a-later-date",
    "A claim that starts at a future date ('from the 1st "
    "of May I'm on the late shift') is not used before it; the claim it replaces is used "
    "before it and not after.",
)
def starts_on_a_later_date(s: Scenario) -> None:
    d = s.draw
    olds, news, asks = d.any(STARTS)
    said = s.day(0, d.between(8, 22), d.between(0, 59))
    words, start = _start_words(s, said.date())
    c = s.chat(said - timedelta(days=d.between(20, 60), hours=d.between(0, 6)))
    _chatter(s, c)
    old = c.user(d.pick(olds))
    c.assistant(d.pick(ACKS))
    frame = d.pick(news)
    new_text = frame.replace("{When}", _cap(words)).replace("{when}", words)
    c = s.chat(said)
    _chatter(s, c)
    if d.chance(0.4):
        new = c.tell(d.pick(LEADS), new_text, acks=("Oh? Go on.", "Okay, tell me."))[-1]
    else:
        new = c.user(new_text)
    c.assistant(d.pick(ACKS))
    ask = d.pick(asks)
    gap = (start - said.date()).days
    before = _on(s, said.date() + timedelta(days=d.between(2, gap - 9)), d.between(8, 19))
    after = _on(s, start + timedelta(days=d.between(8, 30)), d.between(8, 19))
    s.nightly()
    queries = [
        s.ask(ask, before, relevant=[old], forbidden=[new]),
        s.ask(ask, after, relevant=[new], forbidden=[old]),
    ]
    if d.chance():
        queries.reverse()
    s.recall(*queries)
