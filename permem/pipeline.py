"""The nightly batch pipeline, stage by stage, without Prefect.

    read -> prepare -> extract -> classify -> redact -> gate -> validate -> load -> index

Each stage is a function of the runtime and the previous stage's output, so the flow can run
one Prefect task per stage per batch and tests can run and interrupt the stages directly.
Nothing is written before `load`, which writes the whole batch (sources, claims, decisions,
supersessions, lineage, quarantine) in one PostgreSQL transaction; `index` then embeds and
indexes every committed claim the vector index lacks, so a crash anywhere is repaired by
running again. Identifiers are derived from the source (tenant, message, span), so a re-run
produces the same rows and adds none. The objects passed between the stages are in
`permem.pipeline_batch` and the `load` stage in `permem.pipeline_load`, re-exported here.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import pandas as pd
from sqlalchemy.engine import Connection

from permem import policy
from permem.arrivals import Arrival, Known, arrival_of, read_known
from permem.classify import classify_all as classify_many
from permem.classify import sensitivity_of
from permem.extraction import Candidate, Extractor
from permem.extraction.context import leans_back
from permem.extraction.speakers import attribute_candidates
from permem.hashing import content_hash, subject_fingerprint
from permem.logs import LogBatch, Quarantined
from permem.pipeline_batch import (
    LoadResult,
    Prepared,
    Proposal,
    TenantState,
    _by_tenant,
    _claim_id,
    stable_id,
)
from permem.pipeline_load import load
from permem.policy import GateInput
from permem.quality import IDENTIFIER_PATTERNS, BatchValidation, validate_batch
from permem.records import GateDecision, Message, SourceRef, UserMemory
from permem.redaction import Redactor, carries_secret
from permem.stores.database import Database, bind_tenant, register_tenant, tenant_salt
from permem.stores.memories import memory_rows


def prepare(db: Database, batch: LogBatch) -> Prepared:
    """Sort the batch's messages (see `permem.arrivals`): new ones go on; those already
    processed, erased or incognito are dropped; changed content under a processed message_id,
    a duplicate id with other content and a message a forget request covers on arrival are
    quarantined (a salted hash, never the text); a paused subject's messages are only recorded.
    Looks the tenants' state up in a fixed number of queries per tenant, registers new tenants
    (idempotent) and writes nothing else."""
    counts: Counter[str] = Counter(read=len(batch.messages), quarantined=len(batch.quarantined))
    quarantined = list(batch.quarantined)
    seen: dict[tuple[str, str], str] = {}
    unique: list[Message] = []
    clashes: list[Message] = []
    for message in batch.messages:
        key = (message.tenant, message.message_id)
        digest = content_hash(b"", message.text)  # compared in memory only, never stored
        if key in seen:
            if seen[key] != digest:
                clashes.append(message)
            counts["duplicate"] += 1
            continue
        seen[key] = digest
        if message.incognito:
            counts["incognito"] += 1
            continue
        unique.append(message)

    grouped = _by_tenant(unique)
    for message in clashes:
        grouped.setdefault(message.tenant, [])
    tenants: dict[str, TenantState] = {}
    fresh: list[Message] = []
    record_only: list[Message] = []
    with db.app.begin() as conn:
        for tenant, messages in grouped.items():
            bind_tenant(conn, tenant)
            register_tenant(conn, tenant)
            state, known = _tenant_state(conn, messages)
            tenants[tenant] = state
            for message in messages:
                digest = content_hash(state.salt, message.text)
                arrival, reason = arrival_of(message, digest, known)
                if arrival is Arrival.NEW:
                    fresh.append(message)
                    continue
                counts[arrival.value] += 1
                if arrival is Arrival.PAUSED:
                    record_only.append(message)
                elif reason is not None:
                    quarantined.append(_set_aside(message, digest, reason))
            for message in (m for m in clashes if m.tenant == tenant):
                digest = content_hash(state.salt, message.text)
                reason = f"duplicate message_id {message.message_id} with other content"
                quarantined.append(_set_aside(message, digest, reason))
        for tenant in {q.tenant for q in quarantined if q.tenant} - tenants.keys():
            bind_tenant(conn, tenant)
            register_tenant(conn, tenant)
    counts["quarantined"] = len(quarantined)
    counts["new"] = len(fresh)
    return Prepared(batch.number, fresh, record_only, quarantined, tenants, counts)


def _set_aside(message: Message, digest: str, reason: str) -> Quarantined:
    """A quarantine entry for a message that was read but must not be processed: where it was
    read, why, and its salted content hash (never its text)."""
    file, line_no = message.log_line or ("<batch>", 0)
    return Quarantined(file, line_no, reason, digest, message.tenant)


def _tenant_state(conn: Connection, messages: Sequence[Message]) -> tuple[TenantState, Known]:
    """The gate's view of the bound tenant and what its stores know of `messages`."""
    known = read_known(conn, messages)
    state = TenantState(
        salt=tenant_salt(conn),
        paused=known.paused,
        erased_sources=known.erased_sources,
        erased_hashes=known.erased_hashes,
    )
    return state, known


