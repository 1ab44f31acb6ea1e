"""Crossings a claim must not make: into another tenant (even when the user asks it to), into a
colleague's or flatmate's account, and from the people who type on a holder's device into the
holder's memory (guests on a holiday-let display; a relative typing on the holder's behalf,
whose words about the holder do count and whose asides about themselves do not).

Every slot is drawn before anything is written, so the n-th `pick` is the same slot in every
variant and each half keeps its own share of the wordings.
"""

from __future__ import annotations

from permem.corpus import pools
from permem.corpus.templates import WEEKDAYS, Person, Scenario, template

ACKS = (
    "Noted.",
    "Got it.",
    "Okay, I'll keep that in mind.",
    "Understood.",
    "Sure thing.",
    "Thanks!",
)


def _colleague(s: Scenario) -> Person:
    """Someone else in the tenant, whose account name differs from the holder's."""
    while True:
        other = s.other_person()
        if other.account != s.account:
            return other


RUN_HABITS = (
    "I log everything in miles, about 25 a week, with a long run on Sundays.",
    "25 miles a week is my usual. The long one is always Sunday morning.",
    "my weekly mileage is around 25, sundays are for the long run",
    "Long run on Sunday, easy miles the rest of the week, and I think in miles, not km.",
    "Training for a half: four runs a week, the long one on Sundays, roughly 25 miles in total.",
    "Easy pace for me is about 9:30 a mile. Sunday is long run day, 10 miles or so.",
)
RUN_TIMES = (
    "I only run before 7am, before it gets hot.",
    "Early runs only. Like 6am early.",
    "mornings before work are the only time I can run",
    "I hate running after dark, so it's always first thing.",
    "Dawn runs for me, I'm useless in the evening.",
    "I get my runs done before breakfast, never later in the day.",
)
TRIP_BASES = (
    "When I travel I keep my runs short, 5 km at most, ideally by the water.",
    "On trips I only do easy 30-minute runs, nothing long.",
    "holiday running for me = short and slow, a park loop is perfect",
    "Away from home I just jog a few km, sightseeing pace.",
    "I run on every trip, but short ones: 3 to 5 km, somewhere scenic.",
    "Travel runs are recovery runs for me. Half an hour max.",
)
HOME_RUN_ASKS = (
    "plan my long run for this Sunday",
    "what should my runs look like next week?",
    "set up my running week",
    "how far should I go on Sunday?",
    "give me a running plan for the next seven days",
    "when should I fit my runs in this week?",
)
AWAY_RUN_ASKS = (
    "you know my running from {app}, plan my Sunday long run in {city}",
    "use what I told {app} about my runs and plan one for my trip to {city}",
    "I'm in {city} next week, sort me a run like the ones I do on {app}",
    "plan a run for me in {city}, same as my usual on {app}",
    "{app} has all my running stuff. What run should I do in {city}?",
    "can you pull my running habits from {app}? I want a route in {city} for the weekend",
)


@template(
    "cross-tenant",
    "says-you-know-me-from-there",
    "In a second app the user asks it to use what they told the first app ('you know my "
    "running from <app>'); nothing crosses: the second app answers from its own claims or "
    "from none, and the first app still finds its own.",
)
def says_you_know_me_from_there(s: Scenario) -> None:
    d = s.draw
    habit, hour, base = d.pick(RUN_HABITS), d.pick(RUN_TIMES), d.pick(TRIP_BASES)
    home_ask, away_ask = d.pick(HOME_RUN_ASKS), d.pick(AWAY_RUN_ASKS)
    here = s.tenant.rsplit("-", 1)[0]
    elsewhere = f"{d.any([a for a in pools.APPS if a != here])}-{s.code}t"
    c = s.chat(s.day(0, d.between(6, 21)))
    told = c.tell(habit, hour, acks=ACKS)
    own = []
    if d.chance(0.5):
        own = [s.chat(s.day(d.between(2, 9), 20), tenant=elsewhere).user(base)]
    away = away_ask.format(app=here, city=d.any(pools.CITIES))
    s.nightly()
    s.recall(
        s.ask(
            away,
            s.day(14, 19),
            tenant=elsewhere,
            relevant=own,
            forbidden=told,
            expect_empty=not own,
        ),
        s.ask(home_ask, s.day(15, 7), relevant=told, forbidden=own),
    )


