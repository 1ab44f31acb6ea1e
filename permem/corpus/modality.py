"""What kind of statement it was: plan-vs-fact, belief-vs-fact and hallucinated-recap templates."""

from __future__ import annotations

from permem.corpus import pools
from permem.corpus.templates import MONTHS, Scenario, first_of_month, template


@template(
    "plan-vs-fact",
    "considering",
    "A tentative plan ('thinking about going vegan, maybe') "
    "is not a fact; the user's actual diet is relevant, the plan forbidden.",
)
def considering(s: Scenario) -> None:
    d = s.draw
    fact = s.chat(s.day(0, 19)).user(
        d.pick(
            (
                "I eat pretty much everything, chicken most nights.",
                "Omnivore here, love a roast chicken.",
            )
        )
    )
    plan = s.chat(s.day(d.between(3, 20), 22)).user(
        d.pick(
            (
                "Thinking about going vegan in the new year, maybe. Not sure I could do it though.",
                "I might try going vegan at some point? No idea if I'd stick with it.",
                "Considering a vegan month, haven't decided anything.",
                "My sister wants me to go vegan with her, I said I'd think about it.",
            )
        )
    )
    ask = d.pick(("plan my dinners for next week", "what should I cook tonight?"))
    s.nightly()
    s.recall(s.ask(ask, s.day(40, 17), relevant=[fact], forbidden=[plan]))


@template(
    "plan-vs-fact",
    "fell-through",
    "A move that was planned but fell through ('that fell "
    "through, not happening anymore') is not where the user lives.",
)
def fell_through(s: Scenario) -> None:
    d = s.draw
    home, dream = d.rng.sample(pools.CITIES, 2)
    here = s.chat(s.day(0, 10)).user(d.pick((f"I live in {home}.", f"We're in {home}, east side.")))
    c = s.chat(s.day(d.between(10, 40), 20))
    looked = d.pick(
        (
            f"We looked at moving to {dream} last year.",
            f"We were all set to relocate to {dream}.",
            f"There was a plan to move to {dream} for my partner's job.",
        )
    )
    dropped = d.pick(
        (
            "That fell through though, not happening anymore.",
            "It didn't work out, we're staying put.",
            "Then the job offer got pulled, so that's off.",
        )
    )
    ids = c.tell(looked, dropped, acks=("Oh, sorry to hear.",))
    ask = d.pick(
        ("find a gym near me", "recommend a plumber nearby", "what's on locally this weekend?")
    )
    s.nightly()
    s.recall(s.ask(ask, s.day(70, 12), relevant=[here], forbidden=ids))


@template(
    "plan-vs-fact",
    "hypothetical",
    "An 'if I ever...' or 'if I had the money...' sentence is "
    "not a preference to apply; the stated habit is.",
)
def hypothetical(s: Scenario) -> None:
    d = s.draw
    habit, wish, ask = d.any(
        (
            (
                (
                    "I always book the cheapest economy fare.",
                    "Cheapest seat on the plane, every time.",
                ),
                (
                    "If I had the money I'd fly business everywhere.",
                    "If I ever won the lottery, first class all the way.",
                ),
                "book my flight to the wedding in June",
            ),
            (
                ("We have a small flat, no garden.", "It's a tiny apartment, no outdoor space."),
                (
                    "If we ever got a house I'd want a huge dog, like a Newfoundland.",
                    "If I had a garden I'd get chickens.",
                ),
                "suggest a weekend project at home",
            ),
        )
    )
    fact = s.chat(s.day(0, 9)).user(d.pick(habit))
    dream = s.chat(s.day(d.between(2, 15), 22)).user(d.pick(wish))
    s.nightly()
    s.recall(s.ask(ask, s.day(30, 9), relevant=[fact], forbidden=[dream]))


@template(
    "plan-vs-fact",
    "planned-not-yet",
    "'Planning to quit in <month>' said earlier: before "
    "that month the user still has the job, and the plan is not applied as a fact.",
)
def planned_not_yet(s: Scenario) -> None:
    d = s.draw
    job = s.chat(s.day(0, 8)).user(
        d.pick(
            (
                "I'm a paramedic, twelve-hour shifts, three days on.",
                "I work as a sous-chef, evenings and weekends.",
            )
        )
    )
    month = first_of_month(s.day(0, 0), d.between(4, 5))
    plan = s.chat(s.day(8, 22)).user(
        d.pick(
            (
                f"Planning to quit in {MONTHS[month.month - 1]} and go back to uni.",
                f"I'm hoping to hand in my notice around {MONTHS[month.month - 1]}.",
                f"Might leave the job by {MONTHS[month.month - 1]} if the savings work out.",
            )
        )
    )
    s.nightly()
    ask = d.pick(("help me plan my week around work", "when can I fit in a dentist visit?"))
    s.recall(s.ask(ask, s.day(30, 9), relevant=[job], forbidden=[plan]))


BELIEFS = (
    (
        "I'm convinced cracking your knuckles gives you arthritis.",
        "does cracking your knuckles cause arthritis?",
        None,
    ),
    (
        "I believe we only use ten percent of our brains, always have.",
        "how much of the brain do people actually use?",
        None,
    ),
    (
        "I'm pretty sure organic food is more nutritious, so I buy organic whenever I can.",
        "is organic food more nutritious than conventional food?",
        "make me a grocery list for the week",
    ),
    (
        "I think vaccines overload kids' immune systems, that's my view.",
        "do vaccines overload children's immune systems?",
        None,
    ),
    (
        "Honestly I believe microwaving food destroys all the nutrients, so I steam everything.",
        "does microwaving destroy nutrients in vegetables?",
        "how should I cook the broccoli for dinner?",
    ),
    (
        "I've always thought sugar makes kids hyper, so no sweets at parties for mine.",
        "does sugar make children hyperactive?",
        "plan snacks for my son's birthday party",
    ),
)


