"""Corrections that come from outside the user's head: a fact about themselves that a measurement
or a test overturns (a bike fit, a compass, an allergy clinic), and a unit or format the user
switches after seeing an answer in the old one.
"""

from __future__ import annotations

from collections.abc import Sequence

from permem.corpus.templates import Scenario, template

ACKS = ("Got it.", "Okay, noted.", "Good to know.", "Understood.", "Thanks, noted.")

# (what the user took for granted, what a measurement showed, questions)
MEASURED: tuple[tuple[Sequence[str], Sequence[str], Sequence[str]], ...] = (
    (
        (
            "I ride a 54cm frame, I'm not very tall.",
            "My road bike size is 54.",
            "54 centimetre frames fit me, small-ish.",
            "fyi frame size for me is 54cm",
            "I'm a size 54 on road bikes, always have been.",
            "Bike size: 54. I've never needed anything bigger.",
        ),
        (
            "Had a proper bike fit today: apparently I should be on a 56, my reach is long.",
            "The fitter measured me and I'm a 56cm frame, not what I'd assumed.",
            "turns out I've been on too small a bike for years!! 56 is my size",
            "can you find bike fitting videos? oh and the shop measured me, I'm a 56 frame",
            "The bike fit result: 56cm. All my back pain makes sense now.",
            "I got measured at the bike shop. Frame size 56 for me from now on.",
        ),
        (
            "find me a second-hand road bike in my size",
            "which frame size should I filter for on the bike marketplace?",
            "is this 54cm road bike a good buy for me?",
            "help me pick a gravel bike, what size should I get?",
            "a friend is selling her bike, what size do I need?",
            "what size road bike should I rent for the sportive?",
        ),
    ),
    (
        (
            "My balcony faces north, it barely gets any sun.",
            "The balcony is north-facing, shade all day.",
            "no sun on my balcony, it's on the north side of the building",
            "North-facing balcony here, so it's dim out there.",
            "My flat's balcony gets no direct light, it faces north.",
            "Balcony: north side, basically permanent shade.",
        ),
        (
            "I checked with a compass app and the balcony actually faces south-west. Sun all "
            "afternoon!",
            "Turns out I had it wrong: the balcony points south-west, it's sunny from lunch on.",
            "lol I was wrong about my own balcony, it's south west facing. sun in the afternoons",
            "what's a good compass app? I used one and my balcony is south-west, not north.",
            "My neighbour pointed out the balcony faces south-west. It gets the afternoon sun.",
            "Measured it properly: south-west facing, loads of light after midday.",
        ),
        (
            "which herbs should I grow on my balcony?",
            "what flowers would do well on my balcony this summer?",
            "can I grow tomatoes on my balcony?",
            "suggest balcony plants that suit the light I get",
            "should I put a sunshade on my balcony?",
            "what's the best spot for a chilli plant, balcony or windowsill?",
        ),
    ),
    (
        (
            "Dairy upsets my stomach, so no milk or cheese for me.",
            "I'm lactose intolerant, keep dairy out of my food.",
            "milk and cheese make me ill, so skip dairy in recipes",
            "No dairy please, my stomach can't take it.",
            "I avoid dairy. Cheese especially sets me off.",
            "Dairy-free recipes only for me, it doesn't agree with me.",
        ),
        (
            "The allergy clinic tested me: it's wheat I react to, not dairy. Cheese is back!",
            "My test results came in. Gluten is the problem, and dairy is completely fine.",
            "turns out it was never the milk, it's wheat. the clinic confirmed it",
            "book me a table somewhere nice? finally know what's wrong: wheat, not milk",
            "The doctor says I'm coeliac, not lactose intolerant. Bread is out, cheese is in.",
            "Results are back: dairy's fine for me, gluten is what I have to avoid.",
        ),
        (
            "suggest a lunch I can take to work",
            "can I have a cheese toastie for lunch?",
            "what should I bake for my own birthday?",
            "plan my breakfasts for next week",
            "what pasta dish can I make tonight?",
            "pick a pizza for me from the menu",
        ),
    ),
)


@template(
    "correction",
    "measured-otherwise",
    "Something the user took for granted about themselves is overturned by a measurement or a "
    "test (a bike fit says 56 not 54, the balcony faces south-west, it is wheat not dairy), "
    "sometimes as an aside in a request; the finding is relevant, the assumption forbidden.",
)
def measured_otherwise(s: Scenario) -> None:
    d = s.draw
    assumed, found, asks = d.any(MEASURED)
    assumed_text, found_text, ask = d.pick(assumed), d.pick(found), d.pick(asks)
    lead = d.pick(("", "so, ", "update: ", "guess what, ", "huh. ", "news: "))
    c = s.chat(s.day(0, d.between(8, 21)))
    old = c.user(assumed_text)
    c.assistant(d.any(ACKS))
    c = s.chat(s.day(d.between(8, 60), d.between(8, 21)))
    new = c.user(lead + found_text[0].lower() + found_text[1:] if lead else found_text)
    c.assistant(d.any(("That's useful to know!", "Oh, that changes things.", *ACKS)))
    s.nightly()
    at = s.day(d.between(62, 90), d.between(9, 19))
    s.recall(s.ask(ask, at, relevant=[new], forbidden=[old]))


