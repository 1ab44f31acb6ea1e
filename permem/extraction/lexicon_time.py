"""Word lists of time and plans: one-offs, hedges, plans, standing phrases, past events,
intentions and past habits. Re-exported by `permem.extraction.lexicon`."""

from __future__ import annotations

import re

from permem.extraction.wordlist import words
from permem.prefilter import guard_patterns

# A single piece of work or message, the object of a one-off instruction ("for this email").
_PIECE = (
    r"(?:note|letter|email|e-mail|message|doc|document|draft|task|reply|answer|response|post|"
    r"piece|bid|application|grant|form|card|toast|speech|report|essay|text|invite|invitation|"
    r"question|request|recipe|meal|dinner|lunch|party|event|presentation|slide|deck|talk|poem|"
    r"story|summary|translation|cover\s+letter|caption|tweet|review|list|menu|itinerary|"
    r"quote|estimate|invoice|proposal|memo|announcement|newsletter|article|chapter|exam|test|"
    r"assignment|interview|call|meeting|cv|resume|résumé)"
)
# A piece of writing, of the pieces above: what "in it" points back to.
_DOCUMENT = (
    r"(?:note|letter|email|e-mail|message|doc|document|draft|reply|answer|response|post|bid|"
    r"application|card|"
    r"toast|speech|report|essay|invite|invitation|presentation|slides?|deck|poem|story|summary|"
    r"translation|cover\s+letter|caption|review|proposal|memo|announcement|newsletter|article|"
    r"chapter|recipe|cv|resume|résumé)"
)

