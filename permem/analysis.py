"""The stages of a nightly batch that read no store: extract, classify, redact and gate, and
`analyze_stage`, which runs the four over one partition of a batch (`partition`) in any
process, a Dask worker's included; `merge` puts the partitions' proposals back in batch order.

Nothing here imports what a worker does not use: no database driver, no vector index, no Great
Expectations or pandas (`tests/test_flow_dask.py` checks it in a fresh interpreter). A worker
that runs `analyze_stage` imports this module, spaCy and Presidio, and nothing of the stages
that stay in the flow's process (`permem.pipeline`, `permem.nightly_stages`).
"""

from __future__ import annotations

import hashlib
import re
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from permem import policy
from permem.classify import classify_all as classify_many
from permem.extraction import Candidate, Extractor
from permem.extraction.context import leans_back
from permem.extraction.sensitive import sensitivity_of
from permem.extraction.speakers import attribute, attribute_candidates, helped_holders
from permem.hashing import subject_fingerprint
from permem.pipeline_batch import Prepared, Proposal, TenantState, _claim_id
from permem.policy import GateInput
from permem.quality import IDENTIFIER_PATTERNS
from permem.records import GateDecision, Message, SourceRef, UserMemory
from permem.redaction import Redactor, carries_secret
from permem.runtime import analyzers
from permem.settings import Settings

__all__ = [
    "Analysis",
    "analyze_stage",
    "classify_all",
    "extract",
    "gate",
    "merge",
    "partition",
    "redact",
]


def extract(extractor: Extractor, prepared: Prepared) -> list[Candidate]:
    """The extractor's candidates, each attributed to who typed it: someone other than the
    account holder typing on the account gets a subject of their own (`speakers`)."""
    # Who types is read once: the extractor selects what a helper says of the holder by it.
    turns = attribute(prepared.messages)
    found = extractor.extract(prepared.messages, helped_holders(turns))
    return attribute_candidates(prepared.messages, found, turns)


def classify_all(candidates: Sequence[Candidate]) -> list[Proposal]:
    return [Proposal(c, k) for c, k in zip(candidates, classify_many(candidates), strict=True)]


def redact(redactor: Redactor, proposals: Sequence[Proposal]) -> list[Proposal]:
    """Mask direct identifiers in each claim (reusing the extractor's parse when it has one).

    The claim is the verbatim supporting span, so the redacted claim is also the redacted
    evidence: no second copy of the source text is kept. The entity types found are what the
    gate learns of the claim's identifiers: a secret among them makes it reject the claim.

    The contexts have no parse of their own: each distinct one is analyzed, masked and read once
    for the whole batch, however many candidates lean on it, and only its text around a claim
    already parsed is parsed, in one `nlp.pipe` (`Redactor.analyze_contexts`).
    """
    found, contexts = redactor.analyze_claims(
        [(p.candidate.claim_text, p.candidate.context, p.candidate.doc) for p in proposals]
    )
    # Each distinct context is masked and read once: a long sentence of many clauses is the
    # context of each of them, and reading it again for each was quadratic in its length.
    masked_of: dict[str, str] = {}
    carried: dict[str, frozenset[str] | None] = {}
    for proposal, entities in zip(proposals, found, strict=True):
        candidate = proposal.candidate
        proposal.claim = _mask(candidate.claim_text, entities)
        types = {e.type for e in entities}
        if candidate.context:
            context = candidate.context
            around = contexts[context]
            if context not in masked_of:
                masked_of[context] = _mask(context, around)
            masked = masked_of[context]
            if leans_back(candidate.claim_text):
                # The claim means nothing without it ("take it off my list" needs what "it"
                # was): kept, and judged with it (its sensitivity, validation, secrets).
                proposal.evidence = masked
                types |= {e.type for e in around if carries_secret((e.type,))}
            else:
                if context not in carried:
                    carried[context] = _context_carries(masked)
                if _harmless_context(candidate, carried[context]):
                    # The sentence a clause was cut from, kept only when it carries nothing
                    # the claim does not (no personal category, no identifier the redactor
                    # missed): it names what a later correction takes back ("night shifts" for
                    # "I sleep during the day"), and can never bring past the gate what the
                    # gate held.
                    proposal.evidence = masked
        proposal.entity_types = tuple(sorted(types))
    return list(proposals)


_IDENTIFIER = re.compile("|".join(IDENTIFIER_PATTERNS))


