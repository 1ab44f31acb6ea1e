"""The user's control over memory: sensitive, incognito, pause, forget and pii-in-preference."""

from __future__ import annotations

from permem.corpus.templates import Scenario, template

ASIDES = (
    ("Can you move my 3pm to tomorrow?", "I've got my chemo session then."),
    ("Push the team lunch to Friday please.", "Thursday is my therapist appointment."),
    ("Cancel Tuesday evening for me.", "It's my HIV test results appointment."),
    ("I need Friday afternoon blocked.", "Going to the mosque for Jumu'ah, I never miss it."),
    ("Clear my Wednesday night.", "Union branch meeting, we're voting on the strike."),
    ("Block out Monday morning.", "IVF scan at the clinic."),
)


@template(
    "sensitive",
    "aside-not-asked-to-keep",
    "A special-category detail mentioned in passing "
    "while rescheduling is not memory; an ordinary preference is.",
)
def aside_not_asked_to_keep(s: Scenario) -> None:
    d = s.draw
    own = s.chat(s.day(-5, 9)).user(
        d.pick(
            ("I like meetings bunched in the morning.", "Keep my afternoons as free as you can.")
        )
    )
    ask_first, aside = d.any(ASIDES)
    ids = s.chat(s.day(0, 8)).tell(ask_first, aside, acks=("Sure, which slot?",))
    s.nightly()
    s.recall(
        s.ask(
            d.pick(("plan my meetings for next week", "find a slot for a dentist visit")),
            s.day(10, 9),
            relevant=[own],
            forbidden=ids[1:],
        )
    )


@template(
    "sensitive",
    "asked-to-keep-and-aside",
    "A health condition the user asks to have kept is "
    "used for its purpose; another passing special-category detail is not.",
)
def asked_to_keep_and_aside(s: Scenario) -> None:
    d = s.draw
    kept = s.chat(s.day(0, 12)).user(
        d.pick(
            (
                "I'm type 1 diabetic, please keep that in mind for any recipes you suggest.",
                "Remember I have coeliac disease whenever you suggest food, "
                "it has to be strictly gluten free.",
                "Please remember I have a severe sesame allergy for all meal ideas.",
            )
        )
    )
    aside = s.chat(s.day(4, 8)).user(
        d.pick(
            (
                "ugh, running late from my AA meeting. anyway, what's a quick lunch?",
                "just got back from the psychiatrist, new meds. what can I cook fast?",
                "back from the pregnancy scan! okay, dinner ideas?",
            )
        )
    )
    s.nightly()
    s.recall(
        s.ask(
            d.pick(("suggest a recipe for dinner", "what should I bake for the weekend?")),
            s.day(15, 18),
            relevant=[kept],
            forbidden=[aside],
        )
    )


@template(
    "incognito",
    "temporary-chat",
    "A temporary (incognito) chat never creates memory; the "
    "normal conversation's claims are relevant.",
)
def temporary_chat(s: Scenario) -> None:
    d = s.draw
    own = s.chat(s.day(0, 20)).user(
        d.pick(
            (
                "I watch mostly nature documentaries.",
                "Slow documentaries are my thing, wildlife especially.",
            )
        )
    )
    hidden = s.chat(s.day(d.between(1, 5), 23), incognito=True).tell(
        d.pick(
            (
                "Don't tell anyone but I binge reality dating shows.",
                "Secretly I love trashy horror films.",
            )
        ),
        d.pick(("Recommend a few?", "What's good right now?")),
    )
    s.nightly()
    s.recall(
        s.ask(
            d.pick(("what should I watch tonight?", "recommend a show for the weekend")),
            s.day(10, 21),
            relevant=[own],
            forbidden=hidden,
        )
    )


@template(
    "incognito",
    "incognito-contradiction",
    "A statement in an incognito chat that "
    "contradicts memory changes nothing: the normal claim stays relevant.",
)
def incognito_contradiction(s: Scenario) -> None:
    d = s.draw
    own = s.chat(s.day(0, 19)).user(d.pick(("I'm vegetarian.", "No meat for me, ever.")))
    hidden = s.chat(s.day(5, 22), incognito=True).user(
        d.pick(
            (
                "Actually I eat meat now, I just haven't told anyone.",
                "Forget the veggie thing, I'm eating burgers again.",
            )
        )
    )
    s.nightly()
    s.recall(
        s.ask(
            d.pick(("what should I cook tonight?", "recommend a restaurant for Saturday")),
            s.day(12, 18),
            relevant=[own],
            forbidden=[hidden],
        )
    )


def _two_claims(s: Scenario) -> list[str]:
    d = s.draw
    c = s.chat(s.day(0, 9))
    first = c.user(
        d.pick(
            (
                "I'm learning Portuguese, explain words in Portuguese when you can.",
                "I practise Portuguese daily, throw in Portuguese words.",
            )
        )
    )
    c.assistant("Combinado!")
    second = c.user(d.pick(("And I like short, punchy answers.", "Keep replies brief please.")))
    return [first, second]


