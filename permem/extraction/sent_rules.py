"""Rules for what the assistant sends the user (replies, summaries, digests, reminders),
said of the thing rather than by the user of themselves: "replies should be short", "Daily
summary at 7am please", "Could the briefing come at lunchtime instead?". Read by
`permem.extraction.cue_rules`."""

from __future__ import annotations

import re

from permem.extraction import lexicon as lx
from permem.prefilter import guard_patterns

# A rule for what the assistant sends the user, said of the thing: "replies should be short",
# "my summary should arrive at 7", "the digest needs to come before 8".
_SENT = (
    r"(?:repl(?:y|ies)|answers?|responses?|summar(?:y|ies)|digests?|reminders?|notifications?|"
    r"alerts?|briefings?|newsletters?|round-?ups?|recaps?)"
)
OUTPUT_RULE = re.compile(
    r"^\W*(?:(?:for|in)\s+this\s+(?:app|workspace|project|chat)(?:\s+only)?\s*,?\s*)?"
    rf"(?:(?:the|my|your|all|any)\s+)?(?:[\w-]+\s+)?{_SENT}\s+"
    r"(?:should|must|need\s+to|needs\s+to|have\s+to|has\s+to|ought\s+to)\b|"
    # Said bare, with a time and a please: "Daily summary at 7am please", "my digest by 8, thanks".
    rf"^\W*(?:(?:the|my|a|your)\s+)?(?:[\w-]+\s+)?{_SENT}\s+(?:at|by|before|around|after)\s+"
    r"[^.!?]{1,30}?\b(?:please|pls|plz|thanks|thank\s+you|ta)\b|"
    # Wanted at a time: "I want my news roundup at 7am", "I'd like the digest by 8".
    rf"^\W*(?:i|we)\s+(?:want|need|like|(?:'d|would)\s+(?:like|prefer)|prefer)\s+(?:my|the|our)\s+"
    rf"(?:[\w-]+\s+)?{_SENT}\s+(?:at|by|before|around|after|in\s+the)\s+",
    re.IGNORECASE,
)
# "Could the briefing come at lunchtime instead?": a change of what is sent, asked.
ASKED_OUTPUT = re.compile(
    r"^\W*(?:(?:and|so|ok|hey|actually|also)\W+)?(?:(?:in|on|for)\s+(?:this|the)\s+\w+\W+|here\W+)?"
    rf"(?:can|could|would|will)\s+(?:the|my|your)\s+(?:[\w-]+\s+)?{_SENT}\s+(?:come|arrive|"
    r"land|go\s+out|be\s+sent|be\s+moved|move)\b[^?]*\b(?:instead|from\s+now\s+on|going\s+"
    r"forward|every\s+day|daily|each\s+day)\b",
    re.IGNORECASE,
)


# "Can you answer in German from now on?": a standing instruction asked as a question.
_ASKED_ASSISTANT = re.compile(
    r"^\s*(?:(?:and|so|also|ok|okay|hey)[\s,]+)?(?:can|could|would|will)\s+you\s+(?:please\s+)?",
    re.IGNORECASE,
)


def asks_to_keep(text: str) -> bool:
    """A polite question that asks the assistant to do something from now on."""
    return (
        _ASKED_ASSISTANT.match(text) is not None
        and lx.STANDING_INSTRUCTION.search(text) is not None
    ) or ASKED_OUTPUT.match(text) is not None


__all__ = ["ASKED_OUTPUT", "OUTPUT_RULE", "asks_to_keep", "scheduled_delivery"]

# What the assistant sends on a schedule, and a time of day to send it at: "Give me the market
# update at 9", "Could my daily digest arrive at noon?", "I want my horoscope at breakfast",
# "Make the news briefing 8 instead". Not one occasion ("the summary at 9 tonight").
_DELIVERABLE = re.compile(
    rf"\b(?:{_SENT}|brief|updates?|reports?|forecast|weather|news|horoscope|check-?ins?|agenda|"
    r"reading\s+list|word\s+of\s+the\s+day|quote\s+of\s+the\s+day)\b",
    re.IGNORECASE,
)
_SEND_TIME = re.compile(
    r"\b(?:at|around|by|for)\s+(?:\d{1,2}(?::\d{2})?(?:\s*(?:am|pm|h))?|noon|midday|midnight|"
    r"breakfast|lunch(?:time)?|dinner(?:time)?|bedtime)\b|\b\d{1,2}(?::\d{2})?\s*(?:am|pm)\b|"
    r"\bfirst\s+thing\b|\b(?:every|each)\s+(?:\w+\s+)?(?:morning|evening|night|day)\b|"
    r"\b\w+days?\s+(?:mornings|evenings|nights)\b|"
    r"\b(?:make|move|set|put|switch)\s+(?:the|my)\s+(?:\w+\s+){1,2}\d{1,2}\b",
    re.IGNORECASE,
)
_ONE_OCCASION = re.compile(
    r"\b(?:tonight|today|tomorrow|this\s+(?:morning|afternoon|evening)|now(?!\s+on\b)|right\s+away|asap|"
    r"in\s+(?:an?|\d+)\s+(?:minutes?|hours?)|just\s+this\s+once|this\s+once)\b",
    re.IGNORECASE,
)


# What the user themselves will do or owe: "I'll send the report at 5pm".
_USER_DOES = re.compile(
    r"\b(?:i|we)\s*(?:['’]ll|will|['’]m\s+going\s+to|have\s+to|need\s+to|must|owe)\b",
    re.IGNORECASE,
)


def scheduled_delivery(text: str) -> bool:
    """The sentence sets when something the assistant sends arrives (`_DELIVERABLE` at
    `_SEND_TIME`), not on one occasion and not as what the user will do: a standing
    arrangement, asked for or stated."""
    return (
        _DELIVERABLE.search(text) is not None
        and _SEND_TIME.search(text) is not None
        and _ONE_OCCASION.search(text) is None
        and _USER_DOES.search(text) is None
        and _WONDERS.match(text) is None
    )


# A question that wonders rather than asks for something: "What's the weather at 3pm?".
_WONDERS = re.compile(
    r"^\W*(?:what|what['’]s|whats|how|when|where|why|who|which|is|are|will|does|do|did)\b",
    re.IGNORECASE,
)


# Last, so that what imports these names gets them guarded (permem.prefilter).
guard_patterns(globals())
