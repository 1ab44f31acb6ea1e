"""What the user takes back: correction templates whose old and new claims share few words, fixes
of the message just sent, several claims replaced at once, withdrawals that name no new value, and
corrections of one detail that leave the rest standing.
"""

from __future__ import annotations

from collections.abc import Sequence

from permem.corpus import pools
from permem.corpus.templates import Conversation, Scenario, template

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


def _staged(s: Scenario) -> dict[str, str]:
    """Sometimes the later conversations go to a second log ingested by a second nightly run,
    so the earlier claim is already stored when the correction arrives."""
    return {"_log": "logs_2.jsonl"} if s.draw.chance(0.5) else {}


def _nightlies(s: Scenario, later: dict[str, str]) -> None:
    s.nightly()
    if later:
        s.nightly(later["_log"])


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
    later = _staged(s)
    if d.chance(0.5):
        _chatter(s, s.chat(s.day(d.between(3, 9), 13), **later))
    c2 = s.chat(s.day(d.between(12, 50), d.between(9, 21)), **later)
    if d.chance(0.4):
        _chatter(s, c2)
    new = c2.user(d.pick(news))
    c2.assistant(d.any(ACKS))
    _nightlies(s, later)
    s.recall(s.ask(d.pick(asks), s.day(d.between(60, 80), 9), relevant=[new], forbidden=[old]))


# (old wordings, fixes of the previous message, assistant echoes of the wrong value, questions);
# the wrong and right values are formatted in.
SLIPS: tuple[tuple[Sequence[str], Sequence[str], Sequence[str], Sequence[str]], ...] = (
    (
        (
            "I take almond milk in my coffee.",
            "Almond milk in my latte please, always.",
            "For coffee orders: almond milk, no sugar.",
            "I'm an almond milk person when it comes to coffee.",
        ),
        (
            "wait, it's oat milk, not almond. almond is my partner's",
            "sorry, I meant oat milk! not almond",
            "no hang on, oat milk. I always mix us up",
            "correction: oat, not almond milk",
        ),
        ("Almond milk, got it.", "Noted: almond milk in your coffee."),
        (
            "order my usual coffee for the morning",
            "add milk for my coffee to the shopping list",
            "what milk should I pick up for my coffee?",
            "set up my regular coffee order",
        ),
    ),
    (
        (
            "My {rel}'s name is {wrong}.",
            "my {rel} is called {wrong}, btw",
            "For cards and stuff: my {rel}, {wrong}.",
            "{wrong} is my {rel}'s name, in case you need it.",
        ),
        (
            "sorry, autocorrect! my {rel} is {right}, not {wrong}",
            "wait, typo: it's {right}, not {wrong}",
            "oops, {right}, that's how my {rel} spells it",
            "*{right}, sorry. {wrong} is my cousin",
        ),
        ("Lovely, {wrong} it is.", "Noted, your {rel} is {wrong}."),
        (
            "write a short birthday card for my {rel}",
            "draft a sweet anniversary note to my {rel}",
            "help me write a thank-you text to my {rel}",
            "suggest a message for my {rel}'s retirement card",
        ),
    ),
    (
        (
            "Keep the heating at 19 when I'm home.",
            "I like the flat at 19 degrees.",
            "Thermostat to 19 in the evenings please.",
            "19 degrees is my comfy temperature at home.",
        ),
        (
            "hmm no, make that 21, 19 is freezing",
            "sorry, I meant 21 degrees, not 19",
            "wait, 21. typo",
            "actually 21, 19 is what my flatmate wants",
        ),
        ("19 degrees, noted.", "Okay, heating at 19 when you're home."),
        (
            "set the heating for when I get home tonight",
            "what temperature should the thermostat be at this evening?",
            "warm up the flat before I'm back",
            "adjust the heating schedule for the weekend",
        ),
    ),
    (
        (
            "{child} is 7, loves anything with wheels.",
            "My kid {child} just turned seven.",
            "{child}'s seven, for context.",
            "I've got one kid, {child}, age 7.",
        ),
        (
            "sorry, {child}'s nine, not seven. time flies",
            "wait no, nine! {child} turned nine in the spring",
            "typo, 9 not 7",
            "correction: {child} is 9",
        ),
        ("Seven is such a fun age!", "Got it, {child} is 7."),
        (
            "gift ideas for {child}",
            "plan a weekend outing with {child}",
            "what books would {child} enjoy?",
            "board games for {child} and me",
        ),
    ),
)
NAME_PAIRS = (
    ("Sofia", "Sophia"),
    ("Aileen", "Eileen"),
    ("Steven", "Stephen"),
    ("Kirsten", "Kristen"),
    ("Caitlin", "Katelyn"),
    ("Jon", "John"),
)


