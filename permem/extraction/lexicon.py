"""Word lists the extraction rules and the classifier read. One place, plain data.

Each pattern is matched case-insensitively on word boundaries against a sentence. They are cues,
not verdicts: the rules combine them with the parse. The lists of a family are kept beside this
module and re-exported here: time and plans (`lexicon_time`), kinds and topics
(`lexicon_kinds`), content the user shows (`lexicon_shown`); `wordlist` builds the patterns.
"""

from __future__ import annotations

import re

from permem.extraction.lexicon_kinds import ALLERGY as ALLERGY
from permem.extraction.lexicon_kinds import CONSTRAINT as CONSTRAINT
from permem.extraction.lexicon_kinds import EATING_RULE as EATING_RULE
from permem.extraction.lexicon_kinds import FOOD_GROUP as FOOD_GROUP
from permem.extraction.lexicon_kinds import PREFERENCE as PREFERENCE
from permem.extraction.lexicon_kinds import TASTE_VERDICT as TASTE_VERDICT
from permem.extraction.lexicon_kinds import TOPICS as TOPICS
from permem.extraction.lexicon_shown import DEICTIC as DEICTIC
from permem.extraction.lexicon_shown import DOCUMENT_NOUN as DOCUMENT_NOUN
from permem.extraction.lexicon_shown import FORWARD_LINE as FORWARD_LINE
from permem.extraction.lexicon_shown import MAIL_HEADER as MAIL_HEADER
from permem.extraction.lexicon_shown import NOT_A_SPEAKER as NOT_A_SPEAKER
from permem.extraction.lexicon_shown import PRESENTING as PRESENTING
from permem.extraction.lexicon_shown import QUOTATION_TASK as QUOTATION_TASK
from permem.extraction.lexicon_shown import RECEIVED_FROM as RECEIVED_FROM
from permem.extraction.lexicon_shown import REPLY_HEADER as REPLY_HEADER
from permem.extraction.lexicon_shown import REQUEST_CLAUSE as REQUEST_CLAUSE
from permem.extraction.lexicon_shown import TEXT_TASK as TEXT_TASK
from permem.extraction.lexicon_time import ADDITION as ADDITION
from permem.extraction.lexicon_time import HEDGE as HEDGE
from permem.extraction.lexicon_time import HEDGE_TAG as HEDGE_TAG
from permem.extraction.lexicon_time import INTENTION as INTENTION
from permem.extraction.lexicon_time import ONE_OFF as ONE_OFF
from permem.extraction.lexicon_time import PAST_EVENT as PAST_EVENT
from permem.extraction.lexicon_time import PAST_HABIT as PAST_HABIT
from permem.extraction.lexicon_time import PIECE_NEEDS as PIECE_NEEDS
from permem.extraction.lexicon_time import PLAN as PLAN
from permem.extraction.lexicon_time import STANDING as STANDING
from permem.extraction.lexicon_time import STILL_SO as STILL_SO
from permem.extraction.wordlist import categories as categories
from permem.extraction.wordlist import words as words
from permem.prefilter import guard_patterns