def _context_carries(masked: str) -> frozenset[str] | None:
    """The personal categories a masked context carries, or None when it still holds an
    identifier the redactor missed; read once per distinct context."""
    return None if _IDENTIFIER.search(masked) else sensitivity_of(masked)[1]


def _harmless_context(candidate: Candidate, carries: frozenset[str] | None) -> bool:
    """The context around a clause (what `_context_carries` read in it) adds no personal
    category, credential or missed identifier to the claim's own."""
    if carries is None:
        return False
    _, own = sensitivity_of(candidate.claim_text)
    return carries <= own


def _mask(text: str, entities: Sequence[Any]) -> str:
    pieces: list[str] = []
    cursor = 0
    for entity in sorted(entities, key=lambda e: (e.start, -e.end)):
        if entity.start < cursor:
            continue
        pieces.append(text[cursor : entity.start])
        pieces.append(f"<{entity.type}>")
        cursor = entity.end
    pieces.append(text[cursor:])
    return "".join(pieces).strip()


def _gate_input(proposal: Proposal, state: TenantState, *, replaces_usable: bool) -> GateInput:
    candidate, c = proposal.candidate, proposal.classification
    message = candidate.message
    return GateInput(
        role=message.role,
        incognito=message.incognito,
        kind=candidate.kind,
        cues=candidate.cues,
        origin=c.origin,
        subject=c.subject,
        purpose=c.purpose,
        sensitivity=c.sensitivity,
        categories=c.categories,
        requested=c.requested,
        passing_mention=c.passing_mention,
        one_off=c.one_off,
        redacted=bool(proposal.entity_types),
        secret=carries_secret(proposal.entity_types),
        shortened=candidate.shortened,
        content_words=policy.content_words(proposal.claim),
        source_erased=message.message_id in state.erased_sources,
        hash_erased=subject_fingerprint(state.salt, c.subject, proposal.claim)
        in state.erased_hashes,
        subject_paused=c.subject in state.paused,
        stale_import=c.stale_import,
        other_speaker=c.other_speaker,
        replaces_usable=replaces_usable,
    )


_TopicKey = tuple[str, str, str, str]  # tenant, subject, exclusive topic, scope


def _topic_key(proposal: Proposal) -> _TopicKey | None:
    topic = proposal.candidate.topic
    if topic is None or topic not in policy.EXCLUSIVE_TOPICS:
        return None
    c = proposal.classification
    return (proposal.candidate.message.tenant, c.subject, topic, c.scope)


def _in_use(prepared: Prepared, proposals: Sequence[Proposal]) -> dict[_TopicKey, datetime]:
    """When each (tenant, subject, exclusive topic, scope) first had a claim in use: stored
    before this batch (the tenant state's `usable_topics`, as early as can be) or said in it
    and stored usable by the gate's first pass."""
    earliest: dict[_TopicKey, datetime] = {}
    for tenant, state in prepared.tenants.items():
        for subject, topic, scope in state.usable_topics:
            earliest[(tenant, subject, topic, scope)] = datetime.min.replace(tzinfo=UTC)
    for proposal in proposals:
        outcome, key = proposal.outcome, _topic_key(proposal)
        if key is None or outcome is None or not outcome.stored:
            continue
        if outcome.decision in (GateDecision.CONFIRM, GateDecision.SESSION_ONLY):
            continue
        if proposal.classification.valid_until is not None:
            continue  # bounded: not the claim in use for good
        said = proposal.classification.observed_at
        earliest[key] = min(said, earliest.get(key, said))
    return earliest


