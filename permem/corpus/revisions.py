"""What replaces what: correction and one-off-exception templates."""

from __future__ import annotations

from permem.corpus.templates import Scenario, template

SWITCHES = (
    (
        ("I drive a diesel estate, so parking needs to fit a big car.",),
        (
            "Sold the car, I cycle everywhere now, no car at all.",
            "Scratch the car thing, I got rid of it and only ride my bike now.",
        ),
        "plan how I get to the furniture shop on Saturday",
    ),
    (
        ("I'm on Windows at home.", "My home laptop runs Windows."),
        (
            "Switched to a Mac, the Windows machine died.",
            "I'm a Mac user now, not Windows anymore.",
        ),
        "how do I take a screenshot of part of the screen?",
    ),
    (
        ("I work night shifts, so I sleep during the day.",),
        (
            "I'm on day shifts now, 7 to 3, nights are over.",
            "No more nights for me, I moved to the early shift.",
        ),
        "when should I book my dentist appointment?",
    ),
    (
        ("I take the 7:40 train to work.",),
        (
            "I work from home full time now, no more commuting.",
            "Not commuting anymore, I'm fully remote since last month.",
        ),
        "plan my Tuesday morning",
    ),
)


@template(
    "correction",
    "switched",
    "A later statement replaces an earlier one on the same topic; the earlier one is forbidden.",
)
def switched(s: Scenario) -> None:
    d = s.draw
    old, new, ask = d.any(SWITCHES)
    first = s.chat(s.day(0, 9)).user(d.pick(old))
    later = s.chat(s.day(d.between(10, 60), 18)).user(d.pick(new))
    s.nightly()
    s.recall(s.ask(ask, s.day(75, 9), relevant=[later], forbidden=[first]))


SLIPS = (
    (
        "My shoe size is 42.",
        ("Sorry, 43! 42 was years ago.", "Wait no, 43. Not 42."),
        "order me some trail running shoes",
    ),
    (
        "I'm free on Tuesdays for lessons.",
        ("Correction: Wednesdays, not Tuesdays.", "Oops, I meant Wednesdays."),
        "book my next guitar lesson",
    ),
    (
        "Budget for the new phone is 300.",
        ("Actually make that 500 max.", "Hmm, let's say 500, not 300."),
        "recommend a phone for me",
    ),
)


@template(
    "correction",
    "same-conversation-slip",
    "The user corrects a detail a few turns later; only the corrected message is relevant.",
)
def same_conversation_slip(s: Scenario) -> None:
    d = s.draw
    old, fixes, ask = d.any(SLIPS)
    c = s.chat(s.day(0, 12))
    wrong = c.user(old)
    c.assistant(d.any(("Got it.", "Noted!", "Okay.")))
    right = c.user(d.pick(fixes))
    s.nightly()
    s.recall(s.ask(ask, s.day(9, 12), relevant=[right], forbidden=[wrong]))


@template(
    "correction",
    "gone-off-it",
    "A favourite is later called 'way too sweet' in a sentence "
    "that leans on the one before; the old favourite is forbidden.",
)
def gone_off_it(s: Scenario) -> None:
    d = s.draw
    dish = d.any(("honey cake", "pistachio baklava", "salted caramel tart", "mango lassi"))
    fav = s.chat(s.day(0, 15)).user(
        d.pick(
            (
                f"The {dish} from the corner bakery is my favourite.",
                f"I could eat {dish} every day, easily my favourite.",
            )
        )
    )
    had = d.pick((f"Had the {dish} again yesterday.", f"Tried the {dish} again last night."))
    verdict = d.pick(
        (
            "It's way too sweet now, don't suggest it again.",
            "Honestly it's sickly, take it off my list.",
            "Way too sugary, I'm done with it.",
        )
    )
    ids = s.chat(s.day(d.between(20, 50), 10)).tell(had, verdict)
    ask = d.pick(("dessert suggestion for the weekend?", "what should I order for pudding?"))
    s.nightly()
    s.recall(s.ask(ask, s.day(70, 18), relevant=ids[1:], forbidden=[fav]))


@template(
    "one-off-exception",
    "just-this-once",
    "A standing rule and an exception 'just this once' "
    "for one occasion: later requests use the rule, the exception is forbidden.",
)
def just_this_once(s: Scenario) -> None:
    d = s.draw
    rule, once, ask = d.any(
        (
            (
                ("I'm vegetarian.", "I don't eat meat."),
                (
                    "Just this once, find me a good steakhouse, "
                    "it's my dad's birthday and he loves steak.",
                    "It's for my dad's birthday tonight, so a steak place this one time.",
                ),
                "suggest a restaurant for Friday",
            ),
            (
                ("Always give me a window seat.", "Window seats on every flight please."),
                (
                    "This time put me on the aisle, I'll be up and down with the baby.",
                    "For this flight only, an aisle seat.",
                ),
                "book my flight to the conference",
            ),
            (
                (
                    "I like detailed, thorough explanations.",
                    "Long answers are fine, I like the detail.",
                ),
                ("Today keep it super short, I'm on my phone.", "Just for now, one-liners only."),
                "explain how mortgages work",
            ),
        )
    )
    standing = s.chat(s.day(0, 10)).user(d.pick(rule))
    exception = s.chat(s.day(d.between(5, 30), 17)).user(d.pick(once))
    s.nightly()
    s.recall(s.ask(ask, s.day(45, 11), relevant=[standing], forbidden=[exception]))


@template(
    "one-off-exception",
    "buying-for-someone",
    "A request made for someone else this time "
    "('for my nephew, he's into dinosaurs') is not the user's taste later.",
)
def buying_for_someone(s: Scenario) -> None:
    d = s.draw
    own = s.chat(s.day(0, 21)).user(
        d.pick(
            (
                "I read mostly literary fiction, slow and sad is fine.",
                "My reading: literary novels, the quieter the better.",
            )
        )
    )
    who = d.any(("nephew", "niece", "godson", "neighbour's kid"))
    ids = s.chat(s.day(d.between(5, 30), 13)).tell(
        d.pick(
            (
                f"Need a present for my {who}, he turns seven.",
                f"Shopping for my {who} this time, it's his birthday.",
            )
        ),
        d.pick(
            (
                "He's obsessed with dinosaurs and trucks.",
                "He loves dinosaurs, the gorier the better.",
            )
        ),
    )
    ask = d.pick(("recommend a book for me to read next", "what should I read on holiday?"))
    s.nightly()
    s.recall(s.ask(ask, s.day(50, 20), relevant=[own], forbidden=ids))
