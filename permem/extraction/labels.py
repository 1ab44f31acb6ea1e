"""A statement said as a label and its value: "kitchen skills: microwave, kettle, that's about
it", "Salary: 2,900 net per month", "Temporary setup: an iPhone 12 on loan", "my workout
routine: a run at 6:30". The label names what of the speaker the value is (a form, a profile,
a note to self), so the sentence is a statement about them, as "My kitchen skills are ..."
would be. A discourse label ("Heads up:", "Update:", "Quick question:", "Confession:") only
announces what follows and is no such statement, and neither is a question.
"""

from __future__ import annotations

import re

from permem.extraction.speaker_words import _CARE_ROLES, _RELATION_WORDS
from permem.prefilter import guard_patterns

_LABELLED = re.compile(
    r"^\W*(?:(?:my|our)\s+)?(?P<label>[^\W\d_][\w'’-]*(?:\s+[^\W\d_][\w'’-]*){0,3})\s*:\s+\S",
    re.IGNORECASE,
)
# Labels that announce what follows rather than name something of the speaker's.
_DISCOURSE = frozenset(
    "heads up|update|note|ps|p.s|fyi|btw|question|q|quick question|reminder|one thing|edit|"
    "context|background|tldr|tl;dr|confession|also|re|subject|warning|important|correction|"
    "follow-up|followup|follow up|todo|to do|task|request|hint|tip|example|eg|ie|source|answer|"
    "off topic|random|side note|fun fact|trivia|quick note|a note|news|good news|bad news|"
    "update after checking|summary|recap|quote|translation|hi|hello|hey|ok|okay|so|well|"
    "anyway|also note|just so you know|plot twist|spoiler|story time|rant|disclaimer|aside|"
    "problem|issue|idea|thought|question for you|small thing|another thing|first|second|third|"
    "finally|lastly|step one|step two|option a|option b|pros|cons|result|results|verdict|"
    "status|plan|the plan|goal|update on that|nb|n.b|attention|urgent|"
    # Content pasted or asked about, not something of the speaker's.
    "recipe|ingredients|lyrics|code|error|output|log|prompt|title|draft|text|email|message|"
    "poem|list|agenda|menu|link|url|input|query|search|topic|word|phrase|definition".split("|")
)


# A label of someone else's ("Felix's teacher:", "gift for my niece:") or a topic label that
# opens on a preposition ("For the grant bid:", "Re the car:"): the rest of the sentence is
# judged as it stands, not as a statement of the speaker's.
_NOT_THE_SPEAKERS = re.compile(
    r"['’]s\b|s['’](?:\s|$)|^(?:for|re|about|regarding|on|in|with|to|at|from|as|after|before|"
    r"during|until|till)\b|\bfor\s+(?:my|our|his|her|their|a|an|the|this|that)\b",
    re.IGNORECASE,
)


def labelled_statement(text: str) -> bool:
    """The sentence states something of the speaker as a label and its value (module
    docstring)."""
    found = _LABELLED.match(text)
    if found is None or text.rstrip().endswith("?"):
        return False
    label = found.group("label").casefold().strip()
    return label not in _DISCOURSE and _NOT_THE_SPEAKERS.search(label) is None


# "Big seafood fan here", "night owl here, so no meetings before 10", "coffee addict here": what
# the speaker is, said as "<what I am> here" (as "I'm a big seafood fan" would be).
_WHAT_HERE = re.compile(
    r"^\W*(?P<what>[^\W\d_][\w'’-]*(?:\s+[^\W\d_][\w'’-]*){0,3})\s+here\b"
    r"(?!\s+(?:is|are|was|were|in|at|on|to|and|for|with|from|by|of|'s|as)\b)",
    re.IGNORECASE,
)
# Not what anyone is: "same here", "me here", "hello here", "stuck here", "nobody here".
_NOT_WHAT = frozenset(
    "same me us we you everyone anyone someone somebody nobody everybody all hi hello hey hiya "
    "right over out back just only still again also not no yes ok okay thanks thank stuck got "
    "arrived came been moved live living work working stay staying sitting waiting sorry "
    "welcome new again it this that there who what typing writing speaking texting chatting "
    "messaging using borrowing asking replying posting".split()
)
# An announcement of who types ("Quinn's partner here", "the nanny here", "mum here") is
# read by permem.extraction.speakers, not as a description of the holder.
_SOMEONE = re.compile(
    rf"['’]s\b|s['’](?:\s|$)|^(?:the|your|his|her|their|it['’]?s|this\s+is)\b|"
    rf"\b(?:{_RELATION_WORDS}|{_CARE_ROLES}|user|account)$",
    re.IGNORECASE,
)


def described_here(text: str) -> bool:
    """The sentence says what the speaker is as "<what> here" (see `_WHAT_HERE`), not who is
    typing: a name ("Leilani here") is no description, and neither is a relation or a role."""
    found = _WHAT_HERE.match(text)
    if found is None:
        return False
    what = found.group("what")
    words = what.casefold().split()
    if words[-1] in _NOT_WHAT or words[0] in _NOT_WHAT or _SOMEONE.search(what):
        return False
    from permem.extraction.speakers import english_words  # loads the spaCy lemmatizer

    # A name is capitalised and no word: "Bram here", "Big Bram here" ("Chelsea fan here" is a
    # fan, whatever names the club).
    head = what.split()[-1]
    return not head[0].isupper() or head.casefold() in english_words()


_OPENING_NAME = re.compile(r"\W*(?:(?:and|but|so|also|oh|well)\W+)?([^\W\d_]+)(?:'s|’s)?\b")


def said_of(text: str, holder: frozenset[str]) -> bool:
    """The sentence opens on one of the holder's names as its subject or its owner ("Kai goes
    to bed early", "kai's English is basic"), said by someone helping on the holder's account
    (`permem.extraction.speakers.helped_holders`): a statement of the holder's, as "I go to bed
    early" would be."""
    opening = _OPENING_NAME.match(text) if holder else None
    return opening is not None and opening.group(1).casefold() in holder


# Last, so that what imports these names gets them guarded (permem.prefilter).
guard_patterns(globals())
