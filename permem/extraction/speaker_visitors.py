"""Visitors staying at the account holder's place who type on its device (holiday lets,
guests, tenants): the fragments and sentences that say so, for
`permem.extraction.speaker_markers`."""

from __future__ import annotations

import re

from permem.extraction.prefilter import guard_patterns
from permem.extraction.speaker_words import _I_AM, _LEAD, _LODGING, _TRAIL

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
    r"(?:till|until|over|this\s+(?:week|weekend)|for\s+(?:the\s+|a\s+|\w+\s+)?(?:week|weekend|"
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
_TOLD_STAY = re.compile(r"\b(?:stayed|visited|last\s+(?:year|month|summer|time)|when\s+we)\b", re.I)
_GUESTS_HERE = re.compile(
    rf"^{_LEAD}(?:the\s+)?(?:new\s+)?(?:guests?|visitors?|renters?|people\s+(?:who\s+)?(?:rented|renting|"
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
        _STAYING_HERE.search(sentence) or (_STAY.search(sentence) and _HERE_PLACE.search(sentence))
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

# Last, so that what imports these names gets them guarded (permem.extraction.prefilter).
guard_patterns(globals())
