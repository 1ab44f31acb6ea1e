"""What the user takes back: correction templates whose old and new claims share few words,
and several claims replaced at once (fixes of the message just sent are in `slips`;
withdrawals and one-detail corrections in `withdrawals`).
"""

from __future__ import annotations

from collections.abc import Sequence

from permem.corpus.templates import Conversation, Scenario, nightlies, staged, template

SMALL_TALK = (
    ("what's a word that means 'very tired' but sounds nicer?", "Weary, or maybe drowsy."),
    ("how many teaspoons are in a tablespoon?", "Three teaspoons make a tablespoon."),
    ("is it 'affect' or 'effect' in 'it had no ___ on me'?", "'Effect': it's the noun there."),
    ("tell me a fun fact about octopuses", "Octopuses have three hearts!"),
    ("what year did the Berlin Wall come down?", "It fell in November 1989."),
    ("how do you say 'see you soon' in Italian?", "'A presto!'"),
)
ACKS = ("Got it.", "Okay, noted.", "Thanks for letting me know.", "Understood.", "Sure thing.")


def _chatter(s: Scenario, c: Conversation) -> None:
    """Small talk with no claim in it, sometimes."""
    if s.draw.chance(0.5):
        question, answer = s.draw.any(SMALL_TALK)
        c.user(question)
        c.assistant(answer)


# (old wordings, new wordings that share few words with the old, questions)
REWORDED: tuple[tuple[Sequence[str], Sequence[str], Sequence[str]], ...] = (
    (
        (
            "I work from home on Fridays.",
            "Fridays are my WFH day, laptop at the kitchen table.",
            "Friday is my remote day, no commute.",
            "I'm home-based every Friday, the other days vary.",
        ),
        (
            "I'm back in the office every day now, management scrapped hybrid.",
            "My company ended remote work, so it's five days on site from now on.",
            "No more home days, I'm at the downtown office Monday to Friday.",
            "Full-time at the office again since the reorg.",
        ),
        (
            "plan my Friday around work",
            "what should I wear to work on Friday?",
            "how long will it take me to get to the office on Friday morning?",
            "book me a haircut on Friday that fits around work",
        ),
    ),
    (
        (
            "I play bass in a pub band, gigs most weekends.",
            "Our covers band plays every Saturday, I'm on bass.",
            "Bass player here, five-string, mostly funk.",
            "I gig with a covers band on bass guitar.",
        ),
        (
            "The band split up, these days I just make electronic music on my laptop.",
            "No more gigs, I produce music at home with a little MIDI keyboard now.",
            "Sold the amp. My music is all in Ableton now.",
            "I'm done with live playing, my music is bedroom synth stuff these days.",
        ),
        (
            "suggest some gear for my music setup",
            "what should I spend 300 on for my music?",
            "recommend an online course to level up my music",
            "gift ideas I could put on my wishlist for my music hobby",
        ),
    ),
    (
        (
            "I'm doing keto, basically zero carbs.",
            "No bread, no rice, no pasta for me, strict low-carb.",
            "Keto for me, keep recipes under 20g of carbs.",
            "I cut out carbs entirely, it's meat and veg for me.",
        ),
        (
            "The doctor told me to eat normally again, so whole grains are back in my meals.",
            "Rice and pasta are back in my meals, that diet made me miserable.",
            "Gave up the keto thing, normal meals for me now, potatoes included.",
            "I'm back to ordinary meals, bread and all, I couldn't stick with it.",
        ),
        (
            "plan my meals for next week",
            "suggest meals for my lunchbox this week",
            "what meals should I batch cook on Sunday?",
            "healthy meals for a busy week?",
        ),
    ),
    (
        (
            "I live alone, so recipes for one please.",
            "It's just me at home, single portions.",
            "Cooking for one here, no leftovers please.",
            "Solo household, I never need more than one serving.",
        ),
        (
            "My girlfriend moved in last month, so I'm cooking for two now.",
            "There are two of us at home since my partner moved in, double the portions.",
            "Heads up, my boyfriend lives with me now, we eat together every night.",
            "We're a two-person household now, so dinner is for two.",
        ),
        (
            "give me a lasagne recipe for dinner at home",
            "how much pasta should I cook for dinner tonight?",
            "plan a shopping list for this week's dinners at home",
            "suggest a stew I can cook on Sunday",
        ),
    ),
)


@template(
    "correction",
    "reworded-replacement",
    "A later statement replaces an earlier one on the same topic in different words (WFH "
    "Fridays, then 'back in the office every day'); the new one is relevant, the old forbidden.",
)
def reworded_replacement(s: Scenario) -> None:
    d = s.draw
    olds, news, asks = d.any(REWORDED)
    c = s.chat(s.day(0, d.between(8, 20)))
    _chatter(s, c)
    old = c.user(d.pick(olds))
    c.assistant(d.any(ACKS))
    later = staged(s)
    if d.chance(0.5):
        _chatter(s, s.chat(s.day(d.between(3, 9), 13), **later))
    c2 = s.chat(s.day(d.between(12, 50), d.between(9, 21)), **later)
    if d.chance(0.4):
        _chatter(s, c2)
    new = c2.user(d.pick(news))
    c2.assistant(d.any(ACKS))
    nightlies(s, later)
    s.recall(s.ask(d.pick(asks), s.day(d.between(60, 80), 9), relevant=[new], forbidden=[old]))


