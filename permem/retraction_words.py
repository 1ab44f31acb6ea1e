"""What a retraction names (`permem.policy` re-exports these): the content words, amounts and
models a retraction and the claim it takes back share (`reference_words`, `retracted_words`),
and what a standing claim rules out (`ruled_out_words`). The pipeline and the revisions use
them to decide which older claims a newer one takes back.
"""

from __future__ import annotations

import functools
import re

from permem.extraction.modality import CONTINUES

# Words that name nothing a retraction could refer to (reference_words).
_NOT_A_REFERENT = frozenset(
    "the and for with that this these those you your are was were have has had not but can "
    "could would should will what when where which who how about from into just some any all "
    "more most very really also them they their there here then than too our ours out get got "
    "getting now anymore any longer no never always only off take took taking scratch rid "
    "list thing things stuff like love loved make made honestly actually again yesterday today "
    "use using used don't didn't doesn't isn't it's i'm i've i'd i'll me my mine myself we "
    "us it its one bit lot way day days time times please thanks okay sure yes yeah we're "
    "we've we'd we'll you're they're that's there's what's let's can't won't wasn't "
    "work worked out put plan plans planned idea old outdated goodbye bye farewell sorry oops "
    "whoops wait correction typo "
    # Quantifiers and degree words point at no referent: "cancelled every subscription"
    # names no claim of "I run 5k every morning".
    "every each everything everyone everybody whole entire entirely completely totally fully "
    "nothing anything something both either neither several many much few little other "
    "another same such own even still already yet ever".split()
)


def reference_words(text: str) -> frozenset[str]:
    """Content words of `text`, singular and lower-case, that a retraction and the claim it
    takes back would share ("nights" and "night shifts" share "night")."""
    found = set()
    lowered = text.casefold().replace("’", "'")
    for word in re.findall(r"[^\W\d_][\w'-]{2,}", lowered):
        if word in _NOT_A_REFERENT:
            continue
        word = _stem(word.removesuffix("'s"))
        if word not in _NOT_A_REFERENT and len(word) > 2:
            found.add(word)
    # Amounts and models name a referent too: "the 5k thing is old" after "I run 5k".
    found.update(m for m in re.findall(r"(?<![\w.])\d+[a-z]*(?![\w.])", lowered) if len(m) > 1)
    # So does a quantity's unit: "bike fit result: 56cm" is a measure of what "I ride a 54cm
    # frame" measured (times of day are no quantity: "6am" and "9am" name different things).
    found.update(
        f"#{unit}"
        for unit in re.findall(r"(?<![\w.])\d+(?:\.\d+)?\s?([a-z]{1,3})(?![\w.])", lowered)
        if unit in _UNITS
    )
    return frozenset(found)


_UNITS = frozenset("cm mm m km kg g lb lbs oz ft in mi ml l kcal cal bpm".split())


def retracted_words(claim: str, context: str | None = None) -> frozenset[str]:
    """What a retraction names: the content words, amounts and models of the claim and of the
    context it leans on ("scratch that" after "had the mango lassi again": mango, lassi)."""
    # Every word counts, not only those of the clause that takes back: a wrong supersession
    # costs a miss, a missed one a wrong personalization.
    # What it says goes on is not what it takes back: "the Leipzig move fell through, we're
    # still in Bologna" names the move, not the home in Bologna.
    return reference_words(CONTINUES.sub(" ", f"{context or ''} {claim}"))


_RULED_OUT = re.compile(
    r"\b(?:no|not|never|without|quit|quitting|stopped|dropped|gave\s+up|given\s+up|cut\s+out|"
    r"ditched)\s+(?:more\s+|any\s+|the\s+|my\s+|with\s+)?(?P<word>[^\W\d_][\w'-]{2,}|\d+[a-z]*\b)",
    re.IGNORECASE,
)
# A rule under a condition is an exception, not a reversal: "no running when it rains".
_CONDITION = re.compile(
    r"\b(?:if|when|whenever|unless|while|during|before|after|on\s+\w+days|on\s+(?:rainy|hot|"
    r"cold|busy|work)\s+days|at\s+night|in\s+the\s+(?:morning|evening)|except|but)\b",
    re.IGNORECASE,
)


