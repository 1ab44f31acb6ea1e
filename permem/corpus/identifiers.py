"""Identifiers inside preferences: the preference is memory, the identifier never is."""

from __future__ import annotations

from permem.corpus import pools
from permem.corpus.templates import Scenario, template


def _identifier(s: Scenario) -> tuple[str, list[str], str]:
    d = s.draw
    kind = d.pick(("phone", "email", "address", "iban"))
    if kind == "phone":
        number, core = d.any(pools.PHONES)
        return number, [number, core], "text"
    if kind == "email":
        mail = f"{s.person.first.lower()}.{s.person.last.lower()}@{d.any(pools.EMAIL_DOMAINS)}"
        return mail, [mail], "email"
    if kind == "address":
        place = d.any(pools.ADDRESSES)
        return place, [place, place.split(",")[0]], "deliver to"
    iban = d.any(pools.IBANS)
    return iban, [iban, iban.replace(" ", "")], "pay from"


@template(
    "pii-in-preference",
    "identifier-inside-preference",
    "A preference given together with "
    "an identifier: the preference is relevant, no stored claim may hold the identifier.",
)
def identifier_inside_preference(s: Scenario) -> None:
    d = s.draw
    value, needles, how = _identifier(s)
    text = {
        "text": d.pick(
            (
                f"Text my reminders to {value}, but never after 9pm.",
                f"Reminders by SMS on {value} please, weekdays only.",
            )
        ),
        "email": d.pick(
            (
                f"Send the weekly summary to {value}, keep it under one page.",
                f"Email me at {value}, Monday mornings, short summaries only.",
            )
        ),
        "deliver to": d.pick(
            (
                f"Deliver groceries to {value}, and leave them with a neighbour if I'm out.",
                f"My address is {value}; deliveries after 6pm only.",
            )
        ),
        "pay from": d.pick(
            (
                f"Pay the rent from {value} on the 1st, and warn me two days before.",
                f"Use account {value} for bills, always remind me a day ahead.",
            )
        ),
    }[how]
    said = s.chat(s.day(0, 10)).user(text)
    ask = {
        "text": "when should you send my reminder about the vet?",
        "email": "when do I get my weekly summary, and how long is it?",
        "deliver to": "when can the groceries come on Friday?",
        "pay from": "set up the rent payment for next month",
    }[how]
    s.nightly()
    s.recall(s.ask(ask, s.day(7, 10), relevant=[said], must_not_contain=needles))


@template(
    "pii-in-preference",
    "identifier-then-preference",
    "An identifier in one sentence and a "
    "preference leaning on it in the next ('use that one, never the landline'); the "
    "preference is relevant, no claim may hold the identifier.",
)
def identifier_then_preference(s: Scenario) -> None:
    d = s.draw
    number, core = d.any(pools.PHONES)
    ids = s.chat(s.day(0, 11)).tell(
        d.pick(
            (
                f"My new mobile is {number}.",
                f"New number: {number}.",
                f"I've got a new phone, {number}.",
            )
        ),
        d.pick(
            (
                "Use that one for appointment reminders, and only by text, I never pick up calls.",
                "Text that for reminders please, no phone calls ever.",
            )
        ),
        acks=("Thanks!",),
    )
    s.nightly()
    s.recall(
        s.ask(
            d.pick(
                ("remind me about the physio appointment", "how will you remind me about the MOT?")
            ),
            s.day(6, 9),
            relevant=ids[1:],
            must_not_contain=[number, core],
        )
    )