@template(
    "pause",
    "pause-and-resume",
    "After pause the subject's recall is empty; after resume the claims come back.",
)
def pause_and_resume(s: Scenario) -> None:
    d = s.draw
    ids = _two_claims(s)
    ask = d.pick(("help me write a text to my friend", "teach me something new today"))
    s.nightly()
    s.op("pause", tenant=s.tenant, subject=s.account)
    s.recall(s.ask(ask, s.day(3, 10), forbidden=ids, expect_empty=True))
    s.op("resume", tenant=s.tenant, subject=s.account)
    s.recall(s.ask(ask, s.day(4, 10), relevant=ids[:1]))


@template(
    "pause",
    "said-while-paused",
    "What the user says while memory is paused never becomes "
    "memory, even after resuming; claims from before the pause come back.",
)
def said_while_paused(s: Scenario) -> None:
    d = s.draw
    ids = _two_claims(s)
    paused = s.chat(s.day(2, 21), _log="logs_paused.jsonl").user(
        d.pick(
            (
                "I've started learning Japanese instead, so use Japanese words.",
                "Switch to Italian words from now on, I dropped Portuguese.",
            )
        )
    )
    s.nightly()
    s.op("pause", tenant=s.tenant, subject=s.account)
    s.nightly("logs_paused.jsonl")
    s.op("resume", tenant=s.tenant, subject=s.account)
    s.recall(s.ask("teach me a new word today", s.day(6, 10), relevant=ids[:1], forbidden=[paused]))


@template(
    "pause",
    "other-subject-unaffected",
    "Pausing one account leaves another account of the tenant untouched.",
)
def other_subject_unaffected(s: Scenario) -> None:
    d = s.draw
    other = s.other_person()
    ids = _two_claims(s)
    theirs = s.chat(s.day(1, 9), account=other.account).user(
        d.pick(
            (
                "I'm learning Welsh, sprinkle in Welsh words.",
                "Welsh practice please, add Welsh words.",
            )
        )
    )
    s.nightly()
    s.op("pause", tenant=s.tenant, subject=s.account)
    ask = "teach me a new word today"
    s.recall(
        s.ask(ask, s.day(3, 10), forbidden=ids, expect_empty=True),
        s.ask(ask, s.day(3, 11), actor=other.account, subject=other.account, relevant=[theirs]),
    )


def _hobbies(s: Scenario) -> tuple[str, str]:
    d = s.draw
    c = s.chat(s.day(0, 18))
    keep = c.user(d.pick(("I sing in a choir, baritone.", "Choir on Thursdays, I'm a baritone.")))
    c.assistant("Lovely.")
    drop = c.user(
        d.pick(("And I've taken up fencing, sabre.", "Also started fencing classes, sabre."))
    )
    return keep, drop


@template(
    "forget",
    "forget-one-source",
    "One message is forgotten (and the index rebuilt or not); "
    "it stays gone, the other claim remains.",
)
def forget_one_source(s: Scenario) -> None:
    d = s.draw
    keep, drop = _hobbies(s)
    s.nightly()
    s.op("forget", tenant=s.tenant, source=drop)
    if d.chance():
        s.op("rebuild-index")
    s.recall(
        s.ask(
            "suggest something fun for Thursday evening",
            s.day(9, 12),
            relevant=[keep],
            forbidden=[drop],
            must_not_contain=["fencing"],
        )
    )


@template(
    "forget",
    "forget-whole-subject",
    "One account forgets everything: its recall is empty; another account's claims remain.",
)
def forget_whole_subject(s: Scenario) -> None:
    other = s.other_person()
    ids = list(_hobbies(s))
    theirs = s.chat(s.day(1, 10), account=other.account).user("I paint watercolours on weekends.")
    s.nightly()
    s.op("forget", tenant=s.tenant, subject=s.account)
    s.op("rebuild-index")
    ask = "suggest a hobby outing for Saturday"
    s.recall(
        s.ask(ask, s.day(9, 9), forbidden=ids, expect_empty=True),
        s.ask(ask, s.day(9, 9), actor=other.account, subject=other.account, relevant=[theirs]),
    )


@template(
    "forget",
    "forget-the-antecedent",
    "The forgotten message is the antecedent of the next "
    "('so plan my meals around that'); nothing stored may still say what was forgotten.",
)
def forget_the_antecedent(s: Scenario) -> None:
    d = s.draw
    keep = s.chat(s.day(-3, 12)).user("Big breakfasts are my thing.")
    c = s.chat(s.day(0, 19))
    first = c.user(
        d.pick(
            (
                "I'm training for the Rotterdam marathon.",
                "Marathon training has started, race is in the spring.",
            )
        )
    )
    c.assistant("Exciting!")
    c.user(d.pick(("So plan my meals around that.", "Build my meal plans around it please.")))
    s.nightly()
    s.op("forget", tenant=s.tenant, source=first)
    s.recall(
        s.ask(
            "plan my meals for the week",
            s.day(8, 9),
            relevant=[keep],
            forbidden=[first],
            must_not_contain=["marathon"],
        )
    )