# Occasions that come once (or once a year, each time a one-off of its own): what is done "just
# for" one of them is an exception for it ("only for Christmas dinner, I'll have turkey").
_ONCE = (
    r"(?:party|wedding|birthday|christmas|xmas|thanksgiving|easter|new\s+year['’]?s(?:\s+eve)?|"
    r"hanukkah|diwali|eid|passover|holidays?|trip|visit|funeral|graduation|anniversary|reunion|"
    r"barbecue|bbq|celebration|festival|stag\s+do|hen\s+do|leaving\s+do|christening)"
)
ONE_OFF = words(
    "just this once", "for once", "just for once",
    rf"(?:just|only)\s+for\s+(?:the\s+|this\s+|my\s+|our\s+|[\w-]+['’]s\s+)?"
    rf"(?:[\w'-]+\s+){{0,2}}?{_ONCE}\b",
    "this once", "this time only", "only this time", "just this time",
    "for this trip only", "for this trip", "just tonight", "only tonight", "for tonight",
    "just for today", "only today", "for today only", "this one time", "one-off", "one off",
    "for this session", "for this conversation", "for this chat", "this time",
    # One piece of work: "so English for this", "US spelling for this grant bid only", "for
    # this one email", "for this particular question", "for the note to my best friend" (a
    # single piece, however it is singled out; "for this project" is a scope, not a piece).
    r"(?:just\s+|only\s+)?for\s+this(?:\s+one)?(?:\s+only)?(?=\s*[.!,;]|\s*$)",
    rf"(?:just\s+|only\s+)?for\s+(?:this|that|the|(?:my|our)(?=\s+(?:[\w-]+\s+)?{_DOCUMENT}\s+to\b))\s+"
    r"(?:(?:one|particular|specific|single|"
    rf"next|upcoming|current|last|latest|first|same)\s+)?(?:[\w-]+\s+)?{_PIECE}"
    rf"(?:\s+(?:to|for|about|with|on|from|i|we|you)\b[^.!?,;]{{0,40}}?)?(?:\s+only)?"
    r"(?=\s*[.!,;]|\s*$)",
    # A rule for one piece the sentence opens on, or points back to: "This report is for a
    # client in Texas, so use American spelling in it", "the toast has to be in French, it's
    # for her family" ("this project" is a scope, not a piece).
    rf"^\W*(?:(?:so|and|ok|also)\W+)?(?:this|that)\s+(?:[\w-]+\s+){{0,2}}?{_PIECE}s?\s+(?:is|needs|has|"
    r"must|should|goes|will\s+be)\b",
    # "The email to the school needs to be in English" (not "the report for the client is due").
    rf"^\W*(?:(?:so|and|ok|also|one\s+thing)\W+)?(?:the|my|our)\s+(?:[\w-]+\s+)?{_DOCUMENT}\s+(?:to|for)\s+"
    r"[^,.;!?]{1,30}?\s+"
    r"(?:needs|has\s+to|must|should)\b",

    rf"\b(?:this|that|the)\s+(?:[\w-]+\s+){{0,2}}?{_DOCUMENT}\b[^.!?]{{0,60}}?\b(?:in|for|throughout)\s+"
    r"(?:it|this\s+one)(?=\s*[.!,;]|\s*$)",
    # An order to make one piece for someone: "draft my reply to the letting agency in
    # English", "compose a letter to my landlord in French" ("write my emails to clients in
    # French" is a kind of thing, and stands).
    rf"^\W*(?:(?:please|pls|can\s+you|could\s+you|now|ok|so)\W+)*(?:write|draft|compose|prepare|do|"
    rf"redo|translate|rewrite|edit|proofread|polish|put\s+together)\s+(?:me\s+|us\s+)?(?:a|an|my|the|"
    rf"this|that)\s+(?:[\w-]+\s+){{0,2}}?{_DOCUMENT}\s+(?:to|for)\b",
    # An order on this one piece: "format this report as prose paragraphs", "put this text
    # message into Polish", "do the slides in English".
    rf"^\W*(?:(?:please|pls|can\s+you|could\s+you|now|ok|so)\W+)*[a-z]+\s+(?:this|that|the)\s+"
    rf"(?:[\w-]+\s+){{0,2}}?{_DOCUMENT}\s+(?:as|in|into|with|using)\b",
    # Any form of the verb: "made an exception at the wedding", "I'm making one exception".
    r"(?:make|makes|made|making)\s+(?:an|one|a\s+small|a\s+little)\s+exception",
    "an exception this time", "special occasion",
    "for the occasion", "cheat day", "treat day", "just the once", "one-time thing",
    "one time thing", "a one-time", "not a habit", "won't become a habit", "a blip",
    # Buying or planning for someone else: their tastes, this once.
    "as a gift", "a gift for", "a present for", "as a present", "it's for a friend",
    "it's for my", "it is for my", "shopping for my", "buying for my", "for someone else",
    # Not a rule for whenever it happens: "when booking on behalf of my manager, always ...".
    r"(?<!when\sbooking\s)(?<!whenever\si\sbook\s)(?<!when\si\sbook\s)on\s+behalf\s+of",
)  # fmt: skip

# One piece named first with what it needs: "One thing: the US grant bid needs 'color' and
# 'organize'" (a one-off when what it needs is a format: `cue_rules`).
PIECE_NEEDS = re.compile(
    rf"^\W*(?:(?:so|and|ok|also|one\s+thing|oh)\W+)?(?:the|my|our)\s+(?:[\w-]+\s+){{0,2}}?{_PIECE}\s+"
    r"(?:needs|has\s+to|must|should)\b",
    re.IGNORECASE,
)