FIRST_PERSON = words(
    "i", "i'm", "im", "i've", "ive", "i'd", "i'll", "me", "my", "mine", "myself",
    "we", "we're", "we've", "we'll", "we'd", "our", "ours", "us",
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
    r"^\s*(?:(?:huh|oh|ah|hm+|wow|ok(?:ay)?|well|ha)[\s!.,]+)*"
    r"(?:thanks?|thank you|thx|ty|ok(?:ay)?|sure|great|cool|nice|awesome|perfect|"
    r"sounds good|got it|i see|i agree|yes|yeah|yep|no|nope|haha|lol|hi|hello|hey|hiya|"
    r"wow|oh|ah|huh|"
    # A reaction to what the assistant said, no claim of the user's: "huh, I didn't know
    # that", "good to know", "fair enough".
    r"(?:i\s+)?(?:didn't|did\s+not|never)\s+kn[oe]w\s+(?:that|this)|good\s+to\s+know|"
    r"fair\s+(?:enough|point)|(?:that\s+)?makes\s+sense|news\s+to\s+me|i\s+had\s+no\s+idea|"
    r"who\s+knew|til|interesting|noted|you\s+learn\s+something\s+new(?:\s+every\s+day)?)"
    r"\b[\s!.,]*$",
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

# "I <verb> ..." at the start of a sentence states something about the speaker, unless the
# verb asks for help now.
I_STATEMENT = re.compile(
    r"^\s*(?:i|we)(?:'m|'ve|'d|'re)?\s+(?!need\b|want to know|wonder|was wondering|"
    r"am looking|'m looking|have a question|hope you|guess\b|see\b|agree\b|think so|mean\b|"
    r"just wanted|would like|'d like|was just|am just|'m just|can't find|cannot find|"
    r"don't know|do not know|don't understand|have no idea|got it|understand)\w",
    re.IGNORECASE,
)

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
    # Sure of a rule of the world: "I'm sure tenants can legally stop paying rent".
    r"\bi(?:'m|\s+am)\s+(?:pretty\s+|quite\s+|fairly\s+|absolutely\s+|totally\s+|100\s*%\s+)?"
    r"(?:sure|certain|positive|confident)\s+(?:that\s+)?(?!(?:i|i'm|i'll|i've|i'd|my|we|we're|our|it|"
    r"it's|you|this|that)\b)(?:the\s+|all\s+|most\s+|every\s+|any\s+)?[a-z]+\s+(?:can|can't|"
    r"cannot|are|is|do|don't|need|never|always|must|have|should|cause|causes|make|makes|"
    r"legally|aren't|isn't)\b|"
    r"\bi(?:'ve|\s+have)?\s+(?:always\s+)?(?:heard|read|been\s+told)\s+(?:that\s+)?"
    r"(?!(?:i|i'm|you)\b)\w+\s+(?:\w+\s+)?(?:is|are|was|were|causes?|makes?|gives?|kills?|"
    r"destroys?|rots?|cures?)\b)",
    re.IGNORECASE,
)
# Out of use, said of a thing of the speaker's: "dropped", "smashed", "died", "in for repair"
# (`permem.situation` ends a mishap with its stand-in; `speaker_markers` keeps a device borrowed
# meanwhile the holder's).
OUT_OF_USE = (
    r"(?:dropped|broke|broken|smashed|cracked|died|dead|lost|stolen|drowned|fried|bricked|"
    r"in\s+for\s+(?:a\s+)?repairs?|being\s+(?:fixed|repaired)|at\s+the\s+repair\s+shop|"
    r"water\s+damage|won['’]t\s+(?:turn|switch)\s+on)"
)
# Taken for granted, by any words: "as far as I know", "I'm pretty sure", "apparently".
_TAKEN_FOR_GRANTED = re.compile(
    r"\b(?:i(?:'m|\s+am)\s+(?:pretty\s+|quite\s+|fairly\s+|absolutely\s+|totally\s+|100\s*%\s+)?"
    r"(?:sure|certain|positive|confident)|pretty\s+sure|i\s+(?:believe|reckon|assume|gather|"
    # Not "I think in kilos", "I read mostly fiction": a habit of the speaker's.
    r"figure|suppose|think(?!\s+(?:in|of|about)\b)|guess|understand)|as\s+far\s+as\s+i\s+know|"
    r"i(?:'m|\s+am)\s+under\s+the\s+impression|(?:my|it's\s+my)\s+understanding\s+is|apparently|"
    r"surely|presumably|my\s+guess\s+is|from\s+what\s+i(?:'ve|\s+have)\s+(?:read|heard)|"
    r"i(?:'ve|\s+have)\s+(?:heard|read|been\s+told)|i\s+(?:heard|read)\s+that|i'?d\s+bet|"
    r"i(?:'m|\s+was)\s+told|it's\s+common\s+knowledge)(?:\s+that)?\b",
    re.IGNORECASE,
)
_SPEAKER_WORDS = re.compile(r"\b(?:i|i'm|i've|i'll|i'd|me|my|mine|we|we're|our|us)\b", re.I)
_RULE_OF_THE_WORLD = re.compile(
    r"\b(?:can|cannot|need|needs|have\s+to|has\s+to|must|is|are|never|always|only|should|"
    r"causes?|makes?|allowed|legal(?:ly)?|tax-free|exempt)\b|n't\b",
    re.IGNORECASE,
)


