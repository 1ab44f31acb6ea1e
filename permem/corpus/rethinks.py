"""What the user puts right, in the third wave: correction templates in new domains (units fixed
by a complaint about an answer, a payday that moved with a new job, a child's club that changed
both activity and day, two birthdays swapped between people, a diet that loosened rather than
ended). The old and new wordings share few words on purpose.
"""

from __future__ import annotations

from datetime import date, timedelta

from permem.corpus import pools
from permem.corpus.templates import (
    MONTHS,
    Conversation,
    Scenario,
    nightlies,
    ordinal,
    staged,
    template,
)

ACKS = ("Got it.", "Okay, noted.", "Thanks, I'll remember that.", "Understood.", "Right.")
SMALL_TALK = (
    ("what rhymes with orange? anything?", "Nothing perfect. 'Door hinge' if you squint."),
    ("how many legs does a spider have?", "Eight."),
    ("is a tomato a fruit?", "Botanically, yes."),
    ("what's the plural of 'cactus'?", "Cacti, or cactuses."),
    ("quick, what's 17 times 3?", "51."),
    ("what's the longest river in Europe?", "The Volga."),
)


def _chatter(s: Scenario, c: Conversation) -> None:
    """Small talk with no claim in it, sometimes."""
    if s.draw.chance(0.45):
        said, reply = s.draw.any(SMALL_TALK)
        c.user(said)
        c.assistant(reply)


def _calendar_day(s: Scenario, day: date) -> str:
    """A day of the year in one of six spellings, all naming the month."""
    month = MONTHS[day.month - 1]
    return s.draw.pick(
        (
            f"{month} {ordinal(day.day)}",
            f"the {ordinal(day.day)} of {month}",
            f"{day.day} {month}",
            f"{month} {day.day}",
            f"{ordinal(day.day)} {month}",
            f"{month[:3]} {day.day}",
        )
    )


# (a question whose answer depends on units, the assistant's answer in the old units)
UNIT_ASKS = (
    ("how long is a half marathon?", "A half marathon is 13.1 miles."),
    ("how warm is a nice spring day, roughly?", "Somewhere around 65 to 70°F."),
    ("how far can I walk in an hour?", "About 3 miles at an easy pace."),
    ("what temperature should the oven be for bread?", "Around 450°F for a crusty loaf."),
    ("how tall is the Eiffel Tower?", "About 1,083 feet."),
    ("what's a normal fridge temperature?", "Around 37°F."),
)
IMPERIAL = (
    "I think in miles, pounds and Fahrenheit, I grew up in Ohio.",
    "Imperial units for me please: miles, °F, pounds.",
    "Give me distances in miles and temperatures in Fahrenheit, that's what my brain speaks.",
    "american here, so miles and fahrenheit pls",
    "Use Fahrenheit and miles when you answer me, metric means nothing to me.",
    "I'm from Texas originally. Feet, miles, Fahrenheit, that's how I think.",
)
GRIPES = (
    "ugh, those units again",
    "that's no use to me",
    "nope, wrong units",
    "hmm, can you not?",
    "I can't picture that at all",
    "wait, why that unit?",
)
METRIC = (
    "I've lived in {city} for eight years, I think in kilometres and Celsius now.",
    "Metric please, always: km, kilos, degrees C. Miles stopped meaning anything after I "
    "moved to {city}.",
    "since moving to {city} it's all metric for me, so celsius and km from now on",
    "Please switch me to metric for good. Everything in {city} is km and °C, my head too.",
    "Use Celsius and kilometres with me. The American units were a long time ago.",
    "I'm fully metric these days, years in {city} did that. Temperatures in C, distances in km.",
)
# Where the user now lives: their own zone's city when it measures in metric.
METRIC_HOMES = (
    "Leipzig", "Porto", "Ghent", "Bergen", "Bologna", "Tallinn", "Lisbon", "Berlin", "Helsinki",
    "Toronto", "Sao Paulo", "Mumbai", "Singapore", "Tokyo", "Sydney", "Auckland", "Nairobi",
)  # fmt: skip
UNIT_LATER = (
    "how hot is it meant to get this weekend?",
    "how far is it from the train station to the old town?",
    "what oven temperature for roast potatoes?",
    "I cycled for an hour at an easy pace, roughly how far is that?",
    "what's a sensible distance for a first trail race?",
    "is it cold enough tonight to bring the plants in?",
)


