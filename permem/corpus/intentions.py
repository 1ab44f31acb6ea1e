"""Said but not (or no longer) so: plan-vs-fact templates (plans later carried out, plans
called off; hypotheticals are in `hypotheticals`, past habits in `past_habits`)."""

from __future__ import annotations

from permem.corpus import pools
from permem.corpus.templates import MONTHS, Scenario, first_of_month, template

ACKS = ("Got it.", "Noted.", "Okay!", "Sounds good.", "Understood.")

PLAN_FRAMES = (
    "Planning to {base} in {month}.",
    "Thinking about {ing}, honestly.",
    "I might {base} this year, not sure yet.",
    "Toying with the idea of {ing}, we'll see.",
    "Seriously considering {ing}.",
    "Hoping to {base} at some point, if it works out.",
    "On the fence about {ing}.",
    "We keep talking about {ing}, maybe in {month}.",
)

DONE_FRAMES = (
    "Update: {done}.",
    "Well, I did it: {done}!",
    "{Done}, finally.",
    "Big news, {done}.",
)


def _cap(text: str) -> str:
    return text[0].upper() + text[1:]


def _fill(frame: str, **parts: str) -> str:
    for key, value in parts.items():
        frame = frame.replace("{" + _cap(key) + "}", _cap(value))
        frame = frame.replace("{" + key + "}", value)
    return frame


@template(
    "plan-vs-fact",
    "plan-then-done",
    "A plan ('thinking about getting a dog', 'might move to "
    "Lisbon') is not the present state; the older fact is, until a later message says it "
    "happened ('we picked up the puppy'), which then replaces both.",
)
def plan_then_done(s: Scenario) -> None:
    d = s.draw
    home, away = d.rng.sample(pools.CITIES, 2)
    pet = d.any(("Biscuit", "Pepper", "Olive", "Mochi", "Rolo", "Juno"))
    current, base, ing, done, asks = d.any(
        (
            (
                (
                    "No pets at our place, just a few houseplants.",
                    "We don't have any pets.",
                    "Pet-free household here.",
                    "No pets at all, not even a goldfish.",
                ),
                "get a dog",
                "getting a dog",
                (
                    f"we picked up our puppy on Saturday, a beagle called {pet}",
                    f"we adopted a rescue dog, {pet}, and she's settling in",
                    f"{pet} the terrier lives with us now, we're dog owners",
                    f"we brought home our dog {pet} last weekend",
                ),
                (
                    "plan our weekend away, anything to arrange for pets at home?",
                    "find us a holiday cottage, do we need one that takes pets?",
                    "what should I sort out at home before we travel, pets included?",
                    "we're visiting friends for a week, do I need a pet sitter?",
                ),
            ),
            (
                (
                    "I work at a bakery, 5am starts.",
                    "I'm a baker, I work the early shift at a bakery.",
                    "My work is at the bakery on the high street, from 5 in the morning.",
                    "I work early mornings at a bakery.",
                ),
                "quit the bakery and retrain as a nurse",
                "quitting the bakery to retrain as a nurse",
                (
                    "I left the bakery and started my nursing degree, full-time study now",
                    "last shift at the bakery is done, the nursing course started Monday",
                    "no more bakery work, I'm a full-time nursing student now",
                    "handed in my notice at the bakery, and my nursing study started this week",
                ),
                (
                    "help me plan my week around work and study",
                    "make me a weekly timetable for work and study",
                    "when can I fit a dentist visit around work or study?",
                    "plan my Tuesday, work and study included",
                ),
            ),
            (
                (
                    "I don't own a car, it's bike and tram for everything.",
                    "No car for me, I get around by tram and bike.",
                    "Car-free, I take the tram or cycle.",
                    "I don't have a car, the tram takes me everywhere.",
                ),
                "buy a car",
                "buying a car",
                (
                    "bought the car, a used estate, picked it up yesterday",
                    "I own a car now, a little hatchback, so no more tram",
                    "we got the car, I drove it home on Tuesday",
                    "the car is ours, I'm driving everywhere now",
                ),
                (
                    "how should I get to the furniture shop on Saturday, car or tram?",
                    "plan my trip to the airport on Friday, tram or car?",
                    "best way to get to the hardware store, car, bike or tram?",
                    "how do I get to my cousin's on Sunday, car or tram?",
                ),
            ),
            (
                (
                    f"I live in {home}.",
                    f"Home is {home}, I live near the station.",
                    f"I've got a flat in {home}, that's where I live.",
                    f"I live in {home}, north side.",
                ),
                f"move to {away}",
                f"moving to {away}",
                (
                    f"we moved, I live in {away} now, got the keys on Monday",
                    f"I live in {away} now, the move is done",
                    f"the {home} flat is handed back, we live in {away} as of this week",
                    f"we're unpacking in {away}, that's where we live now",
                ),
                (
                    "recommend a bakery near where I live",
                    "find a dentist close to where I live",
                    "where's a good park near where I live?",
                    "find me a gym near where I live",
                ),
            ),
        )
    )
    fact_at = s.day(0, d.between(8, 20))
    fact = s.chat(fact_at).user(d.pick(current))
    month = MONTHS[first_of_month(fact_at, d.between(2, 3)).month - 1]
    c = s.chat(s.day(d.between(5, 20), d.between(18, 23)))
    plan = c.user(_fill(d.pick(PLAN_FRAMES), base=base, ing=ing, month=month))
    c.assistant(
        d.pick(("Exciting! Let me know if you want help deciding.", "Big step!", "Ooh.", "Nice!"))
    )
    done_day = d.between(60, 110)
    c = s.chat(s.day(done_day, d.between(9, 21)))
    happened = c.user(_fill(d.pick(DONE_FRAMES), done=d.pick(done)))
    c.assistant(d.pick(("Congratulations!", "That's great news!", "Amazing, well done.", "Yay!")))
    ask = d.pick(asks)
    s.nightly()
    s.recall(
        s.ask(ask, s.day(d.between(25, 50), 10), relevant=[fact], forbidden=[plan]),
        s.ask(
            ask,
            s.day(done_day + d.between(5, 30), 11),
            relevant=[happened],
            forbidden=[plan, fact],
        ),
    )