@template(
    "correction",
    "next-message-fix",
    "The user fixes the message they just sent ('sorry, I meant 21 not 19', 'wait, oat milk, "
    "not almond'); the slip and any echo of it are forbidden, the fix is relevant.",
)
def next_message_fix(s: Scenario) -> None:
    d = s.draw
    olds, fixes, echoes, asks = d.any(SLIPS)
    wrong, right = d.any(NAME_PAIRS)
    values = {
        "rel": d.any(("wife", "husband", "partner", "girlfriend")),
        "wrong": wrong,
        "right": right,
        "child": d.any(pools.CHILD_NAMES),
    }
    c = s.chat(s.day(0, d.between(8, 21)))
    _chatter(s, c)
    slip = c.user(d.pick(olds).format(**values))
    forbidden = [slip]
    if d.chance(0.6):
        forbidden.append(c.assistant(d.any(echoes).format(**values)))
    fix = c.user(d.pick(fixes).format(**values))
    c.assistant(d.any(("Fixed!", "Thanks, updated.", "Ah, got it now.", "No problem.")))
    s.nightly()
    s.recall(
        s.ask(
            d.pick(asks).format(**values),
            s.day(d.between(5, 30), 18),
            relevant=[fix],
            forbidden=forbidden,
        )
    )


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
    later = _staged(s)
    c3 = s.chat(s.day(d.between(30, 60), d.between(7, 21)), **later)
    _chatter(s, c3)
    now = c3.user(d.pick(new))
    c3.assistant(d.any(("That's a big change!", *ACKS)))
    _nightlies(s, later)
    s.recall(s.ask(d.pick(asks), s.day(d.between(70, 90), 8), relevant=[now], forbidden=[one, two]))


# (old claim wordings, withdrawal with no new value, withdrawal that states the user stopped,
# questions)
TAKEN_BACK: tuple[tuple[Sequence[str], Sequence[str], Sequence[str], Sequence[str]], ...] = (
    (
        (
            "I'm at the gym every weekday at 6, before work.",
            "Gym is 6am Monday to Friday for me.",
            "I do the gym at 6 every weekday morning.",
            "My routine: the gym at six, weekdays.",
        ),
        (
            "Ignore what I said about my gym schedule, I had it all mixed up.",
            "Disregard the gym times I gave you, they were wrong.",
            "Please don't go by what I told you about the gym earlier, that was a mistake.",
            "That gym thing I mentioned? Not right at all, scrap it.",
        ),
        (
            "Forget what I said about the gym, I quit. Cancelled the membership.",
            "Scratch the gym stuff, I stopped going and let the membership lapse.",
            "No more gym for me, forget all that, I'm done with it.",
            "Ignore the gym routine I told you about, I quit last week.",
        ),
        (
            "when should I schedule my gym sessions next week?",
            "fit my gym time into next week's calendar",
            "plan next week around the gym",
            "what's a good time for the gym on Wednesday?",
        ),
    ),
    (
        (
            "I have cello lessons on Thursdays at 5.",
            "Cello lesson every Thursday, 5pm.",
            "Thursdays at five I'm at my cello lesson.",
            "I'm learning the cello, lessons are Thursday evenings.",
        ),
        (
            "Disregard what I said about the cello lessons, that was wrong.",
            "Please ignore the cello lesson times, I got them muddled.",
            "What I told you about my cello lessons isn't right, forget it.",
            "Scrap the cello lesson details I gave you, they're not correct.",
        ),
        (
            "Forget the cello stuff, I gave it up, the lessons are over.",
            "Scratch what I said about cello, I quit, sold the instrument.",
            "No more cello lessons, ignore all that, I stopped.",
            "Ignore the cello thing, I've quit the lessons for good.",
        ),
        (
            "schedule my cello practice for the week",
            "what time should I leave for my cello lesson on Thursday?",
            "plan my Thursday evening around the cello lesson",
            "remind me before my cello lessons",
        ),
    ),
    (
        (
            "I'm doing intermittent fasting, nothing to eat before noon.",
            "I fast until midday every day, 16:8.",
            "No breakfast for me, I'm on a fasting schedule until 12.",
            "I don't eat before noon, I do intermittent fasting.",
        ),
        (
            "Ignore what I said about fasting, that's not accurate.",
            "Disregard the fasting thing I mentioned, it was wrong.",
            "Please don't use what I told you about my fasting, I misspoke.",
            "The fasting info I gave you earlier? Forget it, not correct.",
        ),
        (
            "Forget what I said about the fasting, I stopped, it made me dizzy.",
            "Scrap the fasting stuff, I quit doing it.",
            "No more fasting for me, ignore all that.",
            "Ignore the intermittent fasting, I dropped it a while ago.",
        ),
        (
            "plan my meals for tomorrow around my fasting",
            "what time should I have breakfast, given the fasting?",
            "build a meal schedule that respects my fasting window",
            "when can I eat tomorrow if I'm fasting?",
        ),
    ),
)


