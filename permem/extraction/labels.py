"""A statement said as a label and its value: "kitchen skills: microwave, kettle, that's about
it", "Salary: 2,900 net per month", "Temporary setup: an iPhone 12 on loan", "my workout
routine: a run at 6:30". The label names what of the speaker the value is (a form, a profile,
a note to self), so the sentence is a statement about them, as "My kitchen skills are ..."
would be. A discourse label ("Heads up:", "Update:", "Quick question:", "Confession:") only
announces what follows and is no such statement, and neither is a question.
"""

from __future__ import annotations

import re

from permem.extraction.prefilter import guard_patterns

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


# Last, so that what imports these names gets them guarded (permem.extraction.prefilter).
guard_patterns(globals())
