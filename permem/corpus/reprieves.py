"""What happened once and changes nothing: a lapse the user reports after the fact (a bacon
sandwich at a festival), one cancelled instance of a weekly thing, and a format asked for one task
only (a letter in Dutch, a cover letter in full paragraphs) against a standing preference.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from permem.corpus.templates import MONTHS, WEEKDAYS, Scenario, ordinal, template

ACKS = ("Got it.", "Okay!", "Noted.", "Sure.", "Understood.")

# (the standing habit, a lapse reported afterwards, questions)
LAPSES: tuple[tuple[Sequence[str], Sequence[str], Sequence[str]], ...] = (
    (
        (
            "I'm vegetarian, no meat in anything please.",
            "Meat-free for me, I've been veggie for eight years.",
            "i don't eat meat, just so you know",
            "Vegetarian here. Cheese and eggs are fine, no meat or fish.",
            "No meat for me, ever. Veggie since uni.",
            "Please keep every recipe vegetarian, that's how I eat.",
        ),
        (
            "Confession: I had a bacon sandwich at the festival on Saturday. One-time thing, "
            "I was starving and it was 3am.",
            "ok so I caved and ate a hot dog at the match yesterday. Won't happen again.",
            "Had a bite of my brother's steak last night out of curiosity. Didn't like it, "
            "nothing's changed.",
            "I ate chicken at my grandma's on Sunday because she'd cooked it specially. Just that "
            "once.",
            "lol, I slipped and had a kebab after the party. Back to normal today",
            "I had some of the lamb at the wedding, it felt rude to refuse. A one-off.",
        ),
        (
            "plan my dinners for next week",
            "what should I order at the burger place on Friday?",
            "suggest a filling lunch for me",
            "I'm cooking for myself tonight, ideas?",
            "what should I get at the barbecue on Saturday?",
            "make me a shopping list for the week",
        ),
    ),
    (
        (
            "I don't drink alcohol, haven't for years.",
            "I'm sober, so no alcohol suggestions please.",
            "alcohol-free for me, always",
            "I stopped drinking a long time ago. Soft drinks only.",
            "No booze for me, I'm teetotal.",
            "Just so you know, I never drink alcohol.",
        ),
        (
            "I did have one glass of champagne at my sister's wedding on Saturday, for the "
            "toast. That's it.",
            "Had a sip of prosecco at the retirement do yesterday, felt rude not to. Doesn't "
            "change anything.",
            "ok I had a beer at the reunion last night, first in ages. Not starting again",
            "At my dad's 70th I had a small glass of wine for the toast. Once.",
            "I made an exception for the toast at the wedding yesterday, one glass. Back to none.",
            "one mojito on holiday, a total one-off. I'm still not a drinker",
        ),
        (
            "what should I drink at the work party on Thursday?",
            "pick a drink for me at the pub quiz",
            "suggest something to bring to the dinner party, for me to drink",
            "what should I order at the cocktail bar with my friends?",
            "plan drinks for my own birthday party",
            "what goes well with curry, drink-wise, for me?",
        ),
    ),
    (
        (
            "I get around by public transport, never taxis, they're a waste of money.",
            "Trains and buses only for me, I don't do cabs.",
            "i always take the bus or the tram, no taxis or ubers",
            "Public transport person here, I never pay for a taxi.",
            "I don't use taxis. Metro and buses get me everywhere.",
            "No cabs for me, public transport is how I travel.",
        ),
        (
            "I took a taxi home last night, it was 2am and pouring. Don't read into it.",
            "Splurged on an Uber after the concert yesterday, the last train was cancelled. "
            "One time.",
            "ok I got a cab to the airport this morning because I overslept. never again",
            "Had to take a taxi on Tuesday, I'd hurt my ankle. A one-off.",
            "I caved and grabbed an Uber in the storm on Friday. Just that once.",
            "Took a cab from the hospital after my mum's op yesterday, obviously an exception.",
        ),
        (
            "how should I get to the stadium on Saturday?",
            "plan my trip to the airport next week",
            "how do I get to the dentist across town on Monday?",
            "I'm going to a gig on Friday night, how do I get home after?",
            "how should I get to my friend's place on the other side of the city?",
            "best way to get to the conference centre tomorrow morning?",
        ),
    ),
)


@template(
    "one-off-exception",
    "one-lapse",
    "A standing habit (vegetarian, sober, no taxis) and a lapse the user reports afterwards "
    "('had a bacon sandwich at the festival, one-time thing'); the habit is relevant later, the "
    "lapse forbidden.",
)
def one_lapse(s: Scenario) -> None:
    d = s.draw
    habits, lapses, asks = d.any(LAPSES)
    habit_text, lapse_text, ask = d.pick(habits), d.pick(lapses), d.pick(asks)
    replies = ("Ha, no judgement!", "Fair enough, it happens.", "Understood, no big deal.")
    c = s.chat(s.day(0, d.between(8, 21)))
    habit = c.user(habit_text)
    c.assistant(d.any(ACKS))
    c = s.chat(s.day(d.between(10, 50), d.between(9, 22)))
    if d.chance(0.4):
        c.user(d.any(("morning", "hey", "quick thing", "hi again")))
        c.assistant("Hi! What's up?")
    lapse = c.user(lapse_text)
    c.assistant(d.any(replies))
    s.nightly()
    at = s.day(d.between(55, 80), d.between(9, 19))
    s.recall(s.ask(ask, at, relevant=[habit], forbidden=[lapse]))


# (the hour it happens, the weekly thing on {day}, its cancellation for this week only)
WEEKLY: tuple[tuple[str, Sequence[str], Sequence[str]], ...] = (
    (
        "6pm",
        (
            "I have piano lessons every {day} at 6pm.",
            "{day} evenings are piano, 6 o'clock, every week.",
            "my piano lesson is on {day}s at six",
            "Weekly piano lesson: {day}, 18:00.",
            "Every {day} at 6 I'm at my piano teacher's.",
            "I do piano on {day} evenings, lesson starts at 6.",
        ),
        (
            "No piano this {day}, my teacher's ill.",
            "This week's piano lesson is cancelled, she's away, so {day} evening is free.",
            "piano's off on {date}, teacher has covid",
            "Heads up, there's no lesson on {day} the {nth}, my teacher cancelled.",
            "My teacher's on holiday, so I'm skipping piano this week.",
            "Lesson on {date} is cancelled. Back to normal the week after.",
        ),
    ),
    (
        "7pm",
        (
            "I play five-a-side football every {day} at 7pm.",
            "{day} nights are football, 7pm kick-off, every week.",
            "five-a-side on {day}s, 7 o'clock, never miss it",
            "Football with the lads each {day}, 19:00.",
            "Every {day} evening at 7 I've got five-a-side.",
            "My weekly football game is {day}, starts at seven.",
        ),
        (
            "No football this {day}, the pitch is being resurfaced.",
            "This week's five-a-side is off, half the team's away, so I'm free {day} night.",
            "footie's cancelled on {date}, the pitch is flooded",
            "Heads up, there's no game on {day} the {nth}.",
            "We're skipping football this week, the sports centre is closed.",
            "Football on {date} is called off. Normal again after that.",
        ),
    ),
    (
        "10am",
        (
            "My cleaner comes every {day} morning, so I work from the café then.",
            "{day} mornings the cleaner's in, I'm out of the flat from 9 to 12.",
            "cleaner comes on {day}s, 9 till noon, I'm never home then",
            "Every {day}, 9am to midday, the cleaner has the flat.",
            "I'm out every {day} morning while the cleaner's in.",
            "The cleaner does {day} mornings, weekly.",
        ),
        (
            "The cleaner's not coming this {day}, she's on holiday.",
            "No cleaner this week, so I'm home on {day} morning.",
            "cleaner cancelled for {date}, her kid is sick",
            "Heads up, the cleaner isn't coming on {day} the {nth}.",
            "She's skipping this week's clean, so I'm around on {day} morning.",
            "No clean on {date}. She's back the week after.",
        ),
    ),
)
THIS_WEEK_ASKS = (
    "am I free this {day} at {hour}?",
    "can I book a dentist appointment for {day} the {nth} at {hour}?",
    "what's on my plate this {day}?",
    "my friend wants to meet this {day} around {hour}, does that work?",
    "plan my {day} this week",
    "is {date} free for a call at {hour}?",
)
NEXT_WEEK_ASKS = (
    "am I free next {day} at {hour}?",
    "can I book a dentist appointment for {day} the {nth} at {hour}?",
    "what's on my plate next {day}?",
    "my friend wants to meet on {date} around {hour}, does that work?",
    "plan my {day} next week",
    "is {date} free for a call at {hour}?",
)


@template(
    "one-off-exception",
    "skipped-instance",
    "A weekly commitment and the cancellation of this week's instance ('no piano this Tuesday, "
    "my teacher's ill'): the week after, the commitment is relevant and the cancellation "
    "forbidden; about the cancelled day itself, the cancellation is relevant.",
)
def skipped_instance(s: Scenario) -> None:
    d = s.draw
    hour, weeklies, cancellations = d.any(WEEKLY)
    weekly_text, cancel_text = d.pick(weeklies), d.pick(cancellations)
    this_ask, next_ask = d.pick(THIS_WEEK_ASKS), d.pick(NEXT_WEEK_ASKS)
    # The cancelled day is a Wednesday to Friday and the cancellation comes earlier in the same
    # week, so 'this week' and 'this Thursday' name the same day.
    day_name = d.any(WEEKDAYS[2:5])
    c = s.chat(s.day(0, d.between(8, 21)))
    commitment = c.user(weekly_text.format(day=day_name))
    c.assistant(d.any(ACKS))
    base = s.day(d.between(20, 50), d.between(8, 20))
    skipped = base + timedelta(days=(WEEKDAYS.index(day_name) - base.weekday()) % 7)
    told = skipped - timedelta(days=d.between(1, 2))
    after = skipped + timedelta(days=7)

    def fill(text: str, when: datetime) -> str:
        date = f"{day_name} {MONTHS[when.month - 1]} {ordinal(when.day)}"
        return text.format(day=day_name, nth=ordinal(when.day), date=date, hour=hour)

    c = s.chat(told)
    cancel = c.user(fill(cancel_text, skipped))
    c.assistant(d.any(("Noted, just this week.", "Okay, I'll keep that in mind.", *ACKS)))
    s.nightly()
    queries = []
    if d.chance(0.5):
        queries.append(s.ask(fill(this_ask, skipped), told + timedelta(hours=2), relevant=[cancel]))
    at = skipped + timedelta(days=d.between(1, 3), hours=2)
    queries.append(s.ask(fill(next_ask, after), at, relevant=[commitment], forbidden=[cancel]))
    s.recall(*queries)
    s.notes.append(
        "About the cancelled day the weekly commitment is neither relevant nor forbidden: it is "
        "what the cancellation cancels."
    )


# (the standing preference, a format for one task only, a follow-up on that task, questions
# about other tasks later)
ONE_TASK: tuple[tuple[Sequence[str], Sequence[str], Sequence[str], Sequence[str]], ...] = (
    (
        (
            "I'm Dutch, but reply to me in English, I use it all day at work.",
            "English answers for me please, even though Dutch is my first language.",
            "always answer me in english pls",
            "I prefer English with you. My Dutch is fine, I just think in English now.",
            "Keep our chats in English, please.",
            "Even if I write a Dutch word now and then, answer in English.",
        ),
        (
            "Can you write this note to my neighbour in Dutch? She doesn't speak English. "
            "It's about the parcel you took in for me.",
            "I need a short Dutch message for the old lady downstairs, thanking her for the "
            "parcel.",
            "write a thank-you note in dutch for my neighbour, she took in my parcel",
            "For my neighbour only: a note in Dutch saying thanks for keeping my parcel.",
            "Translate into Dutch for my neighbour: 'thank you so much for taking in my parcel'.",
            "My neighbour only reads Dutch. Could you draft her a thank-you for the parcel?",
        ),
        (
            "make the note to her a bit warmer",
            "can you shorten that note for the neighbour?",
            "add that I'll bring her flowers",
            "ok, and sign it from me and my partner",
            "could you make the note more formal? she's in her eighties",
            "put the note in a form I can print on a card",
        ),
        (
            "explain how compound interest works",
            "what's a good way to learn to touch-type?",
            "give me tips for a job interview on Monday",
            "summarise the main causes of the First World War",
            "how do I get red wine out of a carpet?",
            "what should I see on a weekend in Porto?",
        ),
    ),
    (
        (
            "Short answers please, bullet points, I skim everything.",
            "Keep your replies brief and bulleted.",
            "tl;dr style for me, bullets, no essays",
            "I like answers as a few bullet points, nothing long.",
            "Be concise with me: bullets, max five.",
            "Please answer in short bullet lists.",
        ),
        (
            "For this cover letter I need full, flowing paragraphs, it's for a law firm and has "
            "to be formal.",
            "The cover letter must be proper prose, no bullets, it's a formal application.",
            "write the cover letter in full sentences and paragraphs, it's going to a law firm",
            "This one's different: a formal cover letter, long-form paragraphs.",
            "Cover letter for the law firm job, please, written out properly in paragraphs.",
            "I need a formal cover letter, complete paragraphs, the firm is very traditional.",
        ),
        (
            "make the cover letter a little less stiff",
            "add a line about my mediation course to the letter",
            "can you tighten the second paragraph of the letter?",
            "now write a closing paragraph for the cover letter",
            "the letter should mention I can start in March",
            "rework the opening of the cover letter, it's a bit flat",
        ),
        (
            "how do I descale a kettle?",
            "what should I pack for a weekend hiking trip?",
            "explain the difference between a Roth IRA and a 401k",
            "how do I repot a cactus?",
            "what's the best way to revise for an exam?",
            "how do I make my phone battery last longer?",
        ),
    ),
    (
        (
            "Use British spelling with me, colour, organise, all that.",
            "I write in British English, so 'favourite', not 'favorite'.",
            "british spelling please, I'm in Manchester",
            "UK English for everything you write for me.",
            "Please stick to British spellings.",
            "I want UK spelling in anything you draft.",
        ),
        (
            "This grant application goes to a US foundation, so use American spelling in it.",
            "For the proposal to the American funder, US spelling, they're picky.",
            "the grant doc is for a US panel, so american english in that one",
            "Spell the grant application the American way, it's for a US reviewer.",
            "One thing: the US grant bid needs 'color' and 'organize', American style.",
            "Write the foundation proposal in US English, it's going to New York.",
        ),
        (
            "add a budget paragraph to the grant application",
            "make the grant summary a bit punchier",
            "write the closing paragraph of the proposal",
            "now draft the project timeline section of the grant",
            "rewrite the proposal's aims so they sound more confident",
            "add a paragraph to the application on who benefits",
        ),
        (
            "draft a note to my landlord about the heating",
            "write a short bio for my website",
            "help me write a complaint to the council about the potholes",
            "write a birthday message for my colleague",
            "draft an email to my book club about next month's pick",
            "write a product description for my handmade candles",
        ),
    ),
)


@template(
    "one-off-exception",
    "one-task-format",
    "A format asked for one task only (a note in Dutch for a neighbour, a cover letter in full "
    "paragraphs, US spelling for a US grant) against a standing preference: on that task the "
    "request is relevant; on other tasks later the standing preference is, the request "
    "forbidden.",
)
def one_task_format(s: Scenario) -> None:
    d = s.draw
    standing, requests, follow_ups, asks = d.any(ONE_TASK)
    standing_text, request_text = d.pick(standing), d.pick(requests)
    follow_up, ask = d.pick(follow_ups), d.pick(asks)
    c = s.chat(s.day(0, d.between(8, 21)))
    rule = c.user(standing_text)
    c.assistant(d.any(ACKS))
    c = s.chat(s.day(d.between(10, 40), d.between(9, 21)))
    request = c.user(request_text)
    c.assistant(d.any(("Here's a draft.", "Sure, here you go.", "Done, have a look.")))
    s.nightly()
    queries = []
    if d.chance(0.5):
        at = c.clock + timedelta(minutes=20)
        queries.append(s.ask(follow_up, at, relevant=[request], forbidden=[rule]))
    at = s.day(d.between(45, 80), d.between(9, 19))
    queries.append(s.ask(ask, at, relevant=[rule], forbidden=[request]))
    s.recall(*queries)
