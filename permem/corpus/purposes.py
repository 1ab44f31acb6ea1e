"""Purpose boundaries of a claim: the purpose of the surface it was given on."""

from __future__ import annotations

from dataclasses import dataclass

from permem.corpus.templates import MONTHS, Scenario, template

Options = tuple[str, ...]

ACKS = ("Noted.", "Got it.", "Okay, will do.", "Understood.", "Sure thing.")


@dataclass(frozen=True)
class Reading:
    """One kind of body data a fitness surface gets, and the words a request names it by."""

    label: str
    said: Options


READINGS = (
    Reading(
        "resting heart rate",
        (
            "my resting heart rate has been 58 this week according to the watch",
            "resting heart rate 58, max I hit was 181 on the hill",
            "watch says my resting heart rate is 58 now, down from 66",
            "heart rate at rest is sitting around 58 bpm",
        ),
    ),
    Reading(
        "weight",
        (
            "I weigh 88 kg, trying to get my weight to 80 by summer",
            "weight is 88 kilos right now, goal is 80",
            "weighed in at 88kg this morning, weight's going down slowly",
            "down to 88 kg from 95 in January, weight loss is working",
        ),
    ),
    Reading(
        "smoking",
        (
            "I still smoke about five cigarettes a day, want to quit smoking by my birthday",
            "smoking is down to a few a day, used to be a pack",
            "confession: I smoke on weekends, maybe ten cigarettes",
            "I started smoking again after Christmas, 3 or 4 a day",
        ),
    ),
    Reading(
        "sleep",
        (
            "sleep has been bad, five hours a night on average",
            "tracker says I'm getting under 6 hours of sleep most nights",
            "I wake up at 3am most nights, sleep is maybe 5 hours",
            "my sleep score is terrible, around 5 hours a night",
        ),
    ),
    Reading(
        "knee",
        (
            "my left knee is the problem, torn meniscus last year",
            "knee still swells after anything over 10 km, meniscus tear",
            "I had knee surgery in March, still not 100%",
            "the physio says my knee cartilage is worn",
        ),
    ),
)

SAME_ASKS = (
    "what do my {a} and {b} numbers look like?",
    "give me an update on my {a} and {b}",
    "summarise where I am with {a} and {b}",
    "how are my {a} and {b} trending?",
)
FITNESS_REPLIES = (
    "Thanks, logged.",
    "Good to know, that helps with the plan.",
    "Got it, I'll factor that in.",
    "Thanks for sharing that.",
)


@template(
    "purpose",
    "same-question-two-purposes",
    "Body data (heart rate, weight, smoking, sleep, injuries) typed on a fitness surface: "
    "the very same question asked with purpose insurance gets nothing, with purpose fitness "
    "it finds the data.",
)
def same_question_two_purposes(s: Scenario) -> None:
    d = s.draw
    kinds = d.rng.sample(READINGS, 2)
    c = s.chat(s.day(0, d.any((6, 7, 19, 21))), purpose="fitness")
    if d.chance(0.5):
        c.user(d.pick(("morning!", "hey coach", "ok new week", "checking in")))
        c.assistant(d.pick(("Morning! How are things?", "Hi! How's training going?")))
    told = c.tell(d.pick(kinds[0].said), d.pick(kinds[1].said), acks=FITNESS_REPLIES)
    c.assistant(d.pick(FITNESS_REPLIES))
    ask = d.pick(SAME_ASKS).format(a=kinds[0].label, b=kinds[1].label)
    s.nightly()
    insurer_first = d.chance(0.5)
    insurer = s.ask(ask, s.day(9, 11), purpose="insurance", forbidden=told, expect_empty=True)
    coach = s.ask(ask, s.day(9, 12), purpose="fitness", relevant=told)
    s.recall(*((insurer, coach) if insurer_first else (coach, insurer)))


INSURER_FACTS = (
    (
        "I've never smoked, not even socially.",
        "Non-smoker, always have been.",
        "For the form: I don't smoke and never have.",
        "No smoking, no vaping, ever.",
    ),
    (
        "I work from home, so I barely drive, maybe 3000 miles a year.",
        "Very low mileage, I only drive at weekends.",
        "The car mostly sits in the garage, I work remotely.",
        "Annual mileage is tiny, I cycle most places.",
    ),
    (
        "No dangerous hobbies, unless you count gardening.",
        "I don't do any extreme sports or diving.",
        "Hobbies: reading and walking, nothing risky.",
        "No climbing, skydiving or motor racing for me.",
    ),
)
INSURER_ASKS = (
    "summarise this applicant's health and lifestyle for the quote",
    "what should underwriting know about this applicant's lifestyle?",
    "prepare the health and lifestyle section of the quote",
    "assess this customer's lifestyle answers for the policy",
)
COACH_ASKS = (
    "adjust my training plan around my {a} and {b}",
    "plan next week's sessions with my {a} and {b} in mind",
    "what training should I do given my {a} and {b}?",
    "set my workouts for the week based on my {a} and {b}",
)


