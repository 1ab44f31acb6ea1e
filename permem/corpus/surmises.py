"""What is only believed, in the third wave: belief-vs-fact templates (a folk belief the user
gives up once corrected, a hedged guess about the user's own things replaced by a checked
value, a taste stated as an objective fact).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from permem.corpus import pools
from permem.corpus.templates import MONTHS, Conversation, Scenario, ordinal, template

ACKS = ("Noted.", "Okay.", "Got it.", "Fair enough.", "I'll keep that in mind.")
SMALL_TALK = (
    ("what's the time difference between London and New York?", "Usually five hours."),
    ("how many minutes in a day?", "1,440."),
    ("spell 'necessary' for me", "N-E-C-E-S-S-A-R-Y."),
    ("which planet is closest to the sun?", "Mercury."),
    ("what's a baby kangaroo called?", "A joey."),
    ("is it 'fewer' or 'less' people?", "'Fewer' people."),
)


def _chatter(s: Scenario, c: Conversation) -> None:
    if s.draw.chance(0.45):
        said, reply = s.draw.any(SMALL_TALK)
        c.user(said)
        c.assistant(reply)


def _cap(text: str) -> str:
    return text[0].upper() + text[1:]


def _fill(frame: str, **parts: str) -> str:
    """`{x}` and, at a sentence start, `{X}` filled with each part."""
    for key, value in parts.items():
        frame = frame.replace("{" + key.upper() + "}", _cap(value)).replace("{" + key + "}", value)
    return frame


# (the belief, the rule the user draws from it, the assistant's correction, questions about the
# user's own routine, factual questions)
FOLK: tuple[tuple[str, str, str, Sequence[str], Sequence[str]], ...] = (
    (
        "a car has to idle for ten minutes to warm up in the cold",
        "so add a warm-up to my winter mornings",
        "Modern engines only need about thirty seconds; driving gently warms them faster.",
        (
            "what time should I leave on frosty mornings for my 8:30 start?",
            "plan my winter morning routine",
            "how early do I need to get up on icy days?",
            "build my morning schedule for this cold week",
            "what should I do before driving to work when it's freezing?",
            "adjust my morning alarm for the cold snap",
        ),
        (
            "do modern cars need to idle before driving in winter?",
            "how long should an engine warm up?",
        ),
    ),
    (
        "you have to wait an hour after eating before you swim or you'll cramp",
        "so keep my swims well away from meals",
        "That one's a myth: there's no evidence a meal before swimming causes dangerous cramps.",
        (
            "plan my beach day on Saturday",
            "when should I swim at the lido on Sunday? we're having a picnic",
            "schedule my pool sessions around lunch this week",
            "plan a day at the lake with lunch and a swim",
            "what's the best order for lunch and a swim on holiday?",
            "fit a swim into my Sunday, brunch is at 11",
        ),
        ("do you need to wait after eating before swimming?", "can a full stomach cause cramps?"),
    ),
    (
        "phone batteries last longer if you run them down to zero before charging",
        "so never remind me to charge until it's dead",
        "For lithium-ion batteries it's the other way round: frequent top-ups are gentler.",
        (
            "set up charging reminders for my phone",
            "when should I charge my phone during the festival weekend?",
            "how should I manage my phone battery on the long-haul flight?",
            "plan my phone charging for the hiking trip",
            "should my phone charge at my desk today?",
            "remind me about my phone battery during the day",
        ),
        (
            "should you drain a lithium battery fully before charging?",
            "do phone batteries have a memory effect?",
        ),
    ),
    (
        "switching lights on and off uses more power than leaving them on",
        "so set my smart lights to stay on all evening",
        "With LEDs, switching off always saves energy; the surge at switch-on is negligible.",
        (
            "set up my smart lights for the evening",
            "how should my lights be scheduled when I'm out?",
            "tweak the lighting automations to save money",
            "what should the hallway lights do at night?",
            "make a lighting schedule for the weekend",
            "review my smart home lighting routine",
        ),
        (
            "does turning lights on and off use more electricity?",
            "do LED bulbs surge at switch-on?",
        ),
    ),
)
FOLK_FRAMES = (
    "{B}, {r}.",
    "Everyone knows {b}, {r}.",
    "I'm convinced {b}. {R}.",
    "my dad taught me {b}, {r} pls",
    "Fact: {b}. {R}.",
    "I've always gone by the rule that {b}, {r}.",
)
CONCEDED = (
    "huh, I didn't know that. ok, scrap that rule then",
    "Oh! Fair enough, forget what I said about it.",
    "Okay, you've convinced me, don't plan around that.",
    "really? TIL. ignore my rule then",
    "Fine, I stand corrected. Drop that from my plans.",
    "Hm, I looked it up and you're right. Never mind the rule.",
)


@template(
    "belief-vs-fact",
    "belief-conceded",
    "A folk belief with a rule drawn from it ('a car has to idle ten minutes in the cold, so "
    "add a warm-up'), corrected by the assistant and given up by the user ('huh, scrap that "
    "rule'); neither the user's own routine nor the factual question gets it: forbidden, "
    "and nothing else applies.",
)
def belief_conceded(s: Scenario) -> None:
    d = s.draw
    belief, rule, correction, routines, factuals = d.any(FOLK)
    frame, concession, routine = d.pick(FOLK_FRAMES), d.pick(CONCEDED), d.pick(routines)
    c = s.chat(s.day(0, d.between(8, 22)))
    _chatter(s, c)
    said = c.user(_fill(frame, b=belief, r=rule))
    c.assistant(correction)
    if d.chance(0.3):
        c.user(d.any(("wait, seriously?", "are you sure?", "since when?")))
        c.assistant(d.any(("Yes, it's well documented.", "Quite sure, yes.")))
    c.user(concession)
    c.assistant(d.any(("Done, I've dropped it.", "Okay, it's gone from your plans.")))
    s.nightly()
    s.notes.append("The user gave the belief up: nothing about them applies to either question.")
    early, late = s.day(d.between(4, 20), 8), s.day(d.between(21, 35), 15)
    own_at, fact_at = (early, late) if d.chance() else (late, early)
    own = s.ask(routine, own_at, forbidden=[said], expect_empty=True)
    fact = s.ask(d.any(factuals), fact_at, forbidden=[said], expect_empty=True)
    s.recall(*((own, fact) if own_at < fact_at else (fact, own)))


# (the guess, the checked value, questions); {far} a year, {soon} a date, {city}, {month}
GUESSES: tuple[tuple[str, str, Sequence[str]], ...] = (
    (
        "my passport is good until {far}",
        "my passport expires on {soon}",
        (
            "do I need to renew my passport before the {city} trip in {month}?",
            "is my passport okay for travelling to {city} in {month}?",
            "what documents do I need sorted for {city} in {month}?",
            "make me a to-do list for the {city} trip in {month}",
            "can I book flights to {city} for {month} with my current passport?",
            "anything admin I should do before flying to {city} in {month}?",
        ),
    ),
    (
        "the car takes 16-inch tyres",
        "the tyres are 205/55 R17, so 17-inch",
        (
            "order winter tyres for my car",
            "find me a good deal on new tyres",
            "which snow chains fit my car?",
            "get a quote for replacing all four tyres",
            "what tyre size should I tell the garage?",
            "compare summer tyres for my car",
        ),
    ),
    (
        "my ring size is an N",
        "my ring size is a P, measured at the jeweller's",
        (
            "order the engraved ring in my size",
            "which size should I pick for the silver band?",
            "find me a ring in my size for under 100",
            "get me a signet ring, right size please",
            "what size do I give for the wedding band order?",
            "find a stacking ring set in my size",
        ),
    ),
    (
        "the flat is about 50 square metres",
        "the flat is 72 square metres according to the floor plan",
        (
            "what size dehumidifier do I need for my flat?",
            "how much floor varnish for the whole flat?",
            "estimate my heating costs for the flat",
            "which robot vacuum can cover my whole flat on one charge?",
            "is a 9000 BTU air conditioner enough for my place?",
            "how many rugs would I need to cover about half the flat?",
        ),
    ),
)
HEDGES = (
    "I think {h}, not 100% sure though.",
    "pretty sure {h}? don't quote me",
    "If I remember right, {h}.",
    "I believe {h}, but I'd have to check.",
    "{H}, I think. Could be wrong.",
    "Off the top of my head, {h}.",
)
CHECKED = (
    "Checked properly: {c}.",
    "Just looked, {c}, so ignore my guess.",
    "ok found it, {c}",
    "I was wrong earlier: {c}.",
    "Update after checking: {c}.",
    "Went and looked, and {c}.",
)


@template(
    "belief-vs-fact",
    "guess-then-checked",
    "A hedged guess about the user's own things ('I think my passport is good until 2029') is "
    "replaced by a checked value ('just looked, it expires on May 14th'); the checked value is "
    "relevant, the guess forbidden.",
)
def guess_then_checked(s: Scenario) -> None:
    d = s.draw
    guess, value, asks = d.any(GUESSES)
    hedge, check, ask = d.pick(HEDGES), d.pick(CHECKED), d.pick(asks)
    checked_at = s.day(d.between(3, 25), d.between(8, 22))
    asked_at = checked_at + timedelta(days=d.between(5, 15), hours=d.between(1, 6))
    expiry = asked_at.date() + timedelta(days=d.between(25, 50))
    trip = expiry + timedelta(days=d.between(30, 60))
    month = MONTHS[expiry.month - 1]
    soon = d.pick(
        (
            f"{month} {ordinal(expiry.day)}",
            f"the {ordinal(expiry.day)} of {month} {expiry.year}",
            expiry.isoformat(),
            f"{expiry.day} {month[:3]} {expiry.year}",
            f"{month} {expiry.day}, {expiry.year}",
            f"{expiry.day:02d}.{expiry.month:02d}.{expiry.year}",
        )
    )
    values = {
        "far": str(s.start.year + d.between(3, 5)),
        "soon": soon,
        "city": d.any(pools.CITIES),
        "month": MONTHS[trip.month - 1],
    }
    c1 = s.chat(s.day(0, d.between(8, 22)))
    _chatter(s, c1)
    old = c1.user(_fill(hedge, h=guess.format(**values)))
    c1.assistant(d.any(ACKS))
    c2 = s.chat(checked_at)
    _chatter(s, c2)
    new = c2.user(_fill(check, c=value.format(**values)))
    c2.assistant(d.any(("Thanks for checking.", "Good to have the real figure.", *ACKS)))
    s.nightly()
    s.recall(s.ask(ask.format(**values), asked_at, relevant=[new], forbidden=[old]))


# (a taste stated as a fact, questions about the user's own choices, factual questions)
TASTES: tuple[tuple[str, Sequence[str], Sequence[str]], ...] = (
    (
        "vinyl simply sounds better than streaming",
        (
            "set up a music corner in my living room",
            "what should I buy for my music setup with 300?",
            "how should I listen to the new album that's out on Friday?",
            "gift ideas for myself, music-related",
            "plan a Sunday afternoon of music at home for me",
            "where should I put my money for better sound at home?",
        ),
        ("does vinyl have better sound quality than CD?", "what's the dynamic range of vinyl?"),
    ),
    (
        "the Oxford comma is correct English, full stop",
        (
            "proofread my cover letter",
            "tidy up the punctuation in my blog post",
            "edit my newsletter intro",
            "check the commas in my wedding speech",
            "clean up this paragraph of my essay",
            "polish my LinkedIn summary",
        ),
        ("is the Oxford comma grammatically required?", "does AP style use the Oxford comma?"),
    ),
    (
        "film photos look better than digital ones",
        (
            "recommend a camera for my trip",
            "what should I take photos with at my cousin's wedding?",
            "suggest a photography project for my weekends",
            "what gear should I pack for photographing the coast?",
            "help me pick a camera under 500",
            "how should I shoot the autumn colours in the park?",
        ),
        ("is film higher resolution than a modern digital sensor?", "how does film grain work?"),
    ),
    (
        "tabs are the right way to indent code",
        (
            "set up my editor config for a new project",
            "format this JavaScript snippet for me",
            "write me a .editorconfig for my repo",
            "what indentation should my new side project use?",
            "tidy up the indentation in my script",
            "configure the formatter in my personal project",
        ),
        ("what does PEP 8 say about tabs and spaces?", "do tabs or spaces make code run faster?"),
    ),
)
TASTE_FRAMES = (
    "It's a fact that {t}.",
    "{T}, objectively. Not up for debate.",
    "Science backs me on this: {t}.",
    "everyone knows {t}, fight me",
    "Let's be clear, {t}, and I'll die on that hill.",
    "{T}. That's not an opinion, it's the truth.",
)


@template(
    "belief-vs-fact",
    "taste-as-fact",
    "A taste stated as an objective fact ('it's a fact that vinyl sounds better') is a "
    "preference for the user's own choices (relevant) and no evidence for the factual "
    "question on it (forbidden, nothing else applies).",
)
def taste_as_fact(s: Scenario) -> None:
    d = s.draw
    taste, choices, factuals = d.any(TASTES)
    frame, choice = d.pick(TASTE_FRAMES), d.pick(choices)
    c = s.chat(s.day(0, d.between(9, 23)))
    _chatter(s, c)
    said = c.user(_fill(frame, t=taste))
    c.assistant(d.any(("Ha, strong opinion!", "Noted, I'll keep it in mind.", *ACKS)))
    s.nightly()
    early, late = s.day(d.between(3, 20), 19), s.day(d.between(21, 40), 11)
    own_at, fact_at = (early, late) if d.chance() else (late, early)
    own = s.ask(choice, own_at, relevant=[said])
    fact = s.ask(d.any(factuals), fact_at, forbidden=[said], expect_empty=True)
    s.recall(*((own, fact) if own_at < fact_at else (fact, own)))