# (first old claim, second old claim, the one new claim, questions)
MANY_TO_ONE: tuple[tuple[Sequence[str], Sequence[str], Sequence[str], Sequence[str]], ...] = (
    (
        (
            "Tuesday nights I do spin class at the gym.",
            "I've got spin on Tuesdays after work.",
            "Spin class every Tuesday, 7pm, never miss it.",
            "Tuesdays are spin nights for me.",
        ),
        (
            "Saturday mornings are for my long run, 15k or so.",
            "I run a long 15k every Saturday morning.",
            "Long run on Saturdays, usually along the river.",
            "Weekends start with a long Saturday run for me.",
        ),
        (
            "Knee surgery changed everything: swimming only for my workouts from now on, "
            "no running, no spin.",
            "The surgeon banned running and cycling for good, so my workouts are pool only now.",
            "My workouts are just swimming these days, the knee can't take the rest.",
            "New normal after the knee op: all my workouts are laps in the pool.",
        ),
        (
            "plan my workouts for next week",
            "put my workouts into the calendar for the week",
            "how should I structure my workouts this month?",
            "suggest a weekly plan for my workouts",
        ),
    ),
    (
        (
            "Double espresso first thing, every single day.",
            "I start every morning with two espressos.",
            "Morning coffee is non-negotiable, a double espresso.",
            "I'm useless before my double espresso.",
        ),
        (
            "I always grab a flat white after lunch too.",
            "Flat white at 2pm, that's my afternoon ritual.",
            "There's always an afternoon flat white in my day.",
            "After lunch it's a flat white from the cart downstairs.",
        ),
        (
            "I've quit caffeine completely, the only drink I have now is herbal tea.",
            "No caffeine for me anymore, doctor's orders, I drink rooibos instead.",
            "Caffeine's out of my life. Herbal tea is my drink now, morning and afternoon.",
            "I gave up coffee entirely, so only caffeine-free drinks for me.",
        ),
        (
            "suggest a drink for my afternoon slump",
            "what drink should I pick up on my way in tomorrow morning?",
            "pick a drink for me at the cafe this afternoon",
            "add my usual drink to the office order",
        ),
    ),
    (
        (
            "We have Netflix, mostly for the kids.",
            "Netflix is our main thing at home.",
            "We're a Netflix household.",
            "I pay for the family Netflix plan.",
        ),
        (
            "I pay for HBO too, for the dramas.",
            "I've got HBO as well, I love their big series.",
            "We also subscribe to HBO for the prestige shows.",
            "There's an HBO subscription as well, that one's for me.",
        ),
        (
            "Cancelled every streaming subscription, we only watch free stuff and library "
            "DVDs now.",
            "We cut the cord completely, nothing paid to watch anymore, just the library.",
            "All the streaming services are gone, money's tight; we watch free channels only.",
            "No subscriptions at all now, we watch whatever's free on TV.",
        ),
        (
            "what should I watch this weekend?",
            "find us something to watch on Friday night",
            "recommend a series to watch over the holidays",
            "what can we watch with the kids tonight?",
        ),
    ),
    (
        (
            "I work Monday to Thursday.",
            "My work week is four days, Monday through Thursday.",
            "I'm on a four-day week, Mondays to Thursdays.",
            "Mon to Thu at work, that's my schedule.",
        ),
        (
            "Fridays I'm off, that's my long weekend day.",
            "Friday is my free day, I never work then.",
            "I don't work Fridays, it's errands day.",
            "Every Friday is my day off.",
        ),
        (
            "I'm full-time now since the promotion, five days a week.",
            "Took the team lead role, so it's a five-day week for me now.",
            "I work the whole week now, Monday to Friday, since they made me full-time.",
            "The promotion came with full-time hours, five days a week at work.",
        ),
        (
            "when can I fit in a dentist visit this week?",
            "find a slot for a plumber this week, around my work",
            "when could I take the car for its service this week?",
            "pick a day this week for a haircut that doesn't clash with work",
        ),
    ),
)


@template(
    "correction",
    "many-to-one",
    "Two older claims on one topic, in different conversations, are both replaced by one new "
    "statement; the new one is relevant, both old ones are forbidden.",
)
def many_to_one(s: Scenario) -> None:
    d = s.draw
    first, second, new, asks = d.any(MANY_TO_ONE)
    c1 = s.chat(s.day(0, d.between(7, 21)))
    _chatter(s, c1)
    one = c1.user(d.pick(first))
    c1.assistant(d.any(ACKS))
    c2 = s.chat(s.day(d.between(3, 15), d.between(7, 21)))
    two = c2.user(d.pick(second))
    c2.assistant(d.any(ACKS))
    _chatter(s, c2)
    later = staged(s)
    c3 = s.chat(s.day(d.between(30, 60), d.between(7, 21)), **later)
    _chatter(s, c3)
    now = c3.user(d.pick(new))
    c3.assistant(d.any(("That's a big change!", *ACKS)))
    nightlies(s, later)
    s.recall(s.ask(d.pick(asks), s.day(d.between(70, 90), 8), relevant=[now], forbidden=[one, two]))
