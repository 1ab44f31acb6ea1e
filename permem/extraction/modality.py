"""Modality and polarity: whether a sentence states how things are, or something else.

Before anything is called a fact, the sentence's mood decides:

- **hypothetical**: a condition or a wish about a world that is not this one ("if we ever got
  a house I'd want a huge dog", "in an ideal world I'd …", "if I won the lottery …"). Never
  stored: it says nothing about how the user lives now.
- **considered**: something the user thought about doing, looked into, or nearly did ("we
  looked at moving to Leipzig last year", "I was going to sign up", "we toyed with the idea
  of …"). It did not happen, so it is no fact either. Never stored.
- **retraction**: the sentence takes back something said before: a plan that fell through
  ("it didn't work out", "that's off", "the offer got pulled", "we're staying put"), a taste
  given up ("take it off my list", "I've gone off it", "not Windows anymore", "no more
  nights"), a fact that stopped being true ("I got rid of the car", "scratch the car thing").
  The loader supersedes the older claims of the subject that the retraction and its context
  name (`pipeline`): history is kept, the old claim is no longer used.
- **withdrawal**: the sentence takes back what was said and states nothing in its place: an
  admission of a mistake ("I had it all mixed up", "my bad, wrong day") or an order to drop
  it ("ignore what I said about the gym", "forget what I told you about Fridays"). Never
  stored; like a plan called off, it takes back what it and its context name.
- plans and hedges are the existing cues (`lexicon.PLAN`, `lexicon.HEDGE`): a hedged plan is
  rejected, a plan is stored as a plan, valid from when it starts.
"""

from __future__ import annotations

import functools
import re

from permem.extraction.returns_said import RETURN as RETURN
from permem.extraction.returns_said import returns as returns
from permem.prefilter import guard_patterns