@template(
    "belief-vs-fact",
    "belief-and-factual-question",
    "A stated belief is never used for a "
    "factual question on its topic; a style preference is relevant there.",
)
def belief_and_factual_question(s: Scenario) -> None:
    d = s.draw
    belief, factual, _choice = d.any(BELIEFS)
    style = s.chat(s.day(0, 20)).user(
        d.pick(
            (
                "Explain things with an everyday analogy, it helps me remember.",
                "I like answers with one concrete example at the end.",
                "Please give me the short version first, then the details.",
            )
        )
    )
    said = s.chat(s.day(d.between(1, 10), 21)).user(belief)
    s.nightly()
    s.recall(s.ask(factual, s.day(20, 20), relevant=[style], forbidden=[said]))


@template(
    "belief-vs-fact",
    "belief-guides-own-choice",
    "A belief is usable for a question about "
    "the user's own choices, and forbidden for the factual question on the same topic.",
)
def belief_guides_own_choice(s: Scenario) -> None:
    d = s.draw
    belief, factual, choice = d.any([b for b in BELIEFS if b[2] is not None])
    assert choice is not None
    said = s.chat(s.day(0, 18)).user(belief)
    s.nightly()
    s.recall(
        s.ask(choice, s.day(12, 18), relevant=[said]),
        s.ask(factual, s.day(12, 19), forbidden=[said]),
    )


@template(
    "hallucinated-recap",
    "assistant-assumes",
    "The assistant states something the user "
    "never said ('since you're vegan...'); the assistant turn is never memory.",
)
def assistant_assumes(s: Scenario) -> None:
    d = s.draw
    real, invented, ask = d.any(
        (
            (
                "I love a proper curry, the hotter the better.",
                "Since you're vegan and avoid spice, here's a mild lentil soup!",
                "dinner idea for tonight",
            ),
            (
                "I play tennis on Saturdays.",
                "As a keen marathon runner, you'll want a long run on Sunday.",
                "plan my weekend workouts",
            ),
            (
                "I'm a morning person, up at 5.",
                "Given that you work nights, I'll suggest afternoon slots.",
                "when should I schedule the gym?",
            ),
        )
    )
    own = s.chat(s.day(0, 8)).user(real)
    c = s.chat(s.day(d.between(3, 15), 12))
    c.user(d.pick(("any ideas?", "what do you suggest?", "help me out here")))
    made_up = c.assistant(invented)
    reply = d.pick(("hm ok", "thanks", None))
    if reply:
        c.user(reply)
    s.nightly()
    s.recall(s.ask(ask, s.day(30, 12), relevant=[own], forbidden=[made_up]))


@template(
    "hallucinated-recap",
    "wrong-summary",
    "An assistant recap misstates the user's "
    "preference; the user's own words are relevant, the recap is forbidden.",
)
def wrong_summary(s: Scenario) -> None:
    d = s.draw
    c = s.chat(s.day(0, 19))
    own = c.user(
        d.pick(
            (
                "Evening flights suit me, I never fly before noon.",
                "I hate early flights, afternoon or evening departures only.",
            )
        )
    )
    c.assistant("Okay.")
    other = c.user(
        d.pick(("And I always check a bag.", "I travel with a big suitcase, always checked."))
    )
    recap = c.assistant(
        d.pick(
            (
                "To recap: you prefer early-morning flights and travel with hand luggage only.",
                "Summary so far: first flight of the day, carry-on only.",
            )
        )
    )
    s.nightly()
    s.recall(
        s.ask(
            d.pick(("book my flight to Lisbon next month", "find me a flight home for Easter")),
            s.day(20, 10),
            relevant=[own, other],
            forbidden=[recap],
        )
    )


@template(
    "hallucinated-recap",
    "mixed-up-person",
    "The assistant attributes a relative's trait to "
    "the user, who says it's the relative's; neither turn is the user's memory.",
)
def mixed_up_person(s: Scenario) -> None:
    d = s.draw
    own = s.chat(s.day(0, 9)).user(
        d.pick(
            (
                "I snack on nuts all day, almonds mostly.",
                "Trail mix is my go-to snack, lots of peanuts.",
            )
        )
    )
    c = s.chat(s.day(d.between(5, 20), 16))
    c.user(d.pick(("what should I pack for the picnic?", "snacks for the road trip?")))
    wrong = c.assistant(
        d.pick(
            (
                "Since you have a nut allergy, here are nut-free options!",
                "Because of your nut allergy, skip the trail mix.",
            )
        )
    )
    rel = d.any(("son", "daughter", "brother", "flatmate"))
    theirs = c.user(
        d.pick(
            (
                f"no, that's my {rel} with the nut allergy, not me",
                f"you're thinking of my {rel}, the allergy is theirs",
            )
        )
    )
    s.nightly()
    s.recall(
        s.ask(
            d.pick(("snack ideas for my hike", "what should I pack to nibble at work?")),
            s.day(30, 10),
            relevant=[own],
            forbidden=[wrong, theirs],
        )
    )
