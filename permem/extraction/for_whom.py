"""For whom a claim holds, and for whom a request is made (recall's `exclusion`).

A user's rule can name whom it is for: "for me alone: spicy everything", "on my own trips I
take the first flight", "when I book for anyone on the team it's economy", "when I cook for
both of us keep it plant-based". A request names whom it serves: "a dinner just for me", "a
flight for Mateus", "a table for me and Bram". A rule for the user alone does not serve a
request for someone else or for a group; a rule for the bookings the user makes for others
does not serve the user's own request; and the user's own tastes (preferences) are not applied
to a request made only for someone else. Pure: patterns over the texts, no parse.
"""

from __future__ import annotations

import re
from enum import StrEnum

from permem.extraction.lexicon import RELATIONS
from permem.prefilter import guard_patterns
from permem.records import Kind


class ForWhom(StrEnum):
    SELF = "self"  # the user alone
    OTHERS = "others"  # someone else, not the user
    SHARED = "shared"  # the user with someone else
    ANY = "any"  # a claim that names no one: it holds wherever the user's memory does
    ALONE = "alone"  # a request for the user alone, said so ("a dinner just for me")


_RELATION = "|".join(sorted((re.escape(r) for r in RELATIONS), key=len, reverse=True))
_ACTS = (
    r"(?:book|books|booking|cook|cooks|cooking|buy|buying|order|ordering|shop|shopping|plan|"
    r"planning|pick|picking|choose|choosing|arrange|arranging|organi[sz]e|get|getting)"
)
# The user together with others: "both of us", "the two of us", "us all".
_TOGETHER = r"(?:both\s+of\s+us|the\s+two\s+of\s+us|us\s+(?:both|two|all)|all\s+of\s+us)"
_GROUP = rf"(?:{_TOGETHER}|us)"

_CLAIM_SELF = re.compile(
    r"\bfor\s+me\s+(?:alone|only)\b|\b(?:just|only)\s+for\s+me\b|\bfor\s+myself\b|"
    r"\bwhen\s+i\s+\w+\s+(?:by\s+)?myself\b|\bon\s+my\s+own\s+(?:trips?|travel|flights?|"
    r"bookings?|meals?|dinners?|nights?|holidays?|time)\b|\bwhen\s+it'?s\s+just\s+me\b|"
    r"\bwhen\s+i'?m\s+(?:on\s+my\s+own|alone|solo|by\s+myself)\b|"
    # "For my own travel: aisle seat", "personally I always grab a window seat", "my own
    # flights are always economy plus".
    r"\b(?:for\s+)?my\s+own\s+(?:trips?|travel|flights?|bookings?|meals?|dinners?|holidays?|"
    r"journeys?|orders?|purchases?)\b|^\W*personally\b|\b(?:i|me)\s+personally\b",
    re.IGNORECASE,
)
_CLAIM_FOR = re.compile(
    # "when I cook for my sister", and what the user does for someone as a rule of their life:
    # "I often cook for my housemate".
    rf"\b(?:(?:when(?:ever)?|if|for\s+anything)\s+(?:i\s+)?|"
    rf"i\s+(?:often\s+|usually\s+|also\s+|sometimes\s+|regularly\s+|always\s+)?)"
    rf"{_ACTS}\b[^.;!?]{{0,30}}?\b(?:for|on\s+behalf\s+of)\s+"
    rf"(?P<whom>{_GROUP}|anyone|someone|others|other\s+people|the\s+team|my\s+team|guests|"
    rf"clients|colleagues|(?:my|our)\s+(?:{_RELATION})|(?!me\b|myself\b)[A-Z][\w'-]+)\b",
    re.IGNORECASE,
)
# A rule opened on whom it is for, with no act named: "For the team it's economy", "bookings I
# make for the team go through Concur", "for other people's travel: economy".
_OTHERS_WORDS = (
    r"(?:the\s+team|my\s+team|colleagues|others|other\s+people(?:['’]s)?|clients|guests|"
    r"anyone\s+else|everyone\s+else|staff|my\s+staff|the\s+office)"
)
_CLAIM_FOR_OTHERS = re.compile(
    rf"^\W*(?:and\s+)?for\s+(?:all\s+)?{_OTHERS_WORDS}\b|"
    r"\b(?:bookings?|trips?|travel|flights?|orders?|reservations?)\s+(?:(?:i|we)\s+(?:make|book|"
    rf"arrange|do|handle)\s+)?for\s+{_OTHERS_WORDS}\b",
    re.IGNORECASE,
)
_GROUP_WORDS = re.compile(rf"^{_GROUP}$", re.IGNORECASE)
# A rule for what the user shares: "shared dinners need to be vegan", "our family meals".
_CLAIM_SHARED = re.compile(
    r"\b(?:shared|joint|communal|household)\s+(?:dinners?|meals?|food|cooking|"
    r"groceries|breakfasts?|lunches?|suppers?|takeaways?|holidays?|trips?)\b",
    re.IGNORECASE,
)
# What someone named says or needs, with who they are to the user: "Ines, who I live with,
# doesn't eat meat", "<PERSON>, my flatmate, is vegan".
_CLAIM_NAMED_OTHER = re.compile(
    rf"^\W*(?:<PERSON>|(?!I\b)[A-Z][\w'-]+)\s*,\s*(?:who(?:m)?\b[^,.;!?]{{1,40}}|"
    rf"(?:my|our)\s+(?:\w+\s+)?(?:{_RELATION})),"
)

