"""What holds only this time: one-off-exception templates (an occasion, a trip; an order for
someone else is in `on_behalf`). The small talk here is shared with `on_behalf` and
`beliefs`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from permem.corpus import pools
from permem.corpus.templates import MONTHS, Conversation, Scenario, ordinal, template

ACKS = ("Got it.", "Okay!", "Noted.", "Sure thing.", "Understood.")
SMALL_TALK = (
    ("what's the capital of Australia again?", "Canberra."),
    ("give me a synonym for 'cheerful'", "Sunny, or upbeat."),
    ("how long do I boil an egg for a runny yolk?", "About six minutes from boiling."),
    ("what's 15% of 80?", "12."),
    ("who wrote The Remains of the Day?", "Kazuo Ishiguro."),
    ("how do you spell 'rhythm'? I always get it wrong", "R-H-Y-T-H-M."),
)


def _chatter(s: Scenario, c: Conversation) -> None:
    if s.draw.chance(0.5):
        question, answer = s.draw.any(SMALL_TALK)
        c.user(question)
        c.assistant(answer)


# (standing preference, exception for one occasion today, question later, question the same day)
OCCASIONS: tuple[tuple[Sequence[str], Sequence[str], Sequence[str], Sequence[str]], ...] = (
    (
        (
            "I can't do spicy food at all, keep it mild.",
            "Mild everything please, chilli wrecks my stomach.",
            "My spice tolerance is zero, nothing spicy for me.",
            "Nothing hot for me, even black pepper is pushing it. Mild food only.",
        ),
        (
            "For tonight's party make it spicy, even though I normally can't handle it.",
            "Going all out for curry night tonight, make mine hot, I'll suffer tomorrow.",
            "It's chilli challenge night with my mates, so extra hot for me this evening.",
            "Make tonight's tacos properly fiery, it's a dare and I'm doing it.",
        ),
        (
            "how spicy should I order from the Thai place this weekend?",
            "suggest a curry for my dinner on Saturday, how hot?",
            "pick a dish for me at the Sichuan restaurant next week, mild or spicy?",
            "recipe idea for Sunday, and how much chilli should go in?",
        ),
        (
            "how much chilli should I put in tonight?",
            "what heat level should I go for this evening?",
            "finalise tonight's menu, how hot?",
            "pick the sauce strength for tonight",
        ),
    ),
    (
        (
            "I'm cutting out sugar, no desserts for me.",
            "I don't do desserts anymore, I'm off sugar.",
            "No sweets please, I've given up dessert.",
            "I skip dessert always, sugar-free life.",
        ),
        (
            "I'm skipping my diet for my birthday dinner tonight, bring on the dessert menu.",
            "Birthday tonight, so the no-dessert rule is off for the evening.",
            "Tonight's my birthday, I'm having the chocolate fondant and not feeling guilty.",
            "For my birthday dinner later, I want the full dessert, rules suspended.",
        ),
        (
            "suggest a dessert I can actually have this weekend",
            "what can I order for dessert at the work lunch next week?",
            "plan a dinner party menu for Saturday, dessert included",
            "we're eating out on Friday, what should I get for dessert?",
        ),
        (
            "what dessert should I pick tonight?",
            "help me choose from the dessert menu this evening",
            "which dessert should I have at dinner tonight?",
            "tonight's dessert: fondant or tiramisu?",
        ),
    ),
    (
        (
            "Keep my emails polite and warm, I hate sounding curt.",
            "Please write my emails in a friendly, gentle tone.",
            "I always want my emails courteous, never blunt.",
            "Soft and polite for all my emails, even when I'm annoyed.",
        ),
        (
            "This complaint to the airline, make it blunt and angry, they lost my bag again.",
            "For the email to the airline about my lost suitcase, don't be nice. Be sharp.",
            "The airline complaint needs teeth, write it furious, third lost bag this year.",
            "Write the lost-luggage complaint to the airline as harsh as you can.",
        ),
        (
            "draft an email to my landlord about the boiler",
            "write an email to my manager asking for Friday off",
            "email the school about the trip permission slip",
            "help me write an email to the neighbour about the hedge",
        ),
        (
            "draft that complaint email to the airline now",
            "write the airline email about my bag",
            "ok let's do the email to the airline",
            "compose the lost bag email to the airline",
        ),
    ),
    (
        (
            "My weekday alarm is 7:30, don't go earlier.",
            "I wake up at 7:30 on weekdays.",
            "Alarm at half seven, Monday to Friday.",
            "7:30 wake-up on workdays, that's my alarm.",
        ),
        (
            "Set my alarm for 4:15 tomorrow, I've got the early train to the airport.",
            "Tomorrow I need to be up at 4:15 for a flight, alarm please.",
            "Early start tomorrow, wake me at 4:15, the taxi comes at 5.",
            "Alarm 4:15 for tomorrow morning, I'm driving my mum to the airport.",
        ),
        (
            "set my alarm for Thursday",
            "what time should my alarm go off on Tuesday?",
            "set the weekday alarm for next week",
            "wake me up on Monday",
        ),
        (
            "what time is my alarm for tomorrow?",
            "is my alarm set for tomorrow morning?",
            "double-check tomorrow's alarm",
            "when am I getting up tomorrow?",
        ),
    ),
)


@template(
    "one-off-exception",
    "occasion-override",
    "A standing preference and an exception for one occasion that never says 'once' ('for "
    "tonight's party make it spicy even though I normally can't'); the same day the exception "
    "is relevant, on a later day the standing preference is relevant and the exception forbidden.",
)
def occasion_override(s: Scenario) -> None:
    d = s.draw
    standing, exceptions, later_asks, same_day = d.any(OCCASIONS)
    c1 = s.chat(s.day(0, d.between(9, 20)))
    _chatter(s, c1)
    rule = c1.user(d.pick(standing))
    c1.assistant(d.any(ACKS))
    c2 = s.chat(s.day(d.between(10, 40), d.between(11, 15)))
    if d.chance(0.4):
        c2.user(d.any(("hiya", "morning!", "quick one", "hey")))
        c2.assistant("Hi! What can I do?")
    once = c2.user(d.pick(exceptions))
    c2.assistant(d.any(("Ha, enjoy!", "Will do.", "You got it.", "Sounds fun!")))
    s.nightly()
    queries = []
    if d.chance(0.5):
        at = c2.clock + timedelta(hours=2)
        queries.append(s.ask(d.pick(same_day), at, relevant=[once]))
    queries.append(
        s.ask(
            d.pick(later_asks),
            c2.clock + timedelta(days=d.between(8, 30)),
            relevant=[rule],
            forbidden=[once],
        )
    )
    s.recall(*queries)


# (standing travel preference, exception for this trip to {place}, question after the trip
# about {other}, question before the trip, where the trip goes)
TRIPS: tuple[
    tuple[Sequence[str], Sequence[str], Sequence[str], Sequence[str], Sequence[str]], ...
] = (
    (
        (
            "I travel carry-on only, never check a bag.",
            "Hand luggage only for me, always.",
            "I never check luggage, cabin bag only.",
            "Carry-on is all I ever fly with.",
        ),
        (
            "For the ski trip to {place} I'm checking a bag, the boots won't fit in hand luggage.",
            "{place} trip is different, I'll need a checked bag for the skis.",
            "Add a checked bag to the {place} booking, it's ski gear this time.",
            "On the {place} flights I'll have a big suitcase in the hold, ski stuff.",
        ),
        (
            "book my flights to {other} for the conference, what luggage should I add?",
            "sort out the bags for my flight to {other} next month",
            "which fare should I pick for my trip to {other}, with luggage in mind?",
            "I'm flying to {other} for a weekend, what bag options do I need?",
        ),
        (
            "what luggage do I need on the {place} flights?",
            "check the bag allowance for the {place} trip",
            "am I all set with luggage for {place}?",
            "confirm the baggage for my flight to {place}",
        ),
        ("Innsbruck", "Chamonix", "Niseko", "Whistler", "Zermatt", "Bansko"),
    ),
    (
        (
            "For hotels I want the quietest room, high floor, away from the lifts.",
            "Top floor, quiet room, that's my hotel rule.",
            "I always ask hotels for a high floor, far from the lift.",
            "Quiet high-floor hotel rooms please, I'm a light sleeper.",
        ),
        (
            "For the family trip to {place}, get a ground-floor room, my dad can't do stairs.",
            "This {place} trip I need a room on the ground floor, dad's coming along.",
            "Ground floor near the entrance for {place}, it's with my parents this time.",
            "In {place} the hotel room has to be step-free, I'm travelling with grandad.",
        ),
        (
            "find me a hotel room in {other} for the work trip",
            "book a hotel in {other} for my conference",
            "what kind of hotel room should I request in {other}?",
            "I'm off to {other} alone next month, sort my hotel",
        ),
        (
            "which room should I ask for at the {place} hotel?",
            "email the {place} hotel about our room",
            "confirm the room type for the {place} trip",
            "what did we need from the hotel in {place}?",
        ),
        pools.CITIES,
    ),
    (
        (
            "I only drive manual, automatics feel weird to me.",
            "Manual gearbox for rental cars please, always.",
            "I prefer a manual when I rent a car.",
            "Stick shift is what I drive, no automatics.",
        ),
        (
            "For the {place} trip book an automatic, my partner's doing the driving.",
            "In {place} we need an automatic rental, my wife will be at the wheel.",
            "Get an automatic for {place}, my brother's driving and he can't do manual.",
            "The {place} car should be automatic, my husband's driving that one.",
        ),
        (
            "rent me a car for the weekend in {other}",
            "which rental car should I book in {other}?",
            "find me a car hire deal in {other} next month",
            "I need a rental car in {other} for two days",
        ),
        (
            "book the rental car for {place}",
            "what car should we pick up in {place}?",
            "check the car hire for the {place} trip",
            "reserve our car in {place}",
        ),
        ("Iceland", "Sardinia", "Scotland", "Crete", "Tasmania", "Provence"),
    ),
    (
        (
            "I'm a hostel person, cheapest bed possible.",
            "Budget stays only, dorms are fine by me.",
            "I always go for the cheapest place to stay, I'm barely in the room.",
            "Cheap and cheerful for accommodation, hostels ideally.",
        ),
        (
            "For the honeymoon in {place}, splurge: five stars, sea view.",
            "{place} is our honeymoon, so the nicest hotel you can find, money no object.",
            "Honeymoon trip to {place}: luxury all the way, suite if possible.",
            "It's our honeymoon in {place}, so forget budget and book somewhere fancy.",
        ),
        (
            "find me somewhere to stay in {other} next month",
            "book accommodation for my weekend in {other}",
            "where should I stay for the festival in {other}?",
            "I need a place to stay in {other} for three nights",
        ),
        (
            "where are we staying in {place}?",
            "find our accommodation for {place}",
            "book the place to stay in {place}",
            "compare places to stay in {place} for us",
        ),
        ("Santorini", "Bali", "Madeira", "Amalfi", "Zanzibar", "Mauritius"),
    ),
)


@template(
    "one-off-exception",
    "this-trip-only",
    "A request for one dated trip (checked bag for the ski trip, automatic car while the "
    "partner drives) against a standing travel preference; before the trip the request is "
    "relevant, for a later trip elsewhere the standing preference is and the request forbidden.",
)
def this_trip_only(s: Scenario) -> None:
    d = s.draw
    standing, exceptions, after_asks, before_asks, places = d.any(TRIPS)
    place = d.any(places)
    other = d.any([city for city in pools.CITIES if city != place])
    c1 = s.chat(s.day(0, d.between(8, 21)))
    rule = c1.user(d.pick(standing))
    c1.assistant(d.any(ACKS))
    c = s.chat(s.day(d.between(15, 30), d.between(9, 21)))
    _chatter(s, c)
    leave = s.day(d.between(45, 55), 8)
    dates = d.pick(
        (
            f"We fly out on {MONTHS[leave.month - 1]} {ordinal(leave.day)}.",
            f"Dates are the {ordinal(leave.day)} to the {ordinal((leave + timedelta(6)).day)}.",
            f"Leaving {MONTHS[leave.month - 1]} {leave.day}, back a week later.",
            f"We're away for a week from the {ordinal(leave.day)}.",
        )
    )
    ids = c.tell(d.pick(exceptions).format(place=place), dates, acks=ACKS)
    c.assistant(d.any(("Noted for that trip.", "Got it, just for that trip.", *ACKS)))
    s.nightly()
    queries = []
    if d.chance(0.5):
        queries.append(
            s.ask(
                d.pick(before_asks).format(place=place),
                s.day(d.between(35, 42), 19),
                relevant=ids[:1],
            )
        )
    queries.append(
        s.ask(
            d.pick(after_asks).format(other=other),
            s.day(d.between(75, 110), 12),
            relevant=[rule],
            forbidden=ids,
        )
    )
    s.recall(*queries)
