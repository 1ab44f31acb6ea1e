"""No longer so: past habits beside current ones (plan-vs-fact)."""

from __future__ import annotations

from permem.corpus.templates import Scenario, template

ACKS = ("Got it.", "Noted.", "Okay!", "Sounds good.", "Understood.")


# (past habits, current habits, queries)
USED_TO = (
    (
        (
            "I used to drink four espressos a day.",
            "Back in my office job I lived on coffee, five cups a day easily.",
            "For years I was a triple-shot-latte-every-morning person.",
            "In my twenties I'd drink coffee till midnight.",
        ),
        (
            "These days it's one green tea in the morning, no coffee.",
            "Nowadays I only drink herbal tea, coffee wrecks my sleep.",
            "I'm off coffee now, decaf or tea only.",
            "Currently a one-cup-of-tea-a-day person, no coffee.",
        ),
        (
            "what should I order at the coffee shop?",
            "get me a drink from the coffee place",
            "I'm meeting a friend for coffee, what should I get?",
            "what should I drink instead of coffee this afternoon?",
        ),
    ),
    (
        (
            "I used to run marathons, three a year.",
            "Back at uni I ran 60k a week, races every month.",
            "I was a serious runner for a decade, ultras included.",
            "Years ago I'd do a 20k run every Sunday.",
        ),
        (
            "Now my exercise is gentle walks and yoga, no running.",
            "These days my exercise is walking the dog and yoga.",
            "My exercise now: yoga twice a week and long walks.",
            "Exercise nowadays means swimming and walking, my knees are done with running.",
        ),
        (
            "plan my exercise for this week",
            "what exercise should I do this weekend?",
            "suggest some exercise for a rainy Saturday",
            "make me an exercise plan for the month",
        ),
    ),
    (
        (
            "I used to stay up till 3am gaming every night.",
            "I was a total night owl through my twenties, bed at 4.",
            "Back when I worked in bars, I'd go to bed at dawn and sleep till noon.",
            "For years my bedtime was 2am.",
        ),
        (
            "Now I'm in bed by 10 and up at 6.",
            "These days I go to bed at 10, early riser now.",
            "I'm an early bird now: bed at 10pm, up at 6am.",
            "My bedtime nowadays is 10pm sharp.",
        ),
        (
            "set a bedtime reminder for me",
            "plan my evening so I'm in bed on time",
            "when should I go to bed before my early meeting?",
            "what time should I set my alarm, given my bedtime?",
        ),
    ),
    (
        (
            "I used to eat steak three times a week.",
            "Growing up I'd eat meat at every meal.",
            "Back in the day I'd eat a burger for lunch every day.",
            "For years I ate a high-protein, mostly-meat diet.",
        ),
        (
            "I'm pescatarian now, I eat fish but no meat.",
            "These days I eat no meat, just fish and veg.",
            "Now I eat fish, but meat is out.",
            "Meat's out these days, though I eat fish.",
        ),
        (
            "what should I eat for dinner tonight?",
            "plan what I eat this week",
            "what should I eat at the barbecue on Saturday?",
            "suggest something to eat for lunch",
        ),
    ),
    (
        (
            "I used to commute two hours a day by car.",
            "Back when I drove to the office every day, I'd sit in traffic for ages.",
            "For ten years I drove to work, an hour each way.",
            "In my old job I spent half my life commuting in the car.",
        ),
        (
            "Now I cycle my commute, 20 minutes along the canal.",
            "These days my commute is a bike ride, 20 minutes.",
            "I commute by bike now, the canal path.",
            "My commute nowadays: 20 minutes on the bike.",
        ),
        (
            "plan my commute for tomorrow, it might rain",
            "what should I wear for my commute?",
            "my commute tomorrow, anything to prepare?",
            "how long should I allow for my commute on Monday?",
        ),
    ),
)


@template(
    "plan-vs-fact",
    "used-to",
    "A past habit ('I used to drink four espressos a day', 'back at uni "
    "I ran 60k a week') is not a current one; the current habit, in another message, is "
    "relevant and the past one forbidden, whichever was said first.",
)
def used_to(s: Scenario) -> None:
    d = s.draw
    pasts, currents, asks = d.any(USED_TO)
    past_text, current_text = d.pick(pasts), d.pick(currents)
    if d.chance():
        c = s.chat(s.day(0, d.between(8, 22)))
        past = c.user(past_text)
        c.assistant(d.pick(("Wow, that's a lot!", "Ha, impressive.", "Really?", "Oh!")))
        if d.chance(0.5):
            c = s.chat(s.day(d.between(1, 15), d.between(8, 22)))
        current = c.user(current_text)
    else:
        current = s.chat(s.day(0, d.between(8, 22))).user(current_text)
        c = s.chat(s.day(d.between(2, 20), d.between(18, 23)))
        c.user(d.pick(("fun fact about me", "random story", "here's a thing", "confession")))
        c.assistant(d.pick(("Go on!", "I'm listening.", "Tell me.", "Ooh?")))
        past = c.user(past_text)
    c.assistant(d.pick(ACKS))
    s.nightly()
    at = s.day(d.between(25, 60), d.between(8, 19))
    s.recall(s.ask(d.pick(asks), at, relevant=[current], forbidden=[past]))
