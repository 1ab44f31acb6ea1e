"""The cues a sentence carries and whether it is worth parsing (`permem.extraction.cues`
splits messages into sentences and asks these rules of each).

`_user_cues` reads what a sentence of the user's own says (first person with a durable verb,
standing instructions, remember requests, plans, corrections, third parties, choices, beliefs,
hypotheticals, retractions, a topic); `_worth_parsing` decides from those cues whether the
sentence can carry durable, personal content, and `no_claim.plainly_not_a_claim` drops the
questions, tasks and pleasantries cheaply first.
"""

from __future__ import annotations

import re
from enum import StrEnum

from permem.extraction import lexicon as lx
from permem.extraction import modality
from permem.extraction.context import leans_back
from permem.extraction.directives import standing_directive
from permem.extraction.for_whom import ForWhom, claim_for_whom
from permem.extraction.kept_dates import kept_date
from permem.extraction.labels import described_here, labelled_statement, said_of
from permem.extraction.no_claim import (
    FORMAT_TOPICS,
    POLITE,
    format_of_one_piece,
    mine_said_of_it,
    remember_only,
)
from permem.extraction.sensitive import PERSONAL, SPECIAL
from permem.extraction.sent_rules import ASKED_OUTPUT, OUTPUT_RULE, asks_to_keep, scheduled_delivery
from permem.extraction.stays import HOME_PLACE, away_for_a_while, taken_on_for_a_while
from permem.prefilter import guard_patterns
from permem.records import DEFAULT_PURPOSE, Message
from permem.temporal import has_bound, has_window
from permem.temporal_phrases import _MONTH_RE, _ONE_DAY, _WEEKDAY_RE


class Cue(StrEnum):
    FIRST_PERSON = "first_person"
    DURABLE = "durable"
    INSTRUCTION = "instruction"
    REMEMBER_REQUEST = "remember_request"
    LANGUAGE = "language"
    CORRECTION = "correction"
    ONE_OFF = "one_off"
    HEDGE = "hedge"
    PLAN = "plan"
    PAST = "past"
    THIRD_PARTY = "third_party"
    CHOICE = "choice"
    BELIEF = "belief"
    PLANTED = "planted_instruction"
    IMPORT_FIELD = "import_field"
    IMPORT_PRIVILEGE = "import_privilege"
    IMPORT_AS_OF = "import_as_of"
    SCOPE_FACT = "scope_fact"
    ELLIPTICAL = "elliptical"
    QUOTED = "quoted_content"
    HYPOTHETICAL = "hypothetical"
    CONSIDERED = "considered"
    RETRACTION = "retraction"
    OWN_CONDUCT = "own_conduct"
    TASTE = "taste_verdict"
    CALLED_OFF = "called_off"
    WITHDRAWN = "withdrawn"
    NEW_NOT_OLD = "new_not_old"
    DIET_RULE = "diet_rule"
    ROUTINE = "routine"
    KEPT_DATE = "kept_date"


_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_OPENS_ON_REFERENT = re.compile(
    r"^\W*(?:those|these|that|this|they|it)\s+(?:\w+\s+){0,2}?(?:must|have\s+to|has\s+to|"
    r"need\s+to|needs\s+to|should|can't|cannot|are|is)\b",
    re.IGNORECASE,
)
_ELLIPTICAL_OPENER = re.compile(
    r"^\s*(?:(?:also|and|but|so|now)[\s:,]+)?(?:doing|eating|paid|working|living|staying|"
    r"trying|following|taking|on|off|no|not|only|still|back|currently|always|never|mostly|"
    r"thinking|planning|considering|hoping|might|maybe|probably|"
    r"usually|home\s+(?:is|base\s+is)|based\s+in)\b",
    re.IGNORECASE,
)


