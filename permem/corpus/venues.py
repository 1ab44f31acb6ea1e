"""Where a claim was typed and by whom: shared-device templates (guests on a holiday-let display;
a relative typing for the holder, whose words about the holder count and whose asides about
themselves do not) and scope templates (a project that overrides a global default; a rule changed
in one client workspace and left alone in another).

Every slot is drawn before anything is written, so the n-th `pick` is the same slot in every
variant and each half keeps its own share of the wordings.
"""

from __future__ import annotations

from permem.corpus.templates import WEEKDAYS, Scenario, template

ACKS = (
    "Noted.",
    "Got it.",
    "Okay, I'll keep that in mind.",
    "Understood.",
    "Sure thing.",
    "Thanks!",
)

HOST_WAYS = (
    "I don't drive, so anything you suggest for me has to be walkable or on the train. "
    "And I live for seafood.",
    "No car here, I get everywhere on foot or by train. Fish and shellfish are my favourite.",
    "for me: walking distance or a train ride, I don't drive. give me oysters any day",
    "I'm a seafood person and a non-driver, so fish places I can walk to.",
    "Seafood is what I eat out for. I never drive, so keep it near a station.",
    "I gave up my car years ago. Walkable places only, and I'll always pick the fish.",
)
GUEST_HELLOS = (
    "Hi! We're the family staying in the cottage this week.",
    "hello, we're the guests who checked in on {weekday}",
    "Hi there, we're renting the place until Sunday.",
    "Good morning! We're the couple in the holiday let this weekend.",
    "hey, just arrived at the rental, we're the guests",
    "Hello from the guests! We're here for five nights.",
)
GUEST_NEEDS = (
    "We're all vegetarian and we have the car, so we're happy to drive out for dinner.",
    "None of us eat fish or meat. We've got a car, so distance is no problem.",
    "vegetarian family, we drove here so anywhere within half an hour by car is fine",
    "We don't eat meat or seafood, and we'd like places we can drive to.",
    "Any veggie restaurants? We have our car here, so further out is fine.",
    "We're veggie and we've got a rental car. Where should we go for dinner?",
)
HOST_ASKS = (
    "find me somewhere for dinner on Saturday",
    "where should I eat out this weekend?",
    "book me a table for Friday night",
    "any restaurant ideas for my night off?",
    "pick a place for dinner with my sister on Sunday",
    "I fancy eating out tonight, where should I go?",
)


@template(
    "shared-device",
    "holiday-let-display",
    "A host's account runs the display in a holiday let; guests talk to it during their stay "
    "(vegetarian, came by car). The host's own request uses the host's claims (no car, loves "
    "seafood); what the guests said is forbidden.",
)
def holiday_let_display(s: Scenario) -> None:
    d = s.draw
    host_text, hello, needs, ask = (
        d.pick(HOST_WAYS),
        d.pick(GUEST_HELLOS),
        d.pick(GUEST_NEEDS),
        d.pick(HOST_ASKS),
    )
    place = d.any(("guest-display", "rental-speaker", "holiday-let-tablet", "guest-room-hub"))
    host = s.chat(s.day(0, d.between(8, 21)), session=f"sess-phone-{s.code}").user(host_text)
    stay = d.between(3, 12)
    c = s.chat(s.day(stay, d.between(9, 18)), session=f"sess-{place}-{s.code}")
    if d.chance(0.3):
        c.user(d.any(("hello?", "is this thing on", "hi")))
        c.assistant("Hello! How can I help?")
    weekday = WEEKDAYS[s.day(stay - 1).weekday()]
    guests = c.tell(hello.format(weekday=weekday), needs, acks=("Welcome!", "Hi, welcome!"))
    c.assistant(d.any(("Here are a few ideas.", "Let me find some options.", "Great, one sec.")))
    s.nightly()
    s.recall(s.ask(ask, s.day(stay + d.between(6, 12), 17), relevant=[host], forbidden=guests))


