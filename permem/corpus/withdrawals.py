"""What the user takes back: withdrawals that name no new value, and corrections of one
detail that leave the rest standing (correction).
"""

from __future__ import annotations

from collections.abc import Sequence

from permem.corpus.amendments import ACKS, _chatter
from permem.corpus.templates import Scenario, nightlies, staged, template

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
    later = staged(s)
    pure = d.chance(0.5)
    c2 = s.chat(s.day(d.between(10, 40), d.between(8, 22)), **later)
    if d.chance(0.4):
        _chatter(s, c2)
    said = c2.user(d.pick(withdrawals) if pure else d.pick(quits))
    c2.assistant(d.any(("Okay, I won't use that.", "Understood, dropping it.", *ACKS)))
    nightlies(s, later)
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
    later = staged(s)
    c2 = s.chat(s.day(d.between(20, 45), d.between(8, 21)), **later)
    _chatter(s, c2)
    new = c2.user(d.pick(news))
    if d.chance(0.4):
        c2.user(d.any(("everything else is the same", "rest still stands", "the rest is right")))
    c2.assistant(d.any(ACKS))
    nightlies(s, later)
    s.recall(
        s.ask(d.pick(asks), s.day(d.between(55, 75), 17), relevant=[kept, new], forbidden=[old])
    )
