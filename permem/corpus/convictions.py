"""What the user believes, next to what they are: a household myth beside a plain taste or fact
(the taste answers the practical question, the myth never the factual one), and a fact about the
user's situation beside an assumption about the rules that apply to it (the situation is wanted
for the question, the assumption is what the question asks about).
"""

from __future__ import annotations

from collections.abc import Sequence

from permem.corpus.templates import Scenario, template

ACKS = ("Got it.", "Okay.", "Noted.", "Mm-hm.", "Right.")
PUSHBACK = (
    "That one's often repeated, but the evidence doesn't really back it.",
    "I've seen studies suggesting otherwise, actually.",
    "Hm, that's a common idea, not sure it holds up.",
)

# (a myth the user holds, a plain fact or taste on the same topic, the factual question on the
# myth, a practical question the fact answers)
MYTHS: tuple[tuple[Sequence[str], Sequence[str], Sequence[str], Sequence[str]], ...] = (
    (
        (
            "Everyone knows searing the meat first seals in the juices.",
            "I'm convinced you have to sear steak to lock the juices in.",
            "searing seals the juice in, that's just basic cooking",
            "My dad taught me searing locks the moisture inside, and he was right.",
            "You sear to seal, otherwise the juices run out. Fact.",
            "The whole point of a hot pan is sealing the juices in, I'm sure of it.",
        ),
        (
            "I like my steak medium-rare, pink in the middle.",
            "Medium-rare for me, always.",
            "i eat my steak pink, medium rare",
            "Steak-wise I'm a medium-rare person.",
            "My steak has to be medium-rare, no more.",
            "Pink in the middle is how I like steak.",
        ),
        (
            "does searing meat actually seal in the juices?",
            "is it true that searing locks in moisture?",
            "why does meat lose juice when it cooks?",
            "does browning steak first make it juicier?",
            "what does searing really do to meat?",
            "is 'sealing in the juices' a real thing?",
        ),
        (
            "how long should I cook a steak tonight?",
            "give me a steak recipe for Saturday",
            "what temperature should my steak reach inside?",
            "order me a steak at the grill place, how should I ask for it?",
            "how do I cook the ribeye I bought?",
            "plan a steak dinner for my anniversary",
        ),
    ),
    (
        (
            "Leaving the phone charging overnight kills the battery, everyone knows that.",
            "I'm sure charging overnight ruins phone batteries.",
            "overnight charging = dead battery in a year, I never do it",
            "My brother says overnight charging destroys batteries, and I believe him.",
            "I'm convinced keeping it plugged in all night wears the battery out fast.",
            "Charging all night is terrible for batteries, I'm certain.",
        ),
        (
            "I've got a Samsung Galaxy S22.",
            "My phone is a Galaxy S22.",
            "i'm on a samsung, the S22",
            "Phone: Samsung Galaxy S22, two years old.",
            "I use a Galaxy S22.",
            "My phone's a Samsung S22, black.",
        ),
        (
            "does charging a phone overnight damage the battery?",
            "is it bad to leave a modern phone plugged in all night?",
            "do lithium batteries wear out faster when charged overnight?",
            "what actually shortens a smartphone battery's life?",
            "should people unplug phones at 100%?",
            "is overnight charging a myth or real?",
        ),
        (
            "find me a case for my phone",
            "how do I take a screenshot on my phone?",
            "what charger should I buy for my phone?",
            "how do I turn on battery saver on my phone?",
            "my phone's storage is full, what do I do?",
            "how do I back up the photos on my phone?",
        ),
    ),
    (
        (
            "You lose most of your body heat through your head, so hats are everything.",
            "I'm sure most heat escapes through the head.",
            "half your heat goes out your head, my mum always said, and it's true",
            "Everyone knows you lose the majority of your warmth through your head.",
            "The head is where all your heat goes, I'm convinced.",
            "Most body heat leaves through the head, that's a fact.",
        ),
        (
            "I always feel the cold, I'm the one in a coat in May.",
            "I run cold, I need far more layers than anyone else.",
            "i'm always freezing, even indoors",
            "I get cold really easily.",
            "Cold hands, cold feet, cold everything. I'm always chilly.",
            "I feel the cold badly, I'm always wrapped up.",
        ),
        (
            "do we really lose most of our heat through our heads?",
            "how much body heat escapes through the head?",
            "is it true a hat keeps most of your heat in?",
            "where does the body lose heat fastest?",
            "is the head heat-loss thing a myth?",
            "what percentage of body heat goes through the head?",
        ),
        (
            "what should I wear for the Christmas market this weekend?",
            "recommend a winter jacket for me",
            "what should I pack for a weekend in the mountains in January?",
            "how should I dress for watching the football outdoors on Saturday?",
            "what bedding should I buy for winter?",
            "suggest what to wear for an evening walk in November",
        ),
    ),
)