_HYPOTHETICAL = re.compile(
    r"^\s*(?:(?:and|but|so|honestly|well|also)[\s,]+)?(?:if|unless|suppose|supposing|imagine|"
    r"assuming)\b(?=.*\b(?:would|'d|could|might|ever)\b)|"
    r"\b(?:if|when)\s+(?:i|we)\s+(?:ever|were|was|had|could|won|got|get|win|ever\s+get)\b|"
    r"\bin\s+(?:an\s+ideal|a\s+perfect|another)\s+(?:world|life)\b|"
    r"\b(?:i|we)(?:'d|\s+would)\s+(?:love|like|want)\s+to\b.{0,60}?\b(?:one\s+day|someday|"
    r"some\s+day)\b|"
    r"\b(?:dream(?:ing)?\s+of|fantasi[sz]e\s+about|wish\s+(?:i|we)\s+(?:could|had|were|lived))\b|"
    # A condition named without "if": "money no object, I'd fly business", "given the chance
    # we'd live by the sea", "with a bigger flat we'd get a dog".
    # Both lookaheads read to the end of the line, so they are tried at line starts only (at
    # every position they made the search quadratic in the sentence's length): `search` finds
    # the same match (not `finditer` or a `search` from inside a line; `hypothetical` searches).
    r"(?m:^)(?=.*\b(?:i|we)(?:'d|\s+would)\b)(?=.*\b(?:money\s+no\s+object|no\s+matter\s+the\s+cost|"
    r"given\s+(?:the\s+chance|unlimited|enough)|if\s+only|with\s+(?:unlimited|more|a\s+bigger|"
    r"a\s+larger|enough)\b|in\s+(?:an\s+ideal|a\s+perfect|another)\b|one\s+day|someday|"
    r"lottery|were\s+rich|was\s+rich|won\s+the)\b)",
    re.IGNORECASE,
)
# "I'd see", "we'll see": the decision left for later.
_WILL_SEE = r"\b(?:i['’]d|i['’]ll|we['’]ll|we['’]d)\s+see"
_CONSIDERED = re.compile(
    r"\b(?:i|we)\s+(?:(?:had|have)\s+)?(?:looked\s+(?:at|into)|thought\s+about|considered|"
    r"toyed\s+with|talked\s+about|flirted\s+with|weighed|explored|debated|nearly|almost|"
    r"(?:was|were)\s+(?:going|gonna|about|planning|thinking|hoping)\s+(?:to|of|on|about))\b|"
    r"\bthere\s+(?:was|were|had\s+been)\s+(?:a\s+|some\s+|the\s+)?(?:plan|idea|talk|thought|"
    r"question|chance)s?\s+(?:to|of|about)\b|\b(?:the|our|my)\s+(?:plan|idea)\s+(?:was|had\s+been)\s+to\b|"
    r"\b(?:i|we)\s+(?:had\s+)?(?:planned|meant|intended)\s+to\b|"
    # Weighing it now: "we're toying with the idea of a cat", "mulling over a move".
    r"\b(?:i'm|i\s+am|im|we're|we\s+are)\s+(?:(?:still|kind\s+of|sort\s+of)\s+)?(?:toying|flirting|"
    r"playing)\s+with|\b(?:mulling|weighing\s+up|debating\s+(?:whether|if)|on\s+the\s+fence\s+about)\b|"
    # Said without a subject: "toying with the idea of moving to Bologna, we'll see".
    r"^\s*(?:(?:still|kind\s+of|sort\s+of|been)\s+)?(?:toying|flirting|playing)\s+with\s+the\s+idea\b|"
    r"\b(?:was|were)\s+(?:this|so|that)\s+close\s+to\b|"
    # Undecided: "nothing decided yet", "I said I'd think about it", "it's on the cards".
    r"\b(?:nothing|not)\s+(?:(?:is|yet)\s+)?(?:decided|settled|final|definite|firm|concrete|fixed|"
    r"set\s+in\s+stone)\b|\bhaven't\s+decided\b|\bfloat(?:ing|ed)\s+the\s+idea\b|"
    r"\bnot\s+sure\s+yet\b|\bundecided\b|\bstill\s+(?:deciding|thinking|weighing|figuring)\b|"
    r"\bhaven't\s+made\s+up\s+(?:my|our)\s+minds?\b|\b(?:tbd|tbc)\b|"
    r"\b(?:i'd|i\s+would|i'll|i\s+will|i\s+might)\s+"
    r"(?:think\s+about|consider|mull\s+over|sleep\s+on)\s+(?:it|that|this)\b|\bon\s+the\s+cards\b|"
    r"\bup\s+in\s+the\s+air\b|"
    # Of two minds: "going back and forth on going vegan", "wondering whether to go
    # pescatarian", "keto has been on my mind", "torn about it", "I told her I'd see", "haven't
    # committed".
    r"\bback\s+and\s+forth\s+(?:on|about|over)\b|\bwondering\s+(?:whether|if|about)\b|"
    r"\b(?:has|have|['’]s|['’]ve)\s+been\s+on\s+my\s+mind\b|\btorn\s+(?:between|about|on|over)\b|\bin\s+two\s+minds\b|"
    rf"{_WILL_SEE}(?=\s*(?:[.!,;]|$|about|how|if))|"
    r"\b(?:haven't|have\s+not|not)\s+(?:yet\s+)?committed\b|"
    # Drawn to it, not doing it: "half tempted to go gluten-free", "I'm tempted by keto".
    r"\b(?:i'm|i\s+am|im|we're|we\s+are|half|a\s+bit|kind\s+of|sort\s+of|really|so)\s+tempted\b|"
    r"^\s*tempted\s+(?:to|by)\b|"
    # Only part of the speaker wants it, or only half thinks it: "part of me wants to go vegan",
    # "half thinking of quitting"; or nobody knows: "I might quit at some point, who knows".
    r"\bpart\s+of\s+me\s+(?:wants|would\s+like|is\s+tempted|fancies)\b|"
    r"\bhalf\s+(?:thinking|considering|planning|wanting)\b|\bwho\s+knows\b",
    re.IGNORECASE,
)
# Undecided about what the sentence said before it: "..., I'm mulling it over", "..., I said
# I'd think about it", "..., haven't made up my mind". It covers the whole sentence.
_UNDECIDED_ABOUT_IT = re.compile(
    r"\b(?:mulling|mull|thinking|think|weighing|sleeping|sleep)\s+(?:it|that|this)\s+(?:over|through|"
    r"up)\b|\b(?:think|thinking|mull|mulling)\s+(?:about|over|on)\s+(?:it|that|this)\b|"
    r"\bsleep(?:ing)?\s+on\s+(?:it|that|this)\b|\bhaven't\s+(?:decided|made\s+up\s+(?:my|our)\s+"
    r"minds?)\b|\bnothing(?:'s|\s+is)?\s+decided\b|"
    # A trial only thought of: "..., might give it a go", "..., maybe someday", "not sure yet".
    r"\b(?:might|may|could)\s+(?:well\s+)?(?:give\s+(?:it|that|this)\s+a\s+(?:go|try|shot|whirl)|"
    r"try\s+(?:it|that|this)(?:\s+out)?|do\s+(?:it|that|this)|join\s+(?:her|him|them|in))\b|"
    r"\bmaybe\s+(?:someday|some\s+day|one\s+day|later|next\s+year|eventually)\b|"
    r"\bnot\s+sure\s+yet\b|"
    # Wanted but not had: "I keep browsing second-hand Canons but I haven't bought one",
    # "been eyeing a Sony for months, can't justify it".
    r"\bhaven'?t\s+(?:actually\s+)?(?:bought|ordered|got|pulled\s+the\s+trigger|taken\s+the\s+plunge)\b|"
    r"\bcan'?t\s+justify\b|"
    rf"{_WILL_SEE}(?=\s*(?:[.!,;]|$))",
    re.IGNORECASE,
)
# A plan or an idea that is off: the sentence takes back a plan and states nothing new.
CALLED_OFF = re.compile(
    r"\b(?:(?:not|no|never)\b[^.!?]{0,50}\bafter\s+all\b|change\s+of\s+plans?\b|fell\s+through|falls\s+through|didn't\s+work\s+out|did\s+not\s+work\s+out|"
    r"not\s+(?:happening|going\s+ahead)|(?:it's|that's|it\s+is|that\s+is|plan\s+is|plans\s+are)\s+off\b|"
    r"called\s+(?:it\s+)?off|(?:got|was|been|were)\s+(?:cancell?ed|pulled|scrapped|shelved|withdrawn|"
    r"rejected|turned\s+down)|staying\s+put|decided\s+against|backed\s+out|pulled\s+out|"
    r"changed\s+(?:my|our)\s+minds?|(?:is|was|are)\s+(?:dead|on\s+ice|on\s+hold)|"
    # A resolution that lapsed: "that plan lasted two days", "my new routine fizzled".
    r"\b(?:that|the|my|this|our)\s+(?:new\s+)?(?:plan|resolution|idea|challenge|routine|regime|habit|"
    r"goal|streak)\s+(?:only\s+|barely\s+)?(?:lasted|didn't\s+last|did\s+not\s+last|went\s+out\s+"
    r"the\s+window|fizzled|died|collapsed|lapsed|is\s+history)|"
    r"\b(?:move|moving|plan|plans|trip|wedding|deal|offer|idea|sale|job|purchase|booking|"
    r"renovation|relocation)\s+(?:is|are|'s|was|were)\s+(?:off|dead|cancell?ed|scrapped|"
    r"not\s+happening)\b|staying\s+where\s+(?:we|i)\s+(?:are|am)|not\s+moving\s+(?:now|after\s+all|anymore)|"
    # The same, said with a verb: "the sale collapsed", "the move fell apart", "it never happened".
    r"\b(?:move|plan|plans|trip|deal|offer|sale|purchase|booking|transfer|relocation|job)\s+"
    r"(?:collapsed|fell\s+(?:apart|over)|died|went\s+south)\b|"
    r"\b(?:it|that)\s+(?:didn['’]t|did\s+not|never)\s+happen(?:ed)?\b|"
    # An intention denied, whatever it was for: "I'm no longer planning to move abroad", "not
    # thinking of selling any more" (a plan with no plan left; "I'm not going to eat meat" is
    # a commitment, and stays one).
    r"\b(?:no\s+longer|not|n't|never)\s+(?:(?:really|actually|even)\s+)?(?:planning|intending|"
    r"aiming|thinking\s+(?:of|about)|looking\s+to|set\s+on|considering)\b)",
    re.IGNORECASE,
)
# What was said is taken back and nothing is said in its place.
WITHDRAWN = re.compile(
    r"\b(?:(?:had|got|have|'ve)\s+(?:it|that|this|them|those|things|everything)\s+"
    r"(?:(?:all|completely|totally|so)\s+)?"
    r"(?:mixed|muddled|jumbled)\s+up|mixed\s+(?:it|that|them|things)\s+up|"
    r"(?:got|had)\s+(?:it|that|this|them)\s+(?:(?:all|completely|totally|entirely|so)\s+)?"
    r"(?:wrong|backwards)|"
    r"my\s+(?:mistake|bad|error)|i\s+was\s+(?:wrong|mistaken|confused)|i\s+misspoke|"
    # The mistake named and nothing else: "ugh, wrong person.", "oops, wrong date!".
    r"^\W*(?:(?:ugh|oops|whoops|argh|sorry|nope|no|doh|ah|oh)\b[\s,!.]*)?wrong\s+(?:person|"
    r"people|day|date|dates|name|names|month|one|kid|child|guy|number|address|birthday)"
    r"(?=\s*[.!]*\s*$)|"
    r"(?:ignore|disregard|forget|scrap|drop)\s+(?:about\s+)?(?:what|everything|all\s+(?:that|of\s+that))"
    r"\s+i\s+(?:said|told\s+you|wrote|mentioned|typed)|"
    r"(?:that|it)\s+was\s+(?:a\s+)?(?:mistake|wrong|an?\s+error|nonsense|not\s+right)|"
    # An order to drop what was just said, and nothing more: "ok, scrap that rule then",
    # "ditch that one", "forget it".
    r"(?:^|(?<=[,.;:!])|(?<=[,.;:!]\s)|\b(?:ok(?:ay)?|so|then|just|please|pls|yeah|fine)\b)[\s,]*"
    r"(?:scrap|drop|ditch|bin|forget|ignore|disregard|undo|cancel|lose|delete|remove|never\s+mind)\s+"
    r"(?:that|this|it|the\s+last\s+(?:one|bit|rule|thing)|my(?:\s+last)?(?=\s+(?:rule|idea|"
    r"instruction|request|preference|note|setting|plan)))"
    r"(?:\s+(?:rule|one|bit|part|idea|thing|instruction|request|preference|note|setting|plan))?"
    r"(?=\s*(?:then|too|please|now|for\s+now|as\s+well)?\s*[.!]*\s*$)|"
    # Or to let go of what it named, conceded: "never mind the warm-up then", "no need for that
    # rule", "don't bother with the warm-up".
    r"(?:(?<=[,.;:!?])|(?<=[,.;:!?]\s)|\b(?:ok(?:ay)?|so|then|fine)\b)[\s,]*"
    r"(?:never\s+mind|no\s+need\s+for|don['’]t\s+bother\s+with)\s+(?:the|that|this|my)\s+"
    r"[\w-]+(?:\s+(?:rule|thing|bit|idea))?(?=\s*(?:then)?\s*[.!]*\s*$))\b",
    re.IGNORECASE,
)
# How a mix-up is owned: "mixed up", "backwards", "the wrong way round", "swapped round".
_MIXED = (
    r"(?:mixed\s+up|muddled(?:\s+up)?|jumbled(?:\s+up)?|backwards|reversed|confused|"
    r"(?:swapped|switched)(?:\s+(?:a?round))?|(?:the\s+)?(?:wrong|other)\s+way\s+a?round)\b"
)
RETRACTION = re.compile(
    r"\b(?:fell\s+through|falls\s+through|didn't\s+work\s+out|did\s+not\s+work\s+out|"
    r"not\s+(?:happening|going\s+ahead|on\s+anymore)|(?:it's|that's|it\s+is|that\s+is|is|was)\s+off\b|"
    r"called\s+(?:it\s+)?off|(?:got|was|been)\s+(?:cancell?ed|pulled|scrapped|shelved|withdrawn)|"
    r"cancell?ed|scrapped|changed\s+(?:my|our)\s+minds?|staying\s+put|decided\s+against|"
    r"backed\s+out|pulled\s+out|gave\s+up\s+on|given\s+up\s+on|no\s+longer|any\s?more\b|"
    r"no\s+more\b(?!\s+than)|not\s+any\s+more|(?:got|get|getting)\s+rid\s+of|(?:sold|ditched|dumped)\s+(?:my|the|it|our)\b|"
    r"take\s+(?:it|that|them|this)\s+off|(?:cross|strike)\s+(?:it|that|them)\s+off|"
    r"scratch\s+(?:that|the|my|what)|forget\s+(?:about\s+)?(?:that|the|what\s+i\s+said)|"
    r"(?:gone|went|going)\s+off\s+(?:it|that|them|the)\b|not\s+into\s+(?:it|that|them)\s+anymore|"
    r"\bi(?:'ve|\s+have)?\s+(?:stopped|quit|given\s+up|dropped)\b|gave\s+up\b|"
    r"not\s+(?:true|the\s+case)\s+anymore|ignore\s+what\s+i\s+said|"
    r"(?:i'm|i\s+am|im)\s+(?:so\s+)?(?:over(?!\s+(?:in|at|to|there|here)\b)|done\s+with|sick\s+of|"
    # Not going: "I'm off to Lisbon on Friday".
    r"tired\s+of|off(?!\s+(?:to|on|for|out|home|again|from|until|till|work|sick|duty)\b))\s+\w+|"
    r"(?:switched|swapped|changed|moved)\s+(?:over\s+)?(?:to|from)\b|replaced\s+(?:it|my|the|them)\b|"
    r"traded\s+(?:it|my|the)\b|who\s+was\s+i\s+kidding|fell\s+off\s+the\s+wagon|"
    # A mix-up owned and a thing given back: "I muddled the birthdays", "I had the birthdays
    # backwards", "I got the two dates mixed up", "those were swapped", "the Mac went back".
    r"\b(?:i|we)\s+(?:muddled|mixed\s+up|confused|swapped|jumbled)\s+(?:up\s+)?(?:the|my|our)\s+\w+|"
    rf"\b(?:i|we)\s*(?:had|got|have|'ve|'d|'ve\s+got|'d\s+got)\s+(?:the|my|our|those|these|both)\s+"
    rf"(?:[\w'-]+\s+){{0,2}}?{_MIXED}|"
    rf"\b(?:those|these|they|the\s+(?:two|dates|days|names|birthdays))\s+(?:were|are|got)\s+{_MIXED}|"
    r"\b(?:went|gone|was\s+sent|got\s+sent|been\s+sent|was\s+taken|got\s+taken|was\s+returned|"
    r"got\s+returned)\s+back\s+to\s+(?:(?-i:IT)|the\s+(?:shop|store|office|company|library|"
    r"seller|lender|owner|dealer|dealership|rental\s+place)|my\s+(?:work|employer|company))\b|"
    r"(?:didn't|did\s+not|never)\s+(?:stick|last)\b|"
    # A farewell to what the user had: "goodbye linux", "bye-bye, old Corsa", "RIP my Kindle".
    r"(?:^|[,.;:!]\s*)(?:goodbye|good\s+bye|bye(?:-bye)?|farewell|so\s+long|rip)\b[\s,]+(?:to\s+)?"
    r"(?!(?:everyone|all|guys|folks|for\s+now|then|friends|team|y'all)\b)(?:my\s+|the\s+|old\s+)*[a-z]\w+|(?:is|are|'s)\s+gone\b|^\s*(?:wait,?\s+no|no,?\s+wait|sorry|oops|"
    r"whoops|correction|typo)\b|"
    r"that's\s+(?:wrong|outdated|old\s+news)|i\s+(?:meant|mean)\b|make\s+that\b|"
    r"not\s+a\s+fan\b[^.!?]{0,40}\b(?:anymore|any\s+more|these\s+days|now|lately)\b|"
    r"(?:gone|went|going)\s+downhill|instead\s+of\b|rather\s+than\b|"
    r"\b(?:died|broke(?:\s+down)?|got\s+stolen|was\s+stolen|gave\s+out|packed\s+up|is\s+dead)\b|"
    # Leaving a state behind: "I left the bakery", "the flat is handed back", "moved out of".
    r"\b(?:i|we)\s+(?:(?:just|finally|recently)\s+)?(?:left|resigned\s+from|retired\s+from|"
    r"moved\s+out\s+of|handed\s+(?:back|in)|gave\s+away|broke\s+up\s+with|split\s+(?:up\s+)?"
    r"with|finished\s+with|cancell?ed|ended)\b|\b(?:is|was|got|been)\s+handed\s+back\b|"
    r"\bchange\s+of\s+plans?\b|\b(?:i'm|i\s+am|we're|we\s+are)\s+(?:switching|changing|"
    r"moving)\s+(?:over\s+)?(?:to|from)\b|\bis\s+(?:old|outdated|out\s+of\s+date)\b|"
    r"\b(?:not|no|never)\b[^.!?]{0,50}\bafter\s+all\b|"
    # A possession the user gave up, whatever it is: "I gave the Surface back", "we handed the
    # loaner car back", "I returned the rental bike", "gave my old piano away".
    r"\b(?:i|we)\s+(?:(?:just|finally|already)\s+)?(?:gave|(?:'ve|have)\s+given|handed)\s+"
    r"(?:the|my|our|that|this)\s+(?:[\w-]+\s+){0,3}?(?:back|away)\b|"
    r"\b(?:i|we)\s+(?:(?:just|finally|already)\s+)?returned\s+(?:the|my|our)\s+\w+|"
    # A condition left behind: "my daughter outgrew her peanut allergy", "I got over my fear
    # of flying", "he's been cured of it".
    r"\b(?:outgrew|outgrown|grew\s+out\s+of|recovered\s+from|got\s+over|(?:is|was|been|got)\s+"
    r"cured\s+of|no\s+longer\s+(?:has|have|had))\b|"
    # Something under way is finished: "the 10k is done", "my course is over now", "the
    # renovation's finally finished" (what was going on holds no more).
    r"\b(?:the|my|our|that|this)\s+(?:[\w-]+\s+){0,2}?[\w-]+\s*(?:is|'s|are|was)\s+"
    r"(?:(?:all|finally|now|officially)\s+)?(?:done|over|finished|completed?|behind\s+(?:me|us))\b"
    r"(?!\s+(?:with|off|by|in|on|using|under|at)\b))",
    re.IGNORECASE,
)


