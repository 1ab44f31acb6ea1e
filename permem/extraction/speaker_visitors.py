"""Visitors staying at the account holder's place who type on its device (holiday lets,
guests, tenants): the fragments and sentences that say so, for
`permem.extraction.speaker_markers`."""

from __future__ import annotations

import re

from permem.extraction.speaker_words import _I_AM, _LEAD, _LODGING, _TRAIL
from permem.prefilter import guard_patterns

_VISITORS = re.compile(
    # "We're the guests in the cottage", "Hello from the guests!", "it's the tenants".
    rf"{_LEAD}(?:we['’]?re|we are|{_I_AM}|im|(?:greetings\s+|hello\s+|hi\s+|hey\s+)?from|"
    r"it['’]?s|this\s+is)\s+(?:the|your)\s+(?:new\s+)?"
    r"(?:[^\W\d_]+\s+)?(?:guests?|visitors?|tenants?|renters?|lodgers?|house-?sitters?|couple|family|group|"
    r"people|folks)"
    rf"(?:\s+(?:staying\s+)?(?:in|at|from)\s+(?:the|your|this)\s+(?:[^\W\d_]+\s+){{0,2}}"
    rf"{_LODGING})?(?:\s+(?:this|for\s+the|for\s+a)\s+(?:weekend|week|fortnight|month|"
    rf"night|few\s+days))?{_TRAIL}",
    re.IGNORECASE,
)
# Staying at the holder's place, on the device it keeps there: "we're staying in this flat
# this week", "I'm staying at your cottage till Sunday" ("in the flat" may be the holder's own
# trip).
_STAYING = re.compile(
    rf"{_LEAD}(?:we['’]?re|we are|{_I_AM}|im)\s+(?:staying|stopping|renting|house-?sitting)\s+"
    rf"(?:in|at)\s+(?:your|this)\s+(?:[^\W\d_]+\s+){{0,2}}{_LODGING}\b[^.!?]*",
    re.IGNORECASE,
)
# Just arrived at the holder's place: "we've just checked in to the cottage for the week",
# "hello from the family renting the apartment".
_ARRIVED = re.compile(
    rf"{_LEAD}(?:(?:we['’]?ve|we\s+have|we)\s+(?:just\s+)?(?:checked\s+in|arrived|got\s+here|"
    rf"moved\s+in)\s+(?:to|at|in)\s+(?:the|your|this)\s+(?:[^\W\d_]+\s+){{0,2}}{_LODGING}\b|"
    rf"(?:greetings|hello|hi|hey)\s+from\s+(?:the\s+)?(?:[^\W\d_]+\s+){{0,2}}(?:renting|staying\s+"
    rf"(?:in|at))\s+(?:the|your|this)\s+(?:[^\W\d_]+\s+){{0,2}}{_LODGING}\b)[^.!?]*",
    re.IGNORECASE,
)
# Visitors who say they are staying here, in any words: "we" staying, visiting, renting or
# just arrived (`_STAY`), here or at this or your place (`_HERE_PLACE`; "the flat in Lisbon"
# may be the holder's own trip), in one sentence ("Hello, we're visiting for the week and
# staying at this place"); a stay said whole (`_STAYING_HERE`: "we've booked this place for
# 5 nights"); or guests named as where they are ("Guests in unit 4 here"). A story of a stay
# is no visit ("we stayed in a cabin last year").
_STAY = re.compile(
    r"\b(?:we|we['’](?:re|ve)|we\s+(?:are|have))\s+(?:[\w-]+\s+){0,2}?(?:staying|visiting|renting|"
    r"rented|arrived|got\s+in|checked\s+in|holidaying|on\s+holiday)\b",
    re.IGNORECASE,
)
_STAY_SPAN = (
    r"(?:till|until|over|this\s+(?:week|weekend)|(?:for\s+)?(?:the\s+|a\s+|\w+\s+)?(?:week|weekend|"
    r"nights?|days|fortnight))\b"
)
# Said whole, with no place needed: "we've got the place till Friday", "we're here till
# Sunday", "family of four here for the week", "we're the couple who booked this week".
_STAYING_HERE = re.compile(
    rf"\b(?:we|we['’]ve|we\s+have)\s+(?:just\s+)?(?:booked|rented|got)\s+(?:this|your|the)\s+"
    rf"{_LODGING}\s+(?:till|until|for|this|over)\b|\bwe['’]?re\s+(?:\w+\s+)?here\s+{_STAY_SPAN}|"
    rf"\b(?:family|couple|party|group)\s+(?:of\s+\w+\s+)?here\s+{_STAY_SPAN}|"
    r"\bwe['’]?re\s+the\s+(?:\w+\s+)?(?:guests?|visitors?|couple|family|group|party|people|folks)\s+"
    r"(?:who\s+(?:booked|rented|are\s+staying)|staying|renting|in\s+the\s+\w+(?:\s+\w+)?\s+"
    r"(?:till|until|this|for))\b",
    re.IGNORECASE,
)
_HERE_PLACE = re.compile(
    rf"\b(?:here|this\s+(?:place|{_LODGING})|your\s+{_LODGING}|unit\s+\d+)\b",
    re.IGNORECASE,
)
# A party at a lodging that is not the holder's own, in any words: "we" who stay, booked,
# checked in or are on holiday at your or this place, a numbered room or unit, an Airbnb
# ("we're in your apartment until Sunday", "we are the people who booked the cabin", "we're
# on holiday in the flat", "the family who checked into the villa today"); a family or group
# named as here ("The Fischer family here"); a party from a numbered room ("it's the couple
# from room 3"). "The flat in Lisbon" is a place of the holder's trip; "our flat" theirs.
_ROOM = r"(?:room|unit|suite|flat|apartment|apt|cabin|chalet|lodge|cottage)\s+\d+\w?\b"
_HOSTS_PLACE = (
    rf"(?:(?:your|this)\s+(?:[^\W\d_]+\s+){{0,2}}{_LODGING}\b|{_ROOM}|(?:the\s+)?airbnb\b)"
)
_LODGING_REF = (
    rf"(?:{_HOSTS_PLACE}|the\s+(?:[^\W\d_]+\s+){{0,2}}{_LODGING}\b(?!\s+(?:in|at)\s+(?-i:[A-Z])))"
)
_WE = (
    r"(?:we|we['’](?:re|ve)|we\s+(?:are|have))\s+"
    r"(?:(?:just|all|only|currently|still|already|now)\s+){0,2}"
)
_PARTY_STAY = re.compile(
    # Staying at, renting or booking your or this place, a numbered room, an Airbnb ("we rent
    # the flat above the bakery" is the holder's own home).
    rf"\b{_WE}(?:staying|stopping|on\s+holiday|holidaying|here)\s+"
    rf"(?:\w+\s+){{0,3}}?(?:(?:in|at|into|to|for)\s+)?{_HOSTS_PLACE}|"
    rf"\b{_WE}(?:renting|rented|booked)\s+(?:\w+\s+){{0,3}}?(?:(?:in|at|into|to|for)\s+)?(?:your|this)\s+"
    rf"(?:[^\W\d_]+\s+){{0,2}}{_LODGING}\b|"
    # Arrived or checked in at one, "the" cottage too.
    rf"\b(?:{_WE}|(?:family|couple|group|party|people|folks|guests?|visitors?)\s+(?:who|that)\s+"
    r"(?:have\s+|just\s+)?)(?:checked\s+in(?:to)?|arrived|got\s+in)\s+(?:(?:in|at|into|to)\s+)?"
    rf"{_LODGING_REF}|"
    rf"\b(?:family|couple|group|party|people|folks|guests?|visitors?)\s+(?:who|that)\s+(?:booked|"
    rf"rented|are\s+staying\s+(?:in|at))\s+{_LODGING_REF}|"
    rf"\bwe(?:['’]re|\s+are)\s+(?:in|at)\s+(?:your\s+(?:[^\W\d_]+\s+){{0,2}}{_LODGING}\b|{_ROOM})|"
    # A surname, capitalised ("The Fischer family here"; not "our family here is four").
    r"\b(?:the\s+)?(?!(?i:our|my|your|his|her|their|the|a|whole|entire|big|small|little|extended)\b)"
    r"(?-i:[A-Z][a-z'-]+)\s+(?:family|party|group|household)\s+here\b|"
    # Not the holder's own guests: "we have guests staying in the spare room".
    r"(?<!have\s)(?<!had\s)(?<!got\s)(?<!our\s)(?<!my\s)(?<!some\s)(?<!with\s)"
    rf"\b(?:guests?|visitors?|renters?|holidaymakers?)\s+(?:staying\s+)?(?:in|at|from)\s+{_LODGING_REF}|"
    r"\b(?:it['’]?s|we['’]?re|we\s+are|this\s+is|hi\s+from|hello\s+from)\s+the\s+(?:\w+\s+)?"
    r"(?:couple|family|group|party|guests?|visitors?|people|folks)\s+(?:from|in|at)\s+"
    rf"{_LODGING_REF}|"
    # A party said without "we": "Family of four staying at your cottage till Sunday".
    r"\b(?:family|couple|group|party|guests?|visitors?)\s+(?:of\s+\w+\s+)?(?:staying|stopping|"
    rf"here)\s+(?:\w+\s+){{0,3}}?(?:(?:in|at)\s+)?{_HOSTS_PLACE}|"
    # A household by its surname: "we're the Kowalskis in flat 2 for the week".
    r"\bwe(?:['’]re|\s+are)\s+the\s+(?-i:[A-Z])[\w'-]+s\s+(?:in|at|from)\s+"
    rf"{_HOSTS_PLACE}|"
    # Thanking the host for the stay: "thanks for the lovely flat!", "thank you for having us".
    r"\bthanks?(?:\s+you)?(?:\s+so\s+much)?\s+for\s+(?:having\s+us|hosting\s+us|the\s+(?:\w+\s+){0,2}?"
    rf"(?:{_LODGING}|stay|welcome\s+(?:pack|basket|note|hamper))(?=\s*(?:[.!,;]|$|and\b)))|"
    r"^\W*(?:(?:hi|hey|hello)\W+)?(?:just\s+)?checked\s+in(?:to)?\b|"
    # A stay here with its length, in other words: "we're in town for six nights", "staying
    # here six nights with the kids", "our family is here for a week", "we're Anna and Tom,
    # here for the week", "we're booked in till Sunday", "we have the place for six nights",
    # "we arrived today and leave on Saturday".
    rf"\bwe(?:['’]re|\s+are)\s+(?:\w+\s+)?(?:here|in\s+town|booked\s+in)\s+{_STAY_SPAN}|"
    rf"^\W*(?:(?:hi|hey|hello)\W+)?(?:just\s+)?staying\s+here\s+{_STAY_SPAN}|"
    rf"\b(?:our\s+)?(?:family|group|party|couple|lot)\s+(?:is|are)\s+here\s+{_STAY_SPAN}|"
    rf"\bwe\b[^.!?]{{0,40}}?,\s+here\s+{_STAY_SPAN}|"
    rf"\b{_WE}(?:renting|rented|booked|have|got)\s+the\s+place\s+{_STAY_SPAN}|"
    r"\bwe\s+(?:just\s+)?arrived\b[^.!?]{0,30}?\b(?:leave|leaving|check(?:ing)?\s+out)\b",
    re.IGNORECASE,
)
_TOLD_STAY = re.compile(r"\b(?:stayed|visited|last\s+(?:year|month|summer|time)|when\s+we)\b", re.I)
_GUESTS_HERE = re.compile(
    rf"^{_LEAD}(?:the\s+)?(?:new\s+)?(?:(?:{_LODGING}\s+)?(?:guests?|visitors?|renters?)|people\s+(?:who\s+)?(?:rented|renting|"
    rf"staying\s+in)\s+(?:the|this|your)\s+{_LODGING})\s+(?:(?:in|at|of)\s+(?:the\s+)?[\w\s]{{1,20}}?\s+)?"
    rf"here{_TRAIL}$",
    re.IGNORECASE,
)


def _visiting(sentence: str) -> bool:
    """The sentence is said by visitors staying at the holder's place (see `_STAY`)."""
    if _GUESTS_HERE.match(sentence.strip()):
        return True
    if _TOLD_STAY.search(sentence):
        return False
    return bool(
        _STAYING_HERE.search(sentence)
        or (_STAY.search(sentence) and _HERE_PLACE.search(sentence))
        or _PARTY_STAY.search(sentence)
    )


_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")


def visitors_fragment(text: str) -> bool:
    """A fragment that alone says visitors are typing ("we're the guests in the cottage",
    "we're staying in this flat this week", "we've just checked in to the chalet")."""
    return any(p.fullmatch(text) for p in (_VISITORS, _STAYING, _ARRIVED))


def visiting_sentence(text: str) -> tuple[int, int] | None:
    """The first sentence of `text` said by visitors staying here (`_visiting`), as offsets."""
    for sentence in _SENTENCE.finditer(text):
        if _visiting(sentence.group()):
            said = sentence.group()
            return sentence.start() + len(said) - len(said.lstrip()), sentence.end()
    return None


__all__ = ["visiting_sentence", "visitors_fragment"]

# Last, so that what imports these names gets them guarded (permem.prefilter).
guard_patterns(globals())