@template(
    "correction",
    "taken-back",
    "The user withdraws an earlier claim without restating a value ('ignore what I said about "
    "the gym'); the old claim is forbidden and, with nothing left to apply, the answer is "
    "empty; when the withdrawal says the user quit, that message is the relevant one.",
)
def taken_back(s: Scenario) -> None:
    d = s.draw
    olds, withdrawals, quits, asks = d.any(TAKEN_BACK)
    c1 = s.chat(s.day(0, d.between(7, 20)))
    _chatter(s, c1)
    old = c1.user(d.pick(olds))
    c1.assistant(d.any(ACKS))
    later = _staged(s)
    pure = d.chance(0.5)
    c2 = s.chat(s.day(d.between(10, 40), d.between(8, 22)), **later)
    if d.chance(0.4):
        _chatter(s, c2)
    said = c2.user(d.pick(withdrawals) if pure else d.pick(quits))
    c2.assistant(d.any(("Okay, I won't use that.", "Understood, dropping it.", *ACKS)))
    _nightlies(s, later)
    ask, at = d.pick(asks), s.day(d.between(45, 70), 9)
    if pure:
        s.notes.append("The withdrawal names no new value: nothing applies, the answer is empty.")
        s.recall(s.ask(ask, at, forbidden=[old], expect_empty=True))
    else:
        s.recall(s.ask(ask, at, relevant=[said], forbidden=[old]))


# (kept claim, old claim, corrected claim, questions): the correction touches one detail and the
# other claim still stands; both it and the correction must be found.
PARTIAL: tuple[tuple[Sequence[str], Sequence[str], Sequence[str], Sequence[str]], ...] = (
    (
        (
            "No mushrooms in anything, my partner hates them.",
            "We don't do mushrooms in this house.",
            "Mushrooms are banned at our dinners.",
            "Leave mushrooms out of every recipe, nobody here eats them.",
        ),
        (
            "I'm cooking dinner for four most nights.",
            "There are four of us at dinner every evening.",
            "Family of four, so dinners for four.",
            "Dinners are for four people at ours.",
        ),
        (
            "Small update on dinners: it's only three of us now, my eldest left for uni.",
            "Dinner is for three now, not four, my son moved out.",
            "Correction on the dinners: three people, since my daughter's gone to college.",
            "We're three at dinner these days, one kid flew the nest.",
        ),
        (
            "plan our dinners for this week",
            "suggest a dinner recipe for tonight",
            "make a shopping list for the week's dinners",
            "what should we have for dinner on Sunday?",
        ),
    ),
    (
        (
            "I always run on the canal path, flat routes only.",
            "Flat routes for my runs please, I hate hills.",
            "My runs stick to the flat towpath.",
            "No hilly routes for my runs, ever.",
        ),
        (
            "I run 5k three times a week.",
            "My runs are 5k, three a week.",
            "Three 5k runs a week, that's my thing.",
            "I do 5k runs, Monday, Wednesday, Friday.",
        ),
        (
            "I'm up to 10k runs now, still three times a week.",
            "Update: my runs are 10k now, not 5k.",
            "Correction to the running: it's 10k per run these days.",
            "The 5k thing is old, I do 10k runs now.",
        ),
        (
            "plan my runs for next week",
            "suggest a route for my runs on Wednesday",
            "build me a training plan for my runs",
            "what pace should I aim for on my runs this week?",
        ),
    ),
    (
        (
            "I park the car on the street, no garage.",
            "There's no garage, the car lives on the street.",
            "My car sits outside on the street overnight.",
            "Street parking only for my car, we don't have a driveway.",
        ),
        (
            "My car's a 2012 diesel Golf.",
            "I drive an old diesel Golf, 2012.",
            "The car is a diesel VW Golf from 2012.",
            "Old faithful: my 2012 Golf, diesel.",
        ),
        (
            "Traded the Golf in, my car is an electric Kia now.",
            "New car! It's an electric Kia Niro, the Golf's gone.",
            "Correction on the car: it's an EV now, a Kia, not the diesel.",
            "I drive an electric Kia these days, sold the old Golf.",
        ),
        (
            "car maintenance tips for this winter",
            "what should I do to get my car ready for winter?",
            "how do I look after my car in the cold months?",
            "winter checklist for my car",
        ),
    ),
)


@template(
    "correction",
    "one-detail-fixed",
    "A correction replaces one of two claims on a topic and leaves the other standing; the "
    "kept claim and the correction are relevant (a miss if dropped), the replaced one forbidden.",
)
def one_detail_fixed(s: Scenario) -> None:
    d = s.draw
    keeps, olds, news, asks = d.any(PARTIAL)
    c1 = s.chat(s.day(0, d.between(8, 20)))
    parts = [d.pick(keeps), d.pick(olds)]
    if d.chance(0.5):
        kept, old = c1.tell(*parts, split=True, acks=ACKS)
    else:
        old, kept = c1.tell(*reversed(parts), split=True, acks=ACKS)
    c1.assistant(d.any(ACKS))
    later = _staged(s)
    c2 = s.chat(s.day(d.between(20, 45), d.between(8, 21)), **later)
    _chatter(s, c2)
    new = c2.user(d.pick(news))
    if d.chance(0.4):
        c2.user(d.any(("everything else is the same", "rest still stands", "the rest is right")))
    c2.assistant(d.any(ACKS))
    _nightlies(s, later)
    s.recall(
        s.ask(d.pick(asks), s.day(d.between(55, 75), 17), relevant=[kept, new], forbidden=[old])
    )