# A consequence the user draws for their own conduct: "…, so no sweets at parties for mine",
# "…, so I steam everything", "which is why I never …".
_OWN_CONDUCT = re.compile(
    r"\b(?:so|which\s+is\s+why|that's\s+why|that\s+is\s+why|therefore|hence|and\s+so)\s+"
    r"(?:i|i'm|i've|i'll|we|we're|no|never|only|my|mine|our|none|nothing|always|"
    # ... or asks the assistant to act on it: "…, so build my evenings around it".
    r"(?:please\s+)?(?:build|plan|keep|schedule|book|make|suggest|avoid|give|put|leave|skip|"
    r"use|remind|include|factor|work|set|arrange|steer|stick))\b",
    re.IGNORECASE,
)


def own_conduct(text: str) -> bool:
    """The text draws a consequence for the user's own conduct (a belief that guides a
    choice of theirs: usable for questions about that choice, never for factual ones)."""
    return _OWN_CONDUCT.search(text) is not None


# A message that corrects the one before it: "Sorry, 43! 42 was years ago", "wait no, it's
# 45", "actually, make that 500 max", "typo: Tuesday".
CORRECTS_PREVIOUS = re.compile(
    r"^\s*(?:(?:sorry|oops|whoops|wait|no|nope|err|erm|um|actually|ah|hmm+|hm+|oh|ugh)[\s,!.:-]+)+"
    r"(?:i\s+meant?\b|make\s+(?:that|it)\b|it'?s\b|it\s+is\b|not\b|\d)|"
    r"^\s*(?:correction|typo|i\s+meant|make\s+that|scratch\s+that)\b",
    re.IGNORECASE,
)


