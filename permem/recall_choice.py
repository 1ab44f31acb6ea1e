"""Recall's choices among claims that each passed the filters: which of two claims on one
topic to use (`superseded_in_time`: the latest said that is valid now) and when an import
gives way to the user's own word (`shadowed_imports`)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable, Sequence
from datetime import datetime

from permem import policy
from permem.extraction import lexicon as lx
from permem.records import Confirmation, Kind, Origin, Status, UserMemory
from permem.temporal_phrases import _MONTHS, _WEEKDAYS


def said_before_in_reach(old: UserMemory, new: UserMemory) -> bool:
    """`old` is another claim of `new`'s subject, said before it, in its scope or globally:
    one that `new` can replace."""
    return (
        old.id != new.id
        and old.subject == new.subject
        and old.scope in (new.scope, "global")
        and old.observed_at < new.observed_at
    )


def superseded_in_time(survivors: Sequence[UserMemory]) -> set[uuid.UUID]:
    """Claims on an exclusive topic that a later-said claim on the same topic, valid now,
    replaces: a move announced for October replaces the old home from October on (until then
    the new claim is not valid yet and the old one stands). A claim of the request's own scope
    overrides the global claims on its topic. The claims of the latest message
    stand together ("fish is fine now. Meat stays off."), a claim that says it adds
    (`policy.adds_to`) replaces nothing, and the clauses said beside a replaced claim go with
    it (`with_siblings`)."""

    def said(record: UserMemory) -> tuple[datetime, str]:
        return (record.observed_at, record.source.message_id or str(record.id))

    latest: dict[tuple[str, str, str], UserMemory] = {}
    scoped: set[tuple[str, str]] = set()
    for record in survivors:
        if record.topic not in policy.EXCLUSIVE_TOPICS or policy.adds_to(record.claim):
            continue
        key = (record.subject, record.topic, record.scope)
        held = latest.get(key)
        if held is None or said(record) > said(held):
            latest[key] = record
        if record.scope != "global":
            scoped.add((record.subject, record.topic))
    replaced = set()
    for r in survivors:
        if r.topic not in policy.EXCLUSIVE_TOPICS:
            continue
        newest = latest.get((r.subject, r.topic, r.scope))
        if newest is not None and said(r) < said(newest):
            replaced.add(r.id)
        elif r.scope == "global" and (r.subject, r.topic) in scoped:
            # The project's own rule on the topic overrides the default, whenever said ("for
            # this road trip, miles and Fahrenheit" over "metric only").
            replaced.add(r.id)
    if not replaced:
        return replaced
    # A clause said beside a replaced claim goes with it ("Home for me is Helsinki, I've been
    # here six years"), unless it is on an exclusive topic of its own ("…, I work at Equinor").
    beside = _spans(r for r in survivors if r.topic not in policy.EXCLUSIVE_TOPICS)
    return with_siblings(replaced, beside + _spans(r for r in survivors if r.id in replaced))


def _intended(record: UserMemory) -> bool:
    """A plan said as an intention or with a hedge: what the user means to do."""
    return record.kind is Kind.PLAN and _hedged(record)


def replaced_from_start(survivors: Sequence[UserMemory]) -> set[uuid.UUID]:
    """Older claims that a change announced for a later date replaces once that date has come
    ("From 10 September I'm switching to the climbing gym" replaces "I train at the gym round
    the corner" from the 10th on; until then it is not valid and the old claim stands). The
    change names what it replaces by a shared content word (`policy.reference_words`), in its
    scope or globally; a change that adds ("I'm also ...") replaces nothing, and neither does
    a plan said as an intention or with a hedge ("planning to move to Austin in July", "we
    might move in June"): what is only intended replaces nothing until a later message says it
    happened. A plan said as settled ("I move to Austin on July 1st") is a change."""
    changes = [
        r
        for r in survivors
        # Open-ended: a bounded claim ("no calls on the 20th") is an exception for its span.
        if r.valid_from > r.observed_at
        and r.valid_until is None
        and not _intended(r)
        and not lx.ADDITION.search(r.claim)
    ]
    if not changes:
        return set()
    replaced: set[uuid.UUID] = set()
    for change in changes:
        named = policy.reference_words(f"{change.evidence or ''} {change.claim}")
        for old in survivors:
            if (
                said_before_in_reach(old, change)
                and old.valid_from <= change.valid_from
                and named & policy.reference_words(f"{old.evidence or ''} {old.claim}")
            ):
                replaced.add(old.id)
    changes_ids = {c.id for c in changes}
    return with_siblings(replaced, _spans(r for r in survivors if r.id not in changes_ids))


# Words of the calendar say when, not what: "hoping for April for the loft conversion" and
# "the loft conversion is booked for June 3rd" name the same arrangement by what it is, never
# by its month (`temporal_phrases` spells the months and weekdays once).
_CALENDAR = (
    frozenset(_MONTHS)
    | frozenset(_WEEKDAYS)
    | frozenset(
        "week weekend month year morning afternoon evening night tonight tomorrow spring summer "
        "autumn fall winter christmas easter start end early late next last soon later earlier "
        "first".split()
    )
)


def _hedged(record: UserMemory) -> bool:
    """Said with a hedge or as an intention ("probably", "might", "planning to")."""
    return bool(lx.HEDGE.search(record.claim) or lx.INTENTION.search(record.claim))


def _tentative(record: UserMemory) -> bool:
    """An arrangement not yet settled: a plan, or an event said with a hedge or an intention
    ("hoping for April", "probably sometime in June", "I might buy a van")."""
    return record.kind is Kind.PLAN or (record.kind is Kind.EVENT and _hedged(record))


# What can settle an arrangement: a plan said firmly, an event, a fact ("we've booked the
# conversion for June 3rd", "I got the van"); a taste or a rule about it says nothing of whether
# it happens.
_SETTLING = frozenset({Kind.PLAN, Kind.EVENT, Kind.FACT})


def _what(record: UserMemory) -> frozenset[str]:
    return policy.reference_words(record.claim) - _CALENDAR


def settled(survivors: Sequence[UserMemory]) -> set[uuid.UUID]:
    """Tentative arrangements that a later, settled statement about the same arrangement
    replaces: "hoping for April for the loft conversion, fingers crossed" gives way to "the loft
    conversion is booked for June 3rd", "I might buy a van this year" to "we got the van". The
    later claim is an event, a fact or a plan said without a hedge or an intention, of the same
    subject, later, in the old claim's scope or globally, and names the same thing by a content
    word that is no calendar word; one that adds ("I'm also ...") replaces nothing. The clauses
    said beside a replaced claim go with it (`with_siblings`)."""
    tentative = {r.id: _what(r) for r in survivors if _tentative(r)}
    if not tentative:
        return set()
    olds = [r for r in survivors if r.id in tentative]
    replaced: set[uuid.UUID] = set()
    for later in survivors:
        if later.kind not in _SETTLING or _hedged(later) or lx.ADDITION.search(later.claim):
            continue
        named = _what(later)
        replaced.update(
            old.id for old in olds if said_before_in_reach(old, later) and named & tentative[old.id]
        )
    if not replaced:
        return replaced
    return with_siblings(replaced, _spans(survivors))


# A time of day for something that recurs: "the daily summary at 7am", "send it at 9pm",
# "the briefing in the evening".
_TIME_OF_DAY = re.compile(
    r"\b(?:\d{1,2}(?::\d{2})?\s*(?:am|pm)|\d{1,2}:\d{2}|noon|midday|midnight|mornings?|"
    r"evenings?|afternoons?|nights?|lunchtime|bedtime|breakfast|first\s+thing)\b|"
    # An hour said bare after "at": "Daily news roundup at 8, please".
    r"\bat\s+\d{1,2}\b(?![:.]?\d|\s*(?:%|kg|km|mph|years?|percent|degrees))",
    re.IGNORECASE,
)
# Words of a time or of asking, which name no thing: "remind me at 8am" and "remind me at 6pm"
# may remind of two things.
_NOT_THE_THING = policy.reference_words(
    "am pm noon midday midnight lunchtime bedtime breakfast thing daily every time times "
    "remind send call book schedule set make give want like please need have get put move "
    "change switch arrive come land go usually always rather instead around about"
)


def retimed(survivors: Sequence[UserMemory]) -> set[uuid.UUID]:
    """Standing orders that set when something recurring happens ("7am for my daily summary"),
    replaced by a later one that sets another time for the same thing ("from now on send the
    summary at 9pm"): both say a time of day and name the thing by a shared content word that
    is no calendar, time or asking word, of the same subject, in the old one's scope or
    globally; one that adds ("also ...") replaces nothing."""
    timed = [
        (r, policy.reference_words(r.claim) - _CALENDAR - _NOT_THE_THING)
        for r in survivors
        if r.kind in (Kind.INSTRUCTION, Kind.PREFERENCE)
        and r.valid_until is None
        and _TIME_OF_DAY.search(r.claim)
        and not lx.ADDITION.search(r.claim)
    ]
    return {
        old.id
        for new, named in timed
        for old, old_named in timed
        if said_before_in_reach(old, new) and named & old_named
    }


# Clauses of one sentence sit this close: "My gym is the one on my street, I go at lunchtime".
_CLAUSE_GAP = 3


def with_siblings(
    replaced: set[uuid.UUID], claims: Iterable[tuple[uuid.UUID, str | None, int, int]]
) -> set[uuid.UUID]:
    """`replaced` and the clauses of the same sentence as a replaced claim (the claims of one
    message whose spans touch, given as (id, message id, start, end)): "I go at lunchtime" goes
    with "my gym is the one on my street" it was said beside."""
    claims = [c for c in claims if c[1] is not None]
    result = set(replaced)
    grew = True
    while grew:
        grew = False
        for memory_id, message, start, end in claims:
            if memory_id in result:
                continue
            if any(
                other in result
                and other_message == message
                and (abs(start - other_end) <= _CLAUSE_GAP or abs(other_start - end) <= _CLAUSE_GAP)
                for other, other_message, other_start, other_end in claims
            ):
                result.add(memory_id)
                grew = True
    return result


def _spans(records: Iterable[UserMemory]) -> list[tuple[uuid.UUID, str | None, int, int]]:
    return [
        (r.id, r.source.message_id, r.source.span[0], r.source.span[1])
        for r in records
        if r.source.span is not None
    ]


def shadowed_imports(records: Iterable[UserMemory], ts: datetime) -> set[uuid.UUID]:
    """Imported claims on a topic the subject spoke to themselves, in the same scope or
    globally, before `ts`: the user's own statement is stronger evidence than someone else's
    profile of them, whichever came first, so the import is not served beside it. The user's
    claim counts while it stands (active or paused, even awaiting confirmation) and was not
    rejected; it need not itself be usable for this request."""
    records = list(records)
    spoken = {
        (r.topic, r.scope)
        for r in records
        if r.topic
        and r.origin is not Origin.IMPORTED
        and r.status in (Status.ACTIVE, Status.PAUSED)
        and r.confirmation is not Confirmation.REJECTED
        and r.observed_at <= ts
    }
    return {
        r.id
        for r in records
        if r.origin is Origin.IMPORTED
        and r.topic
        and ((r.topic, r.scope) in spoken or (r.topic, "global") in spoken)
    }


__all__ = [
    "replaced_from_start",
    "retimed",
    "settled",
    "shadowed_imports",
    "superseded_in_time",
    "with_siblings",
]
