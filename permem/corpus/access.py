"""Who may read whose memory: cross-tenant, cross-account and shared-device templates."""

from __future__ import annotations

from permem.corpus import pools
from permem.corpus.templates import Scenario, template

# Two opposite preferences on one topic, and a request that depends on it.
OPPOSITES = (
    (
        (
            "I only book early slots, before 8am, that's when I have energy.",
            "Mornings are best for me, ideally right when you open.",
        ),
        (
            "Evenings only please, I can't do anything before 6pm on weekdays.",
            "Late slots suit me, after work, so 7pm or later.",
        ),
        ("book me a class next week", "find a slot for me on Thursday"),
    ),
    (
        (
            "Please answer me in Spanish from now on, I'm practising.",
            "Spanish replies for me, even if I write in English.",
        ),
        (
            "Keep everything in English for me, my German is rusty.",
            "English only please, no matter what language the docs are in.",
        ),
        ("write a short reminder note for tomorrow", "draft a message to the team about Friday"),
    ),
    (
        (
            "Metric units for everything: grams, km, Celsius.",
            "I think in kilos and kilometres, never pounds or miles.",
        ),
        (
            "Use imperial for me, cups and ounces and Fahrenheit.",
            "Pounds and miles please, metric means nothing to me.",
        ),
        ("give me a recipe for banana bread", "how far is a good beginner long run?"),
    ),
    (
        (
            "Keep it formal with me, full sentences, no emoji.",
            "I prefer a professional tone, no slang and no exclamation marks.",
        ),
        (
            "Be super casual with me, emoji welcome 🙂",
            "Chatty and informal is great, talk to me like a friend.",
        ),
        ("write my weekly update", "reply to the message from my landlord"),
    ),
)


@template(
    "cross-tenant",
    "same-account-two-apps",
    "One account states opposite preferences in "
    "two tenants; each tenant's query sees only its own tenant's claim.",
)
def same_account_two_apps(s: Scenario) -> None:
    d = s.draw
    mine, theirs, asks = d.any(OPPOSITES)
    other_tenant = f"{d.any([a for a in pools.APPS if not s.tenant.startswith(a)])}-{s.code}b"
    a = s.chat(s.day(0, 9)).user(d.pick(mine))
    b = s.chat(s.day(d.between(1, 20), 20), tenant=other_tenant).user(d.pick(theirs))
    when = s.day(30, 12)
    s.nightly()
    s.recall(
        s.ask(d.pick(asks), when, relevant=[a], forbidden=[b]),
        s.ask(d.pick(asks), when, tenant=other_tenant, relevant=[b], forbidden=[a]),
    )


@template(
    "cross-tenant",
    "same-login-different-people",
    "The same account name in two tenants "
    "belongs to two people; neither tenant's recall may return the other's claims.",
)
def same_login_different_people(s: Scenario) -> None:
    d = s.draw
    other_tenant = f"{d.any(pools.APPS)}-{s.code}x"
    veg = d.pick(
        (
            "I'm vegetarian, have been for ten years.",
            "No meat for me, I'm veggie.",
            "I don't eat meat or fish.",
        )
    )
    meat = d.pick(
        (
            "I'm a carnivore, steak at least twice a week.",
            "Meat with every dinner please, I'm not a salad person.",
        )
    )
    a = s.chat(s.day(0, 19)).user(veg)
    b = s.chat(s.day(2, 18), tenant=other_tenant).user(meat)
    ask = d.pick(
        (
            "what should I cook tonight?",
            "plan three dinners for me",
            "suggest a takeaway for Friday",
        )
    )
    when = s.day(14, 17)
    s.nightly()
    s.recall(
        s.ask(ask, when, relevant=[a], forbidden=[b]),
        s.ask(ask, when, tenant=other_tenant, relevant=[b], forbidden=[a]),
    )


