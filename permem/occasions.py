"""A claim about one occasion holds for that occasion, whatever words name the days.

"I've got my friend's labrador over the weekend of the 18th", "looking after a dog on March 7th
and 8th", "no cleaner this week, so I'm home on Wednesday morning", "a thunderstorm in the
morning, so I'll take the bus": each says how one stretch of days will go, not how the user
lives. `occasion` finds the days such a sentence names (`permem.request_time.periods`, the same
reading of days that recall gives a request) and bounds the claim to them, unless the sentence
says the thing recurs, starts a lasting change, or reports the past:

- **recurs**: a word of frequency or habit ("every", "weekly", "usually", "these days",
  "Saturdays", "mornings"), a date kept every year (a birthday, an anniversary), or, for a bare
  weekday or a day of the month, a main verb in the simple present other than "be" ("Milo has
  swimming on Wednesday", "wages arrive on the 15th"): a schedule, not an occasion;
- **a lasting change**: "from the 20th", "starting Monday", "I start the new job tomorrow";
- **the past**: "got the keys on Monday", "moved in on the 1st", and the period so far ("my
  resting heart rate has been 58 this week").

A bare weekday or a day of the month with no habit verb only counts when the parse of the claim
is at hand to tell the verb; without it only words that point at one period count ("this
week", "tomorrow", "the weekend of the 18th", a month and a day).
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta

from spacy.tokens import Doc

from permem.bounds import _count, _part_day
from permem.extraction.lexicon_time import STILL_SO
from permem.prefilter import guard_patterns
from permem.request_time import periods
from permem.temporal import _end_of, _midnight_after, _month_span, _month_start, _start_of
from permem.temporal_phrases import (
    _HABITUAL,
    _IN_MONTH,
    _LASTING_CHANGE,
    _MONTH_RE,
    _NEXT,
    _THIS_SPAN,
    _TOLD_AFTER,
    MONTH_PART,
)

# Habit and frequency beyond `_HABITUAL`'s ("every", "usually", "Saturdays"), and dates kept
# every year or month.
_RECURS = re.compile(
    r"\b(?:often|weekly|daily|nightly|monthly|fortnightly|yearly|annually|"
    r"per\s+(?:day|week|month|year)|a\s+(?:day|week|month|year)\b|these\s+days|nowadays|"
    r"most\s+(?:days|weeks|nights|mornings)|mornings|afternoons|evenings|nights|weekends|"
    r"birthday|anniversary|payday|rent|wages|salary|paid)\b",
    re.IGNORECASE,
)
# One time of day set against another with no day named: "the summary at 9pm rather than the
# morning", "send it at 9pm, not 7am": the usual time changes, no occasion of today's.
_TIME_SWAP = re.compile(
    r"\b(?:rather\s+than|instead\s+of|not|over)\s+(?:the\s+|at\s+)?(?:morning|afternoon|evening|"
    r"night|lunch(?:time)?|breakfast|bedtime|\d{1,2}(?::\d\d)?\s*(?:am|pm|h)\b|\d{1,2}:\d\d)",
    re.IGNORECASE,
)
_NAMES_A_DAY = re.compile(
    r"\b(?:today|tonight|tomorrow|\w+day|\d{1,2}(?:st|nd|rd|th)|the\s+\d|"
    rf"{_MONTH_RE})\b",
    re.IGNORECASE,
)
# A start that lasts: "from June 22nd", "starting next week", "as of Monday", "from then on".
_OPEN_START = re.compile(
    r"\b(?:as\s+of|starting|beginning|effective|onwards?|from\s+(?:then|now)\s+on|"
    r"from\s+(?:the\s+|next\s+|this\s+)?(?:\d|mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|"
    r"jun|jul|aug|sep|oct|nov|dec|tomorrow|today)(?![\w.]*(?:\s+\w+)?\s+(?:to|till|until|"
    r"through|thru|-|–)\s)|"
    # "from next month on", "after next week", "from this week": what starts then lasts,
    # unless the sentence names where it ends ("from this week to the 30th").
    r"(?:from|after)\s+(?:next|this)\s+(?:week|weekend|month|year|term|semester|season)\b"
    r"(?!(?:\s+\w+)?\s+(?:to|till|until|through|thru|-|–)\s))",
    re.IGNORECASE,
)
# How often within the days a sentence names: "walks twice a day", "a long walk each morning".
_WITHIN_DAYS = re.compile(
    r"\b(?:(?:once|twice|\w+\s+times)\s+)?(?:a|per)\s+day\b|"
    r"\beach\s+(?:day|morning|afternoon|evening|night)\b",
    re.IGNORECASE,
)
# Words that point at one period by themselves.
_DEICTIC = re.compile(
    r"\b(?:today|tonight|tomorrow|this\s+(?:week|weekend|morning|afternoon|evening)|"
    r"next\s+(?:week|weekend)|(?:this|next|coming)\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day|"
    r"weekend\s+of|(?:for|over|during|across)\s+the\s+(?:long\s+)?weekend|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*\.?\s+"
    r"\d{1,2}(?:st|nd|rd|th)?\b|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|"
    r"jul|aug|sep|oct|nov|dec)\w*)",
    re.IGNORECASE,
)


def habit_verb(doc: Doc) -> bool:
    """The claim's main verbs include one in the simple present other than "be" ("has
    swimming", "arrive on the 15th"): it tells a schedule. Only the main clause counts (the
    root and the verbs joined to it): in "on Sunday I'll eat whatever she cooks" the present of
    the relative clause says nothing of when the eating recurs."""
    return any(
        t.tag_ in ("VBZ", "VBP")
        and t.lemma_ != "be"
        and (t.dep_ == "ROOT" or (t.dep_ == "conj" and t.head.dep_ == "ROOT"))
        for t in doc
    )


_PAST_AUX = frozenset({"had", "was", "were", "got"})
# A report of the period so far: "my resting heart rate has been 58 this week".
_PERFECT = re.compile(r"\b(?:has|have|'ve|'s)\s+been\b", re.IGNORECASE)
_AGO = re.compile(r"\b(?:ago|yesterday|last\s+(?:night|week|weekend|month|year))\b", re.I)


def _past(text: str, doc: Doc | None) -> bool:
    """The claim reports the past: its main verb is in the past tense, or a participle with a
    past auxiliary ("was moved", not "walks needed"), by the parse when at hand, by words
    otherwise."""
    if doc is None:
        return _TOLD_AFTER.search(text) is not None
    if _AGO.search(text) or _PERFECT.search(text):
        return True
    return any(
        t.dep_ == "ROOT"
        and (
            t.tag_ == "VBD"
            or (t.tag_ == "VBN" and any(c.dep_ in ("aux", "auxpass") and c.lower_ in _PAST_AUX
                                        for c in t.children))
        )
        for t in doc
    )  # fmt: skip


def occasion(
    text: str, ts: datetime, *, doc: Doc | None = None
) -> tuple[datetime, datetime] | None:
    """The local [start, end) of the occasion `text`, said at `ts`, is about, if it names one
    (see the module docstring); None for a schedule, a change that lasts, the past, or no day."""
    # "three walks a day", "a long walk each morning": a frequency within the days named.
    said = _WITHIN_DAYS.sub(" ", text)
    if any(p.search(said) for p in (_HABITUAL, _RECURS, _LASTING_CHANGE, _OPEN_START)):
        return None
    if _TIME_SWAP.search(said) and not _NAMES_A_DAY.search(said):
        return None
    if _past(text, doc):
        return None
    pointed = _DEICTIC.search(text) is not None
    if not pointed and (doc is None or habit_verb(doc)):
        return None
    named = periods(text, ts)
    if not named:
        return None
    first: date = min(days[0] for days in named)
    last: date = max(days[1] for days in named)
    start = max(ts, datetime.combine(first, time(0), tzinfo=ts.tzinfo))
    return start, datetime.combine(last + timedelta(days=1), time(0), tzinfo=ts.tzinfo)


def next_period(text: str, ts: datetime) -> tuple[datetime, datetime] | None:
    """The whole next week, month or year a state is planned for ("next month I'm looking
    after my aunt's house in Perth"), or the month it names ("in August I'm staying in
    Lisbon"), as local [start, end); None when the text tells a lasting
    change ("from next month I live in Perth", "I'm moving next month") or a habit."""
    if any(p.search(text) for p in (_HABITUAL, _RECURS, _LASTING_CHANGE, _OPEN_START)):
        return None
    found = _NEXT.search(text)
    unit = (found.group("unit") or "").lower() if found else ""
    if found is None or unit not in ("week", "month", "year"):
        # Or a month named with "in" or "during": "In August I'm staying in Lisbon".
        month = _IN_MONTH.search(text)
        if month is None:
            return None
        opens, closes = _month_span(_month_start(month.group("month"), ts.date(), after=False), ts)
        return (max(opens, ts), closes) if closes > ts else None
    start = _start_of(found, ts)
    if start is None:
        return None
    end = _end_of(unit, start.date())
    return start, datetime.combine(end + timedelta(days=1), time(0), tzinfo=ts.tzinfo)


# A stand-in used while the usual thing is away: "a loaner iPhone", "my sister's old phone
# until mine is back", "while the Pixel is at the repair shop". It lasts until the thing is
# back, a day nobody named: a repair's usual length (`MAKESHIFT_DAYS`), or the days said
# ("should be back in ten days").
_MAKESHIFT = re.compile(
    r"\b(?:loaner|on\s+loan|stopgap|stand-in|makeshift|in\s+for\s+(?:a\s+)?repairs?|"
    r"at\s+the\s+repair\s+shop|being\s+(?:fixed|repaired|mended))\b|"
    # A spare or borrowed device or vehicle ("a spare iPhone", "my sister's borrowed bike"),
    # not a spare room or a backup plan.
    r"\b(?:borrowed|borrowing|spare|backup|back-up|temporary|temp|replacement)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:phone|mobile|iphone|android|pixel|galaxy|samsung|laptop|macbook|computer|pc|tablet|ipad|"
    r"kindle|e-reader|device|handset|car|bike|scooter|van|one)\b|"
    r"\b(?:until|till|til|while|whilst)\s+(?:it|mine|my\s+[\w-]+|the\s+[\w-]+|ours|our\s+[\w-]+)"
    r"(?:['’]s|\s+is|\s+gets|\s+comes|\s+has\s+been)\s+(?:back|fixed|repaired|mended|sorted|"
    r"replaced|being\s+(?:fixed|repaired|mended)|in\s+for\s+repairs?|at\s+the\s+(?:repair\s+)?shop)|"
    r"\bwhile\s+(?:it|mine|my\s+[\w-]+|the\s+[\w-]+)\s+(?:is\s+|gets\s+)?(?:fixed|repaired|mended)\b",
    re.IGNORECASE,
)
_BACK_IN = re.compile(
    r"\bback\s+in\s+(?:about\s+|around\s+)?(?P<n>\d+|a|an|one|two|three|four|five|six|seven|eight|"
    r"nine|ten|a\s+couple\s+of|a\s+few)\s+(?P<unit>day|week)s?\b",
    re.IGNORECASE,
)
MAKESHIFT_DAYS = 14
# A device in use for now, or until something happens: "I'm on my partner's old iPhone until
# the repair shop calls", "using a cheap burner for now until the insurance pays out".
_DEVICE = (
    r"(?:phone|mobile|iphone|android|pixel|galaxy|samsung|nokia|motorola|xiaomi|burner|laptop|"
    r"macbook|computer|pc|tablet|ipad|kindle|e-reader|device|handset|car|bike|scooter|van)"
)
_FOR_NOW = re.compile(
    rf"\b(?:using|on|borrowing|with|got|have)\s+(?:[\w'’-]+\s+){{0,3}}?{_DEVICE}s?\b[^.!?]*"
    r"\b(?:for\s+now|for\s+the\s+time\s+being|until|till|til)\b|"
    rf"\b(?:for\s+now|for\s+the\s+time\s+being)\b[^.!?]*\b{_DEVICE}s?\b",
    re.IGNORECASE,
)


def makeshift_end(text: str, start: datetime) -> datetime | None:
    """When a stand-in the text speaks of stops being used (see `_MAKESHIFT`), counted from
    `start`; None when it speaks of none."""
    stand_in = _MAKESHIFT.search(text) is not None or _FOR_NOW.search(text) is not None
    if not stand_in or _HABITUAL.search(text) is not None:
        return None
    back = _BACK_IN.search(text)
    if back is None:
        return start + timedelta(days=MAKESHIFT_DAYS)
    n = _count(back.group("n"))
    return start + timedelta(days=n * (7 if back.group("unit").lower() == "week" else 1))


# A stretch of time something lasted: "throughout April", "all of last week", "the whole time",
# "every day", "for the first two weeks of May", "until last Tuesday".
_STRETCH = re.compile(
    rf"\b(?:throughout|all\s+(?:of\s+)?(?:last\s+|the\s+)?(?:week|month|year|summer|winter|"
    rf"spring|autumn|fall|{_MONTH_RE})|the\s+(?:whole|entire)\s+(?:time|week|month|year|summer|"
    rf"winter|spring|autumn|trip|stay)|every\s+(?:single\s+)?(?:day|morning|evening|night)|"
    r"each\s+day|for\s+(?:the\s+)?(?:first|last|past|whole|entire|full)?\s*(?:\d+|a|an|one|two|"
    r"three|four|five|six|seven|eight|nine|ten|few|couple\s+of)\s+(?:days?|weeks?|months?|"
    r"fortnights?)|(?:until|till)\s+last\s+\w+)\b",
    re.IGNORECASE,
)
# A time gone by: a month named (a past verb names the last one), "last week", "yesterday".
_GONE_BY = re.compile(
    rf"\b(?:{_MONTH_RE}|last\s+\w+|yesterday|ago|the\s+past\s+\w+)\b", re.IGNORECASE
)
# A past auxiliary or modal of the main verb: "was broken", "couldn't run", "did nothing".
_PAST_MODALS = _PAST_AUX | {"did", "could"}


def over_before_said(sentence: str, doc: Doc | None) -> bool:
    """The claim tells how things were for a stretch of time that was over when it was said
    ("Throughout April my bike was broken so I took the train every day", "last week I worked
    from home every day", "I couldn't run for the first two weeks of May"): its main verb is
    in the past (by the parse of the claim), and its sentence names a stretch (`_STRETCH`) and
    a time gone by (`_GONE_BY`), with nothing saying it still holds. It is history, not how the
    user lives now. Not a change said in the past ("I moved to Leeds in April": no stretch),
    nor what has been so for a while ("I've been vegan for six years": the present perfect)."""
    if doc is None or STILL_SO.search(sentence):
        return False
    if not (_STRETCH.search(sentence) and _GONE_BY.search(sentence)):
        return False
    return any(
        t.dep_ == "ROOT"
        and (
            t.tag_ == "VBD"
            or any(c.dep_ in ("aux", "auxpass") and c.lower_ in _PAST_MODALS for c in t.children)
        )
        for t in doc
    )


__all__ = ["habit_verb", "next_period", "occasion", "over_before_said"]


_LIVES_FROM = re.compile(
    r"\b(?:from|starting|as\s+of|after|beginning|since|once)\s+(?:the\s+)?$", re.I
)
_FOR_GOOD_HOME = re.compile(
    r"\b(?:live|living|lives|moving|move|relocat\w*|settl\w*|for\s+good|from\s+then\s+on|"
    r"permanently)\b",
    re.IGNORECASE,
)


def stay_window(text: str, ts: datetime) -> tuple[datetime, datetime] | None:
    """The stretch a stay is said for when no reader of a claim's window reads it: the next
    week, month or year (`next_period`), this one or the rest of it ("this coming weekend",
    "the rest of the month"), or a part of a month ("late June"), as local [start, end)."""
    found = next_period(text, ts)
    if found is not None:
        return found
    this = _THIS_SPAN.search(text)
    today = ts.date()
    if this is not None:
        unit = this.group("unit").lower()
        if unit != "weekend":
            return ts, _midnight_after(_end_of(unit, today), ts)
        saturday = today + timedelta(days=(5 - today.weekday()) % 7 - 7 * (today.weekday() == 6))
        start = datetime.combine(saturday, time(0), tzinfo=ts.tzinfo)
        return max(ts, start), start + timedelta(days=2)
    part = MONTH_PART.search(text)
    if part is None or _LIVES_FROM.search(text[: part.start()]) or _FOR_GOOD_HOME.search(text):
        return None  # "from mid-October I'll be living there": a move, from then on
    first_day = _month_start(part.group("month"), today, after=False)
    name = part.group("part")
    first = _part_day(name, first_day.month, first_day.year, last=False)
    last = _part_day(name, first_day.month, first_day.year, last=True)
    end = datetime.combine(last + timedelta(days=1), time(0), tzinfo=ts.tzinfo)
    return (max(ts, datetime.combine(first, time(0), tzinfo=ts.tzinfo)), end) if end > ts else None


guard_patterns(globals())