# A sentence that opens with a gerund leaves its subject, the speaker, unsaid: "cutting out
# sugar until June", "avoiding caffeine for a month" (not "morning", "nothing", "during").
_GERUND_OPENER = re.compile(
    r"^\s*(?:(?:also|and|but|so|now|still)[\s:,]+)?(?!(?:morning|evening|nothing|something|"
    r"anything|everything|during|thing|king|spring|string|ceiling|building|wedding|pudding|"
    r"ring|wing|bring|sing|swing|sibling|darling|ping|duckling|dumpling|icing|earring|"
    r"meeting|feeling|clothing|boring|amazing|interesting)\b)[a-z]{2,}ing\b",
    re.IGNORECASE,
)
# A verbless standing preference of the speaker's: "savoury breakfasts only for me", "always
# aisle seats for me", "for me only decaf" (an exclusive or habitual word beside "for me").
_FOR_ME_STANDING = re.compile(
    r"\b(?:only|always|never|nothing but|exclusively)\b[^.!?]{0,40}\bfor me\b|"
    r"\bfor me\b[,\s]+(?:only|always|never|exclusively)\b|"
    # The units the speaker thinks in: "I think in miles and Fahrenheit", "we cook in grams".
    r"\b(?:i|we)\s+(?:still\s+)?(?:think|work|measure|cook|count|talk|bake)\s+in\s+(?:miles|km|"
    r"kilomet\w*|pounds|kilos?|kg|lbs|celsius|fahrenheit|metric|imperial|cups|grams|feet|"
    r"metres|meters|inches|ounces)\b",
    re.IGNORECASE,
)


# What a part of the week is for: "saturday mornings are for the market", "weekends are
# for the allotment", "Friday nights are pizza night". The speaker's routine, said bare.
_ROUTINE = re.compile(
    r"^\s*(?:(?:my|our)\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day\s*"
    r"(?:morning|afternoon|evening|night|lunchtime)?s|weekends|weekday\s+(?:mornings|evenings))"
    r"\s+(?:are|=)\s+(?:for|my|our|\w+\s+(?:night|day|time)\b)",
    re.IGNORECASE,
)
_FREE_OF = re.compile(r"^\s*(?:(?:strictly|fully|totally|100%)\s+)?[^\W\d_]+-free\b", re.I)
_OFF_LIMITS = re.compile(r"\b(?:off\s+the\s+menu|off\s+limits|banned|not\s+allowed)\b", re.I)
# A new value set against the old one: "it's oat milk now, not soy", "Tuesdays these days,
# not Mondays", "three of us now rather than four".
_CLOCK = r"(?:\d{1,2}(?::\d{2})?\s*(?:am|pm)|\d{1,2}:\d{2}|noon|midday|midnight)"
_NEW_NOT_OLD = re.compile(
    r"\b(?:now|nowadays|these\s+days|from\s+now\s+on|since\s+then)\b[\s,;:-]*(?:and\s+|but\s+)?"
    r"(?:not|rather\s+than|instead\s+of|no\s+longer)\s+\w|"
    r"\b(?:not|rather\s+than|instead\s+of)\s+[^\W_][\w'-]*(?:\s+[^\W_][\w'-]*)?[\s,;:-]*"
    r"(?:anymore|any\s+more|these\s+days|now)\b|"
    # One time of day set against another: "the summary at 9pm, not first thing".
    rf"\b{_CLOCK}[\s,;:-]+(?:and\s+|but\s+)?(?:not|rather\s+than|instead\s+of)\s+(?:at\s+)?"
    rf"(?:{_CLOCK}|first\s+thing|(?:the\s+)?(?:morning|afternoon|evening|night)s?)\b",
    re.IGNORECASE,
)
_ABSTAINING = re.compile(r"^\s*(?:no|zero|off|[^\W\d_]+-free)\b", re.IGNORECASE)
_EXTENDS = re.compile(
    r"\b(?:that|this|it|same|the\s+same(?:\s+\w+)?)\s+(?:also\s+)?(?:goes|applies|counts|holds|"
    r"stands|is\s+true)\s+(?:for|to)\b",
    re.IGNORECASE,
)


_PAST_OPENER = re.compile(
    r"^\s*(?:just\s+|finally\s+|also\s+)?(?:started|took|went|joined|finished|got|had|bought|"
    r"moved|quit|been|tried|visited|ran|won|lost|made|adopted|signed up|switched|swapped|"
    r"gave up|sold|ditched|dropped|stopped|replaced|traded)\b",
    re.IGNORECASE,
)


# "When I book for the team it's economy": a habit under its occasion, not a question.
_WHEN_I_DO = re.compile(
    r"^\s*when(?:ever)?\s+(?:(?:i|we)\s+(?!\w+\s+(?:you|u)\b)\w+|it'?s\s+just\s+(?:me|us)\b|"
    r"i'?m\s+(?:on\s+my\s+own|alone|solo|by\s+myself)\b)",
    re.I,
)


