"""What the user takes back: fixes of the message just sent (correction)."""

from __future__ import annotations

from collections.abc import Sequence

from permem.corpus import pools
from permem.corpus.amendments import _chatter
from permem.corpus.templates import Scenario, template

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
