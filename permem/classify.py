"""Classification of a candidate claim: origin, subject, scope, purpose, validity, confidence,
sensitivity. Pure functions of the candidate; the write gate decides what to do with them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from permem import policy
from permem.extraction import Candidate, Cue, imports
from permem.extraction import lexicon as lx
from permem.extraction.context import CLAUSE_STOP, leans_back, meaning, sentence_around
from permem.extraction.modality import changed_state
from permem.extraction.sensitive import sensitivity_of
from permem.governed import governed, started_before
from permem.occasions import makeshift_end, next_period, occasion, over_before_said, stay_window
from permem.prefilter import guard_patterns
from permem.records import Kind, Origin, Role, Sensitivity
from permem.situation import mishaps_last_with_their_stand_in, orders_last_with_their_situation
from permem.temporal import (
    GOVERNED,
    KEEPS_A_DAY_FREE,
    POINTS_TO_DAY,
    Validity,
    resolve,
    single_day,
)
from permem.temporal_phrases import AFTER_THEN

_APPOINTMENT = re.compile(
    r"\b(?:appointment|clinic|hospital|scan|check-?up|test results?|retrieval|procedure|"
    r"operation|consultation|visit|session|surgery)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Classification:
    origin: Origin
    subject: str
    scope: str
    purpose: str
    observed_at: datetime
    valid_from: datetime
    valid_until: datetime | None
    one_off: bool
    confidence: float
    sensitivity: Sensitivity
    categories: frozenset[str]
    requested: bool
    passing_mention: bool
    # An imported field dated more than imports.IMPORT_HORIZON before its import: stored as
    # history (validity ending at the import), never as a current fact.
    stale_import: bool = False
    # Typed by someone other than the account holder (`Candidate.speaker`): held by the gate.
    other_speaker: bool = False


def subject_of(speaker: str, about: str | None) -> str:
    """The subject id: the speaker's own subject (the message's `subject`: the account, or
    `<account>:<person>` on a shared account), `<speaker>:<relation>` for a third party.

    A third party has no account of their own here; the id keeps them apart from the speaker
    (so recall for the speaker never returns them) without storing their name. A third party
    stays under the person who named them: on a shared account `alice:tom`'s "my wife" is
    `alice:tom:wife`, apart from alice's own `alice:wife`, and the id still starts with the
    account, so the account holder's pause and forget cover it.
    """
    return speaker if about is None else f"{speaker}:{about}"


def origin_of(candidate: Candidate) -> Origin:
    """Only the user's own words give instructions or user facts (DESIGN.md)."""
    role = candidate.message.role
    # Text quoted or pasted into a user message is someone else's, like a document.
    if role is not Role.USER or Cue.QUOTED in candidate.cues:
        return Origin.IMPORTED
    if Cue.CHOICE in candidate.cues:
        return Origin.OBSERVED_BEHAVIOR
    if candidate.kind is Kind.INSTRUCTION:
        return Origin.EXPLICIT_INSTRUCTION
    return Origin.USER_FACT


# An instruction to help keep a time-bounded commitment ("also doing Whole30 until Feb 28 ...
# don't let me cheat") lasts as long as the commitment said in the same message.
_ADHERENCE = re.compile(
    r"\b(?:cheat(?:ing)?|slip(?:ping)? up|keep me (?:honest|on track|accountable)|"
    r"hold me to (?:it|that|this)|stick to (?:it|that|this)|fall off the wagon)\b",
    re.IGNORECASE,
)


# A rule said inside a project that names its own reach: "never the Oxford comma, anywhere",
# "day-month-year everywhere", "in everything I write", "across all my projects".
_EVERYWHERE = re.compile(
    r"\b(?:everywhere|anywhere|wherever|in\s+everything|in\s+anything|for\s+everything|"
    r"across\s+(?:all|every|the\s+board)|in\s+all\s+(?:my\s+)?(?:projects|work|writing|chats|"
    r"conversations|workspaces)|all\s+my\s+(?:projects|writing|work)|no\s+matter\s+(?:the|which|what)\s+"
    r"(?:project|workspace|context))\b",
    re.IGNORECASE,
)