@template(
    "correction",
    "units-by-complaint",
    "An old unit preference (miles, Fahrenheit) is replaced by a complaint about an answer "
    "given in it ('ugh, those units again' then 'I think in km and Celsius now'); the complaint's "
    "statement is relevant, the old preference and the assistant's answer in it forbidden.",
)
def units_by_complaint(s: Scenario) -> None:
    d = s.draw
    old_text, (question, answer) = d.pick(IMPERIAL), d.pick(UNIT_ASKS)
    gripe, new_text, ask = d.pick(GRIPES), d.pick(METRIC), d.pick(UNIT_LATER)
    city = s.zone[0] if s.zone[0] in METRIC_HOMES else d.any(METRIC_HOMES[:6])
    c1 = s.chat(s.day(0, d.between(8, 21)))
    _chatter(s, c1)
    old = c1.user(old_text)
    c1.assistant(d.any(("Miles and Fahrenheit it is.", *ACKS)))
    later = staged(s)
    c2 = s.chat(s.day(d.between(10, 40), d.between(8, 21)), **later)
    c2.user(question)
    echo = c2.assistant(answer)
    new = c2.tell(gripe, new_text.format(city=city))[-1]
    c2.assistant(d.any(("Sorry! Metric from now on.", "Switching to metric.", *ACKS)))
    nightlies(s, later)
    s.recall(s.ask(ask, s.day(d.between(45, 80), 17), relevant=[new], forbidden=[old, echo]))


PAID_BEFORE = (
    "Payday is the {o} of each month.",
    "My salary lands on the {o}, so I'm always skint the week before.",
    "I get paid mid-month, on the {o}.",
    "money comes in on the {o} every month btw",
    "Wages arrive on the {o}; big payments should go out after that.",
    "Paid monthly, on the {o}. Plan bills around it please.",
)
NEW_JOB = (
    "Started the new job on Monday!",
    "Quick life update: I changed employers.",
    "So the new job has begun.",
    "first week at the new place done",
    "I've moved to a different company, by the way.",
    "New contract signed and started.",
)
PAID_NOW = (
    "My salary now comes on the last working day of the month.",
    "They pay at the end of each month, not mid-month.",
    "i get paid on the last friday of the month now",
    "The money arrives on the 28th these days.",
    "Wages come in at month end with this employer.",
    "Payday has moved to the final day of the month.",
)
BILL_ASKS = (
    "when should I schedule the rent transfer each month?",
    "pick a day for my credit card payment to go out",
    "when's the best day of the month for the big grocery shop?",
    "set up a monthly transfer into savings, which date?",
    "remind me to pay the electricity bill, when's sensible?",
    "what day should my gym membership be charged?",
)


@template(
    "correction",
    "payday-moved",
    "A monthly payday ('paid on the 15th') moves with a new job ('they pay at the end of each "
    "month'); for timing bills the new payday is relevant and the old one forbidden.",
)
def payday_moved(s: Scenario) -> None:
    d = s.draw
    old_text, intro, now_text, ask = (
        d.pick(t) for t in (PAID_BEFORE, NEW_JOB, PAID_NOW, BILL_ASKS)
    )
    c1 = s.chat(s.day(0, d.between(8, 22)))
    _chatter(s, c1)
    old = c1.user(old_text.format(o=ordinal(d.between(10, 20))))
    c1.assistant(d.any(ACKS))
    later = staged(s)
    c2 = s.chat(s.day(d.between(20, 60), d.between(8, 22)), **later)
    _chatter(s, c2)
    now = c2.tell(intro, now_text, acks=("Congratulations!", "Oh nice, how is it?"))[-1]
    c2.assistant(d.any(ACKS))
    nightlies(s, later)
    s.recall(s.ask(ask, s.day(d.between(65, 90), 19), relevant=[now], forbidden=[old]))


