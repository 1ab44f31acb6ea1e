"""Corrections that come back or change hands: a value replaced and then restored ('back on nights,
same hours as before'), and a role that passes from one named person to another (a new manager, a
new landlord), where the old person is still the one to use when the question is about them.
"""

from __future__ import annotations

from collections.abc import Sequence

from permem.corpus.templates import Scenario, template

ACKS = ("Got it.", "Okay, noted.", "Thanks for the update.", "Understood.", "Right, noted.")

# (the first value with its detail, the replacement, the return to the first value, questions)
RETURNS: tuple[tuple[Sequence[str], Sequence[str], Sequence[str], Sequence[str]], ...] = (
    (
        (
            "I work nights at the depot, 10pm to 6am, so I sleep till early afternoon.",
            "Night shift for me: I clock in at ten in the evening and finish at six.",
            "My shifts are 22:00 to 06:00, I'm basically nocturnal.",
            "I'm on permanent nights at the warehouse. Start 10pm, done at 6 in the morning.",
            "heads up, I work the graveyard shift, ten till six, mornings are my bedtime",
            "Overnight shifts, 10 at night to 6am, four nights a week.",
        ),
        (
            "They moved me onto the day rota, 8 to 4 now.",
            "Big change at work: I'm on days, eight in the morning till four.",
            "no more nights! normal daytime hours from this week",
            "I switched to the early team. Up at 6:30, home by half four.",
            "New rota: I work 08:00-16:00 now, like a normal human.",
            "Day shifts from now on, the manager finally agreed.",
        ),
        (
            "Days were wrecking my sleep, so I asked to go back to nights, same hours as before.",
            "Back on the night shift, the old hours again. Honestly I prefer it.",
            "I'm returning to nights from Monday, same pattern I had before.",
            "ok the day rota didn't work for me. back to my old overnight hours",
            "Went back to what I was doing before: nights. The daytime thing was a mistake.",
            "Nights again! Asked for my old shift back and got it.",
        ),
        (
            "when's a good time for me to book a dentist appointment, given my work?",
            "plan my meals around my shifts next week",
            "when should I go to the gym this week so it fits my work hours?",
            "what time of day should I schedule a call with my mum?",
            "set up reminders to take my vitamins at a sensible time for my schedule",
            "when should I do my grocery shopping this week?",
        ),
    ),
    (
        (
            "My laptop is a ThinkPad running Ubuntu.",
            "I'm on Linux, Ubuntu on an old ThinkPad.",
            "Ubuntu user here, ThinkPad T480.",
            "so my machine is a thinkpad with ubuntu on it",
            "I use Linux for everything, Ubuntu, on a ThinkPad.",
            "Computer-wise: ThinkPad, Ubuntu, nothing fancy.",
        ),
        (
            "Work handed me a MacBook, so I'm on macOS now.",
            "I've switched to a Mac, the company insisted.",
            "New laptop: a MacBook Air. Everything's macOS now.",
            "got a macbook from IT this week, goodbye linux",
            "Just moved over to macOS, my employer rolled out Macs.",
            "I'm using a Mac for everything these days.",
        ),
        (
            "The Mac went back to IT, I'm on my old laptop again, same setup as before.",
            "Returned the MacBook, couldn't get on with it. Back to the ThinkPad.",
            "Scrap the Mac thing: I handed it back and I'm on my Linux machine again.",
            "back on my trusty old laptop, the macbook experiment is over",
            "IT let me keep using my own machine after all, so it's the ThinkPad again.",
            "I gave the Mac back. Same laptop as before now.",
        ),
        (
            "what's the keyboard shortcut to lock my screen?",
            "how do I take a screenshot of one window on my laptop?",
            "how do I install Python on my computer?",
            "my laptop is slow, how do I see what's using the memory?",
            "how do I connect my laptop to a second monitor?",
            "which video call app works best on my computer?",
        ),
    ),
    (
        (
            "I cycle to work, 25 minutes along the canal path.",
            "My commute is by bike: canal towpath, about twenty-five minutes door to door.",
            "bike commuter here, 25 min each way along the canal",
            "I ride my bike to the office. It's a 25-minute ride by the canal.",
            "Getting to work = cycling, roughly 25 minutes, canal route.",
            "I go to work on my bike every day, the canal way, under half an hour.",
        ),
        (
            "My bike got stolen, so I take the number 14 bus to work now.",
            "I'm commuting by bus these days, about 40 minutes with the change.",
            "no bike anymore (stolen!!), it's the bus for me now",
            "Bus to work from now on. Forty minutes, two stops from the office.",
            "I've been getting the bus into work since someone nicked my bike.",
            "Commute update: bus only now, the bike's gone.",
        ),
        (
            "Got a new bike! Back to cycling in, same route as before.",
            "Insurance paid out, so I'm on two wheels again, the old way along the water.",
            "I'm done with the bus, cycling to work again like I used to.",
            "new bike arrived, so it's the canal ride again, not the bus",
            "Back on the bike for my commute, same ride as I used to do.",
            "Bought a replacement bike. I'm riding in again, my old route.",
        ),
        (
            "what should I wear for my commute tomorrow? rain is forecast",
            "how long should I allow to get to work on Monday?",
            "I have a 9am meeting, what time should I leave home?",
            "what do I need to pack for getting to work in the snow?",
            "plan my morning so I'm at the office by 8:30",
            "is there anything I should buy to make my commute more comfortable?",
        ),
    ),
)