def ruled_out_words(claim: str) -> frozenset[str]:
    """What a standing claim rules out ("swimming only from now on, no running, no spin":
    run, spin), which an older claim that holds it gives way to; nothing under a condition
    ("no running when it rains")."""
    if _CONDITION.search(claim):
        return frozenset()
    return frozenset().union(
        *(reference_words(m.group("word")) for m in _RULED_OUT.finditer(claim))
    )


# A retraction may name things by their kind rather than by themselves: "I've quit caffeine"
# takes back "useless before my double espresso", "cancelled every streaming subscription"
# takes back "we're a Netflix household", "I've given up meat" takes back "a steak most
# Fridays". Each kind (its words, any of them naming it) with the things it covers; a thing of
# several words is named only by all of them ("flat white", not "white").
_KINDS_SAID: dict[str, str] = {
    "caffeine caffeinated decaf stimulants": (
        "coffee|espresso|latte|cappuccino|americano|macchiato|mocha|flat white|cold brew|"
        "matcha|energy drink|cola|coke|red bull|black tea|green tea|earl grey|chai|pre-workout"
    ),
    "alcohol alcoholic booze boozing drinking sober sobriety teetotal": (
        "beer|ale|lager|stout|ipa|cider|wine|prosecco|champagne|cava|whisky|whiskey|bourbon|"
        "gin|vodka|rum|tequila|mezcal|cocktail|negroni|margarita|spritz|sake|pint|pub"
    ),
    "streaming subscription cord": (
        "netflix|hbo|disney|hulu|prime video|apple tv|paramount|peacock|crunchyroll|mubi|"
        "now tv|britbox|youtube premium|spotify|apple music|tidal|deezer"
    ),
    "social media|socials": (
        "instagram|insta|tiktok|facebook|twitter|snapchat|reddit|threads|bluesky|mastodon|"
        "linkedin|pinterest|tumblr"
    ),
    "meat": (
        "beef|pork|chicken|lamb|bacon|steak|burger|sausage|ham|salami|turkey|veal|venison|"
        "mince|meatball|pepperoni|chorizo|brisket"
    ),
    "fish seafood pescatarian": (
        "salmon|tuna|cod|prawn|shrimp|sushi|mackerel|sardine|crab|lobster|mussel|oyster|"
        "haddock|fish and chips"
    ),
    "dairy lactose": "milk|cheese|butter|yoghurt|yogurt|cream|cheddar|brie|mozzarella|latte",
    "carbs carb": "bread|pasta|rice|potato|noodle|pizza|toast|bagel|cereal|spaghetti",
    "gluten wheat": "bread|pasta|pizza|beer|toast|bagel|croissant|cake|biscuit|noodle|cereal",
    "sugar sugary sweets": (
        "cake|candy|chocolate|dessert|biscuit|cookie|soda|doughnut|donut|ice cream|pastry|pastries"
    ),
    "smoking nicotine cigarettes tobacco": "cigarette|cig|vape|vaping|cigar|roll-up|shisha",
}


@functools.cache
def _kind_table() -> dict[frozenset[str], tuple[frozenset[str], ...]]:
    table: dict[frozenset[str], tuple[frozenset[str], ...]] = {}
    for kinds, things in _KINDS_SAID.items():
        names = kinds.split("|") if "|" in kinds else kinds.split()
        covered = tuple(reference_words(thing) for thing in things.split("|"))
        for name in names:
            table[reference_words(name)] = covered
    return table


def named_by_kind(named: frozenset[str], words: frozenset[str]) -> bool:
    """Whether words a retraction names (`retracted_words`, `ruled_out_words`) name a kind that
    covers a thing the claim's words (`reference_words`) name: "quit caffeine" names the
    espresso, "no alcohol at all now" the red wine."""
    return any(
        kind <= named and any(thing and thing <= words for thing in covered)
        for kind, covered in _kind_table().items()
    )


def _stem(word: str) -> str:
    """A crude stem, the same on both sides of a comparison: "running"/"runs" -> "run",
    "nights" -> "night", "cycled"/"cycle" -> "cycl"."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "ls":
                word = word[:-1]
            return word.removesuffix("e")
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        word = word[:-1]
    return word.removesuffix("e") if len(word) > 4 else word
