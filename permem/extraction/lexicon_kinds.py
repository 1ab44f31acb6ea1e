"""Word lists of kinds and topics: the topics on which a newer statement supersedes an older
one, and the constraint, preference and taste-verdict cues. Re-exported by
`permem.extraction.lexicon`."""

from __future__ import annotations

import re

from permem.extraction.wordlist import categories, words
from permem.prefilter import guard_patterns

# Topics on which a newer statement supersedes an older one.
TOPICS = categories(
    {
        "diet": (
            "vegan", "vegetarian", "pescatarian", "keto", "paleo", "whole30", "halal",
            "kosher", "carnivore", "flexitarian", "plant-based", "omnivore", "eat meat",
            "eat fish", "diet", "veggie",
        ),
        "phone": (
            "iphone", "android", "pixel", "samsung", "galaxy", "ios", "oneplus", "phone",
        ),
        "payday": ("payday", "paid", "paycheck", "pay day", "salary", "get paid", "wages"),
        "reply_language": (
            "english", "french", "français", "spanish", "español", "german", "deutsch",
            "italian", "portuguese", "dutch", "polish", "japanese", "chinese",
        ),
        "units": (
            "metric", "imperial", "celsius", "fahrenheit", "miles", "kilometres",
            # Amounts given in a unit: "keep it in cups and ounces", "convert it to grams".
            r"(?:it|them|everything|amounts|quantities|measurements|measures|recipes?|ingredients|"
            r"weights?|temperatures?|distances?|heights?)\s+"
            r"(?:in|into|to)\s+(?:cups|ounces|oz|grams|pounds|lbs|kilos|kilograms|kg|feet|inches|"
            r"metres|meters|litres|liters|gallons|centimet(?:re|er)s|stone)",
            # A piece told which units to use: "the recipe should use cups".
            r"(?:should|must|to|please|needs\s+to|has\s+to)\s+use\s+(?:cups|ounces|oz|grams|pounds|"
            r"lbs|kilos|kilograms|kg|feet|inches|metres|meters|litres|liters|gallons)",
        ),
        "spelling": (
            "british spelling", "american spelling", "uk spelling", "us spelling",
            # "'color' and 'organize', American style", "UK English please".
            r"(?:british|american|uk|us|canadian|australian)\s+(?:style|english|spellings?)",
        ),
        "home": (
            "live in", "living in", "lives in",
            # Not a time: "the roundup moved to the evening".
            r"moved\s+to(?!\s+(?:the\s+)?(?:morning|afternoon|evening|night|weekend|lunchtime|\d|"
            r"next|later|earlier))", "based in", "relocated to",
            "relocating to", "living there", "live there", "be living", "moving there",
            "move there", "home is", "my home", "settled in", "moved into", "moved in",
            "new flat", "new house", "new apartment", "new place", "new home",
            # Where the user is based for a while: "house-sitting in Bergen all of next
            # month", "working out of the London office, so local means London then".
            "house-sitting", "housesitting", "house sitting", "subletting", "sublet",
            "working out of", "local means", "local for me", "based at", "that's home",
            "that is home", "anything local", "local stuff",
            # Minding someone's place, or sent somewhere by work: "looking after my parents'
            # farmhouse outside Cork", "work is sending me to our Lisbon team".
            r"(?:looking\s+after|minding|watching)\s+(?:[\w'’-]+\s+){1,2}(?:house|place|flat|"
            r"farmhouse|farm|cottage|apartment|home|cabin)",
            r"(?:sending|posting|seconding|relocating)\s+me\s+(?:to|out\s+to|over\s+to)",
        ),
        "job": (
            "new job", "work as", "job as", "my job", "employer", "work at", "works at",
            "new role", "my role", "work for", "promoted to",
        ),
        # Where the user works from: "fully remote from the spare room", later "in the office
        # Tuesday to Thursday from 20 August".
        "workplace": (
            # Not a stay ("working remotely from Seville this week").
            r"remote(?:ly)?(?!\s+from\b)", "wfh", "work from home", "working from home",
            "works from home",
            # Not the office party: "had cake at the office party" says nothing of where.
            r"(?:in|at|into)\s+the\s+office(?!\s+(?:party|parties|do|drinks|christmas|kitchen|"
            r"picnic|quiz|lunch))", "office days", "home days",
            "hybrid", "on site", "on-site", "onsite", "spare room", "home office", "coworking",
            "co-working", "hot desk", "hot-desking", "hq", "headquarters",
        ),
        "schedule": ("mornings", "evenings", "weekends", "weekdays", "days a week", "night shift"),
    }
)  # fmt: skip
# The shape of the assistant's replies (length and layout): one axis, so a newer rule on it
# replaces the older ("keep replies brief and bulleted", later "give me full paragraphs"). A
# length word counts only beside what it measures ("short answers", "keep it brief"): "short
# on time" and "a long week" are no rule about replies.
_REPLY = r"(?:repl(?:y|ies)|answers?|responses?|explanations?|summar(?:y|ies)|messages?|emails?)"
_LENGTH = (
    r"(?:brief|briefer|short|shorter|concise|terse|succinct|detailed|long|longer|lengthy|"
    r"thorough|in-depth|in\s+depth|one-line|one-liners?)"
)
TOPICS["reply_format"] = re.compile(
    rf"\b(?:{_LENGTH}\s+(?:\w+\s+){{0,2}}{_REPLY}|{_REPLY}\s+(?:\w+\s+){{0,3}}{_LENGTH}|"
    rf"keep\s+(?:it|them|things)\s+{_LENGTH}|bullet(?:s|ed|\s+points?|\s+lists?)|"
    r"(?:full|flowing|proper|whole|prose)\s+(?:\w+\s+)?(?:paragraphs|sentences|prose)|(?:as|in)\s+prose|"
    r"numbered\s+lists?|tl;?dr)\b",
    re.IGNORECASE,
)