@template(
    "correction",
    "back-to-before",
    "A value is replaced and later restored by a message that leans on the first ('back on "
    "nights, same hours as before'): while the replacement stands it is relevant and the first "
    "forbidden; after the return, the first message and the return are relevant, the "
    "replacement forbidden.",
)
def back_to_before(s: Scenario) -> None:
    d = s.draw
    firsts, seconds, returns, asks = d.any(RETURNS)
    first_text, second_text, return_text = d.pick(firsts), d.pick(seconds), d.pick(returns)
    mid_ask, late_ask = d.pick(asks), d.pick(asks)
    c = s.chat(s.day(0, d.between(8, 21)))
    first = c.user(first_text)
    c.assistant(d.any(ACKS))
    second_day = d.between(10, 35)
    c = s.chat(s.day(second_day, d.between(8, 21)))
    second = c.user(second_text)
    c.assistant(d.any(("Oh, big change!", *ACKS)))
    return_day = second_day + d.between(25, 50)
    check_midway = d.chance(0.5)
    later = {"_log": "logs_2.jsonl"} if check_midway else {}
    c = s.chat(s.day(return_day, d.between(8, 21)), **later)
    back = c.user(return_text)
    c.assistant(d.any(("Fair enough, switched back.", *ACKS)))
    s.nightly()
    if check_midway:
        at = s.day(second_day + d.between(3, return_day - second_day - 2), 12)
        s.recall(s.ask(mid_ask, at, relevant=[second], forbidden=[first]))
        s.nightly(later["_log"])
    at = s.day(return_day + d.between(4, 30), d.between(9, 19))
    s.recall(s.ask(late_ask, at, relevant=[first, back], forbidden=[second]))
    s.notes.append(
        "The return names no value of its own ('same hours as before'), so the first message is "
        "needed again once the replacement is undone."
    )


