"""A return to what held before a change, said in a sentence ("Same laptop as before now",
"Went back to Windows", "Back on the train since Monday"): read by `permem.extraction.modality`
(which re-exports `returns`) and acted on at load by `permem.reinstatement`."""

from __future__ import annotations

import re

from permem.prefilter import guard_patterns

_NOT_RETURNED = (
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|january|february|"
    r"march|april|may|june|july|august|september|october|november|december|next|this|work|"
    r"school|normal|you|it|that|them|this|bed|sleep)"
)
# A return to what held before a change ("Same laptop as before now", "back on my old
# ThinkPad", "I'm cycling to work again", "went back to my old job"): what it names is what
# holds again, so it takes none of that back; it ends the change that had replaced it
# (`permem.reinstatement`). Not a thing given back ("the Tesla went back to the dealer").
RETURN = re.compile(
    r"\b(?:as|like)\s+before\b|\bsame\s+(?:[\w-]+\s+){1,2}as\s+before\b|"
    r"\bback\s+(?:on|to|with|in)\s+(?:my|the|our)\s+(?:old|previous|former|usual|original)\b|"
    r"\b(?:i|we)\s+(?:went|have\s+gone|'ve\s+gone)\s+back\s+to\s+(?:my|the|our)\b|"
    r"\b(?:my|the|our)\s+(?:old|previous|former|usual|original)\s+(?:[\w-]+\s+){1,2}again\b|"
    r"\bagain\b(?=\s*(?:[,.;!)]|$|now\b|too\b))|"
    # Said without "I": "Went back to Windows", "switched back to the Pixel", "Back on the train
    # since Monday", "same ride as I used to do"; not a day ("back on the 22nd", "back by
    # Monday") nor work or school after a leave.
    r"(?:^\W*|\b(?:i|we)\s+(?:just\s+|have\s+|'ve\s+)?)(?:went|gone|switched|moved|changed)\s+back\s+to\b"
    rf"(?!\s+(?:the\s+|my\s+)?{_NOT_RETURNED}\b)|"
    r"^\W*(?:(?:i['’]m|i\s+am|we['’]re|so|and|now|but)\s+){0,2}back\s+(?:on|to|with)\s+"
    rf"(?!(?:the\s+|my\s+|our\s+)?(?:\d|\w+(?:st|nd|rd|th)\b|{_NOT_RETURNED}\b))\w|"
    r"\bsame\s+(?:[\w-]+\s+){1,2}as\s+(?:i|we)\s+used\s+to\b",
    re.IGNORECASE,
)


# "Not starting again", "never again": no return.
_NOT_AGAIN = re.compile(
    r"\b(?:not|never|no|won['’]t|don['’]t|isn['’]t)\b[^.!?,;]{0,25}\bagain\b", re.IGNORECASE
)


def returns(text: str) -> bool:
    """The sentence says a state held before a change holds again (`RETURN`); not a question,
    not a denial ("not starting again")."""
    return (
        RETURN.search(text) is not None
        and not text.rstrip().endswith("?")
        and _NOT_AGAIN.search(text) is None
    )


# Last, so that what imports these names gets them guarded (permem.prefilter).
guard_patterns(globals())