# A rule of what the speaker eats, by food group ("no meat or fish for me", "fish is fine now",
# "seafood's back in my life", "still not touching red meat"): a diet, so it is on the diet
# topic, whose newer statement replaces the older. Not an allergy or an intolerance: those add
# up, and a new diet does not lift one (`ALLERGY`).
FOOD_GROUP = words(
    *(rf"{group}(?:'s)?" for group in (  # "seafood's back": the contracted "is"
        "meat", "red meat", "white meat", "fish", "seafood", "poultry", "pork", "beef", "lamb",
        "dairy", "eggs", "animal products", "shellfish",
    ))
)  # fmt: skip
EATING_RULE = words(
    "no", "not", "never", "don't", "do not", "won't", "eat", "eats", "eating", "ate", "touch",
    "touching", "fine", "ok", "okay", "allowed", "back", "off", "free", "again", "anymore",
    "any more", "cut out", "gave up", "given up", "stays", "staying",
)  # fmt: skip
ALLERGY = words(
    "allergic", "allergy", "allergies", r"intoleran(?:t|ce)", "coeliac", "celiac",
    "anaphylaxis", "epipen",
)  # fmt: skip

# Kind cues, checked in this order after instructions and plans.
CONSTRAINT = words(
    "allergic", r"intoleran(?:t|ce)", "can't eat", "cannot eat", "can't have", "can't drink",
    "can't do", "cannot do", "avoid", "avoids", "avoiding", "never", "only", "strict",
    "strictly", "don't eat", "do not eat", "don't drink", "don't use", "won't", "must not",
    "mustn't", "vegan", "vegetarian", "pescatarian", "halal", "kosher", r"gluten[- ]free",
    "dairy-free", "nut-free", "sugar-free", "phobia", "scare me", "scares me", "itchy",
    "headache", "not allowed", "no", "without", "refuse", "coeliac", "celiac", "whole30",
    "keto", "diet", "off the menu", "off limits", "banned",
)  # fmt: skip
PREFERENCE = words(
    r"like[sd]?", r"love[sd]?", r"enjoy(?:s|ed)?", r"prefer(?:s|red)?", r"hate[sd]?",
    r"dislike[sd]?", r"favou?rite", "fan of", "into", "rather", "appeal", "appeals",
    "appealing", "comfort", "taste", "style", "picky", "adore", "detest", "can't stand",
    "cannot stand", "love language", "not a fan", "not really into", "obsessed",
    "passionate", "makes my day", "fine", "my thing", "my weakness", "my jam", "my go-to",
    "my kind of", "my guilty pleasure", "my comfort food", "my cup of tea", "not my thing",
)  # fmt: skip

# A verdict of taste needs no "I" to be the speaker's: "pancakes with syrup are the best",
# "coriander is disgusting".
TASTE_VERDICT = re.compile(
    r"\b(?:is|are|'s|'re)\s+(?:(?:just|so|simply|literally|honestly|absolutely)\s+)?"
    r"(?:the\s+best|the\s+worst|amazing|delicious|disgusting|gross|yucky|awful|overrated|"
    r"underrated|life|heaven|the\s+greatest|unbeatable|my\s+fave)\b|"
    r"\bthe\s+(?:\w+er|more\s+\w+)(?:,?\s+(?:and\s+)?(?:\w+er|more\s+\w+))*\s+the\s+better\b|"
    r"\bcan't\s+get\s+enough\s+of\b|"
    # A taste stated as a fact: "tabs are the right way to indent, objectively", "film beats
    # digital, end of story", "vinyl is simply superior".
    r"\b(?:is|are|'s|'re)\s+(?:(?:just|so|simply|literally|honestly|absolutely|clearly|"
    r"obviously)\s+)?(?:the\s+(?:only|right|correct|proper|one\s+true)\s+(?:way|choice|option)|"
    r"superior|objectively\s+\w+|better\s+(?:than|,)|always\s+better)\b|"
    r"\b\w+\s+(?:beats?|trumps?|wins?\s+over)\s+\w+|"
    r"[,.]\s*(?:objectively|hands\s+down|no\s+contest|end\s+of\s+(?:story|discussion)|"
    r"fight\s+me|period)\s*[.!]*\s*$",
    re.IGNORECASE,
)


# Last, so that what imports these names gets them guarded (permem.prefilter).
guard_patterns(globals())