# (the role, the first holder with a detail about them, the handover, questions addressed to
# whoever holds the role now, questions about the first holder); {old} and {new} are names.
HANDOVERS: tuple[tuple[Sequence[str], Sequence[str], Sequence[str], Sequence[str]], ...] = (
    (
        (
            "My manager is {old}, she likes my weekly update as three bullet points.",
            "{old} is my boss. She wants updates short, bullets only.",
            "I report to {old}; she reads everything on her phone, so keep my updates tiny.",
            "fyi my line manager is {old}, and she hates long emails",
            "For work stuff: my manager's {old}. Bullet points, never paragraphs, for her.",
            "{old} manages me. Updates to her go out Fridays, short and to the point.",
        ),
        (
            "{old} left the company. I report to {new} now.",
            "New boss: {new}. {old} moved on last week.",
            "I've got a new manager, {new}, since {old} took a job elsewhere.",
            "so {old} resigned and {new} is running our team now",
            "Reorg: {new} is my manager from this month, {old} is gone.",
            "{new} took over the team after {old} left, so {new} is who I report to.",
        ),
        (
            "draft my weekly update to my manager",
            "write a note to my boss asking for Thursday off",
            "help me tell my manager the project is a week late",
            "who should I send my holiday request to?",
            "draft a message to my manager asking for a one-to-one",
            "write my Friday status email to my boss",
        ),
        (
            "help me write a goodbye card for {old}",
            "what should I write in {old}'s leaving card?",
            "draft a LinkedIn recommendation for {old}",
            "write a thank-you message to {old} for all the support",
            "suggest a farewell gift for {old}",
            "help me word a goodbye email to {old}",
        ),
    ),
    (
        (
            "Our landlord is {old}, he only answers texts, never email.",
            "{old} owns our flat. Text him, he ignores emails.",
            "The landlord's {old}; if anything breaks I text him.",
            "my landlord {old} is old school, texts only",
            "Landlord: {old}. Prefers a text message to anything else.",
            "We rent from {old}, and he's only reachable by text.",
        ),
        (
            "{old} sold the building, our new landlord is {new}.",
            "The flat changed hands: {new} owns it now, not {old}.",
            "New landlord since the sale: {new}.",
            "so {old} sold up and now we rent from {new}",
            "{new} bought the place from {old}, so {new} is our landlord.",
            "We've got a new landlord, {new}, {old} is out of the picture.",
        ),
        (
            "draft a message to my landlord about the leaking tap",
            "help me ask my landlord to fix the boiler",
            "write to the landlord about renewing our lease",
            "how do I tell my landlord the smoke alarm is beeping?",
            "ask my landlord whether we can paint the bedroom",
            "draft a note to the landlord about the broken window lock",
        ),
        (
            "{old} still owes us our key deposit from the old agreement, how do I ask?",
            "help me write a thank-you to {old} for being a decent landlord",
            "draft a message to {old} asking for the old gas certificate",
            "write to {old} about the rent I overpaid before the sale",
            "how do I ask {old} for a reference for our next flat?",
            "remind {old} about the spare keys he still has",
        ),
    ),
    (
        (
            "{child}'s teacher is {old}, she likes notes in the reading diary rather than email.",
            "{old} teaches {child}'s class. Best to write to her in the reading diary.",
            "{child} has {old} as a teacher this year; she prefers a note in the bookbag.",
            "the teacher for {child} is {old}, she's lovely, always replies in the diary",
            "{child}'s class teacher: {old}. Notes home go in the diary.",
            "{old} is {child}'s teacher, and she asks parents to use the reading diary.",
        ),
        (
            "{child} moved up a set, his teacher is {new} now.",
            "{child} changed class this term, so {new} is the teacher, not {old}.",
            "New teacher for {child}: {new}, since the classes were reshuffled.",
            "{old} went on maternity leave, {new} has {child}'s class now",
            "{child}'s got {new} as a teacher from this week.",
            "The school swapped things round: {new} teaches {child} now.",
        ),
        (
            "write a note to {child}'s teacher that he'll miss school on Friday",
            "help me ask {child}'s teacher about his spelling homework",
            "draft a message to {child}'s teacher about the school trip form",
            "how do I tell {child}'s teacher he's been anxious lately?",
            "write to {child}'s teacher asking for a parents' meeting",
            "let {child}'s teacher know he has a dentist appointment Tuesday",
        ),
        (
            "help {child} write a thank-you card for {old}",
            "what small gift could {child} give {old} at the end of term?",
            "draft a note thanking {old} for all she did for {child}",
            "{child} wants to send {old} a drawing, what should he write on it?",
            "help me write a card to {old} from {child}",
            "suggest a message from {child} to {old}",
        ),
    ),
)
NAMES = ("Dana", "Priya", "Marguerite", "Tomasz", "Heike", "Obi", "Rhiannon", "Yuki")
CHILDREN = ("Milo", "Theo", "Felix", "Otto", "Rafi")


@template(
    "correction",
    "role-changed-hands",
    "A role passes from one named person to another (new manager, new landlord, new teacher): "
    "for questions to whoever holds the role the handover is relevant and the old holder "
    "forbidden; for a question about the old holder by name, both are relevant.",
)
def role_changed_hands(s: Scenario) -> None:
    d = s.draw
    firsts, handovers, to_role, about_old = d.any(HANDOVERS)
    old = d.any(NAMES)
    new = d.any([name for name in NAMES if name != old])
    values = {"old": old, "new": new, "child": d.any(CHILDREN)}
    first_text, handover_text = d.pick(firsts), d.pick(handovers)
    role_ask, old_ask = d.pick(to_role), d.pick(about_old)
    c = s.chat(s.day(0, d.between(8, 21)))
    first = c.user(first_text.format(**values))
    c.assistant(d.any(ACKS))
    c = s.chat(s.day(d.between(15, 60), d.between(8, 21)))
    handover = c.user(handover_text.format(**values))
    c.assistant(d.any(("Thanks, I'll keep that straight.", *ACKS)))
    s.nightly()
    queries = [
        s.ask(
            role_ask.format(**values),
            s.day(d.between(65, 80), d.between(9, 18)),
            relevant=[handover],
            forbidden=[first],
        )
    ]
    if d.chance(0.6):
        queries.append(
            s.ask(
                old_ask.format(**values),
                s.day(d.between(81, 90), d.between(9, 18)),
                relevant=[first, handover],
            )
        )
    s.recall(*queries)
