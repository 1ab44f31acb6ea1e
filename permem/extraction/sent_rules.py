"""Rules for what the assistant sends the user (replies, summaries, digests, reminders),
said of the thing rather than by the user of themselves: "replies should be short", "Daily
summary at 7am please", "Could the briefing come at lunchtime instead?". Read by
`permem.extraction.cue_rules`."""

from __future__ import annotations

import re

from permem.extraction import lexicon as lx
from permem.extraction.prefilter import guard_patterns

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


__all__ = ["ASKED_OUTPUT", "OUTPUT_RULE", "asks_to_keep"]

# Last, so that what imports these names gets them guarded (permem.extraction.prefilter).
guard_patterns(globals())