def extract(extractor: Extractor, prepared: Prepared) -> list[Candidate]:
    """The extractor's candidates, each attributed to who typed it: someone other than the
    account holder typing on the account gets a subject of their own (`speakers`)."""
    return attribute_candidates(prepared.messages, extractor.extract(prepared.messages))


def classify_all(candidates: Sequence[Candidate]) -> list[Proposal]:
    return [Proposal(c, k) for c, k in zip(candidates, classify_many(candidates), strict=True)]


def redact(redactor: Redactor, proposals: Sequence[Proposal]) -> list[Proposal]:
    """Mask direct identifiers in each claim (reusing the extractor's parse when it has one).

    The claim is the verbatim supporting span, so the redacted claim is also the redacted
    evidence: no second copy of the source text is kept. The entity types found are what the
    gate learns of the claim's identifiers: a secret among them makes it reject the claim.

    The contexts have no parse of their own: each distinct one is parsed once for the whole
    batch (one `nlp.pipe`) and analyzed once, however many candidates lean on it.
    """
    contexts = redactor.analyze_many(
        [p.candidate.context for p in proposals if p.candidate.context]
    )
    for proposal in proposals:
        candidate = proposal.candidate
        entities = redactor.analyze(candidate.claim_text, candidate.doc)
        proposal.claim = _mask(candidate.claim_text, entities)
        types = {e.type for e in entities}
        if candidate.context:
            around = contexts[candidate.context]
            masked = _mask(candidate.context, around)
            if leans_back(candidate.claim_text):
                # The claim means nothing without it ("take it off my list" needs what "it"
                # was): kept, and judged with it (its sensitivity, validation, secrets).
                proposal.evidence = masked
                types |= {e.type for e in around if carries_secret((e.type,))}
            elif _harmless_context(candidate, masked):
                # The sentence a clause was cut from, kept only when it carries nothing the
                # claim does not (no personal category, no identifier the redactor missed):
                # it names what a later correction takes back ("night shifts" for "I sleep
                # during the day"), and can never bring past the gate what the gate held.
                proposal.evidence = masked
        proposal.entity_types = tuple(sorted(types))
    return list(proposals)


_IDENTIFIER = re.compile("|".join(IDENTIFIER_PATTERNS))


def _harmless_context(candidate: Candidate, masked: str) -> bool:
    """The masked sentence around a clause adds no personal category, credential or missed
    identifier to the claim's own."""
    if _IDENTIFIER.search(masked):
        return False
    _, around = sensitivity_of(masked)
    _, own = sensitivity_of(candidate.claim_text)
    return around <= own


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


def gate(
    prepared: Prepared,
    proposals: Sequence[Proposal],
    *,
    session_ttl: timedelta = policy.SESSION_TTL,
) -> list[Proposal]:
    """Decide every proposal (see `permem.policy`) and build the records to store."""
    for proposal in proposals:
        candidate, c = proposal.candidate, proposal.classification
        message = candidate.message
        state = prepared.tenants[message.tenant]
        outcome = policy.decide(
            GateInput(
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
            )
        )
        proposal.outcome = outcome
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


def stored_records(proposals: Sequence[Proposal]) -> list[UserMemory]:
    return [p.record for p in proposals if p.record is not None]


def validate(prepared: Prepared, proposals: Sequence[Proposal]) -> BatchValidation:
    """Great Expectations over the claims about to be loaded."""
    rows: list[dict[str, Any]] = []
    by_tenant: dict[str, list[UserMemory]] = defaultdict(list)
    for record in stored_records(proposals):
        by_tenant[record.tenant].append(record)
    for tenant, records in by_tenant.items():
        rows.extend(memory_rows(records, prepared.tenants[tenant].salt))
    return validate_batch(pd.DataFrame(rows))


__all__ = [
    "LoadResult",
    "Prepared",
    "Proposal",
    "classify_all",
    "extract",
    "gate",
    "load",
    "prepare",
    "redact",
    "stable_id",
    "validate",
]
