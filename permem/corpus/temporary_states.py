"""Temporary states and durations that are not bounds (temporal)."""

from __future__ import annotations

from datetime import timedelta

from permem.corpus.schedules import ACKS, _cap, _chatter, _end_words, _on
from permem.corpus.templates import Scenario, rfc3339, template

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