def _is_request(text: str, cues: set[Cue]) -> bool:
    """A question or a request for help now, rather than a statement that lasts."""
    opener = lx.REQUEST_OPENERS.match(text) is not None and _WHEN_I_DO.match(text) is None
    if asks_to_keep(text) or scheduled_delivery(text):
        return False
    if text.rstrip().endswith("?"):
        return opener or not (Cue.FIRST_PERSON in cues and Cue.DURABLE in cues)
    return opener and Cue.INSTRUCTION not in cues and claim_for_whom(text) is not ForWhom.OTHERS


def _first_person_statement(text: str) -> bool:
    """A sentence in which the speaker says something lasting about themselves."""
    if lx.IDENTITY.match(text) or lx.PERFECT_OR_HAVE.match(text):
        return True
    present = lx.PRESENT_STATEMENT.match(text)
    if present and present.group("verb").lower() not in lx.NOT_PRESENT_VERBS:
        return not present.group("verb").lower().endswith("ed")
    return False


# How a time adverbial opens its sentence, and the speaker it leaves the statement to.
_OPENS = r"^\s*(?:(?:so|and|also|update|heads up|fyi|btw)\W+)?"
_SPEAKER_NEXT = r"(?=(?:i|i'm|i've|i'll|we|we're|we'll|my|our)\b)"
# A time adverbial before the statement it dates: "From 10 September I'm switching gyms",
# "as of next month, my office is in Leeds", "starting Monday we live in Ghent".
_LEADING_WHEN = re.compile(
    rf"{_OPENS}(?:from|starting|as of|as from|with effect from|beginning|since|after|once|by|"
    rf"come|effective|(?:{_MONTH_RE})(?=\s+\d))\b"
    rf"[^,;:.!?]{{1,40}}?(?:,\s*|\s+{_SPEAKER_NEXT})|"
    # A time named by a preposition or a determiner: "In August I'm staying in Lisbon", "all
    # of June we're at the coast", "for the next two weeks I'm on nights".
    rf"{_OPENS}(?:in|on|during|throughout|through|thru|between|all\s+of|"
    rf"for\s+the\s+(?:next|coming|rest\s+of|first|last|whole|entire|month\s+of)|until|till|next|"
    r"this|over|the\s+(?:first|last|second|final|week\s+of)|"
    # "Mid-May to early June I'm subletting ...", "the week after next I'm cat-sitting ...".
    r"the\s+(?:week|weekend)\s+after|"
    # "For two weeks starting Monday I'm at a friend's place", "for ten days from the 3rd".
    r"for\s+(?:a|an|one|two|three|four|five|six|ten|a\s+couple\s+of|a\s+few|\d{1,2})"
    r"(?=\s+(?:days?|nights?|weeks?|months?)(?:\s+(?:starting|from|beginning)\b|,)))\s+"
    rf"(?=[^,;:.!?]{{0,30}}?\b(?:{_MONTH_RE}|{_WEEKDAY_RE}|week|weekend|month|year|summer|winter|"
    rf"spring|autumn|fall|holidays?|christmas|easter|tomorrow|fortnight|days|\d))[^,;:.!?]{{1,40}}?"
    rf"(?:,\s*|\s+{_SPEAKER_NEXT})|"
    rf"{_OPENS}(?:early|mid|late)[\s-]+(?:{_MONTH_RE})\b[^,;:.!?]{{0,40}}?(?:,\s*|\s+{_SPEAKER_NEXT})|"
    # A day named by itself: "Tomorrow I'm in court all day", "the day after tomorrow we're
    # at the wedding".
    rf"{_OPENS}(?:tomorrow|tonight|today|the\s+day\s+after\s+tomorrow|"
    rf"(?:a|one)\s+week\s+from\s+(?:today|tomorrow))\s*,?\s+{_SPEAKER_NEXT}|"
    # A bare "now": "now I'm training for a half marathon", "these days, I cycle".
    r"^\s*(?:(?:so|and|but|also|ok)\W+)?(?:now|nowadays|these\s+days|currently|lately|"
    rf"at\s+the\s+moment|at\s+present|for\s+now|instead)\s*,?\s+{_SPEAKER_NEXT}",
    re.IGNORECASE,
)


# A label naming what the statement is about: "For phone stuff: I use a Samsung", "Re the
# car: it's a hybrid", "Dinner-wise, I'm vegetarian".
_TOPIC_LABEL = re.compile(
    r"^\s*(?:(?:for|re|about|regarding|on)\s+[^,;:.!?]{1,30}?:\s*|[^\W\d_]+-wise\s*[:,]\s*|"
    # Without its comma only before the speaker: "Phone-wise I'm team Android".
    r"[^\W\d_]+-wise\s+(?=(?:i|i'm|i've|we|we're|my|our)\b))",
    re.IGNORECASE,
)


