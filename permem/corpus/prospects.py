"""What the user does not have yet: a purchase they are only eyeing (an induction hob, an e-bike),
a level they are only aiming at (fluent by summer), and a wish that belongs to someone else in the
household (a partner's dream of the countryside, a child's campaign for a kitten).
"""

from __future__ import annotations

from collections.abc import Sequence

from permem.corpus.templates import Scenario, template

ACKS = ("Got it.", "Okay!", "Noted.", "Sure.", "Good to know.")
REPLIES = ("Ooh, nice!", "Sounds lovely.", "Fingers crossed!", "Fair enough.", "Ha, I see.")


def _fact_and_other(s: Scenario, fact_text: str, other_text: str, lead: str) -> tuple[str, str]:
    """The fact and the plan or wish: in one conversation or two, in either order; `lead` joins
    the plan or wish to a fact said just before it."""
    d = s.draw
    if d.chance():
        c = s.chat(s.day(0, d.between(8, 22)))
        fact = c.user(fact_text)
        c.assistant(d.any(ACKS))
        other = c.user(lead + other_text[0].lower() + other_text[1:] if lead else other_text)
        c.assistant(d.any(REPLIES))
        return fact, other
    c = s.chat(s.day(0, d.between(8, 22)))
    other = c.user(other_text)
    c.assistant(d.any(REPLIES))
    c = s.chat(s.day(d.between(3, 25), d.between(8, 22)))
    fact = c.user(fact_text)
    c.assistant(d.any(ACKS))
    return fact, other


# (what the user has, what they are only eyeing, questions the thing they have answers)
EYEING: tuple[tuple[Sequence[str], Sequence[str], Sequence[str]], ...] = (
    (
        (
            "I cook on an old gas hob, four burners.",
            "My kitchen has a gas cooker, ancient but it works.",
            "it's a gas hob in my flat, nothing fancy",
            "Gas stove at home, the kind with the blue flames and a clicky igniter.",
            "I've got a gas hob, been cooking on gas for years.",
            "Our cooker is gas, four rings.",
        ),
        (
            "I've been eyeing induction hobs, maybe in the January sales.",
            "Induction is on my wishlist, once I've saved a bit.",
            "one day I'll get an induction hob, they look so sleek",
            "Thinking of saving up for induction next year.",
            "If the bonus comes through I might treat myself to an induction cooktop.",
            "I keep looking at induction hobs online. Someday.",
        ),
        (
            "what pans should I buy for my hob?",
            "is a cast-iron wok a good idea for my cooker?",
            "how do I get a proper sear on my stove?",
            "what's the best way to simmer a stew for hours on my hob?",
            "recommend a kettle for my stovetop",
            "how do I clean my hob after a big fry-up?",
        ),
    ),
    (
        (
            "I commute on a heavy old steel bike, 12 kilometres each way.",
            "My bike's a clunky old steel tourer, that's what I ride to work.",
            "i ride a big heavy steel bike to work, 12k",
            "Commute: 12km on my old steel-frame bike.",
            "I cycle 12 km to the office on a really heavy old bike.",
            "My ride to work is an old steel bike, no gears to speak of.",
        ),
        (
            "Saving up for an e-bike, hopefully by the summer.",
            "An electric bike is the dream, I'm putting money aside for one.",
            "someday I'm getting an ebike and never sweating again",
            "I've got my eye on an e-bike, when I can afford it.",
            "Thinking I might get an electric bike next year, we'll see.",
            "E-bike is next on the list once the car loan's paid off.",
        ),
        (
            "how long will my ride to work take tomorrow?",
            "what should I wear on the bike for my commute in the heat?",
            "do I need to shower at work after my commute?",
            "how do I look after my bike chain?",
            "which lock should I get for my bike?",
            "I'm tired of my commute, how can I make the ride easier?",
        ),
    ),
    (
        (
            "I take all my photos on my phone, I don't own a camera.",
            "My only camera is my phone.",
            "phone camera only for me, never owned a real one",
            "I shoot everything on my phone.",
            "No proper camera here, just my phone.",
            "Photos? Phone. I've never bought a camera.",
        ),
        (
            "I've got my eye on a Fujifilm mirrorless for when I can afford it.",
            "One day I'll buy a proper mirrorless camera, the Fuji ones are gorgeous.",
            "saving for a fuji camera, maybe next christmas",
            "Dreaming of a mirrorless camera. Maybe next year.",
            "If I ever have spare cash, a Fujifilm camera is first on the list.",
            "I keep looking at the Fuji X-T5 online, it's on my wishlist.",
        ),
        (
            "give me tips for taking photos at my cousin's wedding",
            "how do I get better night shots on my holiday?",
            "what settings should I use for photographing fireworks?",
            "how do I photograph my paintings for my website?",
            "tips for taking portraits of my kids this weekend?",
            "how should I take photos of food for my blog?",
        ),
    ),
)


