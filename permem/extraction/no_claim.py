"""Sentences that carry no claim of their own (a task, a pleasantry, "A one-off.", "Please
remember that."), and the formats a task or a bare phrase asks for (`FORMAT_TOPICS`): a task
that sets its own format ("write the email to my boss in German") is an exception for that
piece, not a task to drop."""

from __future__ import annotations

import re

from permem.extraction import lexicon as lx
from permem.extraction.directives import standing_directive
from permem.extraction.lexicon_time import _PIECE
from permem.extraction.sent_rules import asks_to_keep
from permem.prefilter import guard_patterns

# The topics that say how the assistant's answers look.
FORMAT_TOPICS = frozenset({"reply_language", "reply_format", "spelling", "units"})
# Said with these, a format is asked for ("short answers please", "metric for me").
POLITE = re.compile(r"\b(?:please|pls|plz|stp|for me|only)\b", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_RELATIONS = "|".join(sorted((re.escape(r) for r in lx.RELATIONS), key=len, reverse=True))
# A task that makes one piece ("translate this into Dutch", "write a note to my neighbour"),
# not how to answer ("reply in French", "talk to me in Spanish") nor a kind of thing ("write
# my emails in French", "translate everything").
_MAKES_A_PIECE = re.compile(
    r"^\W*(?:(?:please|pls|can\s+you|could\s+you|would\s+you|now|ok|okay|also|and|so|just|"
    r"help\s+me(?:\s+to)?)\s+)*"
    r"(?:translate|write|draft|compose|rewrite|format|put|turn|convert|proofread|edit|redo|"
    r"prepare|do|make)\b(?!\s+(?:to\s+me|me\b|all\b|every|everything|anything|my\s+[\w-]+s\b))",
    re.IGNORECASE,
)
# The speaker's taste or rule said of the thing, not with "I": "Jazz is my music", "Nordic noir
# is my thing", "early appointments suit me best", "dorms are fine by me", "my workouts should
# be high intensity".
MINE_SAID_OF_IT = re.compile(
    r"\b(?:is|are|['’]s|['’]re)\s+(?:\w+\s+)?my\s+(?:thing|music|jam|go-to|favou?rite|kind\s+of|"
    r"style|genre|drink|food|sport|vibe|comfort|happy\s+place)\b|\bsuits?\s+me\b|"
    r"\b(?:fine|ok|okay|good|great|perfect)\s+(?:by|for|with)\s+me\b|\bworks?\s+(?:best\s+)?for\s+me\b|"
    r"\bmy\s+[\w-]+\s+(?:should|must|need\s+to|needs\s+to|has\s+to|have\s+to)\s+be\b",
    re.IGNORECASE,
)


# Agreeing to what was said names nothing: "That's fine by me", "sounds good for me".
_AGREEMENT = re.compile(r"^\W*(?:that|this|it|all|sounds|either|both|works)\b", re.IGNORECASE)


def mine_said_of_it(text: str) -> bool:
    """The speaker's taste or rule said of the thing (`MINE_SAID_OF_IT`), not an agreement."""
    return MINE_SAID_OF_IT.search(text) is not None and _AGREEMENT.match(text) is None


def plainly_not_a_claim(text: str) -> bool:
    """Cheap checks first: most sentences are questions, tasks or pleasantries."""
    if len(_WORD.findall(text)) < 2 or lx.PLEASANTRY.match(text):
        return True
    if (
        text.rstrip().endswith("?")
        and lx.REQUEST_OPENERS.match(text)
        and not asks_to_keep(text)
        and not format_of_one_piece(text)
    ):
        return True
    return (
        lx.TASK_OPENER.match(text) is not None
        and not lx.STANDING_INSTRUCTION.search(text)
        and not standing_directive(text)
        and not format_of_one_piece(text)
        and not MINE_SAID_OF_IT.search(text)  # "Give me noir, Nordic noir is my thing"
    )


# What makes a format one piece's: "this one", "for my neighbour", "it's for Ana".
_ONE_PIECES = re.compile(
    r"\b(?:this|that)\s+one\b|\b(?:need|get|have|want)\s+(?:this|that|it)\s+in\b|"
    rf"\bthis\s+(?:[\w-]+\s+){{0,2}}?{_PIECE}\b|"
    r"\b(?:it['’]s\s+)?for\s+(?:my|our)\s+(?:[\w-]+\s+)?"
    rf"(?:{_RELATIONS})\b|\bit['’]s\s+for\s+(?-i:[A-Z])\w+|"
    # "For the Berlin client deck only", "the recipe I'm sending my US friend".
    rf"\bfor\s+the\s+(?:[\w-]+\s+){{0,3}}?{_PIECE}s?\s+only\b|"
    rf"\bonly\s+for\s+the\s+(?:[\w-]+\s+){{0,3}}?{_PIECE}\b|"
    rf"\bthe\s+(?:[\w-]+\s+){{0,2}}?{_PIECE}\s+(?:i['’]m|i\s+am)\s+(?:sending|writing|making|"
    r"giving|preparing)\b",
    re.IGNORECASE,
)


# A kind of thing, or a habit: "I write my emails in French for my boss".
_KINDS = re.compile(
    r"\b(?:always|every|all|usually|never|whenever|my\s+(?-i:[a-z][\w-]*s))\b|"
    r"\bi\s+(?:write|send|do)\b",
    re.IGNORECASE,
)


def format_of_one_piece(text: str) -> bool:
    """ "Write the email to my boss in German", "translate this into Dutch for my neighbour":
    a task (or a piece singled out, `lexicon.ONE_OFF`) that sets its own format (a language, a
    spelling, units, a length or layout) is an exception for that piece (`FORMAT_TOPICS`)."""
    singled = _ONE_PIECES.search(text) is not None and _KINDS.search(text) is None
    one_piece = (
        lx.ONE_OFF.search(text) is not None
        or singled
        or (_MAKES_A_PIECE.match(text) is not None and not lx.STANDING_INSTRUCTION.search(text))
    )
    return one_piece and any(lx.TOPICS[name].search(text) for name in FORMAT_TOPICS)


def one_off_only(text: str) -> bool:
    """ "A one-off.", "One-time thing!": the sentence only says that what the message said
    before it happened once; it carries no claim of its own."""
    found = lx.ONE_OFF.search(text)
    if found is None:
        return False
    rest = f"{text[: found.start()]} {text[found.end() :]}"
    rest = re.sub(r"\b(?:a|an|just|it|it's|its|was|that|this|thing|really|only|totally|lol)\b",
                  " ", rest, flags=re.I)  # fmt: skip
    return len(_WORD.findall(rest)) == 0


def remember_only(text: str) -> bool:
    """ "Please remember that." carries no claim of its own."""
    rest = lx.REMEMBER_REQUEST.sub(" ", text)
    rest = re.sub(
        r"\b(?:please|pls|that|this|it|and|so|for|me|ok|okay|thanks)\b", " ", rest, flags=re.I
    )
    return len(_WORD.findall(rest)) == 0


# Last, so that what imports these names gets them guarded (permem.prefilter).
guard_patterns(globals())