def _statement_core(text: str) -> str:
    """The text with a leading topic label and time adverbial dropped, for the checks that
    read a sentence from its start."""
    label = _TOPIC_LABEL.match(text)
    if label and label.end() < len(text):
        text = text[label.end() :]
    lead = _LEADING_WHEN.match(text)
    return text[lead.end() :] if lead and lead.end() < len(text) else text


def _user_cues(
    message: Message, text: str, remember: bool, holder: frozenset[str] = frozenset()
) -> tuple[set[Cue], str | None]:
    cues: set[Cue] = set()
    # "kitchen skills: microwave, kettle": a label and its value, said of the speaker; "Kai
    # goes to bed early", said of the holder by someone helping them (`holder`: their names).
    described = labelled_statement(text) or described_here(text) or said_of(text, holder)
    first_person = lx.FIRST_PERSON.search(text) is not None or described
    if first_person:
        cues.add(Cue.FIRST_PERSON)
    stated = _statement_core(text)
    if (
        lx.STRONG_TASTE.search(text)
        or lx.HABIT.search(text)
        or lx.MY_DURABLE.search(text)
        or lx.MY_THING_IS.match(stated)
        or (first_person and _first_person_statement(stated))
        or _FOR_ME_STANDING.search(text)
        or described
        # "When I book for anyone on the team it's economy", "on my own trips I take the
        # first flight": a rule for whom the speaker acts (permem.extraction.for_whom).
        or (first_person and claim_for_whom(text) is not ForWhom.ANY)
    ):
        cues.add(Cue.DURABLE)
    if (
        lx.STANDING_INSTRUCTION.search(text)
        or lx.FORMAT_INSTRUCTION.search(text)
        or standing_directive(text)
        or OUTPUT_RULE.search(stated)
        or ASKED_OUTPUT.match(text)
    ):
        cues.add(Cue.INSTRUCTION)
    if remember:
        cues.add(Cue.REMEMBER_REQUEST)
    for pattern, cue in (
        (lx.LANGUAGE, Cue.LANGUAGE),
        (lx.CORRECTION, Cue.CORRECTION),
        (lx.ONE_OFF, Cue.ONE_OFF),
        (lx.HEDGE, Cue.HEDGE),
        (lx.PLAN, Cue.PLAN),
        (lx.PAST_EVENT, Cue.PAST),
        (lx.CHOICE, Cue.CHOICE),
    ):
        if pattern.search(text):
            cues.add(cue)
    believes = lx.believed(text)
    if believes:
        cues.add(Cue.BELIEF)
    for test, cue in (
        (modality.hypothetical, Cue.HYPOTHETICAL),
        (modality.considered, Cue.CONSIDERED),
        (modality.retracts, Cue.RETRACTION),
        (modality.called_off, Cue.CALLED_OFF),
        (modality.withdrawn, Cue.WITHDRAWN),
    ):
        if test(text):
            cues.add(cue)
    if modality.continues(text) and modality.called_off(message.text) and not has_window(text):
        # "That fell through, we're still in Bologna": the state goes on, nothing new to keep.
        cues.add(Cue.CALLED_OFF)
    if lx.TASTE_VERDICT.search(text) and not believes:
        cues.add(Cue.TASTE)
    if _NEW_NOT_OLD.search(text):
        cues.add(Cue.NEW_NOT_OLD)
    if lx.THIRD_PARTY_SUBJECT.search(text):
        cues.add(Cue.THIRD_PARTY)
    if message.scope != "global":
        cues.add(Cue.SCOPE_FACT)
    if _ELLIPTICAL_OPENER.match(text) or _GERUND_OPENER.match(text) or _EXTENDS.search(text):
        cues.add(Cue.ELLIPTICAL)
    elif lx.CONSTRAINT.search(text) and _OPENS_ON_REFERENT.match(text):
        # "Those meals must be vegan": a rule said of what the sentence before named; its
        # context carries the referent (permem.extraction.context).
        cues.add(Cue.ELLIPTICAL)
    topic = next((name for name, p in lx.TOPICS.items() if p.search(text)), None)
    if topic is None and (HOME_PLACE.search(text) or away_for_a_while(text, message.ts)):
        topic = "home"
    if _ROUTINE.match(text):
        cues.add(Cue.ROUTINE)
    if kept_date(text, message.text):
        cues.add(Cue.KEPT_DATE)
    if diet_rule(text):
        cues.add(Cue.DIET_RULE)
        topic = topic or "diet"
    if topic in FORMAT_TOPICS and (lx.PIECE_NEEDS.search(text) or format_of_one_piece(text)):
        # "the US grant bid needs 'color'", "translate this into Dutch": how to answer, once.
        cues.update((Cue.ONE_OFF, Cue.INSTRUCTION))
    if topic in FORMAT_TOPICS and POLITE.search(text) and "?" not in text:
        cues.add(Cue.INSTRUCTION)  # "Short answers please", "metric for me"
    return cues, topic