@template(
    "plan-vs-fact",
    "eyeing-not-bought",
    "A purchase the user is only eyeing or saving for (an induction hob, an e-bike, a mirrorless "
    "camera) is not what they own; the thing they have is relevant, the wish forbidden.",
)
def eyeing_not_bought(s: Scenario) -> None:
    d = s.draw
    haves, wishes, asks = d.any(EYEING)
    have_text, wish_text, ask = d.pick(haves), d.pick(wishes), d.pick(asks)
    lead = d.pick(("", "random, but ", "not yet, but ", "sigh. ", "btw ", "also "))
    have, wish = _fact_and_other(s, have_text, wish_text, lead)
    s.nightly()
    at = s.day(d.between(30, 70), d.between(8, 20))
    s.recall(s.ask(ask, at, relevant=[have], forbidden=[wish]))


# (the level the user is at now, the level they are aiming at by a date, questions about what
# they can do now)
AIMS: tuple[tuple[Sequence[str], Sequence[str], Sequence[str]], ...] = (
    (
        (
            "My Japanese is basic: hiragana and maybe fifty words.",
            "I've only just started Japanese, I can read hiragana, that's it.",
            "beginner in japanese, like really beginner",
            "Japanese level: I can order a coffee and count to ten.",
            "I know a handful of Japanese words and the kana, nothing more.",
            "I started learning Japanese last month, so I'm a total novice.",
        ),
        (
            "By next summer I'm going to be fluent in Japanese, mark my words.",
            "My goal: fluent Japanese within a year.",
            "i WILL be fluent in japanese by the time I visit in august",
            "Aiming to pass the advanced Japanese exam next December.",
            "I'm going to be chatting away in Japanese by the end of the year.",
            "Plan is to be properly fluent before my Tokyo trip next year.",
        ),
        (
            "my colleague in Osaka emailed me, should I reply in Japanese?",
            "recommend a Japanese novel for me to read this month",
            "should I watch this anime with or without subtitles?",
            "what Japanese podcast fits my level?",
            "can I handle a Japanese-only cooking class next week?",
            "help me write a birthday message to my Japanese friend",
        ),
    ),
    (
        (
            "I can play four chords on the guitar, badly.",
            "Guitar-wise I know G, C, D and E minor, and my changes are slow.",
            "total beginner on guitar, a few chords",
            "I've had the guitar for a month. Four chords, lots of buzzing.",
            "My guitar playing: a few open chords, no barre chords yet.",
            "I'm just learning guitar, simple chords only.",
        ),
        (
            "By Christmas I'll be playing the Hotel California solo at the family party.",
            "Goal for this year: shred like Hendrix. Seriously.",
            "i'm going to be good enough to play in a band by spring",
            "I'm aiming to play fingerstyle classical pieces by the end of the year.",
            "Next year I'll be gigging at open mics, that's the plan.",
            "By the summer I want to play all of Led Zeppelin IV.",
        ),
        (
            "suggest songs I can play this weekend",
            "what should I practise on the guitar tonight?",
            "my friend wants to jam on Saturday, what can we play together?",
            "pick a song for me to play at my nephew's birthday next week",
            "which guitar book should I buy now?",
            "what should my guitar lesson focus on this week?",
        ),
    ),
    (
        (
            "I can barely cook, pasta with jar sauce is my limit.",
            "My cooking skills are close to zero, I burn toast.",
            "i'm a terrible cook, beans on toast level",
            "Kitchen skills: microwave, kettle, that's about it.",
            "I never learned to cook, I can just about boil an egg.",
            "Honestly, I can't cook. Frozen pizza is my signature dish.",
        ),
        (
            "This year I'm going to become a proper home chef, dinner parties every month.",
            "By summer I'll be cooking restaurant-level food, that's my resolution.",
            "goal: master french cooking this year. beef wellington by june",
            "I'm going to learn to cook properly and host fancy dinners, starting soon.",
            "My plan is to be a great cook by the end of the year.",
            "Resolution: I'll be making my own fresh pasta and sauces within months.",
        ),
        (
            "what should I make for my friends on Saturday?",
            "my in-laws are coming for dinner next week, what should I cook?",
            "suggest a dinner I can make tonight",
            "what dish should I bring to the potluck on Friday?",
            "plan a birthday dinner I can cook for my partner",
            "what can I cook for a date night at home?",
        ),
    ),
)


