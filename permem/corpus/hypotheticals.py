"""Said but not so: hypotheticals beside the fact (plan-vs-fact)."""

from __future__ import annotations

from permem.corpus.templates import Scenario, template

ACKS = ("Got it.", "Noted.", "Okay!", "Sounds good.", "Understood.")


# (the fact, hypotheticals, queries)
HYPOTHETICALS = (
    (
        (
            "I don't have a car, I get around by bike and tram.",
            "Car-free life: bike to work, tram for everything else.",
            "No car here, it's bike or tram.",
            "I bike everywhere, I've never owned a car.",
        ),
        (
            "If I ever get a car it'd be a big SUV so I can take the kayak out.",
            "If I had a car I'd drive to the coast every weekend.",
            "Hypothetically, if I bought a car, where would I even park it on my street?",
            "Supposing I got a car one day, would an estate fit a bike in the back?",
        ),
        (
            "how should I get to the hardware store on Saturday, bike or tram?",
            "plan my trip across town to the garden centre, car or bike?",
            "best way to get to the airport on Friday, tram or car?",
            "how do I get a new mattress home, bike trailer, tram or car?",
        ),
    ),
    (
        (
            "It's just me and my husband, no kids.",
            "We're a couple, no kids, just the two of us.",
            "No kids here, it's me and my husband.",
            "Two of us at home, me and my husband, no children.",
        ),
        (
            "If we ever have kids I want them to grow up bilingual.",
            "If I had children I'd never let them near a phone before 14.",
            "What would a family holiday even look like if we had kids?",
            "If we ever had a baby we'd need a much bigger place.",
        ),
        (
            "plan a weekend getaway for me and my husband",
            "suggest a holiday for me and my husband in the spring",
            "find a restaurant for me and my husband on Saturday",
            "what should me and my husband do this bank holiday?",
        ),
    ),
    (
        (
            "I swim laps at the indoor pool on Tuesdays and Thursdays.",
            "Pool swim twice a week, Tuesday and Thursday evenings.",
            "My swim is at the leisure centre pool, twice a week.",
            "I swim indoors at the local pool, two sessions a week.",
        ),
        (
            "If I lived by the sea I'd swim in the ocean every morning.",
            "If I ever move to the coast, it's wild swimming every day for me.",
            "Imagine if I had a lake nearby, I'd swim outside all summer.",
            "If I were braver I'd swim the Channel one day.",
        ),
        (
            "plan my swim sessions for this week",
            "how should I structure my swim this week?",
            "what should I work on in my next swim?",
            "write me a swim workout for Thursday",
        ),
    ),
    (
        (
            "Breakfast is porridge with banana, every single day.",
            "Every morning, breakfast is porridge and a banana.",
            "I have porridge for breakfast, always.",
            "My breakfast never changes: oats, banana, honey.",
        ),
        (
            "If I went keto, what would breakfast even look like?",
            "If I cut out carbs I'd probably have eggs for breakfast.",
            "Would I survive breakfast without oats if I ever tried low-carb?",
            "If I were a morning person I'd cook a full breakfast every day.",
        ),
        (
            "what should I have for breakfast tomorrow?",
            "plan my breakfasts for the week",
            "breakfast shopping list, please",
            "something new for breakfast this weekend?",
        ),
    ),
    (
        (
            "I do all the cleaning myself on Sunday mornings.",
            "Sunday morning is cleaning time, I do it all myself.",
            "I clean the whole flat myself every Sunday morning.",
            "Cleaning happens on Sunday mornings, just me and a mop.",
        ),
        (
            "If I had more money I'd get a cleaner every week.",
            "If I won the lottery, the first thing I'd do is hire a cleaner.",
            "If I could afford it, I'd pay someone to do the cleaning and sleep in on Sundays.",
            "In a parallel universe where I'm rich, I never clean anything.",
        ),
        (
            "plan my Sunday morning",
            "help me plan my Sunday, morning included",
            "what should I do this Sunday morning?",
            "make a to-do list for Sunday morning",
        ),
    ),
)


@template(
    "plan-vs-fact",
    "if-and-would",
    "A hypothetical ('if I ever get a car', 'if we had kids', 'what "
    "would breakfast look like if I went keto?') states nothing about the user; the plain fact "
    "on the topic is relevant, the hypothetical forbidden.",
)
def if_and_would(s: Scenario) -> None:
    d = s.draw
    facts, hypotheticals, asks = d.any(HYPOTHETICALS)
    fact_text, dream_text = d.pick(facts), d.pick(hypotheticals)
    lead = d.pick(("", "random thought: ", "anyway, ", "lol ", "just daydreaming, "))
    if lead:
        dream_text = lead + dream_text[0].lower() + dream_text[1:]
    musing = ("Ha, fun thought.", "Nice dream!", "Fun to imagine!", "Who knows!")
    if d.chance():
        c = s.chat(s.day(0, d.between(8, 21)))
        fact = c.user(fact_text)
        c.assistant(d.pick(ACKS))
        dream = c.user(dream_text)
        c.assistant(d.pick(musing))
    else:
        c = s.chat(s.day(0, d.between(19, 23)))
        dream = c.user(dream_text)
        c.assistant(d.pick(musing))
        c = s.chat(s.day(d.between(2, 20), d.between(8, 18)))
        fact = c.user(fact_text)
        c.assistant(d.pick(ACKS))
    s.nightly()
    at = s.day(d.between(25, 70), d.between(8, 19))
    s.recall(s.ask(d.pick(asks), at, relevant=[fact], forbidden=[dream]))
