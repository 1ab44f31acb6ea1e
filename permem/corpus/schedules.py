"""Dates that decide what holds: temporal templates (bounds that govern the next sentence,
claims that start later, dates in local days near midnight, temporary states, and durations
that are not bounds)."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

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


# (the standing habit, temporary states with {w}, queries)
TEMPORARY = (
    (
        (
            "My morning workout is a 5k run before work.",
            "I run most mornings, it's my workout of choice.",
            "Running is my workout, five mornings a week.",
            "My workout routine: a run at 6:30, rain or shine.",
        ),
        (
            "My knee is injured {w}, so no running workouts.",
            "Tweaked my knee, physio says no running {w}, so nothing high-impact in my workout.",
            "Knee's in a brace {w}, running is out, upper-body workouts only.",
            "Doctor's orders: no running {w} while the knee heals, swap in a gentle workout.",
        ),
        (
            "what workout should I do tomorrow morning?",
            "plan my workouts for this week",
            "give me a morning workout for Saturday",
            "what's a good workout before work?",
        ),
    ),
    (
        (
            "I like a glass of red wine with dinner.",
            "Dinner isn't dinner without a glass of wine for me.",
            "I always pair dinner with a nice wine.",
            "A glass of red with dinner is my little ritual.",
        ),
        (
            "I'm on antibiotics {w}, so no wine or alcohol with dinner.",
            "Antibiotics {w}, which means no alcohol at dinner, not even wine.",
            "On a course of meds {w}, alcohol is off, so leave the wine out of dinner.",
            "Dry {w}, doctor's orders with these antibiotics: no wine with dinner.",
        ),
        (
            "suggest a dinner and a drink to go with it tonight",
            "what should I pair with dinner on Friday?",
            "plan a nice dinner for Saturday, drinks included",
            "dinner menu for date night this week?",
        ),
    ),
    (
        (
            "Phone calls are easier for me than long emails.",
            "I'd always rather make a phone call than write an email.",
            "I prefer sorting things out by phone call.",
            "Calls over emails for me, I hate typing.",
        ),
        (
            "Lost my voice, doctor says total rest {w}, so no phone calls, email only.",
            "I can't talk {w}, vocal cord thing, so emails instead of calls.",
            "Voice rest {w}: texts and email only, no phone calls.",
            "Laryngitis {w}, no calls for me, only email.",
        ),
        (
            "should I call the landlord about the leak or email?",
            "help me contact the bank about a charge, phone call or email?",
            "how should I reach the plumber, call or email?",
            "I need to chase the insurance claim, call or email them?",
        ),
    ),
    (
        (
            "I cook everything from scratch, lots of chopping and kneading.",
            "I cook properly every night, homemade bread, hand-chopped everything.",
            "Scratch cooking is my thing, I love knife work.",
            "I cook from scratch daily, fresh pasta included.",
        ),
        (
            "My wrist is in a cast {w}, so cook-wise nothing that needs chopping or kneading.",
            "Broke my wrist, it's in plaster {w}, so one-handed cooking only.",
            "Wrist's in a cast {w}, so I can't cook anything fiddly.",
            "Cast on my wrist {w}, so keep what I cook to one-pan, pre-chopped stuff.",
        ),
        (
            "what should I cook tonight?",
            "what can I cook for lunch tomorrow?",
            "plan what I cook this weekend",
            "suggest something to cook for dinner",
        ),
    ),
)


@template(
    "temporal",
    "temporary-state",
    "A temporary state with an end ('knee injured for the next "
    "three weeks, so no running') applies inside its window; after it the standing habit is "
    "back and the state is forbidden.",
)
def temporary_state(s: Scenario) -> None:
    d = s.draw
    habits, states, asks = d.any(TEMPORARY)
    c = s.chat(s.day(-d.between(8, 50), d.between(7, 21)))
    _chatter(s, c)
    habit = c.user(d.pick(habits))
    c.assistant(d.pick(ACKS))
    said = s.day(0, d.between(7, 22), d.between(0, 59))
    words, last = _end_words(s, said.date())
    c = s.chat(said)
    _chatter(s, c)
    state = c.user(d.pick(states).format(w=words))
    c.assistant(
        d.pick(("Ouch, sorry to hear that.", "Get well soon!", "Noted, take care.", "Oh no!"))
    )
    ask = d.pick(asks)
    span = (last - said.date()).days
    during = _on(s, said.date() + timedelta(days=d.between(2, span - 7)), d.between(9, 19))
    after = _on(s, last + timedelta(days=d.between(3, 25)), d.between(9, 19))
    s.nightly()
    s.recall(s.ask(ask, during, relevant=[state]))
    if d.chance(0.4):
        s.op("expire", at=rfc3339(_on(s, last + timedelta(days=2), 0)))
    s.recall(s.ask(ask, after, relevant=[habit], forbidden=[state]))


# (standing facts that carry a past duration, bounded states with {w}, queries)
DURATIONS = (
    (
        (
            "I've been vegetarian for ten years, no meat at dinner or any other time.",
            "Dinner-wise: vegetarian for over a decade now.",
            "Haven't eaten meat in twelve years, so vegetarian dinner only.",
            "Vegetarian since I was 19, so that's 15 years of meat-free dinner.",
        ),
        (
            "I'm off dairy {w} as well, elimination diet, so no cheese at dinner.",
            "Doing a no-dairy trial {w}, so dinner without milk, butter or cheese.",
            "Dairy-free {w} for a gut test, so dinner has to skip the cheese.",
            "No dairy {w}, allergist wants to rule it out, so no cheese in dinner.",
        ),
        (
            "plan my dinners for the week",
            "what should I have for dinner tonight?",
            "dinner ideas for Thursday?",
            "give me a dinner recipe for two",
        ),
    ),
    (
        (
            "I've lived in this flat for six years, fourth floor, no lift.",
            "Six years on the fourth floor with no lift, my flat has made me fit.",
            "Been in my flat for ages, about seven years, top floor, no lift.",
            "My flat is a fourth-floor walk-up, I've been here eight years.",
        ),
        (
            "The building's stairs are being redone {w}, so deliveries have to be left "
            "downstairs, not at my flat.",
            "{W} the stairwell is closed for repairs, so nothing can be delivered up to my flat.",
            "Couriers can't get to my flat {w}, stair repairs, so deliveries to the concierge.",
            "No deliveries to the flat door {w}, the stairs are blocked, leave them at reception.",
        ),
        (
            "order a new mattress delivered to my flat",
            "arrange delivery of the sofa to my flat",
            "get my groceries delivered to the flat on Friday",
            "book a delivery for the washing machine to my flat",
        ),
    ),
    (
        (
            "I've done yoga every morning for the past two years.",
            "Two years of daily morning yoga, it's non-negotiable.",
            "Morning yoga has been my thing for three years now.",
            "For the last couple of years I've started every morning with yoga.",
        ),
        (
            "The yoga studio is shut {w}, so morning yoga at home on the mat.",
            "{W} my yoga has to be at home, the studio is closed.",
            "No studio yoga {w}, they're renovating, so home practice in the morning.",
            "My yoga studio is closed {w}, so I'll do mornings at home with a video.",
        ),
        (
            "plan my morning yoga for this week",
            "what yoga should I do tomorrow morning?",
            "schedule my yoga sessions for the week",
            "suggest a yoga routine for Saturday morning",
        ),
    ),
)


@template(
    "temporal",
    "duration-is-not-a-bound",
    "A duration reaching back ('vegetarian for ten years') "
    "is a standing fact that never expires; a duration reaching ahead in another message "
    "('off dairy for the next three weeks') is a bound.",
)
def duration_is_not_a_bound(s: Scenario) -> None:
    d = s.draw
    facts, bounded, asks = d.any(DURATIONS)
    c = s.chat(s.day(-d.between(20, 200), d.between(8, 21)))
    _chatter(s, c)
    fact = c.user(d.pick(facts))
    c.assistant(d.pick(ACKS))
    said = s.day(0, d.between(8, 21), d.between(0, 59))
    words, last = _end_words(s, said.date())
    c = s.chat(said)
    _chatter(s, c)
    text = d.pick(bounded)
    temp = c.user(text.replace("{W}", _cap(words)).replace("{w}", words))
    c.assistant(d.pick(ACKS))
    ask = d.pick(asks)
    span = (last - said.date()).days
    during = _on(s, said.date() + timedelta(days=d.between(2, span - 7)), d.between(9, 19))
    after = _on(s, last + timedelta(days=d.between(30, 200)), d.between(9, 19))
    s.nightly()
    s.recall(s.ask(ask, during, relevant=[fact, temp]))
    if d.chance(0.4):
        s.op("expire", at=rfc3339(_on(s, last + timedelta(days=2), 0)))
    s.recall(s.ask(ask, after, relevant=[fact], forbidden=[temp]))