@template(
    "belief-vs-fact",
    "myth-beside-taste",
    "A household myth ('searing seals in the juices', 'overnight charging kills the battery') "
    "beside a plain taste or fact on the same topic, in another message: the practical question "
    "uses the taste; the factual question on the myth gets no personalization (myth "
    "forbidden, answer empty).",
)
def myth_beside_taste(s: Scenario) -> None:
    d = s.draw
    myths, tastes, factuals, practicals = d.any(MYTHS)
    myth_text, taste_text = d.pick(myths), d.pick(tastes)
    factual, practical = d.pick(factuals), d.pick(practicals)
    c = s.chat(s.day(0, d.between(8, 22)))
    if d.chance():
        taste = c.user(taste_text)
        c.assistant(d.any(ACKS))
        myth = c.user(myth_text)
        c.assistant(d.any(PUSHBACK))
    else:
        myth = c.user(myth_text)
        c.assistant(d.any(PUSHBACK))
        c = s.chat(s.day(d.between(2, 20), d.between(8, 22)))
        taste = c.user(taste_text)
        c.assistant(d.any(ACKS))
    s.nightly()
    early, late = s.day(d.between(25, 40), 18), s.day(d.between(41, 60), 11)
    fact_at, own_at = (early, late) if d.chance() else (late, early)
    fact = s.ask(factual, fact_at, forbidden=[myth], expect_empty=True)
    own = s.ask(practical, own_at, relevant=[taste])
    s.recall(*((fact, own) if fact_at < own_at else (own, fact)))
    s.notes.append(
        "The myth is neither relevant nor forbidden for the practical question; the taste is "
        "not wanted for the factual one (expect_empty)."
    )


