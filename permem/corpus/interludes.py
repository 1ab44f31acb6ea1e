"""What holds once, in the third wave: one-off-exception templates in new domains (one document
in another language, a dog to walk for one weekend, a borrowed phone while one's own is
repaired, a bus ride on a stormy day). While the exception holds it is relevant; afterwards the
standing claim is, and the exception is forbidden.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from permem.corpus.templates import MONTHS, WEEKDAYS, Conversation, Scenario, ordinal, template

ACKS = ("Okay!", "Noted.", "Sure.", "Got it.", "Will do.")
SMALL_TALK = (
    ("morning!", "Morning! What's up?"),
    ("hey, got a sec?", "Of course."),
    ("ok, admin time", "Let's do it."),
    ("random one for you", "Go for it."),
    ("hello again", "Hello! How can I help?"),
    ("right, next thing", "Sure, what is it?"),
)


def _chatter(s: Scenario, c: Conversation) -> None:
    if s.draw.chance(0.4):
        said, reply = s.draw.any(SMALL_TALK)
        c.user(said)
        c.assistant(reply)


def _cap(text: str) -> str:
    return text[0].upper() + text[1:]


def _at(s: Scenario, day: date, hour: int, minute: int = 0) -> datetime:
    """Local time on the local calendar day `day`."""
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=s.tz)


def _next(s: Scenario, days: int, hour: int, weekdays: set[int]) -> datetime:
    """The first local time at `hour`, `days` or more after the start, on one of `weekdays`."""
    moment = s.day(days, hour, s.draw.between(0, 59))
    while moment.weekday() not in weekdays:
        moment += timedelta(days=1)
    return moment


STANDING_LANGUAGE = (
    "Please always reply to me in {lang}, it's my mother tongue.",
    "{lang} please, I read it much faster than English.",
    "Can you answer in {lang} from now on? My English is okay but {lang} is easier.",
    "i prefer {lang} for your answers, thx",
    "Respond in {lang} by default, I'm more comfortable with it.",
    "Write to me in {lang}. English only when I ask for it.",
)
ONE_DOCUMENT = (
    "Write this one in English, it's for my landlord, he doesn't speak {lang}.",
    "I need a note for the plumber and he only reads English, so English for this.",
    "For the message to my new neighbour, English please, she's from Dublin.",
    "Draft my reply to the letting agency in English, they're a British firm.",
    "This email goes to my daughter's teacher, who's from Leeds. English, please.",
    "English for this one: a complaint to the landlord, who won't understand {lang}.",
)
SAME_DOCUMENT = (
    "add a line asking them to reply by Friday",
    "make that note a bit friendlier",
    "can you shorten the message a little?",
    "add a PS about the broken hallway light",
    "now finish it with a polite sign-off",
    "put in a sentence saying I'm home after 6",
)
LATER_LANGUAGE = (
    "explain how to descale my kettle",
    "what's a good way to keep fresh herbs longer?",
    "summarise the pros and cons of a heat pump for me",
    "how do I reset my router?",
    "give me tips for a job interview next week",
    "explain what a tracker mortgage is",
)


@template(
    "one-off-exception",
    "one-document-in-english",
    "A standing reply language ('always answer in Dutch') and one document in English for a "
    "reader who needs it (a note to the landlord); the follow-up on that document uses the "
    "exception, a later question the standing language, with the exception forbidden.",
)
def one_document_in_english(s: Scenario) -> None:
    d = s.draw
    standing, once = d.pick(STANDING_LANGUAGE), d.pick(ONE_DOCUMENT)
    same, later = d.pick(SAME_DOCUMENT), d.pick(LATER_LANGUAGE)
    lang = d.any(("Dutch", "Portuguese", "German", "Spanish", "Polish", "Italian"))
    c1 = s.chat(s.day(0, d.between(8, 21)))
    _chatter(s, c1)
    rule = c1.user(standing.format(lang=lang))
    c1.assistant(d.any(ACKS))
    c2 = s.chat(s.day(d.between(10, 40), d.between(9, 19)))
    _chatter(s, c2)
    exception = c2.user(once.format(lang=lang))
    c2.assistant(d.any(("Here's a draft in English: ...", "Sure, in English: ...")))
    s.nightly()
    queries = []
    if d.chance(0.6):
        queries.append(
            s.ask(same, c2.clock + timedelta(minutes=d.between(3, 40)), relevant=[exception])
        )
    queries.append(
        s.ask(
            later,
            c2.clock + timedelta(days=d.between(5, 30)),
            relevant=[rule],
            forbidden=[exception],
        )
    )
    s.recall(*queries)


SATURDAYS = (
    "Saturday mornings are for the farmers' market, then brunch with friends.",
    "My Saturdays start at the market by the river, I never miss it.",
    "Every Saturday I do the food market first thing and then potter around.",
    "weekend routine: market on saturday morning, lazy afternoon",
    "I go to the farmers' market every Saturday morning, it's my ritual.",
    "Saturday = market day for me, usually about 9.",
)
DOG_SITTING = (
    "I'm dog-sitting my neighbour's spaniel {when}, so I'll need walks morning and evening.",
    "{When} I'm looking after my sister's dog. Fit in a couple of walks a day please.",
    "Heads up: I've got my friend's labrador {when} while they're away, walks needed.",
    "looking after a dog {when}!! my cousin's collie. need to walk him twice a day",
    "My parents' terrier is staying with me {when}; he needs two long walks a day.",
    "Dog-sitting duty {when}: my colleague's greyhound, two walks a day.",
)
SATURDAY_ASKS = (
    "plan my Saturday",
    "what should my Saturday morning look like?",
    "make me a schedule for Saturday",
    "help me organise my Saturday",
    "sketch out Saturday for me, hour by hour",
    "what's the plan for my Saturday?",
)


@template(
    "one-off-exception",
    "dog-for-a-weekend",
    "Dog-sitting for one weekend ('this weekend', 'from the 14th to the 16th') adds walks to "
    "a standing Saturday routine; that Saturday both are relevant, a Saturday weeks later only "
    "the routine, with the dog-sitting forbidden.",
)
def dog_for_a_weekend(s: Scenario) -> None:
    d = s.draw
    routine, sitting, ask = d.pick(SATURDAYS), d.pick(DOG_SITTING), d.pick(SATURDAY_ASKS)
    c1 = s.chat(s.day(0, d.between(8, 21)))
    _chatter(s, c1)
    standing = c1.user(routine)
    c1.assistant(d.any(ACKS))
    said = _next(s, d.between(10, 40), d.between(8, 21), {0, 1, 2})
    friday = said.date() + timedelta(days=4 - said.weekday())
    saturday, sunday = friday + timedelta(days=1), friday + timedelta(days=2)
    month = MONTHS[saturday.month - 1]
    when = d.pick(
        (
            "this weekend",
            "from Friday to Sunday",
            f"from the {ordinal(friday.day)} to the {ordinal(sunday.day)}",
            f"on {month} {ordinal(saturday.day)} and {ordinal(sunday.day)}",
            f"from {friday.isoformat()} to {sunday.isoformat()}",
            f"over the weekend of the {ordinal(saturday.day)}",
        )
    )
    c2 = s.chat(said)
    _chatter(s, c2)
    dog = c2.user(sitting.replace("{When}", _cap(when)).replace("{when}", when))
    c2.assistant(d.any(("Aww, enjoy!", "Walks added.", *ACKS)))
    s.nightly()
    later = saturday + timedelta(weeks=d.between(2, 6))
    s.recall(
        s.ask(ask, _at(s, saturday, 8, d.between(0, 50)), relevant=[standing, dog]),
        s.ask(ask, _at(s, later, 8, d.between(0, 50)), relevant=[standing], forbidden=[dog]),
    )


OWN_PHONE = (
    "My phone's a Samsung Galaxy S23, so Android steps please.",
    "I'm on Android, a Galaxy.",
    "android user here (samsung)",
    "For phone stuff: I use a Samsung running Android.",
    "Phone-wise I'm team Android, a Galaxy A54.",
    "I have an Android phone, one of the Galaxy ones.",
)
BORROWED = (
    "My phone's in for a screen repair, I'm borrowing my dad's old iPhone {until}.",
    "Dropped my Galaxy in the sink :( using a spare iPhone {until} while it's fixed.",
    "For now I'm on my sister's iPhone, mine is at the repair shop {until}.",
    "Temporary setup: an iPhone 12 on loan {until}, the Samsung's being repaired.",
    "{Until} I'm stuck with a borrowed iPhone. Mine's cracked and at the shop.",
    "i'm on an iPhone {until}, my phone's away getting a new battery",
)
PHONE_ASKS = (
    "how do I turn on the mobile hotspot?",
    "how do I block a number that keeps calling me?",
    "how do I take a screenshot of a whole webpage on my phone?",
    "how do I turn on dark mode on my phone?",
    "how do I clear storage on my phone, it's full?",
    "how do I put a weather widget on my home screen?",
)


@template(
    "one-off-exception",
    "borrowed-phone",
    "A standing phone (Android) and a borrowed iPhone while it is repaired, with an end "
    "('until Friday the 9th', 'for the next 8 days'); during the loan the loan is relevant, "
    "weeks later the own phone is, and the loan forbidden.",
)
def borrowed_phone(s: Scenario) -> None:
    d = s.draw
    own_text, loan_text = d.pick(OWN_PHONE), d.pick(BORROWED)
    during_ask, after_ask = d.pick(PHONE_ASKS), d.pick(PHONE_ASKS)
    c1 = s.chat(s.day(0, d.between(8, 22)))
    _chatter(s, c1)
    own = c1.user(own_text)
    c1.assistant(d.any(ACKS))
    said = s.day(d.between(15, 60), d.between(8, 20), d.between(0, 59))
    end = said.date() + timedelta(days=d.between(5, 12))
    span = (end - said.date()).days
    until = d.pick(
        (
            f"until {WEEKDAYS[end.weekday()]} the {ordinal(end.day)}",
            f"till the {ordinal(end.day)}",
            f"until {MONTHS[end.month - 1]} {ordinal(end.day)}",
            f"for the next {span} days",
            f"until {end.isoformat()}",
            "for about a week",
        )
    )
    c2 = s.chat(said)
    _chatter(s, c2)
    loan = c2.user(loan_text.replace("{Until}", _cap(until)).replace("{until}", until))
    c2.assistant(d.any(("Got it, iPhone steps for now.", *ACKS)))
    s.nightly()
    during = _at(s, said.date() + timedelta(days=d.between(1, 2)), d.between(9, 21))
    after = _at(s, end + timedelta(days=d.between(12, 40)), d.between(9, 21))
    s.recall(
        s.ask(during_ask, during, relevant=[loan]),
        s.ask(after_ask, after, relevant=[own], forbidden=[loan]),
    )


CYCLIST = (
    "I cycle to work, about 25 minutes along the river.",
    "My commute is by bike, half an hour door to door.",
    "bike commuter here, 25 min each way",
    "I ride my bike to the office every day, rain or shine.",
    "Getting to work = 25 minutes on the bike.",
    "I don't take transport to work, I cycle; takes me 25 minutes or so.",
)
BUS_ONCE = (
    "Forecast says a thunderstorm {when}, so I'll take the bus to work instead of the bike.",
    "Not cycling {when}, the wind is brutal. Bus it is.",
    "{When} I'm leaving the bike at home, the paths are flooded. I'll get the number 12 bus.",
    "ugh storm warning {when}, gonna take the bus in",
    "The bike's got a flat and I've no time to fix it, so it's the bus {when}.",
    "Bus to work {when}, I'm not riding in the downpour they're forecasting.",
)
MORNING_ASKS = (
    "what time do I need to leave for work?",
    "how long will it take me to get in today?",
    "plan my journey to work this morning",
    "do I need cash or a card for getting to work today?",
    "what should I wear for getting to work today?",
    "remind me what to bring for my commute this morning",
)
LATER_COMMUTE = (
    "how long will my commute take on {wd}?",
    "what should I wear for my commute tomorrow?",
    "do I need to top up my bus pass for getting to work this week?",
    "what time should I leave to get to work for 9?",
    "remind me what I need for getting to work tomorrow",
    "plan my journey to work on {wd}",
)


@template(
    "one-off-exception",
    "bus-for-a-day",
    "A cyclist takes the bus for one day ('not cycling tomorrow, the wind is brutal'); the "
    "next morning the bus is relevant, weeks later the bike is, and the bus forbidden.",
)
def bus_for_a_day(s: Scenario) -> None:
    d = s.draw
    habit, once = d.pick(CYCLIST), d.pick(BUS_ONCE)
    morning_ask, later_ask = d.pick(MORNING_ASKS), d.pick(LATER_COMMUTE)
    c1 = s.chat(s.day(0, d.between(7, 21)))
    _chatter(s, c1)
    standing = c1.user(habit)
    c1.assistant(d.any(ACKS))
    said = _next(s, d.between(10, 50), d.between(18, 22), {6, 0, 1, 2, 3})
    tomorrow = said.date() + timedelta(days=1)
    wd = WEEKDAYS[tomorrow.weekday()]
    when = d.pick(
        (
            "tomorrow",
            "tomorrow morning",
            f"on {wd}",
            f"{wd} morning",
            "in the morning",
            f"on the {ordinal(tomorrow.day)}",
        )
    )
    c2 = s.chat(said)
    _chatter(s, c2)
    bus = c2.user(once.replace("{When}", _cap(when)).replace("{when}", when))
    c2.assistant(d.any(("Stay safe!", "Sensible.", *ACKS)))
    s.nightly()
    later = _next(s, (tomorrow - s.start.date()).days + d.between(14, 35), 7, {0, 1, 2, 3})
    ask = later_ask.format(wd=WEEKDAYS[(later.weekday() + 1) % 7])
    s.recall(
        s.ask(morning_ask, _at(s, tomorrow, 7, d.between(0, 40)), relevant=[bus]),
        s.ask(ask, later.replace(hour=d.between(17, 21)), relevant=[standing], forbidden=[bus]),
    )