def corrects_previous(text: str) -> bool:
    """The message opens by correcting what the user just said."""
    return CORRECTS_PREVIOUS.search(text) is not None


def hypothetical(text: str) -> bool:
    """A condition or a wish, not how the user lives (see the module docstring)."""
    return _HYPOTHETICAL.search(text) is not None


def considered(text: str) -> bool:
    """Something the user thought about or nearly did, which did not happen."""
    return _CONSIDERED.search(text) is not None


# A wish for some day or for when means allow, opening its sentence: "One day, when money
# allows, I'd love a Leica", "if I ever have spare cash, a Fujifilm is first on the list".
_WISH_OPENER = re.compile(
    r"^\W*(?:(?:and|but|so|btw|also)\W+)?(?:one\s+day(?!\s+(?:a|per|each|every|of)\b)|someday|some\s+day|if\s+i\s+ever|"
    r"(?:when|if)\s+money\s+allows|money\s+permitting|when\s+i\s+can\s+afford)\b",
    re.IGNORECASE,
)


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
# No more than a remark: "Still thinking.", "I'll think about it.", "Haven't decided."
_REMARK_WORDS = 6


def undecided_beside(text: str, start: int, end: int) -> bool:
    """The sentence at `start:end` of `text` has a remark beside it, the sentence just before
    or after, that leaves it undecided and says nothing of its own ("A vegan month, maybe.
    Still thinking.", "Going vegan with my sister? I'll think about it.")."""
    before = _SENTENCE_END.split(text[:start].strip())[-1] if text[:start].strip() else ""
    after = _SENTENCE_END.split(text[end:].strip())[0] if text[end:].strip() else ""
    return any(
        len(remark.split()) <= _REMARK_WORDS and (undecided_sentence(remark) or considered(remark))
        for remark in (before, after)
        if remark
    )