def believed(text: str) -> bool:
    """The text holds a belief about the world (`BELIEF`), or takes a rule of the world for
    granted in any words, said of no one in particular ("tenants can withhold rent until
    repairs are done, I believe", "pretty sure you don't pay tax on the first 5k", "as far as
    I know Europeans don't need visas"); not "I'm sure I left my keys"."""
    if BELIEF.search(text):
        return True
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        found = _TAKEN_FOR_GRANTED.search(sentence)
        if found is None:
            continue
        rest = f"{sentence[: found.start()]} {sentence[found.end() :]}"
        # "I think oat milk is the best" judges a taste (`TASTE_VERDICT`), not the world.
        if (
            _SPEAKER_WORDS.search(rest) is None
            and _RULE_OF_THE_WORLD.search(rest)
            and not TASTE_VERDICT.search(rest)
        ):
            return True
    return False


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
    r"it\s+is\s+for\s+my\b|for\s+someone\s+else|"
    # Not a rule for whenever it happens: "when booking on behalf of my manager, always ...".
    r"(?<!when\sbooking\s)(?<!whenever\si\sbook\s)(?<!when\si\sbook\s)on\s+behalf\s+of|"
    # Someone's birthday is an occasion, unless the sentence says when it is ("Pavel's
    # birthday is November 19": a date to keep).
    r"(?:(?:his|her|their)|\w+['’]s)\s+birthday(?!\s+(?:is|falls|was|'s)\b)|"
    r"birthday\s+(?:present|gift)s?)",
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
# Gatherings and occasions that something is needed for, once.
_OCCASION = (
    r"(?:party|parties|sleepover|birthday|wedding|shower|graduation|anniversary|visit|event|"
    r"celebration|dinner\s+party|lunch|picnic|game|recital|play|show|leaving\s+do|send[- ]off|"
    r"christening|bar\s+mitzvah|bat\s+mitzvah|potluck|barbecue|bbq|reunion|gathering|"
    r"fundraiser|fete|f\u00eate|bake\s+sale|launch|offsite|away\s+day|social|get-together|do)"
)
FOR_A_RELATION = re.compile(
    r"\b(?:need|needs|needed|want|wants|looking\s+for|look\s+for|get|getting|order|ordering|"
    r"buy|make|making|bake|baking|find|pick|choose|plan|planning|organi[sz]e|organi[sz]ing|"
    rf"throw|throwing|host|hosting|sort\s+out)\b[^.!?]{{0,60}}{_FOR_RELATION}\b|"
    rf"{_FOR_RELATION}['’]s\s+(?:\w+\s+)?{_OCCASION}\b|"
    # Provided for a gathering of others, whoever they are: "ordering for the office party",
    # "cooking for our team's potluck", "snacks for the school fete".
    r"\b(?:need|needs|needed|want|wants|looking\s+for|get|getting|order|ordering|buy|buying|"
    r"make|making|cook|cooking|bake|baking|cater|catering|find|pick|picking|choose|choosing|"
    r"plan|planning|book|booking|bring|bringing|sort\s+out|sorting\s+out)\b[^.!?]{0,60}?"
    r"\b(?:for|at)\s+(?:the|our|an?|this|their|tomorrow's|[\w'-]+day's)\s+"
    rf"(?:[\w'-]+\s+){{0,2}}?{_OCCASION}\b",
    re.IGNORECASE,
)
# A relation word that only qualifies a thing names no one: "my mother tongue", "my baby
# steps", "my partner company".
_NOT_A_PERSON = (
    r"(?![\s-]+(?:tongue|language|country|land|nature|board|ship|figure|company|companies|"
    r"org|organi[sz]ation|firm|brand|account|steps?|teeth|tooth|fat|carrots?|spinach|"
    r"plants?|wit|city|cities|school|schools|project)\b)"
)
THIRD_PARTY_SUBJECT = re.compile(
    r"(?:^|[,;:]\s*|\b(?:and|but|so|that's|that is|it's|it is)\s+)"
    rf"my\s+(?P<relation>{'|'.join(sorted(RELATIONS, key=len, reverse=True))})\b{_NOT_A_PERSON}",
    re.IGNORECASE,
)

# "my nephew" anywhere (the last one named is who "he"/"she" is).
THIRD_PARTY_ANYWHERE = re.compile(
    rf"\bmy\s+(?P<relation>{'|'.join(sorted(RELATIONS, key=len, reverse=True))})\b{_NOT_A_PERSON}"
    rf"(?!.*\bmy\s+"
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
    r"remove|schedule|organi[sz]e|prepare|review|analy[sz]e|look up|search|get|read|play)\b"
    # A label, not an order: "Plan: from the 12th I'm in Ghent", "Schedule note: ...".
    r"(?!\s*(?:note\s*)?[:\-–—])",
    re.IGNORECASE,
)


# Last, so that what imports these names gets them guarded (permem.prefilter).
guard_patterns(globals())