@template(
    "plan-vs-fact",
    "aiming-not-there",
    "A level the user is aiming at ('fluent in Japanese by next summer', 'the Hotel California "
    "solo by Christmas') is not the level they are at; before the target the current level is "
    "relevant and the aim forbidden.",
)
def aiming_not_there(s: Scenario) -> None:
    d = s.draw
    levels, aims, asks = d.any(AIMS)
    level_text, aim_text, ask = d.pick(levels), d.pick(aims), d.pick(asks)
    lead = d.pick(("", "anyway, ", "but ", "big news: ", "ok so ", "honestly, "))
    level, aim = _fact_and_other(s, level_text, aim_text, lead)
    s.nightly()
    at = s.day(d.between(28, 60), d.between(8, 20))
    s.recall(s.ask(ask, at, relevant=[level], forbidden=[aim]))
    s.notes.append(
        "The query comes a month or two after the aim was stated, long before its target: "
        "applying the aim would pitch the answer far above the user's level."
    )


# (the household as it is, a wish that belongs to someone else in it, questions)
OTHERS_WISHES: tuple[tuple[Sequence[str], Sequence[str], Sequence[str]], ...] = (
    (
        (
            "We live in a flat in the city centre, third floor, no garden.",
            "Home is a city-centre apartment, no outdoor space.",
            "we're in a small flat right in the middle of town",
            "Our place is a third-floor flat downtown.",
            "I live with my partner in a city apartment, no garden.",
            "We rent a flat in the centre, walking distance to everything.",
        ),
        (
            "My wife keeps talking about moving to the countryside and keeping chickens.",
            "My husband dreams of a cottage in the country with a veg patch.",
            "my partner is obsessed with the idea of a farmhouse somewhere remote",
            "She wants us to move out to a village one day, I'm not so sure.",
            "My other half is always browsing country houses online.",
            "He'd love to move somewhere rural eventually. Not my thing.",
        ),
        (
            "find a gym near where we live",
            "how should I get to the theatre on Friday from home?",
            "suggest a weekend activity near home",
            "what plants could I grow at home?",
            "is a cargo bike a good idea for our grocery runs?",
            "where can we go for a walk near home on Sunday?",
        ),
    ),
    (
        (
            "We have no pets, my son's allergic to fur.",
            "No animals in our house, allergies.",
            "pet-free household here, my boy sneezes at anything furry",
            "We don't have any pets.",
            "Zero pets at ours, the allergies make it impossible.",
            "There are no pets at home, never have been.",
        ),
        (
            "My daughter is desperate for a kitten, she made a whole presentation about it.",
            "The kids keep begging for a puppy, every single day.",
            "my daughter wants a hamster SO badly, she's saving her pocket money",
            "My son is campaigning hard for a dog, posters on the fridge and everything.",
            "The children have named a cat we don't even have.",
            "My youngest asks for a rabbit every night at bedtime.",
        ),
        (
            "we're going away for a week, what do I need to arrange at home?",
            "make me a checklist for leaving the house empty over Christmas",
            "we're renting a holiday cottage, should I filter for pet-friendly ones?",
            "we're hosting a guest with asthma, anything to prepare at home?",
            "plan the house-sitting instructions for our neighbour",
            "what should I budget each month for the household?",
        ),
    ),
    (
        (
            "We're a one-car family, a little Fiat Panda.",
            "Our only car is a tiny Fiat, seats four at a push.",
            "we just have the one car, a small fiat",
            "Car: a Fiat Panda, small boot, that's all we've got.",
            "We own one small car, a Panda.",
            "The family car is a little Fiat Panda.",
        ),
        (
            "My husband wants to buy a camper van next year and tour Europe.",
            "My wife's dream is a big seven-seater SUV, she keeps sending me links.",
            "my partner is set on getting a motorhome eventually",
            "He's been looking at pickup trucks, wants one for his woodwork.",
            "She wants to swap the car for a Tesla one day.",
            "My other half keeps talking about getting a van for camping trips.",
        ),
        (
            "will a double buggy fit in our car?",
            "where can I park near the concert hall on Saturday with our car?",
            "how much will fuel cost for our drive to the coast?",
            "can we fit a week's camping gear in our car?",
            "which roof box should I get for our car?",
            "what child car seat fits our car?",
        ),
    ),
)


@template(
    "plan-vs-fact",
    "partners-wish",
    "A wish that belongs to someone else in the household ('my wife keeps talking about moving "
    "to the countryside', 'the kids keep begging for a puppy') is neither the user's plan nor "
    "the present state; the household fact is relevant, the wish forbidden.",
)
def partners_wish(s: Scenario) -> None:
    d = s.draw
    facts, wishes, asks = d.any(OTHERS_WISHES)
    fact_text, wish_text, ask = d.pick(facts), d.pick(wishes), d.pick(asks)
    lead = d.pick(("", "lol ", "meanwhile, ", "ugh, ", "and of course ", "fun fact: "))
    fact, wish = _fact_and_other(s, fact_text, wish_text, lead)
    s.nightly()
    at = s.day(d.between(30, 80), d.between(8, 20))
    s.recall(s.ask(ask, at, relevant=[fact], forbidden=[wish]))