CLUB_BEFORE = (
    "{child} does swimming lessons every Wednesday after school.",
    "Wednesdays are swim club for {child}, 4:30 at the leisure centre.",
    "my kid {child} swims on wednesdays, straight from school",
    "After school on Wednesday {child} has swimming, I do the pickup.",
    "{child}'s swimming lesson is Wednesday afternoon.",
    "Every Wednesday: swimming for {child}. Don't book anything then.",
)
CLUB_NOW = (
    "{child} quit swimming and took up {new}, Thursdays at 5.",
    "No more pool for {child}, it's {new} on Thursday evenings now.",
    "update on {child}: {new} now, thursdays, the swim lessons are finished",
    "{child} switched to {new} at the community hall, every Thursday.",
    "Thursday is {new} day for {child} these days, we dropped the leisure centre lessons.",
    "{child} has a {new} class every Thursday now instead.",
)
CLUB_ASKS = (
    "what day this week do I need to leave work early for {child}'s club?",
    "what should I pack in {child}'s bag for the after-school club?",
    "can I book a dentist appointment for {child} on Wednesday at 4:30?",
    "plan {child}'s after-school week",
    "is Thursday at 5 free for a parents' evening with {child}'s teacher?",
    "which afternoon is {child} busy after school?",
)


@template(
    "correction",
    "club-swapped",
    "A child's weekly activity changes in both what and when (swimming on Wednesdays, then "
    "judo on Thursdays); the new one is relevant, the old one forbidden, even for a question "
    "that names the old day.",
)
def club_swapped(s: Scenario) -> None:
    d = s.draw
    old_text, new_text, ask = d.pick(CLUB_BEFORE), d.pick(CLUB_NOW), d.pick(CLUB_ASKS)
    values = {"child": d.any(pools.CHILD_NAMES), "new": d.any(("judo", "karate", "fencing"))}
    c1 = s.chat(s.day(0, d.between(7, 21)))
    _chatter(s, c1)
    old = c1.user(old_text.format(**values))
    c1.assistant(d.any(ACKS))
    later = staged(s)
    c2 = s.chat(s.day(d.between(25, 70), d.between(7, 21)), **later)
    _chatter(s, c2)
    new = c2.user(new_text.format(**values))
    c2.assistant(d.any(("Fun! Noted.", *ACKS)))
    nightlies(s, later)
    s.recall(
        s.ask(ask.format(**values), s.day(d.between(75, 95), 8), relevant=[new], forbidden=[old])
    )


BIRTHDAY = (
    "{p}'s birthday is {d1}, don't let me forget.",
    "Remind me a few days before {d1}, that's {p}'s birthday.",
    "my partner {p} has a birthday on {d1}",
    "For the calendar: {p}, birthday {d1}.",
    "Big date coming up: {p}'s birthday, {d1}.",
    "{p} was born on {d1}, so that's the day to keep free.",
)
SWAPPED = (
    "Oops, I mixed them up: {d1} is my mum's birthday. {p}'s is {d2}.",
    "correction: {d1} is Mum's birthday, not {p}'s. {p}'s is on {d2}.",
    "Wait, {d1} is my mother's birthday, I gave you the wrong one. {p} was born on {d2}.",
    "Sorry, {d1} is my mum. {p}'s birthday is actually {d2}.",
    "hold on, wrong person. mum = {d1}, {p} = {d2}",
    "I muddled the birthdays: {p} is {d2}, and {d1} belongs to my mum.",
)
PARTNER_ASKS = (
    "when should I order flowers for {p}'s birthday?",
    "how many weeks until {p}'s birthday?",
    "book a table somewhere nice for {p}'s birthday dinner",
    "remind me to buy {p} a present a week before the birthday",
    "what date is {p}'s birthday again?",
    "plan a surprise for {p}'s birthday, which day do I keep free?",
)
MUM_ASKS = (
    "when is my mum's birthday?",
    "remind me to call Mum on her birthday",
    "when do I need to post Mum's birthday card?",
    "how long until my mother's birthday?",
    "what day should I visit my mum for her birthday?",
    "order a cake for Mum's birthday, for which date?",
)