# A reach bounded by the place it is said in: "for everything in this trip plan", "anywhere in
# this doc", "throughout the current project". A universal inside such a bound quantifies over
# that place, not over the user's life.
_HERE_ONLY = re.compile(
    r"\b(?:in|on|for|within|throughout|across|of)\s+(?:this|these|the\s+current)\s+"
    r"(?!(?:is|was|one\s+of)\b)[a-z]",
    re.IGNORECASE,
)


def scope_of(message_scope: str, claim: str) -> str:
    """The claim's scope: its message's, or `global` when the claim says it reaches
    everywhere and does not bound that reach to the place it is said in."""
    if message_scope != "global" and _EVERYWHERE.search(claim) and not _HERE_ONLY.search(claim):
        return "global"
    return message_scope


def classify_all(candidates: Sequence[Candidate]) -> list[Classification]:
    """`classify` each candidate, date the fields of an import by the export's own date
    (`dated_imports`), carry a later start back to what it points at, bound the orders said
    beside a passing situation to it (`permem.situation`), then let an adherence
    instruction without a time of its own take the latest end of the time-bounded claims of
    its message."""
    found = dated_imports(candidates, [classify(c) for c in candidates])
    found = _later_start_carries_back(candidates, found)
    found = orders_last_with_their_situation(candidates, found)
    found = mishaps_last_with_their_stand_in(candidates, found)
    bounds: dict[tuple[str, str], datetime] = {}
    for candidate, classification in zip(candidates, found, strict=True):
        if classification.valid_until is not None:
            key = (candidate.message.tenant, candidate.message.message_id)
            bounds[key] = max(
                classification.valid_until, bounds.get(key, classification.valid_until)
            )
    if not bounds:
        return found
    for i, (candidate, classification) in enumerate(zip(candidates, found, strict=True)):
        end = bounds.get((candidate.message.tenant, candidate.message.message_id))
        if (
            end is not None
            and classification.valid_until is None
            and candidate.kind is Kind.INSTRUCTION
            and _ADHERENCE.search(candidate.claim_text)
        ):
            found[i] = replace(classification, valid_until=max(end, classification.valid_from))
    return found


def _later_start_carries_back(
    candidates: Sequence[Candidate], found: list[Classification]
) -> list[Classification]:
    """A claim that starts later and points back at another claim of its message ("I got the
    job in Montreal! As of November 1st I'll be living there") moves that claim's start with
    it: both describe the coming change, neither holds before it. Pointing back is a word that
    refers back (`leans_back`: "there", "it", "then") or a content word the two share; a
    statement merely said beside it ("I'm vegan and next month I start a new job") keeps its
    own start."""
    for i, (later, k_later) in enumerate(zip(candidates, found, strict=True)):
        if k_later.valid_from <= k_later.observed_at or not later.context:
            continue
        refers = leans_back(later.claim_text)
        named = policy.reference_words(later.claim_text)
        for j, (other, k_other) in enumerate(zip(candidates, found, strict=True)):
            if (
                j != i
                and other.message is later.message
                and other.claim_end <= later.claim_start
                and other.claim_text.strip() in later.context
                and k_other.valid_from < k_later.valid_from
                and (refers or bool(named & policy.reference_words(other.claim_text)))
            ):
                until = k_other.valid_until
                if until is not None and until <= k_later.valid_from:
                    continue
                found[j] = replace(k_other, valid_from=k_later.valid_from)
    return found


def import_dates(candidates: Sequence[Candidate]) -> dict[tuple[str, str], datetime]:
    """The date each import's data was taken, per (tenant, conversation): the earliest date
    its metadata fields name ("exported_at: 2020-03-02", "lastUpdated: March 2019"), read in
    the import message's time zone. The earliest, because a profile exported today but last
    updated years ago describes the user as of the update."""
    dates: dict[tuple[str, str], datetime] = {}
    for candidate in candidates:
        message = candidate.message
        if message.role is not Role.IMPORT or Cue.IMPORT_AS_OF not in candidate.cues:
            continue
        field = imports.parse_field(candidate.support_text)
        if field is not None:
            when = imports.as_of_date(field, message.ts)
        else:
            when = imports.as_of_in_text(candidate.support_text, message.ts)
        if when is not None:
            key = (message.tenant, message.conversation_id)
            dates[key] = min(when, dates.get(key, when))
    return dates