HEDGE = words(
    "hoping", "hope to", "would like to", "i'd like to", "wish", "dreaming of", "hopefully",
    "fingers crossed", "if all goes well", "if everything goes well", "with any luck",
    "we'll see", "fingers x'd",
    "maybe", "perhaps", "might", "possibly",
    # The modal, not the month: "I may", "it may" ("until May" is no hedge).
    r"(?:i|we|it|that|this|they|he|she|you)\s+may", "probably", "not sure", "unsure",
    "thinking about", "thinking of", "considering", "i guess", "kind of", "kinda",
    "sort of", "no idea if", "if i", "someday", "some day", "eventually", "who knows",
    "pretty sure", "don't quote me", "do not quote me", "could be wrong", "iirc",
    "if i remember right", "if i remember rightly", "if i remember correctly",
    "don't hold me to", "from memory", "off the top of my head",
    # A wish for when means allow: "one day, when money allows, I'd love a Leica", "a drone is
    # on my wishlist", "if I ever have spare cash".
    r"^\W*one\s+day\b(?!\s+(?:a|per|each|every|of)\b)", "when money allows", "if money allows",
    "money permitting",
    "when i can afford", "if i can afford", "if i ever", "wishlist", "wish list",
    "bucket list", r"when\s+i'?m\s+(?:less\s+broke|richer|rich)",
)  # fmt: skip
# A sentence that only hedges what was said before it: "don't quote me", "could be wrong".
HEDGE_TAG = re.compile(
    r"^\W*(?:(?:but|though|and|so|ok|well)[\s,]+)?(?:(?:don't|do\s+not)\s+quote\s+me"
    r"(?:\s+on\s+(?:that|it|this))?|(?:don't|do\s+not)\s+hold\s+me\s+to\s+(?:it|that|this)|"
    r"(?:i\s+)?could\s+be\s+wrong|not\s+(?:100\s*%|totally|entirely|completely|a\s+hundred\s+"
    r"percent)\s+sure|iirc|if\s+i\s+remember\s+(?:right|rightly|correctly)|or\s+something"
    r"(?:\s+like\s+that)?|i\s+think|i\s+guess|maybe|not\s+sure|from\s+memory)"
    r"(?:[\s,]+(?:though|anyway|lol|haha))?\W*$",
    re.IGNORECASE,
)

PLAN = words(
    "might try", "might start", "might go", "might switch", "might give", "might take",
    "might do", "might get", "might move", "may try",
    "hoping to", "hope to", "aiming to", "aim to", "looking to", "intending to",
    "would like to", "i'd like to", "about to",
    "going to", "gonna", "plan to", "plans to", "planning to", "planning on", "will",
    "i'll", "intend to", "thinking about", "thinking of", "considering",
    # Not a stretch from now: "over the next month" is the coming weeks, no plan.
    r"(?<!\bthe\s)next week", r"(?<!\bthe\s)next month", r"(?<!\bthe\s)next year",
    "next summer", "next spring", "next fall", "next autumn", "next winter",
    "in the fall", "in the spring", "in the summer", "in the winter",
    "in the autumn",
    # A decision drawn from what was just said ("thunderstorm tomorrow, so I'm driving in",
    # "so it's the bus for me"), or an arrangement for a named day ("I'm driving in Friday").
    r"so\s+it['’]s\s+the\s+\w+\s+for\s+(?:me|us)",
    r"(?:i['’]m|i\s+am|we['’]re)\s+\w+ing\s+(?:in\s+|home\s+|back\s+)?(?:tomorrow|tonight|"
    r"(?:on\s+|this\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day)",
)  # fmt: skip

STANDING = words("from now on", "going forward", "in future", "in the future", "next time")

PAST_EVENT = words(
    "yesterday", "last week", "last month", "last year", "last night", "last weekend",
    r"last (?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\w*", "the other day", "recently",
    r"just (?:got|had|finished|joined|started|bought|moved|won|lost|signed|adopted|graduated|"
    r"quit|returned|came back|tried|took|went|made|ran|visited)",
    "earlier today", "this morning", "ago", "used to", "when i was", "a while back",
    # A thing acquired or let go, said in the past: "we bought the car!", "I sold my bike",
    # "we finally adopted a dog" (what the user has or does now follows from it).
    r"(?:i|we)\s+(?:finally\s+|just\s+|actually\s+)?(?:bought|got|sold|adopted|picked\s+up|"
    r"gave\s+away|traded\s+in|leased)\s+(?:a|an|the|my|our)\s+\w+",
)  # fmt: skip

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
    # Not a comparison with how things were ("same ride as I used to do"): a return.
    r"\b(?:(?<!\bas\si\s)(?<!\bas\swe\s)(?<!\blike\si\s)(?<!\blike\swe\s)used\s+to|back\s+(?:at|in)\s+(?:uni|university|college|school|the\s+day)|"
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


# Last, so that what imports these names gets them guarded (permem.prefilter).
guard_patterns(globals())