# (the old unit or format, a request, the assistant's answer in the old one, the switch,
# questions)
UNITS: tuple[tuple[Sequence[str], str, str, Sequence[str], Sequence[str]], ...] = (
    (
        (
            "Give me temperatures in Fahrenheit, Celsius means nothing to me.",
            "I grew up in Ohio, so Fahrenheit for weather and ovens please.",
            "fahrenheit please, always, I can't picture celsius",
            "Use °F for me whenever there's a temperature.",
            "Temperatures in Fahrenheit, I'm American.",
            "I only understand Fahrenheit, keep it that way.",
        ),
        "how warm is it going to be this afternoon?",
        "About 68°F this afternoon, with a light breeze.",
        (
            "Honestly after two years here I think in Celsius now, use that from now on.",
            "Switch me to degrees C, everyone around me uses them and I've got used to it.",
            "hm, give it to me in celsius actually. from now on, I've gone local",
            "Celsius from now on please. My brain finally converted.",
            "Can you do temperatures the European way from now? I'm used to it now.",
            "I've stopped thinking in F. Centigrade for everything going forward.",
        ),
        (
            "what's the weather going to be like this weekend?",
            "what oven temperature should I roast potatoes at?",
            "how cold will it get tonight?",
            "what's the ideal temperature for my bedroom at night?",
            "at what temperature is a chicken cooked through?",
            "is it warm enough for a picnic on Sunday?",
        ),
    ),
    (
        (
            "Please use the 24-hour clock, am and pm confuse me.",
            "Times as 24h please, like 15:30.",
            "I prefer 24-hour times, it's what I use at work.",
            "write times the military way, 18:00 not 6pm",
            "24-hour format for any times you give me.",
            "No am/pm please, I read times as 0900, 1730 and so on.",
        ),
        "what time does the pharmacy close on Saturdays?",
        "It closes at 17:30 on Saturdays.",
        (
            "Actually can you write times like 3pm from now on? My eyes glaze over at 15:00.",
            "I've changed my mind, am and pm is easier for me to read now.",
            "ugh, give me normal times please, like 5:30pm, I keep misreading the 24h ones",
            "From now on use 12-hour times with am/pm. The other way isn't working for me.",
            "Please switch to am/pm, my new calendar uses it and I want them to match.",
            "Let's do '7pm' style times from here on, not '19:00'.",
        ),
        (
            "write me a timetable for Saturday's errands",
            "when should I leave for my 10 o'clock train?",
            "plan my Sunday with times",
            "make a schedule for my study day tomorrow",
            "what time is sunset today?",
            "list the opening hours of a typical supermarket",
        ),
    ),
    (
        (
            "Give me recipe quantities in cups, I don't own a scale.",
            "Cups and spoons for recipes please, no grams.",
            "recipes in cup measures pls, no kitchen scale here",
            "I measure with cups, so write recipes that way.",
            "Volume measures for baking, cups, tablespoons.",
            "I bake by the cup, keep grams out of it.",
        ),
        "how much flour goes into a basic pancake batter for two?",
        "About 1 cup of flour, 1 cup of milk and one egg.",
        (
            "I finally bought a kitchen scale, so grams from now on please.",
            "Weights please from now on, my new scale is way more accurate than cups.",
            "switch me to grams! got a digital scale for my birthday",
            "Metric weights for recipes now, I weigh everything.",
            "Please give amounts in grams going forward, I've got a scale now.",
            "No more cups, I'm weighing ingredients in grams now.",
        ),
        (
            "give me a banana bread recipe",
            "how much rice should I cook for four people?",
            "write out a recipe for shortbread",
            "how much pasta per person?",
            "scale this chocolate cake recipe up for twelve",
            "what's a good pizza dough recipe?",
        ),
    ),
)


@template(
    "correction",
    "units-switched",
    "A unit or format preference (Fahrenheit, the 24-hour clock, cups) is switched by a message "
    "that shares few words with it, often just after an answer in the old one; the switch is "
    "relevant later, the old preference forbidden.",
)
def units_switched(s: Scenario) -> None:
    d = s.draw
    olds, request, answer, switches, asks = d.any(UNITS)
    old_text, switch_text, ask = d.pick(olds), d.pick(switches), d.pick(asks)
    c = s.chat(s.day(0, d.between(8, 21)))
    old = c.user(old_text)
    c.assistant(d.any(ACKS))
    c = s.chat(s.day(d.between(20, 70), d.between(8, 21)))
    answered_first = d.chance(0.6)
    if answered_first:
        c.user(request)
        c.assistant(answer)
    switch = c.user(switch_text)
    c.assistant(d.any(("Switched.", "Done, I'll use that from now on.", *ACKS)))
    s.nightly()
    at = s.day(d.between(75, 100), d.between(9, 19))
    s.recall(s.ask(ask, at, relevant=[switch], forbidden=[old]))