@template(
    "purpose",
    "insurer-form-vs-tracker",
    "The user answers an insurer's questions on the insurance surface and logs body data on "
    "a fitness surface; the insurance query uses only the insurance answers, never the "
    "tracker data, which the fitness query finds.",
)
def insurer_form_vs_tracker(s: Scenario) -> None:
    d = s.draw
    # Smoking is left out: the insurer's answers say the user never smoked.
    kinds = d.rng.sample([r for r in READINGS if r.label != "smoking"], 2)
    tracker_day, form_day = (0, d.between(5, 20)) if d.chance(0.5) else (d.between(5, 20), 0)
    c = s.chat(s.day(tracker_day, 7), purpose="fitness")
    tracked = c.tell(d.pick(kinds[0].said), d.pick(kinds[1].said), acks=FITNESS_REPLIES)
    c.assistant(d.pick(FITNESS_REPLIES))
    q = s.chat(s.day(form_day, 13), purpose="insurance")
    q.user(
        d.pick(
            (
                "I want a quote for life cover.",
                "getting a quote for health insurance",
                "can you help me fill in the application?",
                "starting the insurance application",
            )
        )
    )
    q.assistant("Sure. A few questions about your lifestyle first.")
    answers = []
    for facts in d.rng.sample(INSURER_FACTS, 2):
        answers.append(q.user(d.pick(facts)))
        q.assistant(d.pick(("Thanks.", "Noted for the application.", "Okay, next question.")))
    s.nightly()
    s.recall(
        s.ask(
            d.pick(INSURER_ASKS),
            s.day(24, 10),
            purpose="insurance",
            relevant=answers,
            forbidden=tracked,
        ),
        s.ask(
            d.pick(COACH_ASKS).format(a=kinds[0].label, b=kinds[1].label),
            s.day(24, 7),
            purpose="fitness",
            relevant=tracked,
        ),
    )


TRAVEL_NEEDS = (
    (
        "I need wheelchair assistance at every airport.",
        "Always book me airport assistance, I can't walk long distances.",
        "I use a wheelchair for airports, please arrange assistance.",
        "Mobility help at the airport is a must for me.",
    ),
    (
        "I travel with my guide dog, so the airline has to be told.",
        "My guide dog comes on every trip with me.",
        "Whatever you book, remember my guide dog flies with me.",
        "I'm visually impaired and travel with a guide dog.",
    ),
    (
        "We're going to {city} for our anniversary in {month}, keep it a surprise.",
        "Planning a surprise anniversary trip to {city} in {month}.",
        "{month} trip to {city}, it's our tenth anniversary.",
        "I'm taking my partner to {city} in {month} for our anniversary.",
    ),
    (
        "I always pick the cheapest flights, I don't care about stopovers.",
        "Cheapest fare every time, layovers are fine.",
        "Budget flights only, I'll take any connection.",
        "Lowest price wins for flights, even with two stops.",
    ),
)
TRAVEL_ASKS = (
    "book my flights to {city} for the trip",
    "find me flights and a hotel in {city}",
    "sort out the travel for my {city} trip",
    "plan the flights for {city} in {month}",
)
MARKETING_ASKS = (
    "which holiday deals should we advertise to this customer?",
    "pick travel offers to email this user",
    "segment this traveller for the autumn campaign",
    "choose upsell offers for this customer's next trip",
)


@template(
    "purpose",
    "travel-needs-not-marketing",
    "Mobility, assistance-dog and trip details told to a travel-booking purpose are used for "
    "the next booking and never reach a marketing purpose.",
)
def travel_needs_not_marketing(s: Scenario) -> None:
    d = s.draw
    city = d.any(("Kyoto", "Porto", "Bergen", "Ljubljana", "Wellington", "Halifax"))
    month = MONTHS[s.day(d.between(45, 150)).month - 1]
    fill = {"city": city, "month": month}
    c = s.chat(s.day(0, 20), purpose="travel")
    parts = [d.pick(group).format(**fill) for group in d.rng.sample(TRAVEL_NEEDS, 3)]
    told = c.tell(*parts, acks=ACKS)
    c.assistant(d.pick(("I'll remember that for bookings.", "All noted for your trips.")))
    s.nightly()
    s.recall(
        s.ask(
            d.pick(MARKETING_ASKS),
            s.day(8, 12),
            purpose="marketing",
            forbidden=told,
            expect_empty=True,
        ),
        s.ask(d.pick(TRAVEL_ASKS).format(**fill), s.day(8, 20), purpose="travel", relevant=told),
    )
