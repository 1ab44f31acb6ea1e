"""The write policy: what may be remembered, for which purpose, and how the gate decides.

This is the one readable, versioned place for it. Change `POLICY_VERSION` with any change of
behaviour: every gate decision stores the version it was made under.

The gate (`decide`) is a pure function of the candidate's classification and redaction and of
the stored state the pipeline looked up (paused subjects, erased sources and hashes). Its rules
are checked in order; the first that fires decides:

 1. incognito messages create nothing                                  reject  incognito
 2. a paused subject gets nothing new                                  reject  subject_paused
 3. what was erased is never re-created                                reject  erased_previously
 4. a credential is never remembered (permem.redaction)        reject  secret
 5. assistant and system text is never evidence about the user         reject  not_user_evidence
 6. instruction-like text from documents, tools, imports (a field whose
    value or key orders the assistant or the system: "skip the ID check",
    "agent must apply ...") or quoted text in a user message (poison)  reject  planted_instruction
 7. an imported field that grants a role, permission, status, override,
    discount or exemption, or waives a check (permem.extraction.imports) reject import_privilege
 8. an import's own metadata ("exported_at", "last_updated"): not a
    fact about the user; its date dates the import's fields            reject  import_metadata
 9. other document or tool content is not about the user               reject  untrusted_content
10. text quoted, pasted, forwarded or fenced in a user message is not
    the user's (permem.extraction.quoted)                              reject  quoted_content
11. a belief about the world is not a fact about the person, unless it
    draws a consequence for the user's own conduct ("so no sweets for
    mine"), which recall never uses for a factual question           reject  belief_about_world
12. a hypothetical ("if we ever got a house I'd ...") or something only considered
    ("we looked at moving ...") is not how the user lives
    (permem.extraction.modality)                          reject  hypothetical / considered_not_done
    a plan called off ("it fell through") only takes back what it names  reject  plan_called_off
    so does a withdrawal ("I had it all mixed up", "ignore what I said
    about the gym"), which states nothing in its place                 reject  withdrawn
    a hedged plan ("maybe", "thinking about") is not a plan, let alone a fact
                                                                       reject  hedged_plan
13. an inferred sensitive claim the user did not ask to keep           reject  inferred_sensitive
14. nothing but identifiers and filler left after redaction            reject  nothing_left
15. a passing mention of a special category (appointment, event)
                                                               reject  sensitive_passing_mention
16. any other special-category claim not asked to be remembered, unless the
    surface it was said on is for it (its declared purpose needs the category,
    or the surface is `isolated`: an undeclared purpose of its own)   confirm special_category
17. personal data the surface's purpose does not need, not asked for, and
    not part of an instruction to act on it                           confirm personal_not_needed
18. descriptive imported profile fields stay unconfirmed evidence,
    dated by the export (permem.classify.dated_imports)            accept  imported_unconfirmed
    and one dated more than a year (extraction.imports.IMPORT_HORIZON)
    before its import is history: its validity ends at the import,
    so recall never serves it as current                            accept  stale_import
17b. typed by someone other than the account holder ("it's Luna, I'm
    9", "borrowing the phone"; permem.extraction.speakers), filed under
    their own subject <account>:<person>                               confirm other_speaker
19. a one-off exception ("just tonight", "for this trip only")         session_only one_off
20. otherwise                                                          redact / shorten / accept

A claim the user explicitly asked to remember ("please remember that ...") is stored as
confirmed. Corrections are applied after the gate: a standing claim on an exclusive topic
supersedes the older active claims of the same subject, topic and scope. An imported field
never supersedes anything, and recall does not serve one on a topic the user spoke to
themselves (permem.recall.shadowed_imports): the user's own word outweighs an import whatever
their order. What a retraction names (`reference_words`, `retracted_words`, `ruled_out_words`)
is worked out in `permem.retraction_words`, re-exported here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

from permem.extraction import Cue
from permem.extraction.sensitive import SPECIAL
from permem.records import Confirmation, GateDecision, Kind, Origin, Role, Sensitivity, Status
from permem.retraction_words import named_by_kind as named_by_kind
from permem.retraction_words import reference_words as reference_words
from permem.retraction_words import retracted_words as retracted_words
from permem.retraction_words import ruled_out_words as ruled_out_words

POLICY_VERSION = "gate-2026.12.2"

# How long a session-only claim may live when its session's end is not reported.
SESSION_TTL = timedelta(hours=12)

REQUESTED_CONFIDENCE = 0.95
_BASE_CONFIDENCE: Mapping[Origin, float] = {
    Origin.EXPLICIT_INSTRUCTION: 0.9,
    Origin.USER_FACT: 0.85,
    Origin.OBSERVED_BEHAVIOR: 0.6,
    Origin.IMPORTED: 0.5,
    Origin.INFERRED_PROFILE: 0.4,
}


def confidence(origin: Origin, *, hedged: bool, third_party: bool) -> float:
    value = _BASE_CONFIDENCE[origin]
    if hedged:
        value *= 0.6
    if third_party:
        value *= 0.9
    return round(value, 3)


@dataclass(frozen=True, slots=True)
class Purpose:
    """A declared purpose: what it is for, which personal-data categories it needs, and the
    purposes of the claims a request made for it may use (besides its own)."""

    description: str
    categories: frozenset[str] = frozenset()
    may_use: frozenset[str] = frozenset()


# The declared purposes. A claim is stored for the purpose of the surface it was said on;
# personal data is kept without confirmation only where that purpose needs its category. A
# request may use claims of its own purpose and of the purposes listed in `may_use`: the
# coaching surfaces also use the general assistant's tastes and instructions; marketing and
# support use nothing but their own. Special-category claims go no further than their own
# purpose and the purposes that declare their category (`may_serve`). Grants name one of
# these purposes (permem/grants.py refuses any other).
PURPOSES: Mapping[str, Purpose] = {
    # Where the user lives (a city or country: a street or a home address is the special
    # `precise_location`) and what they do for work are what a general assistant needs for
    # local answers and for plans around work.
    "assistant": Purpose(
        "the general assistant: tone, format, tastes, standing instructions, where the user "
        "lives and works",
        frozenset({"location", "occupation"}),
    ),
    "budget_coach": Purpose("budgeting help", frozenset({"finance"}), frozenset({"assistant"})),
    "health_coach": Purpose(
        "health and fitness coaching", frozenset({"health"}), frozenset({"assistant"})
    ),
    "travel": Purpose("trip planning", frozenset({"location"}), frozenset({"assistant"})),
    "marketing": Purpose("selecting offers for the customer"),
    "support": Purpose("customer support for the service itself"),
}


# Retention: how long a claim may be kept after it was observed, by the purpose it serves and
# its sensitivity; the expiry flow expires what outlived it (status `expired`: never recalled,
# kept as history until forgotten). The tighter of the purpose's limit and the sensitivity's
# applies; a special-category claim the user confirmed keeps the purpose's limit.
RETENTION_BY_SENSITIVITY: Mapping[Sensitivity, timedelta] = {
    Sensitivity.NONE: timedelta(days=3 * 365),
    Sensitivity.PERSONAL: timedelta(days=2 * 365),
    Sensitivity.SPECIAL: timedelta(days=365),
}
RETENTION_BY_PURPOSE: Mapping[str, timedelta] = {
    "assistant": timedelta(days=3 * 365),
    "budget_coach": timedelta(days=2 * 365),
    "health_coach": timedelta(days=2 * 365),
    "travel": timedelta(days=365),
    "marketing": timedelta(days=180),
    "support": timedelta(days=90),
}
UNDECLARED_PURPOSE_RETENTION = timedelta(days=90)


def retention(purpose: str, sensitivity: Sensitivity, *, confirmed: bool = False) -> timedelta:
    """How long after it was observed a claim of `purpose` and `sensitivity` may be kept."""
    by_purpose = RETENTION_BY_PURPOSE.get(purpose, UNDECLARED_PURPOSE_RETENTION)
    if confirmed and sensitivity is Sensitivity.SPECIAL:
        return by_purpose
    return min(by_purpose, RETENTION_BY_SENSITIVITY[sensitivity])


def isolated(purpose: str) -> bool:
    """A surface with a purpose of its own that permem does not declare (a journal, a sleep
    tracker, a training plan): what the user tells it is kept for it alone. No declared purpose
    lists it in `may_use`, so nothing said there reaches any other purpose; in return, what the
    user volunteers there is what that surface needs (no confirmation asked)."""
    return purpose not in PURPOSES


def usable_purposes(purpose: str) -> frozenset[str]:
    """Purposes whose claims a request made for `purpose` may use (undeclared: its own)."""
    declared = PURPOSES.get(purpose)
    return frozenset({purpose}) | (declared.may_use if declared else frozenset())


# The categories that bind a claim to the purposes declared for them: GDPR art. 9, criminal
# records, precise location and children (extraction/sensitive.py says why each is there).
SPECIAL_CATEGORIES: frozenset[str] = frozenset(SPECIAL)


def may_serve(
    request_purpose: str,
    claim_purpose: str,
    sensitivity: Sensitivity,
    categories: frozenset[str],
) -> bool:
    """Whether a request made for `request_purpose` may use a claim kept for `claim_purpose`.

    Every claim needs its purpose among `usable_purposes(request_purpose)`. A special-category
    claim (stored as `special`, or carrying a category of SPECIAL_CATEGORIES) further serves
    only its own purpose or a purpose that declares every special category it carries:
    `may_use` never carries it on (travel uses the assistant's claims, not an assistant-kept
    allergy; health_coach declares health and may). A special claim whose category is not
    recognised serves only its own purpose. A grant never widens this: a grantee's request is
    made for the grant's purpose and judged here like any other.
    """
    if claim_purpose not in usable_purposes(request_purpose):
        return False
    if claim_purpose == request_purpose:
        return True
    special = categories & SPECIAL_CATEGORIES
    if not special and sensitivity is not Sensitivity.SPECIAL:
        return True
    declared = PURPOSES.get(request_purpose)
    return bool(special) and declared is not None and special <= declared.categories


# The cosine at which a retraction ("I've quit caffeine") means an older claim it shares no
# word with ("useless before my double espresso"), per embedder; calibrated on the corpus's
# development half (benchmarks/results/corpus.txt): pairs the gold says are taken back against
# pairs it says both still hold. An embedder not listed names by words only.
RETRACTION_MEANING: dict[str, float] = {"sentence-transformers/all-MiniLM-L6-v2": 0.40}

# Topics on which one standing statement replaces the previous one, unless it says it adds
# to it ("I also speak Dutch", "no dairy as well": `adds_to`).
EXCLUSIVE_TOPICS = frozenset(
    {
        "diet",
        "phone",
        "payday",
        "reply_language",
        "reply_format",
        "units",
        "spelling",
        "home",
        "job",
        "workplace",
    }
)
_ADDS = re.compile(r"\b(?:also|as\s+well|additionally|on\s+top\s+of\s+that)\b", re.IGNORECASE)


def adds_to(claim: str) -> bool:
    """A statement that adds to what holds on its topic rather than replacing it."""
    return _ADDS.search(claim) is not None


def replaces_on_topic(topic: str | None, claim: str, origin: Origin) -> bool:
    """A claim that replaces what holds on its topic: on an exclusive topic, the user's own
    (an imported field is someone else's record of the user, never a correction), and not
    said as an addition ("I also speak Dutch")."""
    return topic in EXCLUSIVE_TOPICS and origin is not Origin.IMPORTED and not adds_to(claim)


_CONTENT_WORD = re.compile(r"(?<![<\w])[^\W\d_]{2,}(?![\w>])")
_FILLER = frozenset(
    "i me my we our us you your it its is am are was be the a an and or but so to of in on at "
    "for with by from this that these those please pls thanks ok okay just also".split()
)


@dataclass(frozen=True, slots=True)
class GateInput:
    """What the gate sees of one candidate (no text: only facts about it)."""

    role: Role
    incognito: bool
    kind: Kind
    cues: frozenset[Cue]
    origin: Origin
    subject: str
    purpose: str
    sensitivity: Sensitivity
    categories: frozenset[str]
    requested: bool
    passing_mention: bool
    one_off: bool
    redacted: bool
    secret: bool  # the redactor found a credential in the claim (permem.redaction)
    shortened: bool
    content_words: int
    source_erased: bool
    hash_erased: bool
    subject_paused: bool
    # An imported field dated more than IMPORT_HORIZON before its import (permem.classify).
    stale_import: bool = False
    # Someone other than the account holder typed it (permem.extraction.speakers).
    other_speaker: bool = False
    # On an exclusive topic on which the subject already has a usable claim, said before it in
    # its scope or globally (permem.analysis.gate): it replaces that claim.
    replaces_usable: bool = False


@dataclass(frozen=True, slots=True)
class GateOutcome:
    decision: GateDecision
    reasons: tuple[str, ...]

    @property
    def stored(self) -> bool:
        return self.decision is not GateDecision.REJECT

    @property
    def status(self) -> Status:
        return Status.SESSION_ONLY if self.decision is GateDecision.SESSION_ONLY else Status.ACTIVE


def content_words(text: str) -> int:
    """Words that carry meaning: not placeholders, not filler."""
    return sum(1 for w in _CONTENT_WORD.findall(text) if w.lower() not in _FILLER)


def _reject(*reasons: str) -> GateOutcome:
    return GateOutcome(GateDecision.REJECT, reasons)


def decide(item: GateInput) -> GateOutcome:
    """The gate's decision for one candidate; see the module docstring for the rules."""
    if item.incognito:
        return _reject("incognito")
    if item.subject_paused:
        return _reject("subject_paused")
    if item.source_erased or item.hash_erased:
        return _reject("erased_previously")
    if item.secret:
        # Before every content rule: whatever else the claim is, a credential is never kept,
        # not even masked (the rest of the sentence is about using it).
        return _reject("secret")
    if item.role in (Role.ASSISTANT, Role.SYSTEM):
        return _reject("not_user_evidence", f"role:{item.role.value}")
    if Cue.PLANTED in item.cues:
        return _reject("planted_instruction", f"role:{item.role.value}")
    if item.role is Role.IMPORT and Cue.IMPORT_PRIVILEGE in item.cues:
        # A profile from elsewhere cannot grant anything here: a status, a role, a discount
        # or a waived check must come from the service's own records, never from memory.
        return _reject("import_privilege", "role:import")
    if item.role is Role.IMPORT and Cue.IMPORT_AS_OF in item.cues:
        return _reject("import_metadata", "role:import")
    if Cue.QUOTED in item.cues:
        # Quoted, pasted or forwarded text in a user message is a document inside it.
        return _reject("quoted_content", f"role:{item.role.value}")
    if item.role in (Role.DOCUMENT, Role.TOOL):
        return _reject("untrusted_content", f"role:{item.role.value}")
    if item.role is Role.IMPORT and Cue.IMPORT_FIELD not in item.cues:
        return _reject("untrusted_content", "role:import")
    if Cue.BELIEF in item.cues and Cue.OWN_CONDUCT not in item.cues:
        return _reject("belief_about_world")
    if Cue.HYPOTHETICAL in item.cues:
        return _reject("hypothetical")
    if Cue.CONSIDERED in item.cues:
        return _reject("considered_not_done")
    if Cue.CALLED_OFF in item.cues:
        # "It didn't work out, we're staying put": it takes a plan back (the loader supersedes
        # what it names) and is no claim of its own.
        return _reject("plan_called_off")
    if Cue.WITHDRAWN in item.cues:
        # "Ignore what I said about the gym": it takes back what it names, nothing else.
        return _reject("withdrawn")
    if Cue.HEDGE in item.cues and (
        item.kind is Kind.PLAN or (Cue.PLAN in item.cues and Cue.ONE_OFF not in item.cues)
    ):
        # "Maybe I'll go vegan in January, and no more cheese for me then": what follows from
        # a plan said with a hedge is no firmer than the plan.
        return _reject("hedged_plan")
    sensitive = item.sensitivity is not Sensitivity.NONE
    if item.origin is Origin.INFERRED_PROFILE and sensitive and not item.requested:
        return _reject("inferred_sensitive")
    if item.content_words < 1:
        return _reject("nothing_left")
    reasons: list[str] = []
    if item.redacted:
        reasons.append("direct_identifier_redacted")
    if item.shortened:
        reasons.append("shortened")
    if item.other_speaker:
        reasons.insert(0, "other_speaker")
    categories = ",".join(sorted(item.categories))
    if item.sensitivity is Sensitivity.SPECIAL and not item.requested:
        # Said on the surface that is for it, it is not "in passing": it is why they came.
        if item.passing_mention and not _said_for(item):
            return _reject("sensitive_passing_mention", f"categories:{categories}")
        if not _said_for(item):
            return GateOutcome(
                GateDecision.CONFIRM, ("special_category", f"categories:{categories}", *reasons)
            )
        reasons.append("special_category_own_purpose")
    if item.sensitivity is Sensitivity.PERSONAL and not item.requested and not _said_for(item):
        instructed = item.kind is Kind.INSTRUCTION or Cue.INSTRUCTION in item.cues
        if item.replaces_usable and not item.other_speaker:
            # "Wages land on the last Friday now" after a payday kept in use: holding the
            # update for confirmation would leave the stale value in use, and keeps no less.
            reasons.append("replaces_usable_claim")
        elif not instructed:
            return GateOutcome(
                GateDecision.CONFIRM, ("personal_not_needed", f"categories:{categories}", *reasons)
            )
        else:
            # The user told the assistant to act on it ("warn me about any purchase over 50,
            # I'm saving"): following the instruction is the purpose that needs it.
            reasons.append("personal_for_instruction")
    if item.other_speaker:
        # Someone else typing on the account: theirs, not the holder's, and unusable until
        # confirmed (even when they asked to remember it, or called it a one-off).
        return GateOutcome(GateDecision.CONFIRM, tuple(reasons))
    if item.requested:
        reasons.append("remember_requested")
    if item.role is Role.IMPORT:
        reasons.append("imported_unconfirmed")
        if item.stale_import:
            reasons.append("stale_import")
    if item.one_off:
        return GateOutcome(GateDecision.SESSION_ONLY, ("one_off", *reasons))
    if item.kind is Kind.PLAN:
        reasons.append("plan_not_current_fact")
    if item.redacted:
        return GateOutcome(GateDecision.REDACT, tuple(reasons))
    if item.shortened:
        return GateOutcome(GateDecision.SHORTEN, tuple(reasons))
    return GateOutcome(GateDecision.ACCEPT, tuple(reasons) or ("accepted",))


def _said_for(item: GateInput) -> bool:
    """The claim's personal-data categories are what the surface it was said on is for: its
    declared purpose needs every one of them, or the surface is `isolated` (never the general
    assistant, whose special categories always need a confirmation)."""
    if isolated(item.purpose):
        return True
    needed = PURPOSES[item.purpose].categories
    special = item.categories & SPECIAL_CATEGORIES
    if item.sensitivity is Sensitivity.SPECIAL and not special:
        return False
    return bool(item.categories) and item.categories <= needed


def confirmation_for(outcome: GateOutcome, requested: bool) -> Confirmation:
    if outcome.decision is GateDecision.CONFIRM:
        return Confirmation.PENDING
    return Confirmation.CONFIRMED if requested else Confirmation.UNCONFIRMED
