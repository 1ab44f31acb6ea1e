"""Word lists the extraction rules and the classifier read. One place, plain data.

Each pattern is matched case-insensitively on word boundaries against a sentence. They are cues,
not verdicts: the rules combine them with the parse.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping


def words(*alternatives: str) -> re.Pattern[str]:
    """A case-insensitive pattern matching any alternative as whole words."""
    body = "|".join(sorted(alternatives, key=len, reverse=True))
    # An apostrophe inside a word ("don't", "man's") joins it; one used as a quotation mark
    # ("'being a man'") does not.
    return re.compile(rf"(?<!\w)(?<!\w')(?:{body})(?!\w)(?!'\w)", re.IGNORECASE)


def categories(table: Mapping[str, Iterable[str]]) -> dict[str, re.Pattern[str]]:
    return {name: words(*alternatives) for name, alternatives in table.items()}


FIRST_PERSON = words(
    "i", "i'm", "im", "i've", "ive", "i'd", "i'll", "me", "my", "mine", "myself",
    "we", "we're", "we've", "our", "ours", "us",
)  # fmt: skip

# Statements about durable states, tastes, habits and constraints.
DURABLE = words(
    r"like[sd]?", "liking", r"love[sd]?", "loving", r"enjoy(?:s|ed)?", r"prefer(?:s|red)?",
    r"hate[sd]?", r"dislike[sd]?", "detest", "adore", "can't stand", "cannot stand",
    "can't do", "can't eat", "can't have", "can't drink", r"avoid(?:s|ed)?", "allergic",
    r"intoleran(?:t|ce)", "vegan", "vegetarian", "pescatarian", "halal", "kosher",
    r"gluten[- ]free", "diet", r"favou?rite", "fav", "fan of", "into", "obsessed",
    "passionate", "always", "never", "usually", "mostly", "often", "tend to", "rather",
    "don't", "do not", "won't", "doesn't", "not really", "not a fan", "only", "work",
    "works", "working", "live", "lives", "living", "based in", "from", "born", "grew up",
    "married", "divorced", "single", "have", "has", "got", "own", "speak", "study",
    "studying", "collect", "play", "read", "watch", "listen", "cook", "eat", "drink",
    "use", "using", "am", "i'm", "im", "is", "are", "was", "been", "beginner", "learning",
    "training", "retired", "appeal", "appeals", "appealing", "comfort", "go with",
    "went with", "pick", "choose", "stick with", "switched", "moved", "started", "quit",
    "stopped", "trying to", "goal", "plan", "planning", "going to", "gonna", "will",
    "thinking about", "considering", "hope to", "want to", "wanna", "keep",
    "remember", "believe", "think", "feel", "find", "phobia", "afraid", "scared", "scare",
    "love language", "taste", "style", "picky",
)  # fmt: skip

# Sentences that ask for something rather than state something durable.
REQUEST_OPENERS = re.compile(
    r"^\s*(?:what|how|why|where|when|which|who|whom|whose|can|could|would|will|should|shall|"
    r"do(?!\s+not)|does|did|is|are|am|was|were|have|has|any|anything|tell me|help me|"
    r"give me|show me|"
    r"explain|describe|write|list|compare|summari[sz]e|translate|generate|create|"
    r"(?:i|we)(?:'d| would)?\s+(?:really\s+)?(?:need|like|want|love)\s+(?:some\s+|a\s+|an\s+)?"
    r"(?:help|to know|to find|to learn more|advice|ideas|suggestions|recommendations|tips|"
    r"info|information)|(?:i'm|i am|we're|im)\s+(?:just\s+)?(?:looking for|trying to find|"
    r"wondering)|i\s+was\s+(?:just\s+)?wondering|looking for)\b",
    re.IGNORECASE,
)
PLEASANTRY = re.compile(
    r"^\s*(?:thanks?|thank you|thx|ty|ok(?:ay)?|sure|great|cool|nice|awesome|perfect|"
    r"sounds good|got it|i see|i agree|yes|yeah|yep|no|nope|haha|lol|hi|hello|hey|hiya|"
    r"wow|oh|ah)\b[\s!.,]*$",
    re.IGNORECASE,
)

# Imperatives and politeness markers that turn a sentence into a standing instruction.
INSTRUCTION = words(
    "please", "pls", "plz", "stp", "from now on", "going forward", "in future",
    "in the future", "next time", "always", "never", "don't", "do not", "stop", "avoid",
    "make sure", "keep", "use", "answer", "reply", "respond", "write", "call me",
    "text me", "email me", "remind me", "show", "send", "no more", "just give",
    "everywhere", "for me",
)  # fmt: skip
IMPERATIVE_OPENER = re.compile(
    r"^\s*(?:please\s+|pls\s+|and\s+|also:?\s+|so\s+)?(?:always|never|don't|do not|stop|avoid|"
    r"keep|use|answer|reply|respond|write|call|text|email|remind|show|send|give|make|"
    r"assume|suggest|recommend|plan|book|put|format|spell|talk|speak|address|mention|"
    r"remember|note|save|let|skip|include|exclude|report)\b",
    re.IGNORECASE,
)
# An explicit request to keep something: addressed to the assistant, not reminiscing
# ("I remember when ..." is not a request).
REMEMBER_REQUEST = re.compile(
    r"(?:^|[,.;:!—-]\s*|\b(?:so|and|but|please|pls|also|just|could you|can you|would you|"
    r"make sure (?:to|you)|you should|do)\s+)"
    r"(?:remember|(?:keep|bear)\s+(?:(?:that|this|it)\s+)?in\s+mind|don't forget|do not forget|"
    r"note)\b"
    r"(?=\s*(?:that\b|this\b|it\b|i\b|i'm\b|i've\b|my\b|to\b|for\b|:|whenever\b|"
    r"when you\b|forever\b|[.!]|$))|"
    r"\b(?:make a note|save this|save that|for future reference|for next time|"
    r"add (?:this|that|it) to my (?:profile|memory|notes))\b",
    re.IGNORECASE,
)


LANGUAGE = words(
    "english", "french", "français", "francais", "spanish", "español", "espanol", "german",
    "deutsch", "italian", "italiano", "portuguese", "português", "dutch", "nederlands",
    "polish", "polski", "chinese", "mandarin", "japanese", "korean", "arabic", "hindi",
    "russian", "turkish", "swedish", "british spelling", "american spelling", "metric",
    "imperial", "celsius", "fahrenheit", "24-hour", "12-hour",
)  # fmt: skip

CORRECTION = words(
    "actually", "anymore", "any more", "no longer", "switched to", "switched", "changed to",
    "moved to", "now", "nowadays", "these days", "instead", "not anymore", "from now on",
    "update", "correction", "i was wrong", "not the", "caved",
)  # fmt: skip

ONE_OFF = words(
    "just this once", "this once", "this time only", "only this time", "just this time",
    "for this trip only", "for this trip", "just tonight", "only tonight", "for tonight",
    "just for today", "only today", "for today only", "this one time", "one-off", "one off",
    "for this session", "for this conversation", "for this chat", "this time",
    "make an exception", "making an exception", "an exception this time", "special occasion",
    "for the occasion", "cheat day", "treat day", "just the once",
    # Buying or planning for someone else: their tastes, this once.
    "as a gift", "a gift for", "a present for", "as a present", "it's for a friend",
    "it's for my", "it is for my", "shopping for my", "buying for my", "for someone else",
    "on behalf of",
)  # fmt: skip

HEDGE = words(
    "hoping", "hope to", "would like to", "i'd like to", "wish", "dreaming of", "hopefully",
    "fingers crossed", "if all goes well", "if everything goes well", "with any luck",
    "we'll see", "fingers x'd",
    "maybe", "perhaps", "might", "possibly",
    # The modal, not the month: "I may", "it may" ("until May" is no hedge).
    r"(?:i|we|it|that|this|they|he|she|you)\s+may", "probably", "not sure", "unsure",
    "thinking about", "thinking of", "considering", "i guess", "kind of", "kinda",
    "sort of", "no idea if", "if i", "someday", "some day", "eventually", "who knows",
)  # fmt: skip

PLAN = words(
    "might try", "might start", "might go", "might switch", "might give", "might take",
    "might do", "might get", "might move", "may try",
    "hoping to", "hope to", "aiming to", "aim to", "looking to", "intending to",
    "would like to", "i'd like to", "about to",
    "going to", "gonna", "plan to", "plans to", "planning to", "planning on", "will",
    "i'll", "intend to", "thinking about", "thinking of", "considering", "next week",
    "next month", "next year", "next summer", "next spring", "next fall", "next autumn",
    "next winter", "in the fall", "in the spring", "in the summer", "in the winter",
    "in the autumn",
)  # fmt: skip

# "I <verb> ..." at the start of a sentence states something about the speaker, unless the
# verb asks for help now.
I_STATEMENT = re.compile(
    r"^\s*(?:i|we)(?:'m|'ve|'d|'re)?\s+(?!need\b|want to know|wonder|was wondering|"
    r"am looking|'m looking|have a question|hope you|guess\b|see\b|agree\b|think so|mean\b|"
    r"just wanted|would like|'d like|was just|am just|'m just|can't find|cannot find|"
    r"don't know|do not know|don't understand|have no idea|got it|understand)\w",
    re.IGNORECASE,
)
STANDING = words("from now on", "going forward", "in future", "in the future", "next time")

PAST_EVENT = words(
    "yesterday", "last week", "last month", "last year", "last night", "last weekend",
    r"last (?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\w*", "the other day", "recently",
    r"just (?:got|had|finished|joined|started|bought|moved|won|lost|signed|adopted|graduated|"
    r"quit|returned|came back|tried|took|went|made|ran|visited)",
    "earlier today", "this morning", "ago", "used to", "when i was", "a while back",
)  # fmt: skip

# Beliefs about how the world is (not tastes): never stored as facts about the person, and a
# factual question must not be answered from them.
BELIEF = re.compile(
    r"\b(?:i(?:'ve| have)?\s+always\s+(?:believed|thought)|i\s+still\s+(?:think|believe)|"
    r"i'm\s+convinced|i\s+am\s+convinced|everyone\s+knows|it's\s+a\s+(?:fact|myth)|"
    r"i\s+(?:believe|think|reckon)\s+(?:that\s+)?(?:the|a|an|all|most|vaccines|[a-z]+s)\s+"
    r"(?:is|are|was|were|cause|causes)\b|\bis\s+basically\s+(?:poison|toxic|a\s+lie|fake)|"
    # "I (firmly) believe we only use ten percent of our brains": believing a clause about the
    # world (not "I believe I'll ...", "I believe in you").
    r"\bi\s+(?:really\s+|firmly\s+|honestly\s+|genuinely\s+|do\s+|truly\s+)?"
    r"(?:believe|reckon)\s+(?:that\s+)?(?!(?:i|i'm|i'll|i'd|i've|in|you|so|it's\s+time)\b)"
    r"\w+\s+\w+|"
    r"\bi(?:'ve|\s+have)?\s+(?:always\s+)?(?:heard|read|been\s+told)\s+(?:that\s+)?"
    r"(?!(?:i|i'm|you)\b)\w+\s+(?:\w+\s+)?(?:is|are|was|were|causes?|makes?|gives?|kills?|"
    r"destroys?|rots?|cures?)\b)",
    re.IGNORECASE,
)
# A belief about what works for the user themself ("I believe I study better with lo-fi",
# "cold showers work for me"): it may guide their own choices, never a factual answer.
SELF_BELIEF = re.compile(
    r"\bi\s+(?:really\s+|firmly\s+|honestly\s+|genuinely\s+|do\s+|truly\s+|still\s+)?"
    r"(?:believe|think|reckon|swear\s+by|am\s+(?:sure|convinced|certain)|'m\s+(?:sure|"
    r"convinced|certain))\b|\b(?:works?|worked)\s+(?:wonders\s+)?for\s+me\b|"
    r"\bin\s+my\s+experience\b|\bfor\s+me\s+at\s+least\b",
    re.IGNORECASE,
)
CHOICE = re.compile(
    r"\b(?:i(?:'ll| will| think i'll| would| 'd)?\s+(?:go|going)\s+with|let's\s+go\s+with|"
    r"i(?:'ll| will)?\s+(?:take|pick|choose)|option\s+\d+\s+(?:is|seems|sounds)|"
    r"(?:is|seems|sounds)\s+(?:like\s+)?(?:the\s+best|more\s+appealing|better)\s+"
    r"(?:choice|option|fit|for me))",
    re.IGNORECASE,
)

# Third parties the user talks about: "my wife", "my brother Tunde".
RELATIONS = (
    "wife", "husband", "partner", "spouse", "son", "daughter", "kid", "kids", "child",
    "children", "baby", "mom", "mum", "mother", "dad", "father", "parents", "brother",
    "sister", "friend", "boss", "manager", "colleague", "coworker", "co-worker",
    "roommate", "flatmate", "neighbor", "neighbour", "grandma", "grandmother", "grandpa",
    "grandfather", "aunt", "uncle", "cousin", "niece", "nephew", "fiance", "fiancé",
    "fiancee", "fiancée", "girlfriend", "boyfriend", "stepson", "stepdaughter", "toddler",
    "teenager", "teen", "family", "in-laws", "mother-in-law", "father-in-law", "godson",
    "goddaughter", "godchild", "grandson", "granddaughter", "grandkids", "grandchildren",
    "stepmom", "stepmum", "stepdad", "stepfather", "stepmother", "sibling", "siblings",
    "best friend", "twin",
)  # fmt: skip
# Buying, booking or choosing for someone else: what the message says of tastes is theirs,
# for this once (a one-off for the whole message).
FOR_SOMEONE = re.compile(
    r"\b(?:as\s+a\s+(?:gift|present)|a\s+(?:gift|present|surprise)\s+for|(?:shopping|buying|"
    r"getting\s+something|picking\s+something|booking)\s+for\s+(?:my|a|our)\b|it'?s\s+for\s+my\b|"
    r"it\s+is\s+for\s+my\b|for\s+someone\s+else|on\s+behalf\s+of|(?:his|her|their)\s+birthday|"
    r"\w+['’]s\s+birthday|birthday\s+(?:present|gift)s?)",
    re.IGNORECASE,
)
# Something needed, made or found for another person or their occasion: "a vegan cake for my
# sister's party", "party music for my goddaughter's sleepover", "an XL hoodie for my
# husband". The tastes the message names are theirs, for this once (`FOR_SOMEONE`).
_RELATION = "|".join(sorted(RELATIONS, key=len, reverse=True))
_FOR_RELATION = (
    r"\bfor\s+(?:my|our)\s+(?:(?:little|big|older|younger|baby|eldest|youngest|new|"
    rf"\d+[- ]year[- ]old)\s+)?(?:{_RELATION})"
)
FOR_A_RELATION = re.compile(
    r"\b(?:need|needs|needed|want|wants|looking\s+for|look\s+for|get|getting|order|ordering|"
    r"buy|make|making|bake|baking|find|pick|choose|plan|planning|organi[sz]e|organi[sz]ing|"
    rf"throw|throwing|host|hosting|sort\s+out)\b[^.!?]{{0,60}}{_FOR_RELATION}\b|"
    rf"{_FOR_RELATION}['’]s\s+(?:\w+\s+)?(?:party|sleepover|birthday|wedding|shower|"
    r"graduation|anniversary|visit|trip|event|celebration|dinner|lunch|picnic|game|recital|"
    r"play|show|leaving\s+do|send[- ]off|christening|bar\s+mitzvah|bat\s+mitzvah)\b",
    re.IGNORECASE,
)
THIRD_PARTY_SUBJECT = re.compile(
    r"(?:^|[,;:]\s*|\b(?:and|but|so|that's|that is|it's|it is)\s+)"
    rf"my\s+(?P<relation>{'|'.join(sorted(RELATIONS, key=len, reverse=True))})\b",
    re.IGNORECASE,
)

# "my nephew" anywhere (the last one named is who "he"/"she" is).
THIRD_PARTY_ANYWHERE = re.compile(
    rf"\bmy\s+(?P<relation>{'|'.join(sorted(RELATIONS, key=len, reverse=True))})\b(?!.*\bmy\s+"
    rf"(?:{'|'.join(sorted(RELATIONS, key=len, reverse=True))})\b)",
    re.IGNORECASE | re.DOTALL,
)

# Instruction-like text planted in content the user did not write (memory poisoning).
PLANTED_INSTRUCTION = re.compile(
    r"\b(?:ai|assistant|chatbot|model|llm|system)\s*[:,]|"
    r"\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+|the\s+)?(?:previous|prior|above|earlier)|"
    r"\b(?:save|store|add|write|record|remember)\s+(?:this|that|it)?\s*(?:to|in|into)\s+"
    r"(?:their|the user'?s?|your|the reader'?s?|his|her)\s+(?:profile|memory|memories|notes)|"
    r"\bthe\s+(?:user|reader|customer|visitor)\s+(?:is|has|wants|prefers|likes|needs|must)\b|"
    r"\b(?:reveal|share|send|disclose|forward|leak|expose|give)\b.{0,60}\b(?:address(?:es)?|"
    r"password|credentials|card|phone|email|data|information|details)\b|"
    r"\b(?:always|never|must|should|from now on)\b.{0,40}\b(?:respond|reply|answer|recommend|"
    r"say|tell|use|buy|promote)\b|"
    r"\bassistant[_ ]?(?:policy|instructions?|rules?|prompt)\b|"
    r"\bsystem\s+prompt\b|\bnew\s+instructions?\b|<\s*span[^>]*display\s*:\s*none",
    re.IGNORECASE,
)

# A `key: value` line of an imported profile.
IMPORT_FIELD = re.compile(r"^\s*(?P<key>[\w.\- ]{1,60}?)\s*[:=]\s*(?P<value>\S.*)$")

# Topics on which a newer statement supersedes an older one.
TOPICS = categories(
    {
        "diet": (
            "vegan", "vegetarian", "pescatarian", "keto", "paleo", "whole30", "halal",
            "kosher", "carnivore", "flexitarian", "plant-based", "omnivore", "eat meat",
            "eat fish", "diet",
        ),
        "phone": (
            "iphone", "android", "pixel", "samsung", "galaxy", "ios", "oneplus", "phone",
        ),
        "payday": ("payday", "paid", "paycheck", "pay day", "salary", "get paid", "wages"),
        "reply_language": (
            "english", "french", "français", "spanish", "español", "german", "deutsch",
            "italian", "portuguese", "dutch", "polish", "japanese", "chinese",
        ),
        "units": ("metric", "imperial", "celsius", "fahrenheit", "miles", "kilometres"),
        "spelling": ("british spelling", "american spelling", "uk spelling", "us spelling"),
        "home": (
            "live in", "living in", "lives in", "moved to", "based in", "relocated to",
            "relocating to", "living there", "live there", "be living", "moving there",
            "move there", "home is", "my home", "settled in",
        ),
        "job": ("new job", "work as", "job as", "my job", "employer", "work at", "works at"),
        "schedule": ("mornings", "evenings", "weekends", "weekdays", "days a week", "night shift"),
    }
)  # fmt: skip

# The sensitivity categories (SPECIAL, PERSONAL) are in sensitive.py.

# Filler before the claim. Words that can also negate or answer ("no", "yes") count as filler
# only when punctuation follows them: "no, that's my brother" but never "no peanuts please".
DISCOURSE_PREFIX = re.compile(
    r"^\s*(?:(?:(?:by the way|btw|also|oh|ah|well|hm+|hmm+|ok(?:ay)?|so|and|but|haha|lol|"
    r"anyway|on another note|on a related note|plus|honestly|tbh|fyi|hi|hiya|hey|hello|"
    # Labels that announce what follows: "Heads up: no calls ...", "Quick note - ...".
    r"heads[\s-]up|quick note|a note|note|reminder|update|psa|ps|p\.s\.|just so you know)"
    r"[\s,:;!.-]+)|(?:(?:thanks(?: so much)?(?: for [^,.!]{0,60})?|thank you(?: for [^,.!]{0,60})?|"
    r"great|cool|yeah|yes|yep|no|nope|nah|sure|right)\s*[,:;!.-]+\s*))+",
    re.IGNORECASE,
)

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
    r"\bcan't\s+get\s+enough\s+of\b",
    re.IGNORECASE,
)

# --- Selection of first-person sentences (the cheap pass) --------------------------------
# Taste and constraint words strong enough to select a first-person sentence on their own.
STRONG_TASTE = words(
    r"like[sd]?", r"love[sd]?", r"enjoy(?:s|ed)?", r"prefer(?:s|red)?", r"hate[sd]?",
    r"dislike[sd]?", r"favou?rite", "fav", "fan of", "rather", "adore", "detest",
    "can't stand", "cannot stand", "allergic", r"intoleran(?:t|ce)", "vegan", "vegetarian",
    "pescatarian", "halal", "kosher", r"gluten[- ]free", "avoid", "avoids", "avoiding",
    "can't eat", "cannot eat", "don't eat", "do not eat", "don't drink", "can't have",
    "not a fan", "not really into", "into", "obsessed", "passionate", "phobia", "afraid of",
    "scared of", "scare me", "scares me", "appeal to me", "appeals to me", "my taste",
    "my style", "comfort", "love language", "makes my day", "picky", "strict", "diet",
    "sweet tooth", "headache", "itchy", "never", "refuse", "born in", "grew up", "growing up",
    "raised in", "married", "divorced", "retired", "graduated", "my name is", "for a living",
    "my thing", "my weakness", "my jam", "my go-to", "my kind of", "my guilty pleasure",
    "my comfort food", "my cup of tea",
)  # fmt: skip
HABIT = words(
    "always", "usually", "mostly", "often", "normally", "typically", "generally", "mainly",
    "every day", "every morning", "every evening", "every night", "every week", "every weekend",
    "every month", "each week", "on weekends", "at weekends", "on weekdays",
    r"on (?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)",
    "twice a week", "once a week", r"\d+ (?:days|times) a week", "a week", "most days",
    "tend to", "whenever i", "every time i", "nowadays", "these days", "regularly",
)  # fmt: skip
# "I'm ..." about who the speaker is or what they are doing for a while, not about now.
_IM = r"(?:i'm|i am|im|we're|we are)"
IDENTITY = re.compile(
    rf"^\s*{_IM}\s+(?!(?:going|gonna|looking|trying to (?:find|figure|decide|get)|not sure|"
    r"wondering|here|back|done|ready|so|just (?:wondering|looking|curious|asking)|sorry|glad|"
    r"excited|nervous|stoked|thrilled|proud|grateful|thankful|honou?red|impressed|amazed|"
    r"touched|in awe|stunned|speechless|blown away|relieved|bummed|bored|tired|exhausted|"
    r"confused|lost|stuck|not really sure|still not sure|all ears|listening|"
    r"really (?:excited|happy|glad|proud|grateful|sorry)|so (?:happy|glad|proud|excited)|"
    r"happy to|sure|okay|ok|fine|good|great|curious|asking|thinking of (?:getting|buying)|"
    r"leaving|flying|heading|driving|off to|about to|currently looking|interested in (?:getting|"
    r"buying|finding)|planning a|hosting|making|writing|working on (?:a|an|the|my)\s+"
    r"(?:essay|report|presentation|slide|email|cover letter|project))\b)",
    re.IGNORECASE,
)
# "I <verb> ..." in the present: a habit or a standing fact ("I boulder", "I work nights").
PRESENT_STATEMENT = re.compile(
    r"^\s*(?:i|we)\s+(?:(?:really|also|only|just|still|mostly|usually|always|never|often|"
    r"sometimes|rarely|generally|typically|totally|absolutely|definitely|do|don't|do not|"
    r"can't|cannot|won't|barely|hardly)\s+)*(?P<verb>[a-z]+)\b",
    re.IGNORECASE,
)
NOT_PRESENT_VERBS = frozenset(
    """need needs want wanna wonder wondered was were would could should will might may must
    guess see agree mean hope think thought believe feel felt know knew understand forgot
    tried try wish suppose am 'm are get got bought went made saw took came found gave left
    lost ran sat told did said heard kept met paid sent spent built caught taught brought won
    wrote ate drank broke chose began drove flew rode sold stood woke had just ll d ve re
    apologize apologise appreciate wanted asked called tried looked let can totally
    completely get can't couldn't haven't hadn't didn't isn't wasn't bet promise doubt
    assume reckon remember recall love like have has""".split()
)  # fmt: skip
# "I have / I've ..." is a standing fact unless it names an errand of today.
PERFECT_OR_HAVE = re.compile(
    r"^\s*(?:i|we)(?:'ve|\s+have|\s+got|\s+own)\s+(?!(?:a|an|the|one|some|another)\s+"
    r"(?:question|meeting|call|appointment|problem|issue|deadline|presentation|exam|test|"
    r"interview|flight|quick|few|couple|favour|favor|idea|doctor|dentist|date|party|trip|"
    r"event|class|lesson|shift tomorrow)\b|no idea|been (?:trying|looking|wondering|meaning)|"
    r"tried|heard|seen|read (?:that|about))",
    re.IGNORECASE,
)
# "My <thing> is ...": durable possessions, roles and routines.
# "My gym is the climbing place by the river", "our landlord is strict about noise", "my
# company wants everyone in the office": the speaker's own thing, stated from the start.
# An intention, however dated ("planning to move to Austin in July"): what the user means to
# do, never how things are until they say it happened.
INTENTION = re.compile(
    r"\b(?:planning\s+(?:to|on)|plan\s+to|plans\s+to|intend(?:ing)?\s+to|aim(?:ing)?\s+to|"
    r"hop(?:e|ing)\s+to|looking\s+to|thinking\s+(?:of|about)|considering|want\s+to|"
    r"would\s+like\s+to|'d\s+like\s+to|toying\s+with|might|may\s+(?:move|go|get|start|"
    r"switch|take|try|quit))\b",
    re.IGNORECASE,
)
# A change that adds rather than replaces: "from March I'm also taking Spanish".
ADDITION = re.compile(r"\b(?:also|as\s+well|too|additionally|another|on\s+top)\b", re.IGNORECASE)
# A habit of the past: "I used to commute two hours by car", "back at uni I lived on toast",
# "in my twenties I ran every day". It says how things were, not how they are.
PAST_HABIT = re.compile(
    r"\b(?:used\s+to|back\s+(?:at|in)\s+(?:uni|university|college|school|the\s+day)|"
    r"back\s+when\b|in\s+my\s+(?:teens|twenties|thirties|forties|student\s+days|uni\s+days|"
    r"youth|old\s+job)|when\s+i\s+was\s+(?:younger|a\s+kid|a\s+child|a\s+student|a\s+teen|"
    r"at\s+(?:uni|school|college)|little|small|in\s+(?:college|school))|as\s+a\s+(?:kid|child|"
    r"student|teenager)|for\s+years\s+i\b)",
    re.IGNORECASE,
)
# ... unless the same words say it still holds ("I still ...", "these days I ...").
STILL_SO = re.compile(
    r"\b(?:still|now|nowadays|these\s+days|to\s+this\s+day|ever\s+since|again)\b", re.IGNORECASE
)
MY_THING_IS = re.compile(
    r"^\s*(?:my|our)\s+(?!(?:question|point|guess|bad|problem|issue|idea|concern|answer|"
    r"request|thought|thoughts|reply|message|plan|plans|hope|worry|fear|mistake|pleasure|"
    r"apologies|understanding|impression|feeling)\b)(?:[a-z-]+\s+){0,2}?[a-z-]{3,}\s+"
    r"(?:is|are|'s|wants|insists|requires|expects|has|have|lets|runs|opens|closes|starts)\b",
    re.IGNORECASE,
)
MY_DURABLE = re.compile(
    r"\bmy\s+(?:favou?rite|fav|go-to|usual|job|work|career|profession|commute|diet|budget|"
    r"dog|cat|pet|kids?|children|daughter|son|wife|husband|partner|family|home|house|"
    r"flat|apartment|car|bike|phone|laptop|hobby|hobbies|routine|schedule|shift|team|"
    r"native language|first language|name|style|taste|love language|stress-buster|passion|"
    r"(?:shoe|dress|shirt|ring|clothes|clothing|jeans|trouser)\s+size|size|height|"
    r"measurements|birthday|blood type|commute|(?:weekend|morning|evening|sunday|daily)\s+"
    r"(?:ritual|tradition|habit)|ritual|tradition)\b",
    re.IGNORECASE,
)
# Standing instructions: something that lasts beyond this answer.
STANDING_INSTRUCTION = words(
    "always", "never", "from now on", "going forward", "in future", "in the future",
    "whenever", "every time", "each time", "by default", "no more", "don't ever",
    "do not ever", "for future", "next time", "don't let me", "keep me", "keep replies",
    "keep answers", "stop",
)  # fmt: skip
# How to answer: language, units, length, tone, spelling, channel.
FORMAT_INSTRUCTION = re.compile(
    r"\b(?:answer|reply|respond|write|talk|speak|text|email|e-mail|message|call|address|"
    r"remind|show|send|use|spell|format)\w*\b.{0,40}\b(?:in\s+(?:english|french|spanish|"
    r"german|italian|metric|imperial|celsius|fahrenheit|bullet|bullets|short|plain|"
    r"british|american|\w+\s+time)|metric|imperial|spelling|bullet points?|concise|brief|"
    r"short|formal|informal|casual|emoji|me\s+(?:at|on|by)|reminders?)\b",
    re.IGNORECASE,
)

# A one-time task for the assistant ("translate this into Spanish", "draft an agenda"): not a
# standing instruction unless it says it lasts ("always", "from now on").
TASK_OPENER = re.compile(
    r"^\s*(?:(?:please|pls|can you|could you|would you|now|ok|okay|also|and|so)\s+)*"
    r"(?:write|draft|translate|summari[sz]e|make|help|suggest|give|create|generate|plan|book|"
    r"find|list|compare|explain|describe|rewrite|edit|proofread|check|fix|calculate|recommend|"
    r"tell|send|put together|come up with|brainstorm|outline|design|draw|convert|turn|add|"
    r"remove|schedule|organi[sz]e|prepare|review|analy[sz]e|look up|search|get|read|play)\b",
    re.IGNORECASE,
)

# Content the user shows rather than says (`permem.extraction.quoted`): the nouns that name
# a piece of text, the tasks done on one, and the ways of presenting one.
DOCUMENT_NOUN = words(
    r"e-?mails?", r"mails?", r"messages?", "msgs?", r"texts?", r"dms?", r"reviews?", r"posts?",
    r"comments?", r"letters?", r"notes?", r"memos?", r"chats?", r"transcripts?",
    r"conversations?", r"threads?", r"articles?", r"essays?", r"paragraphs?", r"passages?",
    r"documents?", r"docs?", r"papers?", r"reports?", r"tweets?", "replies", "reply",
    r"responses?", r"announcements?", r"drafts?", r"snippets?", "code", r"scripts?",
    r"logs?", r"excerpts?", r"quotes?", "story", "stories", "bio", r"descriptions?",
    r"listings?", r"statements?", "speech", r"poems?", "lyrics", "feedback",
    r"complaints?", r"newsletters?", r"pages?", r"sections?", "cover letter", "resume",
    "cv", "abstract", r"captions?", "blurb", r"proposals?", r"contracts?", r"invitations?",
    r"voicemails?", r"sms", r"whatsapps?", r"slack", r"ads?", r"job posting", "wording",
    r"sentences?", r"lines?", "the following", "below",
)  # fmt: skip
TEXT_TASK = words(
    r"summari[sz]e", r"summari[sz]ing", "summary of", "tl;?dr", "translate", "translating",
    "translation of", "proofread", "proof-read", "reply to", "respond to", "answer",
    "rewrite", "rephrase", "paraphrase", "reword", "edit", "review", "check", "fix",
    "improve", "shorten", "polish", "correct", "critique", "grade", "evaluate",
    r"analy[sz]e", "explain", "interpret", "decode", "format", "clean up", "look at",
    "look over", "go over", "read", "what do you think", "what do you make", "thoughts on",
    "opinion on", "feedback on", "what does", "is this", "how should i",
)  # fmt: skip
# The task done directly on a quotation that follows it: `translate "I am vegetarian"`.
QUOTATION_TASK = re.compile(
    r"\b(?:summari[sz]e|translate|proofread|rewrite|rephrase|paraphrase|reword|spell-?check|"
    r"correct|polish|shorten|reply to|respond to|transcribe|pronounce|meaning of)"
    r"\s*(?:this|that|it|the phrase|the sentence|the line)?\s*$",
    re.IGNORECASE,
)
PRESENTING = re.compile(
    r"(?:^|\b)(?:here'?s|here is|here are|this is|these are|below is|below are|following is|"
    r"see below|pasting|pasted|copied|copy-?pasted|forwarding|i got|i received|we got|"
    r"got this|received this|look at this|check this out|check out this)\b",
    re.IGNORECASE,
)
# Where a clause asks for something: a task on a text counts only there ("can you proofread
# this post:"), not inside a statement ("I always check my email").
REQUEST_CLAUSE = re.compile(
    r"(?:^|[,;:(]\s*|\b(?:and|so|but|then|also|now)\s+)[\W_]{0,3}(?:(?:hey|hi|ok|okay|now|please|"
    r"pls|kindly|quickly|just|can you|could you|would you|will you|help me|i need you to|"
    r"i'd like you to|i want you to|i need to|i have to|how do i|how should i|how can i|"
    r"how would you|what should i|you can|could u|can u)\s+)*(?=" + TEXT_TASK.pattern + ")",
    re.IGNORECASE,
)
# Someone else's text introduced by who produced it: "this is what my boss sent me:".
RECEIVED_FROM = re.compile(
    r"\b(?:sent|forwarded|wrote|posted|texted|emailed|e-mailed|messaged|dm'?ed|left|"
    r"replied|commented|tweeted|published)\b(?:\s+(?:me|us|him|her|them|to me|to us))?"
    r"(?:\s+(?:this|the following|today|yesterday|earlier|just now|back))?\s*$",
    re.IGNORECASE,
)
# Forwarded and replied-to mail: the separator lines, the "On <date>, <name> wrote:" line and
# the header keys of mail clients in a few languages.
FORWARD_LINE = re.compile(
    r"[ \t>]*(?:-{2,}|_{2,}|\*{2,})?\s*(?:forwarded message|original message|forwarded by\b.*|"
    r"message transféré|message d'origine|weitergeleitete nachricht|"
    r"ursprüngliche nachricht|mensaje reenviado|mensaje original)\s*(?:-{2,}|_{2,}|\*{2,})?\s*$|"
    r"[ \t>]*begin forwarded message\s*:?\s*$",
    re.IGNORECASE,
)
REPLY_HEADER = re.compile(
    r"^[ \t]*(?:On|Le|Am|El|Il|Op|Den|Em)\b[^\n]{0,200}?(?:\n[^\n]{0,120}?)?"
    r"\b(?:wrote|a écrit|schrieb|escribió|ha scritto|scrisse|schreef|skrev|escreveu)\s*:[ \t]*$",
    re.MULTILINE,
)
MAIL_HEADER = re.compile(
    r"[ \t>]*(?P<key>from|to|cc|bcc|subject|date|sent|reply-to|de|para|asunto|von|an|betreff|"
    r"objet|à|envoyé|fecha|datum)[ \t]*:[ \t]*\S",
    re.IGNORECASE,
)
# Labels that end in a colon without being somebody speaking.
NOT_A_SPEAKER = frozenset(
    "note notes also ps p.s update edit example examples answer question q a summary tldr "
    "reminder important context background goal goals todo step tip warning fyi btw re "
    "subject from to date sent cc bcc pros cons result results input output error "
    "breakfast lunch dinner monday tuesday wednesday thursday friday saturday sunday "
    "today tomorrow yesterday morning evening night".split()
)
# A word that points at text shown next to the sentence.
DEICTIC = words(
    "this", "these", "that", "the following", "following", "below", "attached", "above",
    "my", "his", "her", "their", "our", "a", "an",
)  # fmt: skip
