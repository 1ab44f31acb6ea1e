"""Where and what for: scope and purpose templates."""

from __future__ import annotations

from permem.corpus.templates import Scenario, template

PROJECTS = (
    (
        "project:renovation",
        (
            "Kitchen reno: oak worktops, white tiles, budget is 18k all in.",
            "For the renovation we're going with oak and white tiles, 18k max.",
        ),
        ("draft the message to the tiler", "make a shopping list for the kitchen job"),
    ),
    (
        "project:novel",
        (
            "The novel is set in 1920s Trieste, narrated by the harbourmaster's daughter.",
            "My book's narrator is a harbourmaster's daughter in Trieste, 1920s.",
        ),
        ("outline chapter four", "suggest a name for a minor character"),
    ),
    (
        "project:thesis",
        (
            "Thesis is on soil microbes in vineyards, my supervisor wants APA style.",
            "My dissertation: vineyard soil microbiomes, references in APA.",
        ),
        ("fix the citations in my methods section", "help me write the abstract"),
    ),
    (
        "project:wedding",
        (
            "We're getting married in a lighthouse, 40 guests, navy and gold.",
            "Wedding: lighthouse venue, forty guests, colours navy and gold.",
        ),
        ("design the invitations", "write the welcome speech for the reception"),
    ),
)

WORK = (
    (
        "Status reports: bullet points, under 200 words, blockers at the top.",
        "Work reports go blockers first, bulleted, 200 words max.",
    ),
    (
        "Client emails should be signed 'Kind regards' and never use first names.",
        "When I email clients: surnames only, sign off with Kind regards.",
    ),
)

GLOBAL = (
    "Please never use the Oxford comma, anywhere.",
    "Dates as day-month-year everywhere, never month first.",
    "Whatever we're doing, keep paragraphs short, two or three sentences.",
)


@template(
    "scope",
    "project-and-work",
    "A project's facts and the work workspace's rules stay in "
    "their scopes; a global preference applies in both.",
)
def project_and_work(s: Scenario) -> None:
    d = s.draw
    scope, facts, asks = d.any(PROJECTS)
    everywhere = s.chat(s.day(0, 9)).user(d.pick(GLOBAL))
    project = s.chat(s.day(1, 20), scope=scope).user(d.pick(facts))
    work = s.chat(s.day(2, 9), scope="workspace:work").user(d.pick(d.any(WORK)))
    s.nightly()
    s.recall(
        s.ask(
            d.pick(asks),
            s.day(9, 21),
            scope=scope,
            relevant=[project, everywhere],
            forbidden=[work],
        ),
        s.ask(
            d.pick(
                ("write this week's status report", "answer the client's email about the delay")
            ),
            s.day(10, 9),
            scope="workspace:work",
            relevant=[work, everywhere],
            forbidden=[project],
        ),
    )


@template(
    "scope",
    "project-instruction-stays",
    "An instruction given 'in this project' does not "
    "follow the user to another workspace or to a global conversation.",
)
def project_instruction_stays(s: Scenario) -> None:
    d = s.draw
    scope, _facts, asks = d.any(PROJECTS)
    rule = d.pick(
        (
            "In this project, write in present tense and second person.",
            "For this one only: present tense, addressed to 'you'.",
            "Here, always present tense, second person, it's the house style.",
        )
    )
    inside = s.chat(s.day(0, 21), scope=scope).user(rule)
    s.nightly()
    s.recall(
        s.ask(d.pick(asks), s.day(5, 21), scope=scope, relevant=[inside]),
        s.ask(
            d.pick(
                (
                    "write a note to my landlord about the boiler",
                    "draft a birthday message for my aunt",
                )
            ),
            s.day(5, 22),
            forbidden=[inside],
        ),
        s.ask(
            "write the quarterly summary", s.day(6, 9), scope="workspace:work", forbidden=[inside]
        ),
    )


@template(
    "scope",
    "that-goes-for-too",
    "A scoped rule and a following sentence that leans on it "
    "('that goes for ... too') both stay in the project's scope.",
)
def that_goes_for_too(s: Scenario) -> None:
    d = s.draw
    scope = d.any(("project:allotment", "project:garden", "workspace:home-garden"))
    first = d.pick(
        (
            "Everything organic here, no synthetic fertiliser.",
            "We garden organically, so no chemical fertilisers in this plot.",
            "Keep it organic in the garden: no synthetic feed.",
        )
    )
    second = d.pick(
        (
            "That goes for pest control too.",
            "Same for anything against slugs or aphids.",
            "And that applies to weedkillers as well.",
        )
    )
    ids = s.chat(s.day(0, 17), scope=scope).tell(first, second, acks=("Organic it is.",))
    ask_in = d.pick(
        ("the aphids are back on the beans, what do I do?", "how do I get rid of slugs?")
    )
    ask_out = d.pick(
        (
            "what should I use to clean the bathroom mould?",
            "recommend a weedkiller for the driveway at my office",
        )
    )
    s.nightly()
    s.recall(
        s.ask(ask_in, s.day(12, 18), scope=scope, relevant=ids[-1:]),
        s.ask(ask_out, s.day(12, 19), scope="workspace:work", forbidden=ids),
    )