# A lapse reported, then a return to the rule it broke: "Had a glass of champagne at my
# sister's wedding, back on the wagon now", "Caved and had cake at the office party. Back to my
# usual today." What the message says is about that one time (`lapse_then_return`).
_LAPSE = re.compile(
    r"\b(?:had|ate|drank|smoked|caved|slipped(?:\s+up)?|gave\s+in|cheated|indulged|fell\s+off)\b"
    r"[^.!?]{0,60}?\b(?:last\s+night|this\s+morning|yesterday|today|at\s+(?:the|a|my|our)\s+"
    r"[\w'’-]+|first\s+in\s+(?:ages|months|years|a\s+while)|just\s+(?:the\s+)?once)\b",
    re.IGNORECASE,
)


def lapse_then_return(text: str) -> bool:
    """The text reports a one-time lapse and then a return to what held before it."""
    found = _LAPSE.search(text)
    if found is None:
        return False
    # What follows the lapse's own clause: "..., back on the wagon now", "but I'm back on track".
    rest = text[found.end() :]
    return returns(rest) or returns(re.split(r"[,.;!?]", rest, maxsplit=1)[-1])


def undecided_sentence(sentence: str) -> bool:
    """The sentence ends undecided about what it said ("my partner keeps nudging me towards
    keto, I'm mulling it over") or opens on a wish for some day ("one day, when money allows,
    I'd love a Leica"): every clause of it is only considered."""
    return (
        _UNDECIDED_ABOUT_IT.search(sentence) is not None
        or _WISH_OPENER.search(sentence) is not None
    )


