"""What is only believed: belief-vs-fact templates (a belief about the world, a belief about
what works for the user, a belief given as the reason for a preference).
"""

from __future__ import annotations

from collections.abc import Sequence

from permem.corpus.exceptions import ACKS, _chatter
from permem.corpus.templates import Scenario, template

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
