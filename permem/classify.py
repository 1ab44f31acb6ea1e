"""Classification of a candidate claim: origin, subject, scope, purpose, validity, confidence,
sensitivity. Pure functions of the candidate; the write gate decides what to do with them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from permem import policy
from permem.extraction import Candidate, Cue
from permem.extraction.sensitive import PERSONAL, SPECIAL
from permem.records import Kind, Origin, Role, Sensitivity
from permem.temporal import resolve

_OCCUPATION = re.compile(
    r"\b(?:i'm|i am|im|i work as|work as|working as|job as|career as)\s+(?:an?\s+)?"
    r"(?:[a-z-]+\s+){0,2}(?:[a-z]{2,}(?:er|or|ist|ian|ant|ent|ess)|nurse|chef|cook|pilot|"
    r"surgeon|student|intern|trucker|barista|mechanic|plumber|electrician|carpenter|"
    r"pharmacist|paramedic|firefighter|cop|soldier|vet|ceo|cto|founder|freelancer)\b",
    re.IGNORECASE,
)
_NOT_OCCUPATION = re.compile(
    r"\b(?:fan|lover|beginner|user|member|reader|player|runner|gamer|follower|believer|"
    r"customer|owner|eater|drinker|sleeper|worrier|fighter|parent|mother|father|vegetarian|"
    r"pescatarian|introvert|extrovert)\b",
    re.IGNORECASE,
)
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


@functools.lru_cache(maxsize=8192)
def sensitivity_of(text: str) -> tuple[Sensitivity, frozenset[str]]:
    """The strictest sensitivity the text carries, and every category seen.

    The categories are sensitive.SPECIAL's (special) and sensitive.PERSONAL's plus `occupation`
    (personal). Pure and cached: recall recomputes a stored claim's categories with it, since
    the row keeps only the sensitivity (policy.may_serve).
    """
    special = {name for name, pattern in SPECIAL.items() if pattern.search(text)}
    personal = {name for name, pattern in PERSONAL.items() if pattern.search(text)}
    if _OCCUPATION.search(text) and not _NOT_OCCUPATION.search(text):
        personal.add("occupation")
    if special:
        return Sensitivity.SPECIAL, frozenset(special | personal)
    if personal:
        return Sensitivity.PERSONAL, frozenset(personal)
    return Sensitivity.NONE, frozenset()


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


def classify_all(candidates: Sequence[Candidate]) -> list[Classification]:
    """`classify` each candidate, then let an adherence instruction without a time of its own
    take the latest end of the time-bounded claims of its message."""
    found = [classify(c) for c in candidates]
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


def classify(candidate: Candidate) -> Classification:
    message = candidate.message
    text = candidate.claim_text
    support = candidate.support_text
    origin = origin_of(candidate)
    validity = resolve(
        support,
        message.ts,
        plan=candidate.kind is Kind.PLAN,
        one_off=Cue.ONE_OFF in candidate.cues,
    )
    sensitivity, categories = sensitivity_of(text)
    if candidate.about is not None:
        # Naming a relative or partner says something about the speaker's relationships.
        categories = categories | {"relationships"}
        if sensitivity is Sensitivity.NONE:
            sensitivity = Sensitivity.PERSONAL
    hedged = Cue.HEDGE in candidate.cues
    confidence = policy.confidence(origin, hedged=hedged, third_party=candidate.about is not None)
    requested = Cue.REMEMBER_REQUEST in candidate.cues
    passing = candidate.kind in (Kind.EVENT, Kind.PLAN) or bool(_APPOINTMENT.search(text))
    return Classification(
        origin=origin,
        subject=subject_of(candidate.speaker or message.subject, candidate.about),
        scope=message.scope,
        purpose=message.purpose,
        observed_at=message.ts,
        valid_from=validity.valid_from,
        valid_until=validity.valid_until,
        one_off=validity.one_off,
        confidence=max(confidence, policy.REQUESTED_CONFIDENCE) if requested else confidence,
        sensitivity=sensitivity,
        categories=categories,
        requested=requested,
        passing_mention=passing,
        other_speaker=candidate.speaker is not None,
    )