SUMMARY_TIMES = (
    "Send me my daily summary at 7 in the morning, before I leave for work.",
    "Daily digest at 7am please. I read it with my coffee.",
    "I want the summary first thing, 7am, every day.",
    "morning person here: put my daily roundup out at 7",
    "Can the daily summary land at 7am? That's when I actually read it.",
    "7am for my daily summary, every day including weekends.",
)
SUMMARY_MOVES = (
    "Change of plan: in this app I'd rather have the summary in the evening, around 9pm.",
    "7am isn't working for this one. Move my daily summary here to 9 at night.",
    "can you push your digest to the evening? 9pm-ish. it's too long to read before work",
    "Your summary is a long read, so from now on send it at 9pm, not 7am.",
    "Please stop sending the summary at 7. Send it at 9 in the evening instead.",
    "For this app, evenings work better: daily roundup at 9pm from now on.",
)
SUMMARY_ASKS = (
    "when should my summary go out tomorrow?",
    "set up tomorrow's daily summary for me",
    "what time will you send my digest on Monday?",
    "schedule my daily summary for the weekend",
    "when's my next roundup due?",
    "put tomorrow's daily digest in the queue",
)


@template(
    "cross-tenant",
    "change-in-one-app-only",
    "The same preference typed into two apps, then changed in one of them; the change and "
    "the claim it replaces stay in that app, and the other app keeps the original.",
)
def change_in_one_app_only(s: Scenario) -> None:
    d = s.draw
    first, move, ask = d.pick(SUMMARY_TIMES), d.pick(SUMMARY_MOVES), d.pick(SUMMARY_ASKS)
    other = f"{d.any([a for a in pools.APPS if not s.tenant.startswith(a)])}-{s.code}c"
    old = s.chat(s.day(0, 8)).user(first)
    kept = s.chat(s.day(d.between(1, 4), 21), tenant=other).user(first)
    c = s.chat(s.day(d.between(6, 12), 22))
    if d.chance(0.4):
        c.user(d.any(("about the summaries", "quick thing", "hi again")))
        c.assistant(d.any(("Sure, go ahead.", "What's up?")))
    new = c.user(move)
    when = s.day(d.between(14, 20), 18)
    s.nightly()
    s.recall(
        s.ask(ask, when, relevant=[new], forbidden=[old, kept]),
        s.ask(ask, when, tenant=other, relevant=[kept], forbidden=[old, new]),
    )


BOSS_FLIGHTS = (
    "Aisle seat for me, always, and nothing that leaves before 8am.",
    "I need the aisle and I won't take a flight before eight. Ever.",
    "No early flights for me, nothing before 8, and put me on the aisle.",
    "aisle seats only. and I'd rather pay more than fly before 8am",
    "Book me on the aisle, I'm up and down. Departures after 8 are fine.",
    "Two rules for my flights: aisle seat, and never before 8 in the morning.",
)
OWN_FLIGHTS = (
    "On my own trips I grab a window seat and the first flight out, I like arriving by 9.",
    "For myself it's always the window and the 6am flight, I sleep on planes.",
    "Personally I'm a window person and I love a crack-of-dawn flight.",
    "when I fly myself: window seat, earliest departure, carry-on only",
    "My own flights: first one of the day, window seat. No checked bag.",
    "I always pick the window for me, and the earliest flight, so the day isn't wasted.",
)
BOOKING_RULES = (
    "When I book for anyone on the team it's economy under five hours, via the company portal.",
    "Rule for the bookings I make for others: economy under 5 hours, always through the portal.",
    "Whoever I'm booking for, flights under five hours go in economy, booked on the portal.",
    "For team bookings I do: portal only, and economy if the flight is under 5h.",
    "Any flight I arrange for a colleague goes through the portal; under five hours = economy.",
    "Policy for my bookings for other people: economy on short hops under 5 hours, portal only.",
)
PEEKS = (
    "what seat does {boss} like?",
    "does {boss} mind early flights?",
    "tell me {boss}'s flight preferences",
    "what has {boss} said about flying?",
    "{boss} asked me to book a trip, what does {boss} usually want?",
    "how does {boss} like to fly?",
)
FLIGHT_ASKS = (
    "book a flight to {city} on {day} for {whom}",
    "find a {day} flight to {city} for {whom}",
    "which {day} flight to {city} is best for {whom}?",
    "sort out a flight to {city}, leaving {day}, for {whom}",
    "I need a plane ticket to {city} for {day}, it's for {whom}",
    "get a seat on a {day} flight to {city} for {whom}",
)