# A measurement or a test overturns what the user took for granted about themselves: "the
# shop measured me, I'm a 56 frame", "bike fit result: 56cm", "the allergy test came back:
# wheat, not milk", "turns out it's wheat". What it finds replaces what it names.
FINDING = re.compile(
    r"\b(?:measured\s+(?:me|us|my|it|the)|(?:got|had|have\s+been)\s+measured|"
    r"measurements?\s+(?:say|says|said|show|showed|are)|"
    r"fit(?:ting)?\s+(?:result|results|says|said|showed|shows)|"
    r"(?:test|tests|results?|scan|x-?ray|blood\s*work|check-?up|assessment|reading)\s+"
    r"(?:showed|shows|came\s+back|come\s+back|say|says|said|confirmed|confirms|found|are\s+in|"
    r"is\s+in)|diagnosed\s+(?:with|as)|finally\s+know\s+what|"
    r"turns?\s+out\s+(?:i|i'm|it's|it\s+is|my|we)|turned\s+out\s+(?:i|it|my|we))\b|"
    r"\bresults?\s*:|\b(?:checked|double-checked)\b(?!\s+(?:in|out|into|on\s+(?:you|him|her)))|"
    r"\baccording\s+to\s+(?:the|my)\s+(?:floor\s+plan|plans?|deeds?|lease|contract|"
    r"passport|certificate|records?|paperwork|documents?|scale|test|scan|measurements?|doctor|"
    r"gp|optician|dentist|app|tracker)\b",
    re.IGNORECASE,
)