RELATIVES = ("son", "daughter", "grandson", "granddaughter", "nephew", "niece")
LANGUAGES = ("Polish", "Portuguese", "Greek", "Turkish", "Italian", "Hungarian")
HELPER_INTROS = (
    "It's {helper}, {holder}'s {rel}. I'm typing this for {holder}.",
    "{helper} here ({holder}'s {rel}), setting things up on {holder}'s account.",
    "Hi, this is {holder}'s {rel} {helper}, {holder} asked me to type for them.",
    "not {holder} typing, it's {helper} the {rel}, helping out with the tablet",
    "{holder} doesn't like typing, so it's me, {helper}, their {rel}.",
    "Hello, {helper} ({rel}) writing on behalf of {holder}.",
)
HOLDER_HOURS = (
    "{holder} likes to eat early, a table by 5:30 at the latest.",
    "Early sittings only for {holder}, nothing after six.",
    "{holder} won't eat dinner late, so book anything before 6pm.",
    "For {holder}: lunch at 12 and dinner by half five, that's the routine.",
    "{holder} goes to bed early, so any restaurant booking has to be before 6.",
    "Please keep {holder}'s bookings early. Five-ish is perfect.",
)
HOLDER_TONGUES = (
    "{holder} reads {lang} much better than English, so confirmations in {lang} please.",
    "Anything written for {holder} should be in {lang}.",
    "{holder}'s English is basic; {lang} is best for anything {holder} has to read.",
    "Please send {holder} things in {lang}, not English.",
    "{lang} for anything {holder} reads. English messages just get ignored.",
    "{holder} prefers {lang}, so write the details and reminders in {lang}.",
)
HELPER_ASIDES = (
    "(Not me, though: I never eat before nine and I only read English.)",
    "For the record I'm the opposite, late dinners and English for me.",
    "I'm a night owl myself, 9pm dinners, but that's just me.",
    "I'd eat at ten if I could, but I'm not the one who matters here lol",
    "Me, I eat late and I can't read a word of {lang}.",
    "Personally I never eat before 9, ha. Anyway.",
)
TABLE_ASKS = (
    "book a table for my birthday dinner next week and send me the details",
    "find a restaurant for me and my neighbour on Sunday, and write me the booking",
    "reserve somewhere for lunch with my sister and send the confirmation",
    "I'd like to take my friend out to eat on Thursday, arrange it please",
    "get me a table for two for Saturday, and a note with the details",
    "sort out a dinner booking for my anniversary",
)


@template(
    "shared-device",
    "typed-on-their-behalf",
    "A relative types on the holder's account on the holder's behalf and says so; what they "
    "say about the holder (eats early, reads another language) is relevant for the holder's "
    "own later request, their aside about themselves ('I eat late') is forbidden.",
)
def typed_on_their_behalf(s: Scenario) -> None:
    d = s.draw
    intro, hours, tongue, aside, ask = (
        d.pick(HELPER_INTROS),
        d.pick(HOLDER_HOURS),
        d.pick(HOLDER_TONGUES),
        d.pick(HELPER_ASIDES),
        d.pick(TABLE_ASKS),
    )
    helper = s.other_person()
    fill = {"helper": helper.first, "holder": s.person.first, "rel": d.any(RELATIVES)}
    fill["lang"] = d.any(LANGUAGES)
    c = s.chat(s.day(0, d.between(10, 19)), session=f"sess-tablet-{s.code}")
    ids = c.tell(intro.format(**fill), hours.format(**fill), acks=("Hello!", "Hi, go ahead."))
    c.assistant(d.any(ACKS))
    said = [ids[-1]]
    if d.chance():
        theirs = c.user(aside.format(**fill))
        c.assistant(d.any(("Ha, noted.", "Understood.", "Okay!")))
        said.append(c.user(tongue.format(**fill)))
    else:
        said.append(c.user(tongue.format(**fill)))
        c.assistant(d.any(ACKS))
        theirs = c.user(aside.format(**fill))
    s.nightly()
    s.recall(s.ask(ask, s.day(d.between(8, 20), 11), relevant=said, forbidden=[theirs]))


METRIC_DEFAULTS = (
    "Metric for everything, please: km, kilos, Celsius.",
    "I think in kilometres and degrees Celsius, always use those.",
    "please never give me miles or Fahrenheit, metric only",
    "Use metric units with me. Kilometres, litres, °C.",
    "Everything in metric for me, I can't picture miles at all.",
    "Default to SI units whenever you give me distances or temperatures.",
)
TRIP_UNITS = (
    "For this road trip, use miles and Fahrenheit, the car and every sign out there are American.",
    "In this project stick to miles and °F. The rental's dashboard is in miles.",
    "Trip planning here is all in miles and Fahrenheit, so it matches the road signs.",
    "road trip rule: distances in miles, temperatures in F, we're driving in the US",
    "Miles and Fahrenheit for everything in this trip plan please.",
    "Here it's US units: miles for the drives, Fahrenheit for the forecasts.",
)
TRIP_ASKS = (
    "how long is the drive from Moab to Flagstaff, and what will the weather be like?",
    "plan tomorrow's drive and tell me how hot it gets at the canyon",
    "how far is it to the next national park, and is it cold at night?",
    "what's the mileage for day three, and what should we pack for the temperature?",
    "work out today's driving distance and the forecast at the campsite",
    "how far do we drive on Thursday and how warm will it be?",
)
HOME_ASKS = (
    "how far should my long run be this weekend, and what's the weather doing?",
    "plan a bike ride near home for Saturday, distance and temperature please",
    "how long is the walk to the lake, and do I need a coat?",
    "what's a good distance for a first hike with my nephew, and how cold is it up there?",
    "map out a cycling loop for Sunday and tell me the forecast",
    "how far is it to the coast from here, and will it be warm?",
)