CALLED_OFF_FRAMES = (
    "Not {ing} after all, {reason}.",
    "{Noun} is off, {reason}.",
    "Scrap the {noun}, it's not happening, {reason}.",
    "Change of plan: no {noun}, {reason}.",
    "So the {noun} fell through, {reason}.",
)

# (the standing fact, the plan, its -ing and noun forms, reasons, queries)
CALLED_OFF = (
    (
        (
            "I do two easy runs a week, about 5k each.",
            "My running is two gentle 5k runs a week.",
            "Twice a week I go for an easy run, nothing serious.",
            "I run a couple of times a week, short easy runs.",
        ),
        (
            "Signed up for the city marathon in October! Five runs a week from Monday.",
            "I'm doing the marathon this autumn, so my runs are about to get serious.",
            "Marathon entry confirmed, training plan is five runs a week starting now.",
            "Just registered for my first marathon, 16-week plan, long runs on Sundays.",
        ),
        "doing the marathon",
        "marathon",
        ("my hamstring won't have it", "work is too much", "the race got cancelled"),
        (
            "plan my runs for this week",
            "what runs should I do this weekend?",
            "how many runs should I fit in next week?",
            "suggest a route for my runs this week",
        ),
    ),
    (
        (
            "No pets in our flat at the moment.",
            "We have no pets right now.",
            "Pet-free flat for now.",
            "There are no pets in our home.",
        ),
        (
            "We're adopting a rescue greyhound next month!",
            "We've been approved to adopt a greyhound, he comes home in three weeks.",
            "Getting a retired racing greyhound, the shelter says by the end of the month.",
            "We put our names down for a greyhound, collecting him soon.",
        ),
        "adopting the greyhound",
        "greyhound adoption",
        (
            "the shelter matched him with another family",
            "our landlord said no",
            "he needed a home without a cat next door",
        ),
        (
            "book us a cottage for the long weekend, does it matter if it bans pets?",
            "plan our weekend away, anything to arrange for pets?",
            "we're away for a week, do we need a pet sitter?",
            "is a flat with a no-pets clause fine for us?",
        ),
    ),
    (
        (
            "I practise Spanish with an app for ten minutes a day, total beginner.",
            "My Spanish is beginner level, just the app every morning.",
            "Ten minutes of Spanish on my phone each day, that's my level.",
            "I'm learning Spanish with an app, very much a beginner.",
        ),
        (
            "Enrolled in an intensive evening Spanish course, four nights a week from next month.",
            "I'm starting a Spanish course at the language school, Monday to Thursday evenings.",
            "Booked a Spanish immersion course, three hours every evening from the 1st.",
            "Signing up for the evening Spanish class, twice a week, starts soon.",
        ),
        "doing the Spanish course",
        "Spanish course",
        ("the evenings clash with work", "they cancelled it for low numbers", "it cost too much"),
        (
            "how should I practise Spanish this week?",
            "plan my Spanish practice for the week",
            "what should I do to improve my Spanish this month?",
            "find me a Spanish podcast that fits my level",
        ),
    ),
    (
        (
            "I work at the hospital pharmacy, day shifts.",
            "My work is in the pharmacy at the general hospital.",
            "I'm a pharmacist, I work at the hospital.",
            "I work days at the hospital pharmacy.",
        ),
        (
            "I'm taking the job in {city}, we move in the spring.",
            "Got an offer in {city}, I'm going to accept and relocate next year.",
            "Looks like I'm moving to {city} for a new job, starting in April.",
            "I'm off to {city}, new job, just waiting on the contract.",
        ),
        "taking the {city} job",
        "{city} job",
        ("they couldn't match my salary", "the contract never came", "we decided to stay"),
        (
            "plan my work schedule for next month",
            "help me organise my work week",
            "when should I take a day off work?",
            "plan my commute to work next week",
        ),
    ),
    (
        (
            "Breakfast is toast and jam for me, every day.",
            "My breakfast is always toast with jam.",
            "I have toast for breakfast, every single morning.",
            "Breakfast: two slices of toast, jam, coffee.",
        ),
        (
            "Starting keto on Monday, no more carbs!",
            "From next week I'm going full keto, bread is banned.",
            "Keto starts on the 1st, no toast anymore.",
            "I'm about to go low-carb, keto from Monday.",
        ),
        "doing keto",
        "keto thing",
        ("it lasted two days", "I missed bread too much", "my doctor said not to"),
        (
            "what should I have for breakfast tomorrow?",
            "plan my breakfast for the week",
            "make a shopping list for breakfast",
            "quick breakfast idea for a busy morning?",
        ),
    ),
)