@template(
    "cross-tenant",
    "first-visit-elsewhere",
    "An account that only spoke in one tenant asks "
    "in another: the answer is empty, the first tenant's claims are forbidden.",
)
def first_visit_elsewhere(s: Scenario) -> None:
    d = s.draw
    c = s.chat(s.day(0, 11))
    ids = c.tell(
        d.pick(
            (
                "I'm allergic to cats, so no pet-friendly rentals.",
                "Cat allergy here, anything with pets is a no.",
            )
        ),
        d.pick(
            ("And I need a ground floor flat, bad knee.", "Also it has to be step-free, my knee.")
        ),
        acks=("Got it.", "Noted."),
    )
    elsewhere = f"{d.any(pools.APPS)}-{s.code}n"
    ask = d.pick(
        ("find me a place to stay for the conference", "what kind of flat should I look at?")
    )
    s.nightly()
    s.recall(s.ask(ask, s.day(9, 15), tenant=elsewhere, forbidden=ids, expect_empty=True))


@template(
    "cross-account",
    "household-peek",
    "Another account of the same tenant asks for this "
    "account's memory: denied; the owner's own query uses it.",
)
def household_peek(s: Scenario) -> None:
    d = s.draw
    other = s.other_person()
    mine = s.chat(s.day(0, 8)).user(
        d.pick(
            (
                "Please remember I'm saving for a house, so flag anything over 50 quid.",
                "I'm trying hard to save money, warn me about any purchase above 50.",
                "Budget mode: point out anything I buy that costs more than 50.",
            )
        )
    )
    s.chat(s.day(1, 21), account=other.account).user(
        d.pick(
            (
                "Can you set a reminder for the bins on Tuesday night?",
                "Remind me to water the plants every Sunday.",
            )
        )
    )
    peek = d.pick(
        (
            f"what has {s.person.first} been buying lately?",
            f"is {s.person.first} saving up for something?",
            f"what does {s.person.first} worry about with money?",
        )
    )
    s.nightly()
    s.recall(
        s.ask(peek, s.day(6, 20), actor=other.account, forbidden=[mine], expect_denied=True),
        s.ask("should I buy the new headphones?", s.day(6, 21), relevant=[mine]),
    )


@template(
    "cross-account",
    "colleagues-opposite",
    "Two colleagues' accounts in one tenant state "
    "opposite preferences; each account's query uses only its own.",
)
def colleagues_opposite(s: Scenario) -> None:
    d = s.draw
    other = s.other_person()
    mine, theirs, asks = d.any(OPPOSITES)
    team = f"workspace:{d.any(('ops', 'design', 'sales', 'research'))}"
    a = s.chat(s.day(0, 9), scope=team).user(d.pick(mine))
    b = s.chat(s.day(0, 9, 40), scope=team, account=other.account, session="shared-kiosk").user(
        d.pick(theirs)
    )
    when, ask = s.day(5, 10), d.pick(asks)
    s.nightly()
    s.recall(
        s.ask(ask, when, scope=team, relevant=[a], forbidden=[b]),
        s.ask(
            ask,
            when,
            scope=team,
            actor=other.account,
            subject=other.account,
            relevant=[b],
            forbidden=[a],
        ),
    )


@template(
    "cross-account",
    "asks-about-colleague",
    "An account's own query names a colleague; "
    "only the asking account's claims may be used, never the colleague's.",
)
def asks_about_colleague(s: Scenario) -> None:
    d = s.draw
    other = s.other_person()
    theirs = s.chat(s.day(0, 12), account=other.account).user(
        d.pick(
            (
                "I'm gluten free, coeliac, so lunch orders need to be safe for me.",
                "For team lunches: I can't have any gluten at all.",
            )
        )
    )
    mine = s.chat(s.day(1, 12)).user(
        d.pick(
            (
                "I always want the spiciest thing on the menu.",
                "Order me something spicy whenever there's team lunch, the hotter the better.",
            )
        )
    )
    ask = d.pick(
        (
            f"order lunch for me and {other.first}",
            f"what should I get for lunch, I'm eating with {other.first}?",
        )
    )
    s.nightly()
    s.recall(s.ask(ask, s.day(8, 11), relevant=[mine], forbidden=[theirs]))