@template(
    "scope",
    "project-overrides-default",
    "A global preference (metric units) and a project that overrides it ('for this road trip, "
    "miles and Fahrenheit'); inside the project the override is relevant and the default "
    "forbidden, anywhere else the default is relevant and the override forbidden.",
)
def project_overrides_default(s: Scenario) -> None:
    d = s.draw
    default_text, override_text, trip_ask, home_ask = (
        d.pick(METRIC_DEFAULTS),
        d.pick(TRIP_UNITS),
        d.pick(TRIP_ASKS),
        d.pick(HOME_ASKS),
    )
    trip = d.any(("project:us-road-trip", "project:route-66", "project:utah-parks"))
    default = s.chat(s.day(-d.between(5, 40), 20)).user(default_text)
    c = s.chat(s.day(0, d.between(18, 22)), scope=trip)
    if d.chance(0.5):
        c.user(d.any(("ok, trip planning time", "back on the road trip", "let's plan the trip")))
        c.assistant(d.any(("Great, where were we?", "Let's go.", "Sure!")))
    override = c.user(override_text)
    c.assistant(d.any(ACKS))
    elsewhere = d.any(("global", "project:half-marathon", "workspace:home"))
    s.nightly()
    s.recall(
        s.ask(trip_ask, s.day(9, 8), scope=trip, relevant=[override], forbidden=[default]),
        s.ask(home_ask, s.day(9, 18), scope=elsewhere, relevant=[default], forbidden=[override]),
    )


CLIENTS = (
    "Harbourline",
    "Northwind",
    "Kestrel Labs",
    "Verde Studio",
    "Tallis & Co",
    "Quarry Bakes",
)
FIRST_TERMS = (
    "I invoice {x} once a month, payment terms net 30.",
    "{x} gets a monthly invoice, 30 days to pay.",
    "billing for {x}: one invoice at the end of each month, due in 30 days",
    "Monthly invoices for {x}, with net-30 terms.",
    "{x} pays on 30-day terms and I bill them monthly.",
    "For {x} it's one invoice per month, net 30.",
)
OTHER_TERMS = (
    "{y} gets one invoice when the project is finished, net 45.",
    "I bill {y} a single time at the end of the project, 45 days to pay.",
    "{y}: a final invoice on delivery, payment terms 45 days.",
    "no monthly billing for {y}, one invoice at the end, net 45",
    "{y} pays 45 days after the one invoice I send at project end.",
    "For {y}, invoice once at completion, net 45.",
)
CHANGED_TERMS = (
    "{x} changed their accounts process: invoices every two weeks now, net 14.",
    "From now on I bill {x} fortnightly, and they pay within 14 days.",
    "update for {x}: biweekly invoices, 14-day terms, no more monthly",
    "{x} asked for invoices every fortnight instead, due in 14 days.",
    "New terms with {x}. Every two weeks, net 14.",
    "Scrap the monthly billing for {x}: fortnightly invoices, payment in 14 days.",
)
INVOICE_ASKS = (
    "draft the next invoice for {c}",
    "when do I send {c} the next invoice, and what are the terms?",
    "prepare an invoice for {c} with the right due date",
    "set up my invoicing reminders for {c}",
    "write the invoice email to {c}",
    "what payment terms go on the {c} invoice?",
)


@template(
    "scope",
    "rule-changed-in-one-workspace",
    "A freelancer's two client workspaces have their own invoicing terms; the terms change in "
    "one of them. There the change is relevant and the old terms forbidden; in the other "
    "workspace its own terms hold and neither of the first client's is used.",
)
def rule_changed_in_one_workspace(s: Scenario) -> None:
    d = s.draw
    first_text, other_text, change_text, ask = (
        d.pick(FIRST_TERMS),
        d.pick(OTHER_TERMS),
        d.pick(CHANGED_TERMS),
        d.pick(INVOICE_ASKS),
    )
    x, y = d.rng.sample(CLIENTS, 2)
    home, away = (f"workspace:client-{n.split()[0].lower()}" for n in (x, y))
    old = s.chat(s.day(0, 10), scope=home).user(first_text.format(x=x))
    kept = s.chat(s.day(d.between(1, 6), 15), scope=away).user(other_text.format(y=y))
    new = s.chat(s.day(d.between(10, 20), 9), scope=home).user(change_text.format(x=x))
    when = s.day(24, 10)
    s.nightly()
    s.recall(
        s.ask(ask.format(c=x), when, scope=home, relevant=[new], forbidden=[old, kept]),
        s.ask(ask.format(c=y), when, scope=away, relevant=[kept], forbidden=[old, new]),
    )