def gate(
    prepared: Prepared,
    proposals: Sequence[Proposal],
    *,
    session_ttl: timedelta = policy.SESSION_TTL,
) -> list[Proposal]:
    """Decide every proposal (see `permem.policy`) and build the records to store. A claim held
    for confirmation only because its personal data is not needed is decided again when it
    replaces a claim in use on its exclusive topic (`_in_use`, `GateInput.replaces_usable`)."""
    for proposal in proposals:
        state = prepared.tenants[proposal.candidate.message.tenant]
        proposal.outcome = policy.decide(_gate_input(proposal, state, replaces_usable=False))
    in_use = _in_use(prepared, proposals)
    for proposal in proposals:
        outcome, key = proposal.outcome, _topic_key(proposal)
        if key is None or outcome is None or outcome.reasons[:1] != ("personal_not_needed",):
            continue
        c = proposal.classification
        if not policy.replaces_on_topic(key[2], proposal.claim, c.origin):
            continue  # an addition or an import replaces nothing (`revisions.topic_key`)
        tenant, subject, topic, scope = key
        said = c.observed_at
        if any(
            (tenant, subject, topic, where) in in_use
            and in_use[(tenant, subject, topic, where)] < said
            for where in {scope, "global"}
        ):
            state = prepared.tenants[tenant]
            proposal.outcome = policy.decide(_gate_input(proposal, state, replaces_usable=True))
    for proposal in proposals:
        candidate, c = proposal.candidate, proposal.classification
        message = candidate.message
        outcome = proposal.outcome
        assert outcome is not None
        if not outcome.stored:
            continue
        valid_until = c.valid_until
        if outcome.decision is GateDecision.SESSION_ONLY:
            ends = c.valid_from + session_ttl
            valid_until = min(valid_until, ends) if valid_until else ends
        proposal.record = UserMemory(
            id=_claim_id(candidate),
            tenant=message.tenant,
            subject=c.subject,
            account=message.account,
            origin=c.origin,
            kind=candidate.kind,
            claim=proposal.claim,
            source=SourceRef(message.message_id, (candidate.claim_start, candidate.claim_end)),
            scope=c.scope,
            purpose=c.purpose,
            observed_at=c.observed_at,
            valid_from=c.valid_from,
            valid_until=valid_until,
            confidence=c.confidence,
            sensitivity=c.sensitivity,
            confirmation=policy.confirmation_for(outcome, c.requested),
            status=outcome.status,
            session=(message.session or message.conversation_id)
            if outcome.decision is GateDecision.SESSION_ONLY
            else None,
            topic=candidate.topic,
            policy_version=policy.POLICY_VERSION,
            evidence=proposal.evidence,
        )
    return list(proposals)


@dataclass
class Analysis:
    """One partition of a batch through extract, classify, redact and gate."""

    proposals: list[Proposal]
    candidates: int
    seconds: dict[str, float]


def partition(prepared: Prepared, parts: int) -> list[Prepared]:
    """The batch's messages split into at most `parts` non-empty partitions, in batch order.

    A message goes to the partition that a stable hash of its (tenant, account) names, so a
    subject's messages stay together whatever the process. Each partition carries only what
    the analysis needs: its messages and the state of their tenants.
    """
    grouped: list[list[Message]] = [[] for _ in range(parts)]
    for message in prepared.messages:
        key = f"{message.tenant}\x1f{message.account}".encode()
        digest = hashlib.blake2b(key, digest_size=8).digest()
        grouped[int.from_bytes(digest, "big") % parts].append(message)
    return [
        Prepared(
            batch=prepared.batch,
            messages=messages,
            record_only=[],
            quarantined=[],
            tenants={t: prepared.tenants[t] for t in sorted({m.tenant for m in messages})},
            counts=Counter(),
        )
        for messages in grouped
        if messages
    ]


def analyze_stage(settings: Settings, prepared: Prepared) -> Analysis:
    """Extract, classify, redact and gate one partition, in any process.

    The extractor and redactor are this process's (built from `settings` on first use; no
    store is opened). The parses stay here: a spaCy `Doc` pickles with its whole vocabulary,
    and nothing after the gate reads it.
    """
    extractor, redactor = analyzers(settings)
    seconds: dict[str, float] = {}
    started = time.perf_counter()
    candidates = extract(extractor, prepared)
    seconds["extract"] = time.perf_counter() - started
    started = time.perf_counter()
    proposals = classify_all(candidates)
    seconds["classify"] = time.perf_counter() - started
    started = time.perf_counter()
    proposals = redact(redactor, proposals)
    seconds["redact"] = time.perf_counter() - started
    started = time.perf_counter()
    proposals = gate(prepared, proposals, session_ttl=settings.session_ttl)
    seconds["gate"] = time.perf_counter() - started
    for proposal in proposals:
        proposal.candidate = replace(proposal.candidate, doc=None)
    return Analysis(proposals, len(candidates), seconds)


def merge(prepared: Prepared, analyses: list[Analysis]) -> list[Proposal]:
    """The partitions' proposals as one list in the batch's message order (a message's own
    proposals keep the extractor's order: they all come from one partition)."""
    position = {(m.tenant, m.message_id): i for i, m in enumerate(prepared.messages)}
    proposals = [p for analysis in analyses for p in analysis.proposals]
    return sorted(
        proposals,
        key=lambda p: position[(p.candidate.message.tenant, p.candidate.message.message_id)],
    )