@template(
    "cross-account",
    "booking-for-the-boss",
    "An assistant's account books travel for a manager's account in the same tenant: asking "
    "for the manager's memory is denied; the assistant's rule for bookings made for others is "
    "relevant to the booking, the assistant's own seat taste and the manager's claims are not; "
    "the manager's own booking uses only the manager's claims.",
)
def booking_for_the_boss(s: Scenario) -> None:
    d = s.draw
    theirs_text, mine_text = d.pick(BOSS_FLIGHTS), d.pick(OWN_FLIGHTS)
    rule_text, peek, ask = d.pick(BOOKING_RULES), d.pick(PEEKS), d.pick(FLIGHT_ASKS)
    boss = _colleague(s)
    theirs = s.chat(s.day(0, 9), account=boss.account).user(theirs_text)
    c = s.chat(s.day(d.between(1, 5), 14))
    if d.chance():
        mine, rule = c.tell(mine_text, rule_text, split=True, acks=ACKS)
    else:
        rule, mine = c.tell(rule_text, mine_text, split=True, acks=ACKS)
    fill = {"boss": boss.first, "city": d.any(pools.CITIES), "day": d.any(WEEKDAYS[:5])}
    s.nightly()
    s.recall(
        s.ask(
            peek.format(**fill),
            s.day(9, 10),
            subject=boss.account,
            forbidden=[theirs],
            expect_denied=True,
        ),
        s.ask(
            ask.format(whom=boss.first, **fill),
            s.day(9, 11),
            relevant=[rule],
            forbidden=[mine, theirs],
        ),
        s.ask(
            ask.format(whom="me", **fill),
            s.day(9, 16),
            relevant=[theirs],
            forbidden=[mine, rule],
            actor=boss.account,
            subject=boss.account,
        ),
    )


FLATMATE_DIET = (
    "My flatmate {b} is vegan, so when I cook for both of us keep it plant-based.",
    "{b}, who I live with, doesn't eat any animal products. Shared dinners need to be vegan.",
    "Whenever I'm cooking for me and {b}: no meat, dairy or eggs, {b}'s vegan.",
    "heads up, {b} (my flatmate) is vegan so our shared meals have to be too",
    "I often cook for my flatmate {b} as well. Those meals must be vegan, {b} is.",
    "{b} is vegan and we eat together most Fridays, so plan those dinners vegan.",
)
SOLO_DIET = (
    "Left to myself I'd eat steak every night, I'm a real carnivore.",
    "For me alone: meat with everything, the more the better.",
    "When it's just me I go for big meaty dishes, burgers, ribs.",
    "i'm a meat and potatoes person when i cook for myself",
    "My own dinners are basically meat and chips, when nobody's watching.",
    "Cooking only for myself, it's chicken or beef every time, I need the protein.",
)
THEIR_DIET = (
    "I'm vegan and I really can't stand mushrooms.",
    "Vegan here. Also no mushrooms please, I hate the texture.",
    "plant-based for me, and I avoid mushrooms, they're slimy",
    "I eat vegan. Mushrooms are the one vegetable I won't touch.",
    "Please keep my recipes vegan and mushroom-free.",
    "No animal products for me, and zero mushrooms.",
)
DINNER_ASKS = (
    "what should I cook for dinner{for_}?",
    "plan a dinner{for_} on Friday",
    "give me a recipe for tonight{for_}",
    "dinner idea{for_}, something quick",
    "I'm doing the shopping, what's for dinner{for_}?",
    "suggest a main course{for_} for Saturday",
)


@template(
    "cross-account",
    "flatmates-about-each-other",
    "One account says what its flatmate eats ('<name> is vegan, so our shared dinners are "
    "vegan'); the flatmate's own account states its diet. The holder's shared-dinner query "
    "uses the remark, the holder's solo query the holder's own taste, and the flatmate's "
    "query only the flatmate's own words, never the remark made about them elsewhere.",
)
def flatmates_about_each_other(s: Scenario) -> None:
    d = s.draw
    about, solo, own, ask = (
        d.pick(FLATMATE_DIET),
        d.pick(SOLO_DIET),
        d.pick(THEIR_DIET),
        d.pick(DINNER_ASKS),
    )
    mate = _colleague(s)
    c = s.chat(s.day(0, d.between(17, 21)))
    parts = [about.format(b=mate.first), solo]
    if d.chance():
        told = c.tell(*parts, split=True, acks=ACKS)
    else:
        told = c.tell(*reversed(parts), split=True, acks=ACKS)[::-1]
    theirs = s.chat(s.day(d.between(-5, 5), 19), account=mate.account).user(own)
    s.nightly()
    s.recall(
        s.ask(
            ask.format(for_=f" for me and {mate.first}"),
            s.day(12, 17),
            relevant=told[:1],
            forbidden=[told[1], theirs],
        ),
        s.ask(
            ask.format(for_=" just for me"),
            s.day(12, 18),
            relevant=told[1:],
            forbidden=[told[0], theirs],
        ),
        s.ask(
            ask.format(for_=""),
            s.day(12, 19),
            relevant=[theirs],
            forbidden=told,
            actor=mate.account,
            subject=mate.account,
        ),
    )