@template(
    "shared-device",
    "profiles-on-one-account",
    "A family account with per-person profiles "
    "(`subject` field): each profile's query uses only its own claims.",
)
def profiles_on_one_account(s: Scenario) -> None:
    d = s.draw
    kid = d.any(pools.CHILD_NAMES).lower()
    adult_subject, kid_subject = f"{s.account}:{s.person.first.lower()}", f"{s.account}:{kid}"
    session = f"sess-{d.any(('tablet', 'tv', 'kitchen-hub'))}-{s.code}"
    grown = s.chat(s.day(0, 7), subject=adult_subject, session=session).user(
        d.pick(
            (
                "Black coffee and something savoury for breakfast, "
                "I hate sweet stuff in the morning.",
                "Savoury breakfasts only for me, eggs or toast, nothing sugary.",
            )
        )
    )
    young = s.chat(s.day(0, 16), subject=kid_subject, session=session).user(
        d.pick(
            (
                "i love pancakes with LOTS of syrup!!!",
                "chocolate cereal is the best breakfast ever",
                "I want waffles with sprinkles every day",
            )
        )
    )
    ask = d.pick(("what should I have for breakfast?", "breakfast ideas for tomorrow"))
    when = s.day(4, 7)
    s.nightly()
    s.recall(
        s.ask(ask, when, subject=adult_subject, relevant=[grown], forbidden=[young]),
        s.ask(ask, when, subject=kid_subject, relevant=[young], forbidden=[grown]),
        s.ask(ask, when, forbidden=[young]),
    )


@template(
    "shared-device",
    "child-on-parent-account",
    "A child types on a parent's account "
    "(no `subject` field) and says who they are; the child's tastes are not the parent's.",
)
def child_on_parent_account(s: Scenario) -> None:
    d = s.draw
    kid, age = d.any(pools.CHILD_NAMES), d.between(6, 12)
    parent = s.chat(s.day(0, 20)).user(
        d.pick(
            (
                "I cook a lot with greens, spinach and broccoli are my staples.",
                "I'm trying to eat more vegetables, the more green stuff the better.",
            )
        )
    )
    relation = d.pick(("my mum", "my dad", "mom", "my mother"))
    intro = d.pick(
        (
            f"hi its {kid}, I'm {age}. {relation} said I can use the ipad",
            f"this is {kid} not {s.person.first}. im {age} years old",
            f"I'm {kid}, {s.person.first}'s kid, I'm {age}",
        )
    )
    tastes = d.pick(
        (
            "I hate broccoli and I only eat pasta with butter",
            "no green food ever!! just chicken nuggets and chips",
            "vegetables are yucky, I like pizza and ice cream",
        )
    )
    c = s.chat(s.day(d.between(2, 9), 16))
    ids = c.tell(intro, tastes, acks=("Hi there!", "Nice to meet you!"))
    s.nightly()
    ask = d.pick(("plan my dinners this week", "what should I cook for myself tonight?"))
    s.recall(s.ask(ask, s.day(14, 18), relevant=[parent], forbidden=ids))


@template(
    "shared-device",
    "partner-types-on-phone",
    "Someone else announces they are typing on "
    "the account holder's phone; what they say about themselves is not the holder's.",
)
def partner_types_on_phone(s: Scenario) -> None:
    d = s.draw
    other = s.other_person()
    own = s.chat(s.day(0, 13)).user(
        d.pick(
            (
                "Seafood is my favourite, oysters especially.",
                "I'd eat fish every night if I could, love seafood.",
            )
        )
    )
    who = d.pick(
        (
            f"{other.first} here, {s.person.first}'s partner, using their phone.",
            f"Not {s.person.first} — it's {other.first}, borrowing the phone.",
            f"Hey, this is {other.first} typing on {s.person.first}'s account.",
        )
    )
    what = d.pick(
        (
            "I'm allergic to shellfish, badly.",
            "Shellfish makes me really ill, I avoid it.",
            "I can't go near prawns or crab, allergy.",
        )
    )
    ids = s.chat(s.day(d.between(3, 10), 19)).tell(who, what)
    ask = d.pick(("book a restaurant for me on Friday", "where should I go for dinner tonight?"))
    s.nightly()
    s.recall(s.ask(ask, s.day(20, 12), relevant=[own], forbidden=ids))