# A new arrangement replaces the old one, and what it is follows: "New terms with the
# client. Every two weeks, net 14.", "new rota from next week: I'm on lates".
ANNOUNCED_CHANGE = re.compile(
    r"\bnew\s+(?:terms|rules|schedule|arrangement|setup|set-up|deal|routine|rota|rates?|"
    r"prices?|policy|hours|timetable|plan)\b",
    re.IGNORECASE,
)


# A state said to hold from some point on, in place of what held before: the aspect of change,
# whatever the thing changed ("karate on Thursdays now instead", "the money comes on the 28th
# these days", "Dana is his teacher from this week", "pushed back to July"). "Now" counts where
# it closes a statement or opens its new value, not as "right now" / "just now" (a moment).
CHANGED_STATE = re.compile(
    r"\b(?:instead|nowadays|these\s+days|from\s+now\s+on|from\s+this\s+(?:week|month|term|"
    r"year|season|semester)\b|as\s+of\s+(?:now|today|this\s+(?:week|month|year))|"
    r"(?:got|been|was|were|is|are|'s)\s+(?:pushed|moved)\s+(?:back|forward|to)|postponed|"
    r"rescheduled|brought\s+forward)\b|"
    # A rule for this app or workspace alone, in place of what holds elsewhere: "for this app
    # only, the summary should come at 9" (not one that adds: "in this app I also want ...").
    r"\b(?:for|in)\s+this\s+(?:app|workspace)(?:\s+only)?\b(?![^.!?]*\b(?:also|as\s+well|too)\b)|"
    # A thing acquired or let go: what was said of having it or not no longer holds ("we
    # bought the car!" after "no car for me", "I sold the piano").
    r"\b(?:i|we)\s+(?:finally\s+|just\s+|actually\s+)?(?:bought|sold|adopted|traded\s+in|leased|"
    r"gave\s+away|picked\s+up|collected|took\s+delivery\s+of|got\s+the\s+keys\s+to)\s+"
    r"(?:a|an|the|my|our)\s+(?:new\s+)?\w+|"
    # Or got, of a possession: "we got the car!", "I finally got a dog" (not "I got a cold").
    r"\b(?:i|we)\s+(?:finally\s+|just\s+|actually\s+)?got\s+(?:a|an|the|my|our)\s+(?:new\s+)?"
    r"(?:car|bike|scooter|motorbike|van|house|flat|apartment|place|dog|cat|puppy|kitten|phone|"
    r"laptop)\b|"
    # Or given back: "I gave the Mac back", "returned the loaner", "the Tesla went back".
    r"\b(?:i|we)\s+(?:just\s+)?(?:gave|handed|sent|took)\s+(?:the|my|our)\s+(?:[\w-]+\s+){0,2}?back\b|"
    r"\b(?:i|we)\s+(?:just\s+)?returned\s+(?:the|my|our)\s+\w+|"
    r"\b(?:the|my|our)\s+[\w-]+\s+(?:went|has\s+gone|is\s+going)\s+back\s+to\b|"
    # A preference for another time than the one in place: "in this app I'd prefer the
    # summary later, around 9", "I'd rather have the call earlier".
    r"\b(?:i['’]d|i\s+would)\s+(?:rather|prefer)\b[^.!?]{0,60}?\b(?:later|earlier)\b|"
    # An order that moves an arrangement: "move the digest to the evening", "switch my
    # reminders to 8", "push the weekly call to Thursdays".
    r"\b(?:move|moving|change|changing|switch|switching|shift|shifting|push|pushing)\s+(?:the|my|our)\s+"
    r"(?:[\w-]+\s+){0,2}?(?:to|back\s+to|forward\s+to)\s+(?:the\s+)?(?:\w+)\b|"
    r"(?<!\bright\s)(?<!\bjust\s)(?<!\bfor\s)(?<!\buntil\s)(?<!\btill\s)(?<!\bby\s)"
    r"\bnow\b(?=\s*(?:[,.;!)]|$|instead|though|too))",
    re.IGNORECASE,
)