# (the user's situation, an assumption about the rules for it, the question the assumption
# would answer); {place} is a destination.
ASSUMPTIONS: tuple[tuple[Sequence[str], Sequence[str], Sequence[str]], ...] = (
    (
        (
            "I'm flying to {place} next month, on my Irish passport.",
            "Trip booked: {place}, I travel on an Irish passport.",
            "off to {place} next month! irish passport holder btw",
            "I'm going to {place} for two weeks. My passport is Irish.",
            "Holiday in {place} coming up, and I'm an Irish citizen.",
            "Booked {place} for the spring, flying on my Irish passport.",
        ),
        (
            "I'm pretty sure EU citizens don't need any visa or entry form anywhere.",
            "No visa needed for me anywhere, I'm European, that's how it works.",
            "europeans never need visas, right? so I'm sorted",
            "I'm certain an EU passport gets you in everywhere without paperwork.",
            "I'm sure I don't need a visa, EU passports work everywhere.",
            "Visas are for other people, with an EU passport you just show up.",
        ),
        (
            "do I need a visa for my trip?",
            "what entry paperwork do I need for my holiday?",
            "is there anything I need to apply for before I fly?",
            "check my travel documents for the trip",
            "what do I need at the border when I land?",
            "do I need to fill in any forms before my trip?",
        ),
    ),
    (
        (
            "I rent my flat, and the landlord hasn't fixed the boiler in five weeks.",
            "No hot water for over a month, and my landlord keeps ignoring me. I'm a tenant.",
            "my landlord still hasn't repaired the boiler, it's been weeks. I rent, obviously",
            "The boiler in my rented flat has been broken since early last month.",
            "I'm renting, and the heating's been dead for five weeks, landlord's silent.",
            "Five weeks with a broken boiler in my rental, the landlord won't answer.",
        ),
        (
            "I'm sure tenants can legally stop paying rent until repairs are done.",
            "You're allowed to withhold rent when the landlord doesn't fix things, I'm certain.",
            "pretty sure I can just stop paying rent till he fixes it, that's the law",
            "I believe it's totally legal to hold back rent over repairs.",
            "Everyone knows you can withhold rent if repairs aren't made.",
            "I'm convinced the law lets me stop the rent until the boiler works.",
        ),
        (
            "can I stop paying rent until my boiler is fixed?",
            "what are my options to get the landlord to fix the boiler?",
            "is it legal for me to withhold rent over the repairs?",
            "what should I do about the broken boiler in my flat?",
            "what rights do I have about the repairs?",
            "how do I make my landlord fix the heating?",
        ),
    ),
    (
        (
            "I sell my paintings on the side, about 3,000 a year.",
            "My side income from selling prints is roughly 3k a year.",
            "i make maybe 3000 a year from my etsy shop on top of my job",
            "On top of my salary I earn around 3,000 from commissions.",
            "I've got a little side business selling illustrations, about 3k annually.",
            "Extra income: roughly three thousand a year from art sales.",
        ),
        (
            "I'm sure side income under 5,000 doesn't have to be declared.",
            "Small side earnings are tax-free, I'm certain, so I don't report it.",
            "anything under 5k from a hobby is untaxed, everyone knows",
            "I believe you only pay tax on side income above five thousand.",
            "Hobby money under 5,000 is exempt, I'm convinced.",
            "I'm positive small side earnings don't count for tax.",
        ),
        (
            "do I need to declare my side income?",
            "how should my art sales be taxed?",
            "do I have to report my shop earnings on my tax return?",
            "what tax do I owe on my side business?",
            "help me get my tax return right this year",
            "is my extra income tax-free?",
        ),
    ),
)
PLACES = ("Vietnam", "India", "Australia", "the United States", "Kenya", "Canada")


@template(
    "belief-vs-fact",
    "fact-and-assumption",
    "A fact about the user's situation (a trip on an Irish passport, a rental with a broken "
    "boiler, a side income) beside an assumption about the rules for it ('EU citizens never "
    "need visas'), in another message: the question on those rules uses the situation "
    "(relevant) and never the assumption (forbidden).",
)
def fact_and_assumption(s: Scenario) -> None:
    d = s.draw
    situations, assumptions, asks = d.any(ASSUMPTIONS)
    place = d.any(PLACES)
    situation_text = d.pick(situations).format(place=place)
    assumption_text, ask = d.pick(assumptions), d.pick(asks)
    c = s.chat(s.day(0, d.between(8, 22)))
    situation, assumption = c.tell(situation_text, assumption_text, split=True, acks=ACKS)
    c.assistant(d.any(PUSHBACK))
    s.nightly()
    at = s.day(d.between(3, 20), d.between(9, 20))
    s.recall(s.ask(ask, at, relevant=[situation], forbidden=[assumption]))