FITNESS = (
    (
        "My resting heart rate is 52 and I run about 40 km a week.",
        "I'm running 40k a week, resting HR around 52.",
    ),
    (
        "I had knee surgery in the spring, so no jumping or box work.",
        "Since the knee operation I avoid anything with jumping.",
    ),
    (
        "My blood pressure was 150 over 95 at the last check, trying to bring it down with cardio.",
        "BP was high at my check-up, 150/95, so cardio is the plan.",
    ),
)

INSURANCE_ASKS = (
    "calculate this customer's life insurance risk tier",
    "should we raise the health premium for this policyholder?",
    "summarise this applicant's health risks for underwriting",
)
MARKETING_ASKS = (
    "pick products to advertise to this user",
    "which promotional emails should we send this customer?",
    "segment this user for the spring campaign",
)


@template(
    "purpose",
    "fitness-not-insurance",
    "Fitness and health data shared with a coach purpose "
    "never reaches an insurance or marketing purpose; the coach still uses it.",
)
def fitness_not_insurance(s: Scenario) -> None:
    d = s.draw
    coach = d.any(("fitness_coach", "training_plan", "health_coach"))
    c = s.chat(s.day(0, 7), purpose=coach)
    first, second = d.rng.sample(range(len(FITNESS)), 2)
    ids = [
        c.user(d.pick(FITNESS[first])),
        c.assistant("Thanks, that helps."),
        c.user(d.pick(FITNESS[second])),
    ]
    facts = [ids[0], ids[2]]
    other = d.any((("insurance", INSURANCE_ASKS), ("marketing", MARKETING_ASKS)))
    s.nightly()
    s.recall(
        s.ask(
            d.pick(other[1]), s.day(10, 11), purpose=other[0], forbidden=facts, expect_empty=True
        ),
        s.ask(
            d.pick(("plan my training for next week", "what workout should I do tomorrow?")),
            s.day(10, 6),
            purpose=coach,
            relevant=facts,
        ),
    )


@template(
    "purpose",
    "sleep-tracker-not-ads",
    "Sleep and cycle tracking told to a health app purpose is not available for advertising.",
)
def sleep_tracker_not_ads(s: Scenario) -> None:
    d = s.draw
    told = s.chat(s.day(0, 23), purpose="sleep_tracker").tell(
        d.pick(
            (
                "I've been sleeping about five hours a night for a month.",
                "Five hours of sleep, six on a good night, for weeks now.",
            )
        ),
        d.pick(
            (
                "It's worse the week before my period.",
                "It always gets worse around my cycle.",
                "My doctor thinks it's linked to my thyroid.",
            )
        ),
    )
    s.nightly()
    s.recall(
        s.ask(
            d.pick(MARKETING_ASKS),
            s.day(6, 12),
            purpose=d.any(("advertising", "marketing")),
            forbidden=told,
            expect_empty=True,
        ),
        s.ask(
            "how can I sleep better this week?",
            s.day(6, 22),
            purpose="sleep_tracker",
            relevant=told[:1],
        ),
    )


@template(
    "purpose",
    "journal-not-hr",
    "Stress confided to a journaling purpose does not reach an "
    "employer-facing purpose; a neutral assistant preference is left out of the gold.",
)
def journal_not_hr(s: Scenario) -> None:
    d = s.draw
    s.chat(s.day(0, 9)).user(
        d.pick(("Call me by my nickname, Jo.", "Short answers are fine for me."))
    )
    confided = s.chat(s.day(1, 23), purpose="journal").user(
        d.pick(
            (
                "I've been having panic attacks before every team meeting.",
                "Honestly I'm burnt out and thinking about quitting, I cry most Sundays.",
                "Work anxiety is through the roof, I've started seeing a therapist.",
            )
        )
    )
    hr = d.any(("hr_review", "performance_review", "recruiting"))
    s.nightly()
    s.recall(
        s.ask(
            d.pick(
                (
                    "prepare notes for this employee's performance review",
                    "summarise this person's readiness for promotion",
                )
            ),
            s.day(8, 10),
            purpose=hr,
            forbidden=[confided],
        ),
        s.ask("help me reflect on this week", s.day(8, 22), purpose="journal", relevant=[confided]),
    )