def dated_imports(
    candidates: Sequence[Candidate], found: Sequence[Classification]
) -> list[Classification]:
    """An imported field is evidence as of the date its export names, not as of the sync: its
    `observed_at` and `valid_from` become that date, and when it is older than
    `imports.IMPORT_HORIZON` at the import its validity ends at the import (`stale_import`):
    kept as history, never recalled as current. Only the fields of the same conversation of
    the same batch are dated (an import is one sitting); an import with no date keeps its
    message's time."""
    dates = import_dates(candidates)
    result = list(found)
    if not dates:
        return result
    for i, (candidate, classification) in enumerate(zip(candidates, found, strict=True)):
        message = candidate.message
        when = dates.get((message.tenant, message.conversation_id))
        if when is None or message.role is not Role.IMPORT:
            continue
        when = min(when, message.ts)
        stale = imports.is_stale(when, message.ts)
        until = message.ts if stale else classification.valid_until
        result[i] = replace(
            classification,
            observed_at=when,
            valid_from=when,
            valid_until=until,
            stale_import=stale,
        )
    return result


_SO_BEFORE = re.compile(
    r"(?:,|;|\s-)?\s*\b(?:so|which\s+means|that\s+means|meaning|hence)\b[\s,]*$", re.IGNORECASE
)


def _cause_before(claim: str, context: str | None) -> str | None:
    """The clause that the claim is drawn from, when its sentence says "<cause>, so <claim>"."""
    if not context:
        return None
    at = context.find(claim.strip())
    if at <= 0:
        return None
    head = context[:at]
    found = _SO_BEFORE.search(head)
    if found is None and _DECIDED.match(claim) and re.search(r",\s*$", head):
        # "Thunderstorm tomorrow, I'll get a taxi to work": a decision spliced onto its cause.
        found = re.search(r",\s*$", head)
    return head[: found.start()] if found is not None and found.start() > 0 else None


# A decision said in the first person: "I'll take the bus", "I'm going to drive in".
_DECIDED = re.compile(
    r"^\W*(?:i['’]ll|i\s+will|i['’]m\s+going\s+to|i['’]m\s+gonna|i['’]d\s+better)\b", re.I
)


# What opens a clause or phrase that sets the occasion of the rest of its sentence: "in case
# it rains tomorrow, ...", "because of the marathon on Sunday, ...", "..., as it's my
# birthday tomorrow", "with the in-laws here this weekend, ...".
_OCCASION_OPENER = re.compile(
    r"^\W*(?:(?:and|but|so)\s+)?(?:in\s+case|because(?:\s+of)?|since|as|when(?:ever)?|while|"
    r"with|given|if|for|on|during|until|till|before|after|now\s+that)\b",
    re.IGNORECASE,
)


def _adjunct_around(claim: str, context: str | None) -> str | None:
    """The clause or phrase of the claim's own sentence, cut off it, that sets when the claim
    holds: before it ("In case it rains tomorrow, I'll take the bus") or after it ("I'm
    treating myself to steak, as it's my birthday tomorrow"), opened by a word that makes it
    the claim's occasion or reason. None when the claim is its whole sentence."""
    if not context:
        return None
    at = context.find(claim.strip())
    if at < 0:
        return None
    head = CLAUSE_STOP.split(context[:at])[-1].strip(" ,-–—:")
    if head and _OCCASION_OPENER.search(head):
        return head
    tail = CLAUSE_STOP.split(context[at + len(claim.strip()) :])[0].strip(" ,-–—:")
    if tail and _OCCASION_OPENER.search(tail):
        return tail
    return None


def _sentence_of(candidate: Candidate) -> str:
    """The whole sentence the claim was cut from (its support may be one clause of it)."""
    start, end = sentence_around(candidate.message.text, candidate.start, candidate.end)
    return candidate.message.text[start:end]


def _being(candidate: Candidate) -> bool:
    """A state planned for a span, not an intention: the claim's main verb is "be" ("next
    week I'm on a cleanse", "we're at the coast on Friday"), or it says where the user stays
    for a while (topic `home`: "next month I'm looking after my aunt's house in Perth"), with
    no word of intending or hedging; a plan's other verbs tell a change or an intention."""
    if lx.INTENTION.search(candidate.claim_text) or lx.HEDGE.search(candidate.claim_text):
        return False
    if candidate.topic == "home":
        return True
    doc = candidate.doc
    return doc is not None and any(t.dep_ == "ROOT" and t.lemma_ == "be" for t in doc)