_REQUEST_SHARED = re.compile(
    rf"\bfor\s+(?:me\s+and\s+\S+|\S+\s+and\s+me|{_GROUP})\b|\bwith\s+(?:my\s+(?:{_RELATION})|"
    r"[A-Z][\w'-]+)\b|\bme\s+and\s+(?:my\s+)?[\w'-]+\b",
)
_REQUEST_ALONE = re.compile(
    r"\b(?:just|only)\s+(?:for\s+)?me\b|\bfor\s+me\s+(?:alone|only)\b|\bfor\s+myself\b|"
    r"\bby\s+myself\b|\bon\s+my\s+own\b|\b(?:solo|alone)\b",
    re.IGNORECASE,
)
# A claim that names someone besides the user: a relation ("my flatmate", "our son"), a masked
# name, or the user together with others ("both of us").
_NAMES_OTHERS = re.compile(
    rf"\b(?:my|our|his|her|their)\s+(?:\w+\s+)?(?:{_RELATION})\b|<PERSON>|\b{_TOGETHER}\b",
    re.IGNORECASE,
)
_REQUEST_OTHER = re.compile(
    rf"\bfor\s+(?:my|our)\s+(?:\w+\s+)?(?:{_RELATION})\b|\bfor\s+(?P<name>[A-Z][\w'-]+)\b",
)
# Capitalised words after "for" that name no one: "a ticket for Thursday", "for Christmas".
_NOT_PEOPLE = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday january february march april "
    "may june july august september october november december christmas easter tonight "
    "tomorrow today the a an my our your work me us".split()
)


def claim_for_whom(claim: str) -> ForWhom:
    """Whom the user's claim says it is for: themselves alone, others (the user acting for
    them), the user with others, or no one in particular."""
    if _CLAIM_SELF.search(claim):
        return ForWhom.SELF
    found = _CLAIM_FOR.search(claim)
    if found is None:
        if _CLAIM_NAMED_OTHER.search(claim) or _CLAIM_FOR_OTHERS.search(claim):
            return ForWhom.OTHERS
        return ForWhom.SHARED if _CLAIM_SHARED.search(claim) else ForWhom.ANY
    return ForWhom.SHARED if _GROUP_WORDS.match(found.group("whom")) else ForWhom.OTHERS


def request_for_whom(text: str, subject: str) -> ForWhom:
    """Whom a request serves: the user with someone ("for me and Bram", "dinner with my
    sister"), someone else ("a flight for Mateus", "a gift for my dad"), or the user (the
    default). A name the subject id spells is the user's own."""
    if _REQUEST_SHARED.search(text):
        return ForWhom.SHARED
    own = {p for p in re.split(r"[^a-z]+", subject.casefold()) if len(p) >= 3}
    for found in _REQUEST_OTHER.finditer(text):
        name = (found.group("name") or "").casefold()
        if not name or (name not in _NOT_PEOPLE and name not in own):
            return ForWhom.OTHERS
    return ForWhom.ALONE if _REQUEST_ALONE.search(text) else ForWhom.SELF


def names_others(claim: str) -> bool:
    """Whether a claim names someone besides the user ("my flatmate is vegan, so ...")."""
    return _NAMES_OTHERS.search(claim) is not None


# The user's own way of doing something, said of themselves alone: "I always go for the
# window", "my personal preference is an early departure", "I always fly carry-on only" (not
# "I bill Harbourline at the end", which names whom it is for, nor "... for mine").
_OWN_WAY = re.compile(
    r"^\W*(?:(?:me|personally|myself)\W+)?(?:i|i['’]m|my)\b[^.;!?]{0,20}?\b(?:always|never|"
    r"usually|prefer(?:s|red|ence)?|like|love|hate|go\s+for|grab|sit|pick|choose)\b",
    re.IGNORECASE,
)
_SOMEONE = re.compile(
    r"(?<=\w\s)(?-i:[A-Z])[\w'-]+|\b(?:mine|them|him|her|they|kids|children|everyone|anyone|"
    r"others|team|guests?|clients?)\b",
    re.IGNORECASE,
)


def own_way(claim: str) -> bool:
    """The claim tells how the user themselves likes things done, naming no one else: like a
    taste, it is not for a request made only for someone else."""
    return _OWN_WAY.search(claim) is not None and not (
        names_others(claim) or _SOMEONE.search(claim)
    )


def serves(
    claim: ForWhom, kind: Kind, request: ForWhom, *, names_other: bool = False, own: bool = False
) -> bool:
    """Whether a claim for `claim` (of `kind`) may be used for a request for `request`. A
    reading for no request in particular (`request` ANY: the synthesized profile) uses every
    claim, whomever it is for. A request for the user alone, said so ("a dinner just for me"),
    uses no claim that names someone besides the user (`names_other`: "my flatmate is vegan,
    so we eat plant-based"), whatever whom the claim says it is for."""
    if request is ForWhom.ANY:
        return True
    if request is ForWhom.ALONE and names_other:
        return False
    if claim is ForWhom.SELF:
        return request in (ForWhom.SELF, ForWhom.ALONE)
    if claim in (ForWhom.OTHERS, ForWhom.SHARED):
        return request not in (ForWhom.SELF, ForWhom.ALONE)
    # The user's own tastes are theirs: a request only for someone else does not use them,
    # nor how the user likes their own things done (`own`: `own_way`).
    return not (request is ForWhom.OTHERS and (kind is Kind.PREFERENCE or own))


__all__ = ["ForWhom", "claim_for_whom", "names_others", "own_way", "request_for_whom", "serves"]


# Last, so that what imports these names gets them guarded (permem.prefilter).
guard_patterns(globals())