def diet_rule(text: str) -> bool:
    """A rule of what the speaker eats by food group, not an allergy (lexicon.FOOD_GROUP)."""
    return (
        lx.FOOD_GROUP.search(text) is not None
        and lx.EATING_RULE.search(text) is not None
        and lx.ALLERGY.search(text) is None
    )


def _dedicated_surface(message: Message) -> bool:
    return message.purpose != DEFAULT_PURPOSE


def _personal_data(text: str) -> bool:
    return any(p.search(text) for p in (*SPECIAL.values(), *PERSONAL.values()))


_RULE_SAID = re.compile(r"\b(?:it['’]s|must|always|has\s+to|have\s+to|goes?|go)\b|:", re.I)
_CHANGE_TO = re.compile(
    r"\b(?:changes?|changing|moves?|moving|switch(?:es)?|switching|goes|comes?)\s+(?:over\s+)?"
    r"(?:to|from)\b",
    re.IGNORECASE,
)


def _worth_parsing(
    text: str, cues: set[Cue], topic: str | None, message: Message | None = None
) -> bool:
    if len(_WORD.findall(text)) < 2 or lx.PLEASANTRY.match(text):
        return False
    if Cue.ONE_OFF in cues and topic in FORMAT_TOPICS:
        # "Write the email to my boss in German": a task's own format, for its session only.
        return True
    if _is_request(text, cues):
        return False
    if Cue.FIRST_PERSON in cues and "?" not in text and mine_said_of_it(text):
        return True  # "Jazz is my music", "early appointments suit me best"
    if (
        lx.TASK_OPENER.match(text)
        and not lx.STANDING_INSTRUCTION.search(text)
        and not standing_directive(text)
    ):
        return False
    if Cue.FIRST_PERSON in cues and (Cue.DURABLE in cues or Cue.CHOICE in cues):
        return True
    # A first-person past event with a time word ("I ran my first marathon yesterday",
    # "took a short trip last week").
    if Cue.PAST in cues and (Cue.FIRST_PERSON in cues or _PAST_OPENER.match(text)):
        return True
    if Cue.FIRST_PERSON in cues and (Cue.PLAN in cues or Cue.BELIEF in cues):
        return True
    # "I'm looking after my cousin's beagle for the weekend", "fostering a puppy this weekend":
    # the speaker's state for a window, which ends with it.
    speaker = Cue.FIRST_PERSON in cues or Cue.ELLIPTICAL in cues
    if speaker and not cues & {Cue.HEDGE, Cue.BELIEF, Cue.PAST} and taken_on_for_a_while(text):
        return True
    # "Between the 5th and the 12th I'm stuck in Frankfurt": where the speaker is for a window.
    if (
        message is not None
        and topic == "home"
        and "?" not in text
        and not cues & {Cue.HEDGE, Cue.BELIEF}
        and away_for_a_while(text, message.ts)
    ):
        return True
    # "Our energy supplier changes to EDF on 12 July", "after the 15th, yoga moves to Thursday
    # mornings": a dated change of what the speaker has or does.
    if (
        (Cue.FIRST_PERSON in cues or topic is not None)
        and _CHANGE_TO.search(text)
        and "?" not in text
        and (has_bound(text) or _ONE_DAY.search(text))
    ):
        return True
    # "Cracked the screen on my Galaxy, so it's a borrowed iPhone for the next few days": the
    # speaker's state on a topic, for a while.
    if topic is not None and Cue.FIRST_PERSON in cues and "?" not in text and has_window(text):
        return True
    # "Pavel's birthday is actually November 19": a date of someone close, to keep.
    if Cue.KEPT_DATE in cues:
        return True
    # "Shared dinners need to be vegan": a rule for what the speaker shares with others.
    if claim_for_whom(text) is ForWhom.SHARED and lx.CONSTRAINT.search(text):
        return True
    # "For the team it's economy under five hours": a rule for what the speaker does for others.
    if (
        claim_for_whom(text) is ForWhom.OTHERS
        and "?" not in text
        and (lx.CONSTRAINT.search(text) or _RULE_SAID.search(text))
    ):
        return True
    # "That's why I eat dinner early": a consequence the speaker draws for their own conduct.
    if Cue.FIRST_PERSON in cues and modality.own_conduct(text):
        return True
    if Cue.INSTRUCTION in cues or Cue.THIRD_PARTY in cues or Cue.CHOICE in cues:
        return True
    # A plan called off takes back what it names, even said without a subject ("not
    # adopting the greyhound after all"); the gate stores none of it.
    # So does a new value set against the old ("standup is Tuesdays now, not Mondays"), even
    # with no "I" in it (the loader retracts what it rules out), and a return to what held
    # before ("Went back to Windows, Linux was too fiddly").
    if cues & {Cue.CALLED_OFF, Cue.WITHDRAWN, Cue.NEW_NOT_OLD} or modality.returns(text):
        return True
    # A polite constraint without a subject: "no peanuts in anything please".
    polite = re.search(r"\b(?:please|pls|plz|stp)\b", text, re.I) is not None
    if polite and (lx.STRONG_TASTE.search(text) or re.match(r"^\s*no\s+\w", text, re.I)):
        return True
    # On a surface of its own (a health coach, a sleep tracker, a journal) what the user says
    # about themselves in the categories it deals with is what it is for.
    if (
        message is not None
        and Cue.FIRST_PERSON in cues
        and _dedicated_surface(message)
        and _personal_data(text)
    ):
        return True
    # "And that goes for weedkillers as well": the rule said before, extended (its context
    # carries the rule: permem.extraction.context).
    if _EXTENDS.search(text) and leans_back(text):
        return True
    # "Pancakes with syrup are the best": a verdict of taste is the speaker's.
    if Cue.TASTE in cues:
        return True
    # "Bike fit result: 56cm": a finding about the speaker, said without an "I", replaces
    # what they took for granted (a retraction, below).
    if Cue.RETRACTION in cues and modality.finding(text):
        return True
    # A retraction is kept so that it can supersede what it takes back.
    if Cue.RETRACTION in cues and (
        Cue.FIRST_PERSON in cues or leans_back(text) or _PAST_OPENER.match(text)
    ):
        return True
    # So is a new state said in place of the old, with or without an "I" ("Milo does judo on
    # Thursdays now instead").
    if Cue.RETRACTION in cues and modality.changed_state(text):
        return True
    # "During Mercury retrograde I hold off on any contract, please remember": asked to be
    # remembered, about the speaker.
    if Cue.REMEMBER_REQUEST in cues and Cue.FIRST_PERSON in cues and not remember_only(text):
        return True
    # A one-off exception is kept for its session, so it must be seen to be kept apart.
    if Cue.ONE_OFF in cues:
        return True
    if Cue.LANGUAGE in cues and POLITE.search(text):
        return True
    # "Porto Alegre is home", "home for us is Recife": where the speaker lives, said as a
    # statement of the place.
    if topic == "home" and HOME_PLACE.search(text) and "?" not in text:
        return True
    # "Seafood's back in my life", "still not touching red meat": a diet, said without an "I".
    if Cue.DIET_RULE in cues or Cue.ROUTINE in cues:
        return True
    if topic is not None and (
        Cue.CORRECTION in cues
        or Cue.ELLIPTICAL in cues
        or lx.CONSTRAINT.search(text)
        or lx.PREFERENCE.search(text)
    ):
        return True
    if Cue.ELLIPTICAL in cues and Cue.PLAN in cues:
        return True
    # "Sugar-free till the 17th", "no alcohol until March": a bounded abstention.
    if (_ABSTAINING.match(text) or _OFF_LIMITS.search(text)) and has_bound(text):
        return True
    # "Meat-free for five years now", "gluten-free, always": a standing diet, said bare.
    if _FREE_OF.match(text):
        return True
    # "Cutting out sugar until June 17th": the speaker's own, bounded or constraining, doing.
    if Cue.ELLIPTICAL in cues and (lx.CONSTRAINT.search(text) or has_bound(text)):
        return True
    # Inside a project or workspace, plain statements describe that project.
    return Cue.SCOPE_FACT in cues and len(_WORD.findall(text)) >= 4 and "?" not in text


# Last, so that what imports these names gets them guarded (permem.prefilter).
guard_patterns(globals())