@template(
    "correction",
    "birthdays-swapped",
    "A date given as the partner's birthday turns out to be the mother's ('the 12th is my "
    "mum's, his is the 21st'); for either person the fix is relevant and the first message, "
    "now about the wrong person, forbidden.",
)
def birthdays_swapped(s: Scenario) -> None:
    d = s.draw
    first, fix, partner_ask, mum_ask = (
        d.pick(t) for t in (BIRTHDAY, SWAPPED, PARTNER_ASKS, MUM_ASKS)
    )
    one = s.day(d.between(50, 120)).date()
    two = one + timedelta(days=d.between(35, 150) * (1 if d.chance() else -1))
    if (two - s.day(40).date()).days < 10 or (two.year, two.month) == (one.year, one.month):
        two = one + timedelta(days=d.between(35, 120))
    values = {"p": s.other_person().first, "d1": _calendar_day(s, one), "d2": _calendar_day(s, two)}
    c = s.chat(s.day(0, d.between(8, 21)))
    _chatter(s, c)
    old = c.user(first.format(**values))
    wrong = [old]
    if d.chance(0.5):
        echo = d.any(("Noted: {p}, {d1}.", "I'll remind you before {d1}!"))
        wrong.append(c.assistant(echo.format(**values)))
    else:
        c.assistant(d.any(ACKS))
    if d.chance(0.4):
        _chatter(s, c)
        c.user(d.any(("oh wait", "hmm, hang on", "actually no")))
        c.assistant("Yes?")
    else:
        c = s.chat(s.day(d.between(2, 20), d.between(8, 21)))
    new = c.user(fix.format(**values))
    c.assistant(d.any(("Fixed, thanks.", "Ah, updated both.", *ACKS)))
    s.nightly()
    at = s.day(d.between(25, 40), 18)
    s.recall(
        s.ask(partner_ask.format(**values), at, relevant=[new], forbidden=wrong),
        s.ask(mum_ask, at + timedelta(minutes=20), relevant=[new], forbidden=wrong),
    )


VEGETARIAN = (
    "I'm vegetarian, have been since uni.",
    "No meat or fish for me, I'm veggie.",
    "veggie here, so leave out meat and seafood",
    "I don't eat anything that had a face. Vegetarian, strictly.",
    "Vegetarian recipes only please.",
    "I stopped eating meat and fish years ago.",
)
PESCATARIAN = (
    "I've started eating fish again, my iron was low. Still no meat though.",
    "Pescatarian now: salmon and prawns are back on the menu, chicken and beef still aren't.",
    "seafood's back in my life! still not touching red meat or poultry",
    "Small change: fish is fine for me now. Meat stays off.",
    "Had sushi last week for the first time in years and loved it, so fish and shellfish are "
    "okay now. Not meat.",
    "I eat fish these days, the doctor suggested it. Meat, no.",
)
FISH_ASKS = (
    "is the seafood paella a good pick for my dinner on Friday?",
    "plan three dinners for me next week",
    "what should I order at the Japanese place tonight?",
    "give me a high-protein lunch idea",
    "suggest a dish for me at the tapas bar",
    "what can I eat at the barbecue on Saturday?",
)


@template(
    "correction",
    "diet-loosened",
    "A strict diet loosens rather than ends ('vegetarian' then 'started eating fish again, "
    "still no meat'); the loosened one is relevant, the old one forbidden (it would rule out "
    "the fish).",
)
def diet_loosened(s: Scenario) -> None:
    d = s.draw
    old_text, new_text, ask = d.pick(VEGETARIAN), d.pick(PESCATARIAN), d.pick(FISH_ASKS)
    c1 = s.chat(s.day(0, d.between(11, 21)))
    _chatter(s, c1)
    old = c1.user(old_text)
    c1.assistant(d.any(ACKS))
    later = staged(s)
    if d.chance(0.4):
        _chatter(s, s.chat(s.day(d.between(4, 12), 13), **later))
    c2 = s.chat(s.day(d.between(20, 60), d.between(11, 21)), **later)
    new = c2.user(new_text)
    c2.assistant(d.any(("Good to know, fish is back in.", *ACKS)))
    nightlies(s, later)
    s.recall(s.ask(ask, s.day(d.between(65, 85), 12), relevant=[new], forbidden=[old]))
