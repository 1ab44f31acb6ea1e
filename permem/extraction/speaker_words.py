"""The vocabulary of `permem.extraction.speaker_markers` (pattern fragments, not patterns):
devices and whose they are, greetings, names, ages, relations and care roles, lodgings."""

from __future__ import annotations

from permem.extraction.lexicon import RELATIONS

# Things one uses to talk to the assistant: whose they are says whose account it is.
_DEVICE = (
    r"(?:(?:smart|cell|mobile\s+)?phone|mobile|cell|iphone|ipad|tablet|laptop|computer|pc|"
    r"mac(?:book)?|chromebook|kindle|device|account|login|profile|app)s?"
)
# Someone else's: never the speaker's own ("my phone").
_OTHERS = r"(?:his|her|their|my\s+[^\W\d_]+['’]s|[^\W\d_]+['’]s)"
_ANY_DET = rf"(?:the|this|that|the\s+family(?:'s)?|{_OTHERS})"
# Relations that lend a device at home (work relations are left out: "my boss lets me use the
# laptop" is the holder at work).
_HOME_RELATIONS = "|".join(
    sorted(
        {r for r in RELATIONS if r not in {"boss", "manager", "colleague", "coworker", "co-worker"}}
        | {"mommy", "mummy", "mama", "momma", "daddy", "papa", "gran", "granny", "nan", "nana",
           "stepmom", "stepmum", "stepdad", "grandparents", "sis", "bro"},
        key=len,
        reverse=True,
    )
)  # fmt: skip
_GREETINGS = (
    r"(?:hi+|hey+|hello+|hiya|heya|howdy|yo|ok(?:ay)?|oh|um+|uh+|so|well|sorry|hi there|"
    r"hey there|lol|haha+|just so you know|fyi|btw|good (?:morning|afternoon|evening))"
)
_LEAD = rf"(?:{_GREETINGS}\W*\s+)*"
_NAME = r"(?P<name>[^\W\d_][^\W\d_'’-]*(?:[-'’][^\W\d_]+)?)"
_NOT_NAME = r"(?P<not>[^\W\d_][^\W\d_'’-]*(?:[-'’][^\W\d_]+)?)"
_I_AM = r"(?:i['’]?m|i am)"
_NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17,
}  # fmt: skip
_AGE = rf"(?P<age>\d{{1,2}}|{'|'.join(_NUMBER_WORDS)})"
_YEARS = r"(?:\s*(?:years?|yrs?|y/?o|yo)(?:\s+old)?)?"
_TRAIL = (
    r"(?:\s+(?:now|today|btw|lol|haha+|actually|tho|though|already|this\s+time|for\s+once|"
    r"for\s+now|right\s+now|for\s+a\s+bit|tonight))*\W*"
)
# People whose role in a household is to look after it or its people, or to visit it: like a
# relative, they may be handed the family's device ("I'm the babysitter", "the nanny here").
_CARE_ROLES = (
    r"(?:babysitter|baby-sitter|sitter|nanny|au\s+pair|carer|caregiver|care\s+worker|nurse|"
    r"cleaner|housekeeper|tutor|childminder|dog-?sitter|house-?sitter|guest|visitor|lodger|"
    r"granddad|grandad|gramps|grandpa|nan|nana|gran|granny|other\s+half|better\s+half)"
)
_RELATION_WORDS = "|".join(sorted(RELATIONS, key=len, reverse=True))
# A word that may stand before a relation: "little brother", "eldest son", "step-mum".
_KIN_ADJECTIVE = (
    r"(?:(?:little|big|baby|older|younger|elder|eldest|youngest|oldest|kid|twin|step|"
    r"step-|other|new)\s*)?"
)
_POSSESSOR = r"(?:[^\W\d_]+['’]s|his|her|their)"
# Someone described by whose relative (or carer) they are: "Kai's daughter", "his wife",
# "the babysitter", "tom's little brother".
_DESCRIBED = (
    rf"(?:{_POSSESSOR}\s+{_KIN_ADJECTIVE}(?:{_RELATION_WORDS}|{_CARE_ROLES})|"
    rf"(?:the|your)\s+(?:kids['’]?\s+|family['’]?s?\s+)?{_CARE_ROLES})"
)
_KIN = rf"{_KIN_ADJECTIVE}(?:{_RELATION_WORDS}|{_CARE_ROLES})(?:\s+[^\W\d_]+)?"
_LODGING = (
    r"(?:holiday\s+let|let|rental|flat|apartment|house|place|cabin|cottage|chalet|airbnb|room|"
    r"studio|annex|annexe|lodge|villa|b&b|guesthouse|guest\s+house|unit|loft|suite|bungalow|"
    r"caravan|yurt|hut|barn|condo|houseboat|farmhouse|holiday\s+home)"
)