def _validity(candidate: Candidate) -> Validity:
    """When the claim holds: read from the days its words and its context name."""
    message = candidate.message
    text = candidate.claim_text
    support = candidate.support_text
    if Cue.KEPT_DATE in candidate.cues:
        # "Pavel's birthday falls on November 19": the day the occasion comes round every
        # year, not a window of the claim's (permem.extraction.kept_dates).
        return Validity(valid_from=message.ts, valid_until=None)
    validity = resolve(
        support,
        message.ts,
        plan=candidate.kind is Kind.PLAN,
        one_off=Cue.ONE_OFF in candidate.cues,
    )
    if candidate.context and validity.valid_until is None and GOVERNED.search(text):
        # "so please don't book any work calls before that": the period named before governs.
        validity = governed(text, candidate.context, validity, message.ts)
    # "thunderstorm Monday morning, so I'll take the bus": the clause the claim is drawn from.
    cause = _cause_before(text, candidate.context)
    after = AFTER_THEN.search(text)
    day = single_day(text[: after.start()], message.ts) if after is not None else None
    if day is not None and validity.valid_until is not None and validity.valid_until <= day[1]:
        # "The lido shuts on 1 March, after which I'll swim at the university pool": what
        # comes after the day its own sentence names starts then, and lasts.
        validity = replace(validity, valid_from=max(day[0], message.ts), valid_until=None)
    elif day is not None and validity.valid_until is None and validity.valid_from == message.ts:
        validity = replace(validity, valid_from=max(day[0], message.ts))
    elif (
        validity.valid_until is None
        and validity.valid_from == message.ts
        and (start := started_before(message.text[: candidate.claim_start], message.ts))
    ):
        validity = replace(validity, valid_from=start)  # "The new rota starts on 1 September and"
    if validity.valid_until is None and validity.valid_from == message.ts:
        # One day of its own ("no calls the day after tomorrow"), or the day its context
        # names ("so no meetings that day"): it holds that day only.
        ordered = candidate.kind in (Kind.INSTRUCTION, Kind.CONSTRAINT)
        span = (
            single_day(support, message.ts, told=not ordered)
            if not ordered or KEEPS_A_DAY_FREE.search(support)
            else None
        )
        if span is None and candidate.context and POINTS_TO_DAY.search(text):
            span = single_day(candidate.context, message.ts, told=False)
        if span is None and cause is not None:
            # "thunderstorm Monday morning, so I'll take the bus": what the day brings is
            # done that day only.
            span = single_day(cause, message.ts)
        if span is not None:
            validity = replace(validity, valid_from=max(span[0], message.ts), valid_until=span[1])
    if (
        validity.valid_until is None
        and message.role is Role.USER
        # An intention stays one, dated or not; a state planned for a span ("next week I'm on
        # a juice cleanse") lasts the span.
        and (candidate.kind is not Kind.PLAN or _being(candidate))
        and Cue.KEPT_DATE not in candidate.cues
        # A correction of what was said ("sorry, June 5th is my mum") names no occasion; a
        # new state for a while does ("the bus instead, with the storm in the morning").
        and (Cue.RETRACTION not in candidate.cues or changed_state(support))
        # A change reported done ("We picked up the car on Friday, it's a hybrid") lasts;
        # the day it names is gone.
        and not (Cue.RETRACTION in candidate.cues and Cue.PAST in candidate.cues)
    ):
        # Whatever words name the days, a claim about one occasion holds until it is over
        # (from when it is said: "the 13:10 coach on 31 July" helps plan the days before).
        span = occasion(support, message.ts, doc=candidate.doc) or (
            occasion(cause, message.ts, doc=candidate.doc) if cause is not None else None
        )
        if span is None and (adjunct := _adjunct_around(text, candidate.context)) is not None:
            # The occasion the rest of its sentence names ("in case it rains tomorrow"):
            # the claim was cut from it, and holds for it.
            span = occasion(adjunct, message.ts, doc=candidate.doc)
        if span is None and candidate.kind is Kind.PLAN:
            # A state planned for the whole next week, month or year lasts it; so does one
            # planned for a stretch read as a state's ("I'll be staying with my aunt for the
            # rest of the month").
            stay = candidate.topic == "home"
            span = (stay_window if stay else next_period)(support, message.ts)
            if span is None and (ends := resolve(support, message.ts).valid_until) is not None:
                span = (validity.valid_from, ends)
        elif span is None and candidate.topic == "home":
            # A stay said now for a month ahead ("we're on holiday in Sicily in July").
            span = stay_window(support, message.ts)
        if span is not None and span[1] > validity.valid_from:
            # A stay starts when its stretch does ("late June I'm minding my sister's place").
            start = max(validity.valid_from, span[0]) if candidate.topic == "home" else None
            validity = replace(
                validity, valid_from=start or validity.valid_from, valid_until=span[1]
            )
            if candidate.topic == "home" and span[0] > validity.valid_from:
                # A stay elsewhere ("next weekend I'm house-sitting in Annecy") is where the
                # user is from its first day, not from when it was said.
                validity = replace(validity, valid_from=span[0])
    if (
        validity.valid_until is None
        and candidate.kind in (Kind.FACT, Kind.PREFERENCE, Kind.EVENT)
        and (until := makeshift_end(support, validity.valid_from)) is not None
    ):
        # "Using my sister's old iPhone until mine is fixed": a stand-in, for a while.
        validity = replace(validity, valid_until=until)
    if lx.PAST_HABIT.search(text) and not lx.STILL_SO.search(text):
        # How things were: kept as history, valid for no moment after it was said.
        validity = replace(validity, valid_until=validity.valid_from)
    elif over_before_said(_sentence_of(candidate), candidate.doc):
        # A stretch of time that is over ("throughout April my bike was broken"): history too,
        # whatever day its month would name ahead.
        said = min(validity.valid_from, message.ts)
        validity = replace(validity, valid_from=said, valid_until=said)
    return validity