@template(
    "plan-vs-fact",
    "called-off",
    "A firm-sounding plan ('signed up for the marathon', 'adopting "
    "a greyhound next month') later called off ('not doing the marathon after all') is not "
    "the present state; the standing fact and the call-off are.",
)
def called_off(s: Scenario) -> None:
    d = s.draw
    city = d.any(pools.CITIES)
    standings, plans, ing, noun, reasons, asks = d.any(CALLED_OFF)
    fact = s.chat(s.day(0, d.between(8, 20))).user(d.pick(standings))
    plan_day = d.between(3, 30)
    c = s.chat(s.day(plan_day, d.between(18, 23), d.between(0, 59)))
    plan = c.user(d.pick(plans).format(city=city))
    c.assistant(d.pick(("Exciting!", "Good luck with it!", "Oh nice, big plans.", "Wow!")))
    off_day = plan_day + d.between(10, 45)
    c = s.chat(s.day(off_day, d.between(8, 22)))
    if d.chance(0.4):
        c.user(d.pick(("so, about that plan", "quick update", "remember what I said?", "ugh")))
        c.assistant(d.pick(("Go on.", "Yes?", "What's up?", "Tell me.")))
    frame = d.pick(CALLED_OFF_FRAMES)
    off = c.user(
        _fill(frame, ing=ing.format(city=city), noun=noun.format(city=city), reason=d.any(reasons))
    )
    c.assistant(d.pick(("Sorry to hear that.", "Ah, that's a shame.", "Fair enough.", "Okay.")))
    s.nightly()
    at = s.day(off_day + d.between(5, 40), d.between(8, 20))
    s.recall(s.ask(d.pick(asks), at, relevant=[fact, off], forbidden=[plan]))
