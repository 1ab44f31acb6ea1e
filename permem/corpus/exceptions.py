"""What holds only this time, and what is only believed: one-off-exception templates (an occasion,
a trip, an order for someone else) and belief-vs-fact templates (a belief about the world, a
belief about what works for the user, a belief given as the reason for a preference).
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


# (the user's own taste, an order for {who}, question about the user later, who it is for)
ON_BEHALF: tuple[tuple[Sequence[str], Sequence[str], Sequence[str], Sequence[str]], ...] = (
    (
        (
            "I eat everything, proper cheesecake is my weakness.",
            "Not fussy at all, dairy, meat, the lot. Desserts with cream are my favourite.",
            "I love a rich dessert, butter and cream and all.",
            "Dessert-wise I'm a cream and butter person.",
        ),
        (
            "Ordering a vegan cake for {who}'s birthday, she's strict about it.",
            "Need a vegan cake for {who}'s party, no eggs or dairy at all.",
            "Can you find a bakery doing vegan cakes? It's for {who}, she's vegan.",
            "I'm getting {who} a plant-based birthday cake, she doesn't eat animal products.",
        ),
        (
            "suggest a dessert recipe for me this weekend",
            "what dessert should I treat myself to tonight?",
            "I fancy baking a dessert for myself, ideas?",
            "pick a dessert for me from the bakery menu",
        ),
        ("my sister", "my flatmate Jess", "my mum", "my colleague Priya"),
    ),
    (
        (
            "I'm a size small in tops and jackets.",
            "Small fits me best, for shirts and coats.",
            "I wear a small, sometimes extra small in jackets.",
            "Size S for me, tops and outerwear.",
        ),
        (
            "Order a size XL hoodie for {who}, he's tall.",
            "Buying {who} a jumper, get it in XL.",
            "Gift for {who}: the navy fleece in extra large.",
            "I'm ordering an XL rain jacket for {who}, he's a big guy.",
        ),
        (
            "find me a rain jacket in my size",
            "what size should I order in this winter coat for me?",
            "pick a size for the linen shirt I'm buying myself",
            "order me a jacket for spring, my size",
        ),
        ("my husband", "my dad", "my brother", "my son"),
    ),
    (
        (
            "Jazz is my music, Coltrane and Bill Evans mostly.",
            "I mostly listen to jazz, the older the better.",
            "My music taste is jazz, piano trios especially.",
            "Jazz all day for me, nothing with autotune.",
        ),
        (
            "Make a K-pop playlist for {who}'s tenth birthday party.",
            "I need party music for {who}'s sleepover, she loves K-pop and Taylor Swift.",
            "Playlist for the kids' party on Saturday: {who} wants all the K-pop hits.",
            "{who} asked me for a birthday playlist, all K-pop, can you help?",
        ),
        (
            "make me a playlist for my commute",
            "suggest music for me to cook to tonight",
            "put together some music for my Sunday morning",
            "what music should I put on while I work?",
        ),
        ("my niece", "my daughter", "my goddaughter", "my little cousin"),
    ),
    (
        (
            "I don't drink alcohol, just so you know.",
            "I'm teetotal, no drink for me.",
            "I never drink, alcohol's not my thing.",
            "No alcohol for me, ever, I'm a soft drink person.",
        ),
        (
            "Picking a peaty Islay whisky for {who}'s 60th.",
            "Need a good bottle of red for {who}, he's a wine snob.",
            "Help me choose a single malt as a present for {who}.",
            "Gift for {who}: a nice bottle of bourbon, he loves the stuff.",
        ),
        (
            "suggest a drink to order at the work dinner",
            "what should I drink at the wedding reception?",
            "pick a drink for me at the bar tonight",
            "what drink goes with my pizza tonight?",
        ),
        ("my father-in-law", "my dad", "my boss", "my neighbour Tom"),
    ),
)


@template(
    "one-off-exception",
    "for-someone-else",
    "An order or gift for someone else (a vegan cake for a sister, an XL hoodie for a husband) "
    "is not the user's own diet or size; the user's own stated taste is relevant later.",
)
def for_someone_else(s: Scenario) -> None:
    d = s.draw
    own, orders, asks, people = d.any(ON_BEHALF)
    who = d.any(people)
    order = d.pick(orders).format(who=who)
    c1 = s.chat(s.day(0, d.between(9, 21)))
    _chatter(s, c1)
    mine = c1.user(d.pick(own))
    c1.assistant(d.any(ACKS))
    c2 = s.chat(s.day(d.between(5, 25), d.between(9, 21)))
    theirs = c2.tell(
        order,
        d.pick(("Thanks!", "Nothing too fancy.", "I need it sorted by Friday.", "Any ideas?")),
        acks=("Sure, looking now.", "Happy to help."),
    )
    c2.assistant(d.any(("Here are some options.", "Found a few!", "Happy to help with that.")))
    s.nightly()
    s.recall(
        s.ask(d.pick(asks), s.day(d.between(40, 70), 19), relevant=[mine], forbidden=theirs[:1])
    )


# belief-vs-fact -----------------------------------------------------------------------------

# (a false belief as a clause, factual questions on it)
WORLD_BELIEFS: tuple[tuple[str, Sequence[str]], ...] = (
    (
        "the earth is only about 6000 years old",
        ("how old is the earth?", "how do scientists work out the age of the earth?"),
    ),
    (
        "5G masts are what make people ill",
        ("is 5G radiation harmful to health?", "do 5G masts make people sick?"),
    ),
    (
        "the moon landings were staged in a studio",
        ("what evidence is there that the moon landings happened?", "how did Apollo 11 land?"),
    ),
    (
        "shaving makes hair grow back thicker",
        ("does shaving make hair grow back thicker?", "why does stubble feel coarse?"),
    ),
    (
        "you lose most of your body heat through your head",
        ("how much body heat do you lose through your head?", "where does the body lose heat?"),
    ),
    (
        "goldfish only remember things for three seconds",
        ("how long is a goldfish's memory?", "can goldfish learn tricks?"),
    ),
    (
        "lightning never strikes the same place twice",
        ("can lightning strike the same place twice?", "how often is a skyscraper struck?"),
    ),
    (
        "vaccines cause autism",
        ("is there a link between vaccines and autism?", "what causes autism?"),
    ),
)
FRAMES = (
    "I think {p}.",
    "I'm sure {p}, no matter what anyone says.",
    "Honestly, {p}. Everyone knows it.",
    "My view: {p}.",
    "I've always believed {p}.",
    "Trust me, {p}.",
    "It's a fact that {p}, I don't care what the experts say.",
    "Call me stubborn but {p}.",
)
ARGUMENTS = (
    "Had a row with my brother at dinner.",
    "My coworkers laughed at me today.",
    "Watched a documentary last night that made me angry.",
    "Big argument in the family group chat again.",
)
PUSHBACK = (
    "That's a common belief, but the evidence points the other way.",
    "I understand why people think that, though scientists have studied it a lot.",
    "It's a popular idea! The research tells a different story, though.",
)


@template(
    "belief-vs-fact",
    "worldview-claim",
    "The user states a belief about the world ('I'm sure vaccines cause autism', 'trust me, "
    "the earth is 6000 years old'); a factual question on it gets no personalization: the "
    "belief is forbidden and the answer empty.",
)
def worldview_claim(s: Scenario) -> None:
    d = s.draw
    clause, questions = d.any(WORLD_BELIEFS)
    c = s.chat(s.day(0, d.between(17, 23)))
    said = c.tell(d.pick(ARGUMENTS), d.pick(FRAMES).format(p=clause), acks=("Oh no, about what?",))
    forbidden = said[1:]
    if d.chance(0.5):
        forbidden.append(c.assistant(d.any(PUSHBACK)))
        c.user(d.any(("agree to disagree", "whatever, I know what I know", "hmm, not convinced")))
    s.nightly()
    first, second = (questions[0], questions[1]) if d.chance() else (questions[1], questions[0])
    queries = [s.ask(first, s.day(d.between(5, 30), 10), forbidden=forbidden, expect_empty=True)]
    if d.chance(0.5):
        queries.append(
            s.ask(second, s.day(d.between(31, 45), 10), forbidden=forbidden, expect_empty=True)
        )
    s.notes.append("Only the belief is stored: the factual questions have nothing to apply.")
    s.recall(*queries)


# (a belief about what works for the user, questions about their own routine, factual
# questions on the same topic)
SELF_BELIEFS: tuple[tuple[Sequence[str], Sequence[str], Sequence[str]], ...] = (
    (
        (
            "I believe cold showers work for me, keep suggesting them in my morning routine.",
            "Cold showers fix my mornings, I swear by them, keep them in my routine.",
            "I'm convinced the cold shower is why I'm not groggy, keep it in my morning routine.",
            "Whatever the science says, cold showers work for me, so keep them in my routine.",
        ),
        (
            "plan my morning routine for next week",
            "build me a wake-up routine for the workweek",
            "tweak my morning routine, I want to feel fresher",
            "what should my morning routine look like on Monday?",
        ),
        (
            "do cold showers boost the immune system?",
            "is there scientific evidence that cold showers are good for you?",
        ),
    ),
    (
        (
            "I'm sure reading a paper book before bed helps me sleep, put it in my evenings.",
            "Paper books at bedtime, no screens, it works for me, I believe that firmly.",
            "I think reading a real book in bed is what gets me to sleep, keep it in my plan.",
            "Reading before sleep works for me, I'm convinced, so build my evenings around it.",
        ),
        (
            "help me set up a bedtime routine for my evenings",
            "plan my evening wind-down before sleep",
            "what should I do in the hour before bed?",
            "design my evenings this week so I sleep well",
        ),
        (
            "does screen light before bed actually affect sleep?",
            "is reading before bed proven to improve sleep quality?",
        ),
    ),
    (
        (
            "I swear a banana before a long run stops my cramps, always put one in my plan.",
            "Bananas before my long runs keep the cramps away, I'm sure of it, keep that in.",
            "I believe the pre-run banana is why I don't cramp on long runs, so keep it.",
            "For my long runs: banana beforehand, I'm convinced it helps my cramps.",
        ),
        (
            "plan my long run for Sunday, food included",
            "what should I eat before my long run this weekend?",
            "build my long run prep for the half marathon",
            "pack list and snacks for my long run tomorrow",
        ),
        (
            "do bananas prevent muscle cramps?",
            "what causes muscle cramps during exercise?",
        ),
    ),
    (
        (
            "I think lo-fi beats help me focus, put them in my study sessions.",
            "Lo-fi music makes me focus better, I'm sure, so add it to my study plan.",
            "I believe I study better with lo-fi playing, keep suggesting it.",
            "Background lo-fi is my focus trick for study, I swear by it.",
        ),
        (
            "plan my study session for tonight",
            "set up a study schedule for my exams",
            "how should I structure my study afternoon tomorrow?",
            "make me a focus plan for study on Saturday",
        ),
        (
            "does background music improve concentration?",
            "what does research say about music and focus?",
        ),
    ),
)


@template(
    "belief-vs-fact",
    "works-for-me",
    "A belief about what works for the user ('I believe cold showers work for me, keep "
    "suggesting them') is relevant for their own routine and forbidden for the factual question.",
)
def works_for_me(s: Scenario) -> None:
    d = s.draw
    beliefs, routines, factuals = d.any(SELF_BELIEFS)
    c = s.chat(s.day(0, d.between(7, 22)))
    _chatter(s, c)
    said = c.user(d.pick(beliefs))
    c.assistant(d.any(("I'll keep that in mind.", "Noted, I'll include it.", *ACKS)))
    s.nightly()
    early, late = s.day(d.between(4, 20), 8), s.day(d.between(21, 30), 15)
    own_at, fact_at = (early, late) if d.chance() else (late, early)
    own = s.ask(d.pick(routines), own_at, relevant=[said])
    fact = s.ask(d.any(factuals), fact_at, forbidden=[said], expect_empty=True)
    s.recall(*((own, fact) if own_at < fact_at else (fact, own)))


# (the belief, the preference it leads to, question about the user's own choice, factual
# question on the belief)
BELIEF_REASONS: tuple[tuple[Sequence[str], Sequence[str], Sequence[str], Sequence[str]], ...] = (
    (
        (
            "Sugar feeds cancer, I'm sure of it.",
            "I'm convinced sugar is what feeds tumours.",
            "Everyone knows sugar feeds cancer cells.",
            "I believe sugar basically fuels cancer.",
        ),
        (
            "So keep my snacks and meals free of added sugar.",
            "Which is why I want no added sugar in my snacks, ever.",
            "So no added sugar in any snacks you suggest for me.",
            "That's why my snacks have to be sugar-free.",
        ),
        (
            "snack ideas for my afternoon at work",
            "what snacks should I buy this week?",
            "suggest a snack for my hike",
            "pack some snacks for my road trip",
        ),
        ("does sugar feed cancer cells?", "is sugar linked to cancer?"),
    ),
    (
        (
            "Wifi radiation is dangerous, I'm certain.",
            "I think wifi signals are harmful when you sleep.",
            "Router radiation messes with your brain, I truly believe it.",
            "I'm sure wifi at night is bad for your health.",
        ),
        (
            "So switch the router off at night in my smart home schedule.",
            "Please make the home schedule cut the wifi router at 11pm.",
            "Put the router on a timer in my night schedule, off till 7.",
            "So the router goes off overnight in my smart home routine.",
        ),
        (
            "set up my smart home night schedule",
            "what should my smart home do at bedtime?",
            "adjust the night routine for the house",
            "review my smart home schedule for the evening",
        ),
        ("is wifi radiation harmful to health?", "does a router affect sleep?"),
    ),
    (
        (
            "Fluoride in toothpaste is poison, in my opinion.",
            "I believe fluoride is toxic.",
            "I'm convinced fluoride does more harm than good.",
            "Fluoride is bad for you, I've read enough to be sure.",
        ),
        (
            "So only recommend fluoride-free toothpaste for me.",
            "Which means fluoride-free toothpaste only in my shopping.",
            "So put fluoride-free toothpaste on my lists.",
            "That's why my toothpaste must be fluoride-free.",
        ),
        (
            "recommend a toothpaste for me",
            "add toothpaste to my shopping list",
            "which toothpaste should I buy?",
            "pick a toothpaste for my travel kit",
        ),
        ("is fluoride in toothpaste safe?", "does fluoride prevent tooth decay?"),
    ),
    (
        (
            "Eating after 8pm makes you gain weight no matter what, I believe.",
            "I'm sure late dinners turn straight into fat.",
            "Food after eight goes straight to your waist, everyone knows that.",
            "I think eating late is what makes people put on weight.",
        ),
        (
            "So schedule my dinners before 8.",
            "Which is why dinner has to be done by 8pm for me.",
            "So I want my dinners finished before eight.",
            "That's why I eat dinner early, before 8, please plan for it.",
        ),
        (
            "plan my dinners this week",
            "what time should I book the dinner reservation on Friday?",
            "fit dinner into my Thursday schedule",
            "schedule dinners around my late meetings this week",
        ),
        ("does eating late at night cause weight gain?", "is it bad to eat dinner late?"),
    ),
)


@template(
    "belief-vs-fact",
    "belief-as-reason",
    "A belief given as the reason for a preference, in its own message ('sugar feeds cancer' "
    "then 'so no added sugar in my snacks'): the preference is relevant for the user's own "
    "choice; the factual question gets no personalization and the belief is forbidden.",
)
def belief_as_reason(s: Scenario) -> None:
    d = s.draw
    beliefs, prefs, choices, factuals = d.any(BELIEF_REASONS)
    c = s.chat(s.day(0, d.between(8, 22)))
    _chatter(s, c)
    belief, pref = c.tell(d.pick(beliefs), d.pick(prefs), split=True, acks=("Mm-hm.", "Okay."))
    c.assistant(d.any(("I'll keep that in mind.", *ACKS)))
    s.nightly()
    early, late = s.day(d.between(4, 25), 18), s.day(d.between(26, 40), 11)
    own_at, fact_at = (early, late) if d.chance() else (late, early)
    own = s.ask(d.pick(choices), own_at, relevant=[pref])
    fact = s.ask(d.any(factuals), fact_at, forbidden=[belief], expect_empty=True)
    s.notes.append(
        "The belief is neither relevant nor forbidden for the user's own choice; the "
        "preference is not wanted for the factual question (expect_empty)."
    )
    s.recall(*((own, fact) if own_at < fact_at else (fact, own)))
