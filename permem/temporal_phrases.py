"""The phrases of time that `permem.temporal` resolves: month, weekday, number and season
words, and the patterns of dates, spans ("until Feb 5", "for two weeks"), starts ("from
March"), single days, habits and changes that last, and the phrases that govern by reference
to a period named before (`GOVERNED`). Plain data; re-exported by `permem.temporal`.
"""

from __future__ import annotations

import calendar
import re

from permem.prefilter import guard_patterns

_MONTHS = {
    name.lower(): index
    for index in range(1, 13)
    for name in (calendar.month_name[index], calendar.month_abbr[index])
}
_MONTHS["sept"] = 9
_WEEKDAYS = {
    name.lower(): index
    for index in range(7)
    for name in (calendar.day_name[index], calendar.day_abbr[index])
}
_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "a couple of": 2, "a few": 3, "couple of": 2, "few": 3,
}  # fmt: skip
_SEASON_START = {"spring": (3, 20), "summer": (6, 21), "fall": (9, 22), "autumn": (9, 22),
                 "winter": (12, 21)}  # fmt: skip

_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))
_WEEKDAY_RE = "|".join(sorted(_WEEKDAYS, key=len, reverse=True))
_DAY_RE = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_DATE = (
    rf"(?:(?P<m1>{_MONTH_RE})\.?\s+{_DAY_RE.replace('day', 'd1')}|"
    rf"{_DAY_RE.replace('day', 'd2')}\s+(?:of\s+)?(?P<m2>{_MONTH_RE})\b|"
    rf"the\s+{_DAY_RE.replace('day', 'd3')}\b|"
    r"(?P<iso>\d{4}-\d{2}-\d{2})|"
    # "Monday the 22nd": the date decides, the weekday only confirms it.
    r"(?:next\s+)?(?P<weekday>(?:mon|tues|wednes|thurs|fri|satur|sun)day)"
    r"(?:\s+(?:the\s+)?(?P<d4>\d{1,2})(?:st|nd|rd|th)\b)?|"
    r"(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(?P<nextof>next\s+)?"
    r"(?P<endof>week|month|quarter|year)|"
    rf"(?:the\s+)?(?P<part>end|middle|mid|start|beginning)(?:\s+of|-)\s*(?P<m3>{_MONTH_RE})\b|"
    rf"(?P<part2>late|mid|early)[\s-]+(?P<m4>{_MONTH_RE})\b|"
    r"(?P<tomorrow>tomorrow)|(?P<weekend>the\s+weekend))"
)
_UNTIL = re.compile(
    rf"\b(?:until|till|til|through|thru|up\s+to|by)\s+(?:the\s+(?=\d+\w*\s+of\b))?{_DATE}",
    re.IGNORECASE,
)
_FOR = re.compile(
    r"\bfor\s+(?:the\s+next\s+|another\s+)?(?:about\s+|around\s+|roughly\s+|approximately\s+|"
    r"maybe\s+|at\s+least\s+|up\s+to\s+)?"
    r"(?P<n>\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"(?:a\s+)?couple\s+of|(?:a\s+)?few)\s+(?:more\s+|further\s+|extra\s+)?"
    r"(?P<unit>hour|day|week|fortnight|month|year)s?\b",
    re.IGNORECASE,
)
_THIS = re.compile(
    r"\b(?:this(?:\s+coming)?|the\s+coming|the\s+rest\s+of\s+the)\s+"
    r"(?P<unit>week|weekend|month|year)\b",
    re.I,
)
# "this week" as a stretch that ends (a bound), not as when a change began ("a new teacher
# from this week").
_THIS_SPAN = re.compile(
    r"(?<!\bfrom\s)(?<!\bof\s)(?<!\bstarting\s)(?<!\bsince\s)" + _THIS.pattern, re.IGNORECASE
)
_NEXT = re.compile(
    r"\b(?:(?<!\bthe\s)next\s+(?P<unit>week|month|year|spring|summer|fall|autumn|winter)|"
    r"in\s+the\s+(?P<season>spring|summer|fall|autumn|winter)|"
    rf"in\s+(?P<month>{_MONTH_RE})\b)",
    re.IGNORECASE,
)
# "until May", "till September", "back in March": a month alone ends the claim when it starts.
# A part of a month named alone: "late June", "early July", "the end of June", "mid-August".
MONTH_PART = re.compile(
    r"\b(?P<part>early|mid|late|the\s+(?:start|beginning|middle|end)\s+of)[\s-]+"
    rf"(?P<month>{_MONTH_RE})\b",
    re.IGNORECASE,
)
_UNTIL_MONTH = re.compile(
    rf"\b(?:until|till|til|up\s+to|before|back\s+(?:in|at\s+work\s+in))\s+(?:early\s+)?"
    rf"(?P<month>{_MONTH_RE})\b(?!\.?\s+\d)(?!\s+(?:the\s+)?\d)",
    re.IGNORECASE,
)
# "back at my desk on Monday", "home on the 3rd", "returning May 2nd": an absence that ends
# when that day starts.
_BACK_ON = re.compile(
    rf"\b(?:back|return(?:ing|s)?|home\s+again)\b[^.!?]{{0,30}}?\b(?:on|by)?\s*"
    # Not a start said with "since" ("back on the train since Monday").
    rf"(?:the\s+(?=\d+\w*\s+of\b))?(?<!\bsince\s)(?P<date>{_DATE})(?!s)\b",
    re.IGNORECASE,
)
# "as of the 1st of October", "starting August 1st", "from March": the claim starts then.
_FROM = re.compile(
    rf"\b(?:as\s+of|starting(?:\s+(?:on|from|in))?|from|beginning|effective|come|once|"
    # A change on a day to come: "I'm relocating there on the 1st of August", "moving to Oslo
    # in May", "I start the new job on Monday".
    rf"(?:(?:moving|relocating|starting|joining|switching|transferring|heading|leaving|"
    rf"move|relocate|start|join|switch|transfer|leave|changes?|changing|moves|switches|"
    rf"(?:i['’]m|we['’]re)\s+off\s+to)\b[^.!?,]{{0,40}}?"
    r"\b(?:on|in))|"
    # Scheduled: "I'm handing in my notice in May", "quitting in September".
    rf"(?:^\s*|\b(?:i'm|i\s+am|we're|we\s+are)\s+)[^\W\d_]+ing\b[^.!?,]{{0,40}}?\b(?:on|in|around))\s+"
    rf"(?:(?:the\s+)?(?P<date>{_DATE})|(?P<month>{_MONTH_RE})\b)",
    re.IGNORECASE,
)
# Who or what a clause of time is about: "until *the knee* heals", "while *they*'re here".
_CLAUSE_SUBJECT = (
    r"i|we|you|he|she|they|it|that|this|everything|things|i'm|we're|you're|he's|she's|they're|"
    r"it's|that's|(?:the|my|our|his|her|their|your)\s+(?:[\w'-]+\s+){0,2}?[\w'-]+(?=\s+(?:is|are|"
    r"'s|gets?|comes?|goes|ends?|heals?|finish(?:es)?|wraps?|clears?|opens?|reopens?|arrives?|"
    r"leaves?|starts?|begins?|returns?|passes|settles?|improves?|lifts?|recovers?|stays?|"
    r"was|were|has|have)\b)"
)
# Which end of the period named before a governed phrase takes: its start ("from then on",
# "as of then"), or its end as a start ("after that", "once it's over"); the rest ("until
# then", "for now", "while I'm there") end with it.
STARTS_THEN = re.compile(
    r"\bfrom\s+(?:then|that\s+(?:date|day|point|moment|time))(?:\s+on(?:wards?)?)?\b|"
    r"\b(?:as\s+of|starting|beginning)\s+then\b",
    re.IGNORECASE,
)
AFTER_THEN = re.compile(
    r"\bafter\s+(?:that|then|which|it(?:'s|\s+is)\s+(?:over|done|finished))\b|\bafterwards?\b|"
    r"\bthereafter\b|\bfrom\s+which\s+(?:point|day|date)\b|"
    r"\bonce\s+(?:that's|that\s+is|it's|it\s+is|they're|they\s+are)\s+(?:over|done|finished)\b",
    re.IGNORECASE,
)
# Said "until" the period named before, not "during" it: holds from now until it ends.
UNTIL_THEN = re.compile(
    r"\b(?:until|till|til|before|by)\s+(?!the\b)\w|\bfor\s+now\b|\bin\s+the\s+meantime\b|"
    r"\bmeanwhile\b|\bfor\s+the\s+time\s+being\b|\bin\s+the\s+interim\b",
    re.IGNORECASE,
)
# A time phrase that governs by reference to a period named before: "until then", "before
# that", "till that date", "while I'm there", "for that period", "in the meantime", "hold me
# to it" (a commitment's own period).
GOVERNED = re.compile(
    STARTS_THEN.pattern + "|" + AFTER_THEN.pattern + "|"
    r"\bonce\s+(?:i've|i\s+have|i'm|i\s+am|we've|we're|i)\s+(?:moved|settled|arrived|started|"
    r"back|there|in|relocated)\b|\bafter\s+(?:the|my|our)\s+(?:move|relocation|trip|return)\b|"
    r"\b(?:until|till|til|before|by)\s+(?:then|that(?:\s+(?:date|day|time|point))?|the\s+end\s+of\s+it)\b|"
    r"\b(?:while|whilst|as\s+long\s+as)\s+(?:i'm|i\s+am|we're|we\s+are|i'm\s+still|i\s+stay)\b|"
    r"\b(?:during|for|throughout)\s+(?:that|this|the)\s+(?:time|period|trip|stay|break|leave|"
    r"window|stretch|month|week|visit)\b|\bin\s+the\s+meantime\b|\bmeanwhile\b|"
    r"\bhold\s+me\s+to\s+(?:it|that|this)\b|"
    r"\b(?:until|till|til|before|by)\s+(?:i'm|i\s+am|i\s+get|i\s+come|we're|we\s+get|we\s+come)\s+"
    r"(?:back|home|in)\b|\b(?:until|till|til|before)\s+(?:i|we)\s+(?:return|get\s+back|come\s+back|"
    r"(?:fly|go|head|get)\s+home|leave)\b|\bfor\s+now\b|\bduring\s+my\s+(?:stay|trip|visit|leave)\b|"
    r"\bwhile\s+i'm\s+(?:here|there|away|in\s+town|on\s+\w+)\b|"
    # Structurally, whatever the words: "until" and "as long as" with a clause of their own
    # ("until the knee heals", "until they leave", "as long as it lasts"); "while" with a state
    # ("while they're here", "while the kitchen is out of action", not "while I work"); a
    # period pointed at ("during that stretch", "for those weeks", "for the duration").
    # ("until I say otherwise" is no bound at all.)
    r"\b(?:until|till|til|(?:for\s+)?(?:as|so)\s+long\s+as)\s+"
    r"(?!(?:i|we)\s+(?:say|tell|change|decide|let)\b)"
    rf"(?:{_CLAUSE_SUBJECT})\s+"
    r"(?!(?:\d|(?:the\s+)?(?:end|start|beginning|middle)\b))[a-z']+|"
    r"\b(?:while|whilst)\s+(?!(?:i'm|i\s+am|you're|we're)\s+at\s+it\b)"
    r"(?:(?:i|we|you|he|she|they|it|that|this)(?:'re|'s|'m|\s+(?:is|are|am|was|were|stay|stays|"
    r"remain|remains)\b)|(?:the|my|our|his|her|their|your)\s+(?:[\w'-]+\s+){0,2}?[\w'-]+\s+"
    r"(?:is|are|was|were|stays?|remains?)\b)|"
    r"\b(?:during|throughout)\s+(?:that|those|these|it)\b|"
    r"\b(?:for|over|through|across|in)\s+(?:that|those|these)\s+(?:[\w'-]+\s+)?(?:time|period|"
    r"days?|weeks?|months?|stretch|spell|phase|window|stint|trip|stay|visit|break|leave|while|"
    r"fortnight)\b|\bfor\s+the\s+(?:duration|time\s+being)\b|\bin\s+the\s+interim\b",
    re.IGNORECASE,
)
_ALREADY = re.compile(
    r"\bfor\s+(?:the\s+)?(?:past|last)\b|\b(?:have|has|'ve|'s)\s+been\b|\bhaven't\b|"
    r"\b(?:years?|months?|weeks?|days?)\s+(?:now|already|so\s+far|and\s+counting)\b",
    re.IGNORECASE,
)
# One day a claim holds for: "the day after tomorrow", "a week from tomorrow", "on the 20th",
# "this Friday", "on 2026-04-02", "tomorrow". Not a habit ("every Friday", "on Fridays").
_ONE_DAY = re.compile(
    r"\b(?:(?P<after>the\s+day\s+after\s+tomorrow)|(?P<weeks>a|one|two)\s+weeks?\s+from\s+"
    r"(?P<base>tomorrow|today|now)|(?P<tomorrow>tomorrow)|"
    r"(?:on|this|next|coming|this\s+coming)\s+(?P<weekday>(?:mon|tues|wednes|thurs|fri|satur|sun)day)"
    r"(?!s)|on\s+(?:the\s+)?(?P<date>\d{1,2}(?:st|nd|rd|th)?(?:\s+(?:of\s+)?"
    rf"(?:{_MONTH_RE}))?|(?:{_MONTH_RE})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?|\d{{4}}-\d{{2}}-\d{{2}})\b|"
    r"(?P<iso>\d{4}-\d{2}-\d{2})|"
    # A weekday with a part of it: "a thunderstorm Monday morning", "Friday night".
    r"(?P<dayof>(?:mon|tues|wednes|thurs|fri|satur|sun)day)\s+(?:morning|afternoon|evening|"
    r"night|lunchtime)\b(?!s))",
    re.IGNORECASE,
)
# The whole of one month: "all of next month", "the whole of March", "throughout May".
_ONE_MONTH = re.compile(
    r"\b(?:all\s+(?:of\s+)?|the\s+whole\s+of\s+|throughout\s+|for\s+the\s+whole\s+of\s+|"
    # "all through July", "the whole month of July".
    r"(?:all|right)\s+through\s+|the\s+whole\s+month\s+of\s+|"
    # "spending August at my in-laws'", "spending all of next month in Perth".
    r"spending\s+(?:all\s+(?:of\s+)?|the\s+whole\s+of\s+)?|"
    # "vegan for January", "during March", "a dry January", "sober October".
    r"for\s+(?:the\s+month\s+of\s+)?|during\s+|(?:a\s+)?(?:dry|sober|plastic[\s-]free)\s+|"
    # "for most of August", "the bulk of next month": read as the month.
    r"(?:for\s+)?(?:most|much|the\s+bulk|the\s+best\s+part|the\s+better\s+part)\s+of\s+)"
    rf"(?:(?P<next>next\s+month)|(?P<month>{_MONTH_RE})\b(?!\.?\s*\d)(?!\s+(?:the\s+)?\d))",
    re.IGNORECASE,
)
# Weeks at one end of a month: "the first two weeks of July", "the last week of May".
# Halves and fortnights too: "the first half of August" (the 1st to the 15th), "the second
# half of May" (the 16th to its end), "the last fortnight of June".
_WEEKS_OF = re.compile(
    r"\bthe\s+(?P<end>first|last|second)\s+(?:(?P<n>two|three|2|3)\s+weeks|week|"
    r"(?P<part>half|fortnight))\s+of\s+"
    rf"(?:(?P<month>{_MONTH_RE})|(?P<which>next|this)\s+month)\b",
    re.IGNORECASE,
)
# Months named by both ends without a preposition: "July and August", "June through August",
# "over the summer holidays, July and August" (from the first's 1st to the end of the last).
_MONTHS_SPAN = re.compile(
    rf"\b(?P<m1>{_MONTH_RE})\s+(?:and|to|through|thru|till|until|-|–)\s+(?P<m2>{_MONTH_RE})\b"
    r"(?!\.?\s*\d)",
    re.IGNORECASE,
)
# A length from a day: "for two weeks starting Monday", "for ten days from the 3rd", "for a
# week from Friday".
# Or the length said of what it measures: "a month-long residency starting March 1", "a
# two-week course from the 9th", "a 10-day trip from Monday".
_LENGTH_FROM = re.compile(
    r"(?:\bfor\s+(?P<n>a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+couple\s+of|"
    r"a\s+few|\d{1,2})\s+(?P<unit>days?|nights?|weeks?)|"
    r"\b(?:(?P<n2>one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2})[-\s](?P<unit2>day|night|"
    r"week|month)(?:[-\s]long)?|(?P<unit3>day|week|month)-long)\b(?!\s+(?:weeks?|weekends?|months?|shifts?|rotas?|working)\b)(?:\s+[\w'-]+){0,5}?)\s+"
    r"(?:starting|from|beginning|as\s+of)\s+"
    r"(?:on\s+)?(?P<day>[^,.;!?]{2,30}?)(?=\s*(?:[,.;!?]|$)|\s+(?:i|i'm|i'll|we|we're|so|and|but|"
    r"while|at|in)\b)",
    re.IGNORECASE,
)
# A month said with "in" names that month as a period: "my exams are in June".
_IN_MONTH = re.compile(
    rf"\b(?:in|during|over)\s+(?P<month>{_MONTH_RE})\b(?!\.?\s+\d)", re.IGNORECASE
)
# A span named by both its ends: "from Friday the 12th till Thursday the 25th", "between
# June 3 and June 9", "from the 10th to the 24th". Each end is read by `_parse_day`.
_RANGE = re.compile(
    r"\b(?:from|between)\s+(?P<a>[^,.;!?]{1,40}?)\s+(?:till|until|til|to|through|thru|and)\s+"
    r"(?P<b>[^,.;!?]{2,40}?)(?=\s*(?:[,.;!?]|$)|\s+(?:i|i'm|i'll|we|we're|we'll|so|and|but|"
    r"while|when|at|in|for)\b)",
    re.IGNORECASE,
)
# Ends that are no days: two bare numbers ("from 9 to 5", "between 10 and 12") or a clock
# time ("from 3 to 4 pm"); a day needs its month or an ordinal ("from 1 to 14 July").
_NOT_DAYS = re.compile(
    r"^\s*\d{1,2}\s*\|\s*\d{1,2}\s*$|\d\s*(?:am|pm|a\.m\.|p\.m\.|h|o'clock)\b|\d:\d",
    re.IGNORECASE,
)
# A count of days or weeks before "from": "a week from tomorrow" is one day; "a four-day week
# from 10 September" is no count, and starts then.
_COUNTED_BEFORE = re.compile(
    # Not a frequency: "three days a week from September" starts then.
    r"(?<!days\s)(?<!times\s)(?<!nights\s)\b(?:an?|one|two|three|four|five|six|seven|eight|nine|"
    r"ten|\d+)\s+(?:weeks?|days?)\s+$",
    re.IGNORECASE,
)
_MONTH_OF_END = re.compile(rf"\b(?:{_MONTH_RE})\b", re.IGNORECASE)
_WEEKDAY_BEFORE_DATE = re.compile(
    r"^(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)"
    r"\.?,?\s+(?:the\s+)?(?=\d)",
    re.IGNORECASE,
)
_BARE_WEEKDAY = re.compile(r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?", re.IGNORECASE)
# Where one works, a run of weekdays: "in the office Tuesday to Thursday", "back at HQ Monday to
# Friday" is every week ("I'm away Tuesday to Thursday" is one stretch).
_WEEKLY = (
    r"\b(?:office|hq|headquarters|on[\s-]?site|at\s+work|shifts?|school|campus)\s+"
    r"(?:\w+\s+){0,2}?(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+(?:to|through|thru|till|"
    r"until|-|–)\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day"
)
_HABITUAL = re.compile(
    r"\b(?:every|each|always|usually|normally|typically|generally|whenever|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days|"
    # "on Tuesday evenings", "Friday nights": a part of a weekday, said in the plural.
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+(?:mornings|afternoons|evenings|nights|"
    rf"lunchtimes)|{_WEEKLY}"
    r")\b",
    re.IGNORECASE,
)
WEEKLY_RUN = re.compile(_WEEKLY, re.IGNORECASE)
# A change that lasts past the day it happens on ("I start the new job tomorrow").
# A change said to last: the span it names is when it starts ("Beginning the first week of May
# I'm on nights permanently").
FOR_GOOD = re.compile(
    r"\b(?:permanently|for\s+good|for\s+the\s+foreseeable(?:\s+future)?|"
    r"indefinitely|from\s+then\s+on|onwards?)\b",
    re.IGNORECASE,
)
_LASTING_CHANGE = re.compile(
    r"\b(?:start|starts|starting|begin|begins|beginning|join|joins|joining|move|moves|moving|"
    r"switch|switches|switching|relocat\w+|transfer\w*|from\s+then\s+on|onwards?|"
    r"(?:changes?|changing)\s+(?:over\s+)?to)\b",
    re.IGNORECASE,
)
# An instruction holds for one day only when it keeps that day free of something ("no calls
# on the 20th", "keep tomorrow clear"); "pay the rent on the 1st" recurs.
KEEPS_A_DAY_FREE = re.compile(
    r"\b(?:no|not|don't|do\s+not|never|nothing|block|avoid|without|decline|cancel|off|free|"
    r"clear|out)\b",
    re.IGNORECASE,
)
# A claim that points at a day named before it: "so no meetings that day", "I'm out the whole
# day" (after "the day after tomorrow is my sister's wedding").
POINTS_TO_DAY = re.compile(
    r"\b(?:that|the\s+whole|all|on\s+the)\s+day\b|\bthat\s+(?:date|night|evening)\b",
    re.IGNORECASE,
)


# Said of the past or of now: "got the keys on Monday", "I live there now".
_TOLD_AFTER = re.compile(
    # "I've got jury duty on Wednesday" is a day to come; "got the keys on Monday" is past.
    r"\b(?:now|(?<!'ve\s)(?<!have\s)got|was|were|did|had|went|moved|bought|came|ago|last|"
    r"yesterday|already|"
    # Not a passive to come: "the ferry is cancelled on Friday".
    r"(?<!\bis\s)(?<!\bare\s)(?<!\bbe\s)(?<!'s\s)(?<!\bgets\s)[a-z]{3,}ed)\b",
    re.IGNORECASE,
)


def _with_month(first: str, last: str) -> str:
    """The first end of a span, with the month the last end names when it names none itself:
    "between 5 and 19 August" starts on 5 August."""
    month = _MONTH_OF_END.search(last)
    bare = re.fullmatch(r"(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?", first.strip(), re.IGNORECASE)
    return f"{first} {month.group()}" if bare and month else first


# A second day joined to the one just read: "Saturday and Sunday", "the 6th and 7th", "Friday to
# Sunday": the days are a stretch, no single day (`temporal.single_day`).
SECOND_DAY = re.compile(
    r"\s*(?:and|to|till|until|through|thru|-|–|&)\s+(?:the\s+)?(?:\d{1,2}(?:st|nd|rd|th)?\b|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day\b)",
    re.IGNORECASE,
)
# Said of one stretch, not a routine: the progressive or a future ("we're dog-sitting", "I'll be
# minding"), so a stretch of bare weekdays is one stretch of days.
ONE_STRETCH = re.compile(
    r"\b(?:i['’]m|i\s+am|we['’]re|we\s+are|i['’]ll\s+be|we['’]ll\s+be|(?:i|we)\s+will\s+be)\s+"
    r"(?:\w+\s+)?[\w-]+ing\b",
    re.IGNORECASE,
)

guard_patterns(globals())