def classify(candidate: Candidate) -> Classification:
    message = candidate.message
    text = candidate.claim_text
    origin = origin_of(candidate)
    validity = _validity(candidate)
    # What the claim means includes what it points back to ("I never miss it": the prayer).
    sensitivity, categories = sensitivity_of(meaning(text, candidate.context))
    if candidate.about is not None:
        # Naming a relative or partner says something about the speaker's relationships.
        categories = categories | {"relationships"}
        if sensitivity is Sensitivity.NONE:
            sensitivity = Sensitivity.PERSONAL
    hedged = Cue.HEDGE in candidate.cues
    confidence = policy.confidence(origin, hedged=hedged, third_party=candidate.about is not None)
    requested = Cue.REMEMBER_REQUEST in candidate.cues
    # An appointment or an event mentioned in passing, not a lasting constraint drawn from it
    # ("knee surgery in the spring, so no jumping" is a constraint; "Thursday is my therapy
    # appointment" a passing mention).
    lasting = candidate.kind in (Kind.CONSTRAINT, Kind.INSTRUCTION, Kind.PREFERENCE)
    passing = candidate.kind in (Kind.EVENT, Kind.PLAN) or (
        bool(_APPOINTMENT.search(text)) and not lasting
    )
    return Classification(
        origin=origin,
        subject=subject_of(candidate.speaker or message.subject, candidate.about),
        scope=scope_of(message.scope, text),
        purpose=message.purpose,
        observed_at=message.ts,
        valid_from=validity.valid_from,
        # A start read later than the end ("while I'm training for a triathlon next summer"
        # read beside a week's bound) holds for no moment rather than failing the whole run
        # (UserMemory refuses an end before the start); as in `classify_all`'s clamp.
        valid_until=None
        if validity.valid_until is None
        else max(validity.valid_until, validity.valid_from),
        one_off=validity.one_off,
        confidence=max(confidence, policy.REQUESTED_CONFIDENCE) if requested else confidence,
        sensitivity=sensitivity,
        categories=categories,
        requested=requested,
        passing_mention=passing,
        other_speaker=candidate.speaker is not None,
    )


guard_patterns(globals())
