"""The pieces `permem.extraction.quoted` finds quoted text with: the `QuotedSpan` it returns,
the line, fence, marker, speaker and quotation-mark patterns, and the tests of a candidate
span: whether a sentence leads in to shown text (`is_lead_in`), whether quoted words were
pasted rather than a scare quote (`_pasted`) or a title (`_title`); and `_merge`, which
joins overlapping spans. Re-exported by `permem.extraction.quoted` where public.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from permem.extraction import lexicon as lx
from permem.prefilter import guard_patterns


@dataclass(frozen=True, slots=True)
class QuotedSpan:
    """Characters `start:end` of a message are someone else's text, found as `form`."""

    start: int
    end: int
    form: str


_Line = tuple[int, int]  # start, end (without the line break)

_FENCE_OPEN = re.compile(r"[ \t]{0,3}(?P<fence>`{3,}|~{3,})")
_QUOTE_MARKERS = re.compile(r"[ \t]{0,3}>[ \t>]*")
_INDENTED = re.compile(r"(?: {4}|\t)[ \t]*(?P<body>\S)")
_LIST_ITEM = re.compile(r"[ \t]*(?:[-*+•]|\d{1,3}[.)])[ \t]")
_SPEAKER_LINE = re.compile(
    r"[ \t]*(?P<stamp>\[[^\]\n]{1,30}\][ \t]*|\(?\d{1,2}:\d{2}(?::\d{2})?[ \t]*"
    r"(?:[ap]\.?m\.?)?\)?[ \t]*(?:-[ \t]*)?)?"
    r"(?P<speaker><[^>\n]{1,30}>|[A-Z][\w.'’-]{0,20}(?:[ \t][A-Z][\w.'’-]{0,20}){0,2})"
    r"[ \t]*:[ \t]+\S"
)
_WORDS = re.compile(r"\w+(?:['’]\w+)*")
_SENTENCE_INSIDE = re.compile(r"[.!?…]+[\"'”’)]*\s+\S")
_SENTENCE_END = re.compile(r"[.!?…]+[\"'”’)]*\s*$")
_LEAD_IN_REACH = 300
# Quotation marks that open, with the marks that may close them.
_CLOSERS = {'"': '"', "“": "”", "„": "“”", "«": "»", "‘": "’", "'": "'", "‹": "›"}  # noqa: RUF001
# A leading apostrophe that elides letters ("'bout", "'em", "'cause") opens no quotation.
_ELISION = re.compile(
    r"'(?:bout|em|cause|cos|coz|til|till|tis|twas|n|round|cept|kay|sup|nuff|ya|s)\b", re.I
)
_SHOWN = "`~>" + "".join(_CLOSERS)
_OPEN_AFTER = " \t\n([{:—–-/>“‘«„"  # noqa: RUF001


def _lines(text: str) -> list[_Line]:
    found: list[_Line] = []
    start = 0
    for piece in text.split("\n"):
        found.append((start, start + len(piece)))
        start += len(piece) + 1
    return found


def _blank(text: str, line: _Line) -> bool:
    return not text[line[0] : line[1]].strip()


def is_lead_in(lead: str) -> bool:
    """The sentence says that text follows: a task asked on a document, a presentation of
    one, or who produced it."""
    if not lead:
        return False
    for request in lx.REQUEST_CLAUSE.finditer(lead):
        task = lx.TEXT_TASK.match(lead, request.end())
        if task is not None and lx.DOCUMENT_NOUN.search(lead, task.end()):
            return True
    presenting = lx.PRESENTING.search(lead)
    if presenting is not None and lx.DOCUMENT_NOUN.search(lead, presenting.end()):
        return True
    return lx.RECEIVED_FROM.search(lead) is not None and bool(
        re.search(r"\b(?:what|this|the following|here'?s|below)\b", lead, re.I)
        or re.search(r"\b(?:wrote|sent|posted)\s*$", lead, re.I)
    )


def _pasted(body: str) -> bool:
    """Quoted text long enough to be pasted, rather than a scare quote or a title."""
    words = _WORDS.findall(body)
    if not words:
        return False
    stripped = body.strip()
    if "\n" in stripped or _SENTENCE_INSIDE.search(stripped):
        return True
    if _title(words):
        return False
    if _SENTENCE_END.search(stripped) and stripped[0].isupper():
        return len(words) >= 3  # a whole sentence, not a phrase ("'being a man.'")
    return len(words) >= 6


_TITLE_SMALL_WORDS = frozenset(
    "a an the of on in at to for and or but nor with from by as is vs de la le el".split()
)


def _title(words: list[str]) -> bool:
    """ "The Great Gatsby", "Portrait of a Lady on Fire": every word but the small ones is
    capitalised (a title names a work; it is not pasted text)."""
    return all(w[0].isupper() or w.lower() in _TITLE_SMALL_WORDS for w in words) and any(
        w[0].isupper() for w in words
    )


def _merge(spans: list[QuotedSpan]) -> list[QuotedSpan]:
    merged: list[QuotedSpan] = []
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        if merged and span.start <= merged[-1].end:
            last = merged[-1]
            if span.end > last.end:
                merged[-1] = QuotedSpan(last.start, span.end, last.form)
            continue
        merged.append(span)
    return merged


# Last, so that what imports these names gets them guarded (permem.prefilter).
guard_patterns(globals())