# A change asked for: "Could the briefing come at lunchtime instead?" (a question that asks,
# not one that wonders; "can you answer in German from now on?" asks for a standing rule).
_ASKED_CHANGE = re.compile(
    r"^\W*(?:(?:and|so|ok|hey|actually|also)\W+)?(?:(?:in|on|for)\s+(?:this|the)\s+\w+\W+|here\W+)?"
    r"(?:can|could|would|will)\s+(?:you|the|my|your|we)\b"
    r"[^?]*\binstead\b",
    re.IGNORECASE,
)


def changed_state(text: str) -> bool:
    """The sentence says what holds now in place of what held before (`CHANGED_STATE`), or
    asks for that (`_ASKED_CHANGE`)."""
    return CHANGED_STATE.search(text) is not None and (
        not text.rstrip().endswith("?") or _ASKED_CHANGE.match(text) is not None
    )


def takes_back(text: str) -> bool:
    """The sentence takes back something said before, announces what replaces it
    (`ANNOUNCED_CHANGE`), or reports a finding that overturns it (`FINDING`)."""
    return any(
        p.search(text) is not None
        for p in (RETRACTION, CALLED_OFF, WITHDRAWN, FINDING, ANNOUNCED_CHANGE)
    )


# A sentence's clause is read once as itself and once inside its sentence (cues.select):
# the same text, the same answer.
@functools.lru_cache(maxsize=4096)
def retracts(text: str) -> bool:
    """The sentence takes back something said before (`takes_back`) or says what holds now in
    its place (`changed_state`)."""
    return takes_back(text) or changed_state(text) or returns(text)


def announces_change(text: str) -> bool:
    """The sentence announces a new arrangement; the sentences after it say what it is."""
    return ANNOUNCED_CHANGE.search(text) is not None


def finding(text: str) -> bool:
    """The sentence reports what a measurement or a test found (`FINDING`)."""
    return FINDING.search(text) is not None


def withdrawn(text: str) -> bool:
    """The sentence takes back what was said and states nothing new: a mistake admitted, an
    order to drop it. One that says more is no withdrawal ("ignore what I said about Fridays,
    I'm in the office every day now" states the new value; it is a retraction)."""
    match = WITHDRAWN.search(text)
    if match is None:
        return False
    # What the withdrawal names ("... about my gym schedule") belongs to it.
    after = re.sub(r"^[\s,;:-]*(?:about|on|regarding|re)\b[^,;.!?]*", "", text[match.end() :])
    return _SAYS_MORE.search(f"{text[: match.start()]} {after}") is None


# A withdrawal that says more than that: a new value, a state, a number.
_SAYS_MORE = re.compile(
    r"\b(?:i'm|i\s+am|im|we're|we\s+are|it's|it\s+is|(?:my|our)\s+\w+\s+(?:is|are)|now|"
    r"nowadays|these\s+days|actually|instead|only|make\s+(?:it|that))\b|\d",
    re.IGNORECASE,
)


def called_off(text: str) -> bool:
    """The sentence says a plan or an idea is off (and is no claim of its own)."""
    return CALLED_OFF.search(text) is not None


# The state a called-off plan would have changed, said to go on: "we're staying put", "still
# living in Bologna", "not moving from Bologna", "keeping the car" (to the end of its clause).
CONTINUES = re.compile(
    # Not negated: "we don't stay in hotels anymore" takes back what it names.
    r"\b(?<!n['’]t\s)(?<!not\s)(?<!never\s)(?<!longer\s)"
    r"(?:(?:we|i)(?:['’]re|\s+are|['’]m|\s+am|['’]ll)?\s+)?(?<!n['’]t\s)(?<!not\s)(?<!never\s)"
    r"(?<!longer\s)(?:still\s+(?:in|at|on|living|"
    r"based|here|where|got|have|own)|(?:staying|stay|remain|remaining|keeping|keep)\s+(?:put|in|at|"
    r"on|where|our|my|the|it|them|him|her)|not\s+(?:leaving|moving\s+(?:from|out\s+of)|"
    r"going\s+anywhere|selling|giving\s+up))\b[^,.;:!?]*",
    re.IGNORECASE,
)


def continues(text: str) -> bool:
    """The text says a state goes on as it was (`CONTINUES`): it changes nothing."""
    return CONTINUES.search(text) is not None


# Last, so that what imports these names gets them guarded (permem.prefilter).
guard_patterns(globals())