# (a superstition with the choice it leads to, a question on the user's own choice, the
# factual question on the superstition)
OMENS: tuple[tuple[Sequence[str], Sequence[str], Sequence[str]], ...] = (
    (
        (
            "Call me superstitious, but never book anything important for me on the 13th.",
            "The 13th is unlucky, I won't schedule anything that matters on it.",
            "i never do big stuff on a 13th. bad luck, I'm sure of it",
            "Thirteen is cursed. Keep my appointments off the 13th of any month.",
            "I avoid the 13th for anything important, it always goes wrong.",
            "Don't put anything serious on a 13th for me, it's an unlucky day.",
        ),
        (
            "book my dentist check-up next month, any date works",
            "when should I schedule my job interview next month?",
            "pick a day for my car's MOT next month",
            "suggest a date for my housewarming next month",
            "choose a date next month to sign the new lease",
            "when should I book my haircut next month?",
        ),
        (
            "are more accidents really reported on Friday the 13th?",
            "is there any evidence the 13th is unlucky?",
            "where does the superstition about 13 come from?",
            "do hospitals get busier on the 13th?",
            "is Friday the 13th statistically worse than other days?",
            "why do some buildings skip the 13th floor?",
        ),
    ),
    (
        (
            "Mercury retrograde is real for me, I never sign contracts during one.",
            "I don't sign anything while Mercury is retrograde, it always goes wrong.",
            "no contracts in mercury retrograde, I've learned that the hard way",
            "I'm sure retrogrades wreck deals, so I wait them out before signing.",
            "Astrology matters to me: no signing paperwork in a retrograde.",
            "During Mercury retrograde I hold off on any contract, please remember.",
        ),
        (
            "when should I sign the contract for my new job?",
            "the car dealer wants me to sign this week, should I wait?",
            "plan when to sign the mortgage papers",
            "when's a good time for me to sign the freelance agreement?",
            "should I sign the gym membership today or later?",
            "pick a day to sign the lease on my new flat",
        ),
        (
            "does Mercury retrograde affect anything on Earth?",
            "is there scientific evidence for astrology?",
            "what actually happens during Mercury retrograde?",
            "do planets' positions influence human decisions?",
            "why does Mercury look like it's moving backwards?",
            "has astrology ever been tested scientifically?",
        ),
    ),
    (
        (
            "My bed must never face the door, it's bad energy, feng shui.",
            "I follow feng shui: bed away from the door line, always.",
            "bed facing the door = bad chi, so never set it up that way for me",
            "I'm a feng shui person, the bed can't point at the door.",
            "Feng shui matters to me. Mirrors never opposite the bed, bed not facing the door.",
            "I believe a bed facing the door drains your energy, so I never do that.",
        ),
        (
            "help me arrange my bedroom furniture",
            "where should the bed go in my new bedroom?",
            "plan the layout for my bedroom after the move",
            "I'm redoing my bedroom, suggest a layout",
            "how should I set up the spare room for me to sleep in?",
            "suggest where to put my bed and wardrobe",
        ),
        (
            "is there any evidence that feng shui affects sleep?",
            "does the position of a bed change how well you sleep?",
            "what does science say about feng shui?",
            "where does feng shui come from?",
            "does room layout affect health?",
            "is chi a real, measurable thing?",
        ),
    ),
)


@template(
    "belief-vs-fact",
    "superstition-own-choice",
    "A superstition stated with the choice it leads to ('never book anything on the 13th', "
    "'no contracts in Mercury retrograde'): the user's own choice honours it (relevant); the "
    "factual question on the superstition gets no personalization (forbidden, answer empty).",
)
def superstition_own_choice(s: Scenario) -> None:
    d = s.draw
    omens, choices, factuals = d.any(OMENS)
    omen_text, choice, factual = d.pick(omens), d.pick(choices), d.pick(factuals)
    c = s.chat(s.day(0, d.between(8, 22)))
    if d.chance(0.4):
        c.user(d.any(("one more thing about me", "quick preference", "random, but", "also")))
        c.assistant(d.any(("Go ahead.", "Sure?", "Tell me.")))
    omen = c.user(omen_text)
    c.assistant(d.any(("Noted, I'll respect that.", "Okay, I'll keep it in mind.", *ACKS)))
    s.nightly()
    early, late = s.day(d.between(5, 25), 18), s.day(d.between(26, 45), 11)
    own_at, fact_at = (early, late) if d.chance() else (late, early)
    own = s.ask(choice, own_at, relevant=[omen])
    fact = s.ask(factual, fact_at, forbidden=[omen], expect_empty=True)
    s.recall(*((own, fact) if own_at < fact_at else (fact, own)))
