"""The last stage of `permem.pipeline`: `load` writes a batch in one PostgreSQL transaction
(sources, claims with their supersession, retractions, decisions, lineage and quarantine), so
either all of it is committed or none.
"""

from __future__ import annotations

import re
import uuid
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from sqlalchemy.engine import Connection

from lineage import Node, NodeKind, Relation
from permem import policy
from permem.extraction import Cue, modality
from permem.extraction.context import leans_back
from permem.hashing import content_hash
from permem.indexing import enqueue
from permem.logs import TURN_MAX, Quarantined, identifier_problem, storable
from permem.pipeline_batch import LoadResult, Prepared, Proposal, _by_tenant, _claim_id, stable_id
from permem.records import Status, UserMemory
from permem.reinstatement import reinstate
from permem.revisions import (
    Meaning,
    Retraction,
    apply_retractions,
    mark_superseded,
    plan_topic_supersession,
    with_topic_siblings,
)
from permem.stores.bulk import copy_insert
from permem.stores.database import Database, bind_tenant
from permem.stores.lineage_store import EdgeRow, add_edges
from permem.stores.memories import append_memories
from permem.stores.schema import gate_decisions, quarantine
from permem.stores.sources import append_sources
from permem.temporal import has_bound


def load(
    db: Database,
    prepared: Prepared,
    proposals: Sequence[Proposal],
    batch_id: uuid.UUID,
    meaning: Meaning | None = None,
) -> LoadResult:
    """Write the batch in one transaction: sources, claims (with supersession), decisions,
    lineage and quarantine. Either all of it is committed or none. `meaning` lets a
    retraction take back older claims by meaning as well as by words (`revisions`)."""
    superseded: list[str] = []
    result = LoadResult(0, 0, 0, 0, superseded)
    records_by_tenant: dict[str, list[UserMemory]] = defaultdict(list)
    decisions_by_tenant: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for proposal in proposals:
        assert proposal.outcome is not None
        tenant = proposal.candidate.message.tenant
        if proposal.record is not None:
            records_by_tenant[tenant].append(proposal.record)
        decisions_by_tenant[tenant].append(_decision_row(proposal, prepared, batch_id))
    sources_by_tenant = _by_tenant([*prepared.messages, *prepared.record_only])
    with db.app.begin() as conn:
        for tenant in sorted(set(sources_by_tenant) | set(records_by_tenant)):
            bind_tenant(conn, tenant)
            result.sources += len(append_sources(conn, sources_by_tenant.get(tenant, []), batch_id))
            records, replaced = plan_topic_supersession(conn, records_by_tenant.get(tenant, []))
            append_memories(conn, records, batch_id=batch_id)
            enqueue(conn, records)
            result.memories += len(records)
            mark_superseded(conn, tenant, with_topic_siblings(conn, replaced), superseded)
            retractions = _retractions(proposals, tenant)
            apply_retractions(conn, tenant, retractions, superseded, meaning)
            reinstate(conn, tenant, retractions, superseded, result.reinstated)
            add_edges(conn, _context_edges(tenant, proposals))
            decisions = decisions_by_tenant.get(tenant, [])
            copy_insert(conn, gate_decisions, decisions, skip_conflicts=True)
            result.decisions += len(decisions)
        result.quarantined = _store_quarantine(conn, prepared.quarantined, batch_id)
    return result


# Rejected as claims, yet still taking back what they name: a plan called off, a withdrawal,
# and a takeback too sensitive to keep ("my daughter outgrew her peanut allergy"), which only
# ever makes memory use less. Nothing rejected for trust or for not being real is here.
_REJECTED_YET_TAKES_BACK = frozenset({"plan_called_off", "withdrawn", "sensitive_passing_mention"})


def _retractions(proposals: Sequence[Proposal], tenant: str) -> list[Retraction]:
    """The retractions of `tenant` (extraction.modality): stored claims that take something
    back, and plans called off, which the gate rejects as claims but which still take back
    what they name; and standing claims that rule out what an older claim holds ("no running,
    no spin" after "Tuesdays are spin nights"), which take back only what they rule out.
    Nothing rejected for trust (an untrusted role, incognito, a pause, an erasure) takes
    anything back."""
    found = []
    for p in proposals:
        candidate, outcome = p.candidate, p.outcome
        if candidate.message.tenant != tenant:
            continue
        called_off = (
            outcome is not None
            and bool(outcome.reasons)
            and outcome.reasons[0] in _REJECTED_YET_TAKES_BACK
        )
        # A pause for a while ("off caffeine until June", even one whose end the parser did
        # not place) takes nothing back for good. A change announced for a later date takes
        # nothing back now: recall replaces what it names from its start
        # (recall_choice.replaced_from_start).
        stored = (
            p.record is not None
            and p.record.status is Status.ACTIVE
            and p.record.valid_until is None
            and p.record.valid_from <= p.record.observed_at
            and not has_bound(candidate.claim_text)
        )
        said: str | None = None
        specific: frozenset[str] | None = None
        returning = stored and modality.returns(candidate.claim_text)
        if returning:
            # "Same laptop as before now": what it names holds again (permem.reinstatement).
            named = policy.reference_words(candidate.claim_text)
            said = candidate.claim_text
        elif Cue.RETRACTION in candidate.cues and (stored or called_off):
            # What it names, read in memory from its unredacted words and context, never
            # stored: "the Golf's gone" names the Golf where the redactor saw a name.
            claim = candidate.claim_text
            if modality.announces_change(claim):
                # "New terms with the client. Every two weeks, net 14.": what follows says
                # what the new arrangement replaces.
                claim = f"{claim} {candidate.message.text[candidate.end :]}"
            named = policy.retracted_words(claim, _without_returns(candidate.context))
            specific = _named_by(claim, candidate.context)
            said = candidate.claim_text
        elif stored and Cue.ONE_OFF not in candidate.cues:
            named = policy.ruled_out_words(candidate.claim_text)
        else:
            continue
        if not named and said is None:
            continue
        found.append(
            Retraction(
                id=p.record.id if p.record is not None else _claim_id(candidate),
                subject=p.classification.subject,
                scope=p.classification.scope,
                observed_at=p.classification.observed_at,
                message_id=candidate.message.message_id,
                span_start=candidate.claim_start,
                named=named,
                said=said,
                specific=specific,
                returns=returning,
            )
        )
    return found


_CLAUSE = re.compile(r"\s*[,;]\s*|\s+(?:-|–|—)\s+")


def _without_returns(context: str | None) -> str | None:
    """The context without its clauses that say what holds again ("The Mac went back to IT,
    I'm on my old laptop again": the laptop is not taken back)."""
    if context is None:
        return None
    return " ".join(c for c in _CLAUSE.split(context) if not modality.returns(c))


def _named_by(claim: str, context: str | None) -> frozenset[str] | None:
    """When one clause of a retraction's sentence takes back and another says what holds now
    ("The 5k thing is old, I do 10k runs now"), what the clause that takes back names by
    itself (`Retraction.specific`); None when there is no such clause, when it points back
    ("take it off"), or when the sentence reports a finding or a new arrangement."""
    sentence = context if context and claim.strip() in context else claim
    clauses = [c for c in _CLAUSE.split(sentence) if c.strip()]
    # The clause that says what holds now ("I read paperbacks now") takes nothing back by
    # itself.
    back = [c for c in clauses if modality.takes_back(c)]
    # A finding or a new arrangement names what it replaces by what it found ("the shop
    # measured me, I'm a 56 frame"): every clause counts.
    reports = any(modality.finding(c) or modality.announces_change(c) for c in clauses)
    if back and not reports and len(back) < len(clauses) and not any(leans_back(c) for c in back):
        return policy.reference_words(" ".join(back)) or None
    return None


def _context_edges(tenant: str, proposals: Sequence[Proposal]) -> list[EdgeRow]:
    """An edge from the message a stored claim's context came from, when that is another
    message: forgetting it forgets the claim that leans on it."""
    return [
        EdgeRow(
            tenant=tenant,
            parent=Node(NodeKind.SOURCE, p.candidate.context_source),
            child=Node(NodeKind.MEMORY, str(p.record.id)),
            relation=Relation.CONTEXT,
        )
        for p in proposals
        if p.record is not None
        and p.record.tenant == tenant
        and p.candidate.context_source is not None
    ]


def _decision_row(proposal: Proposal, prepared: Prepared, batch_id: uuid.UUID) -> dict[str, Any]:
    candidate, outcome = proposal.candidate, proposal.outcome
    assert outcome is not None
    message = candidate.message
    salt = prepared.tenants[message.tenant].salt
    return {
        "id": stable_id("decision", str(_claim_id(candidate))),
        "tenant": message.tenant,
        "batch_id": batch_id,
        "source_message_id": message.message_id,
        "span_start": candidate.claim_start,
        "span_end": candidate.claim_end,
        "subject": proposal.classification.subject,
        "kind": candidate.kind.value,
        # A hash of the unredacted candidate, never its text (rejected ones included).
        "candidate_hash": content_hash(salt, candidate.claim_text),
        "decision": outcome.decision.value,
        "reasons": list(outcome.reasons),
        "policy_version": policy.POLICY_VERSION,
        "memory_id": proposal.record.id if proposal.record else None,
    }


def _store_quarantine(conn: Connection, items: Sequence[Quarantined], batch_id: uuid.UUID) -> int:
    """Store the quarantine entries, idempotently (ids derive from where and why). Every entry
    is storable whatever it came from: file and reason escaped, a tenant that breaks the
    identifier rules stored as null."""
    stored = 0
    grouped: dict[str | None, list[Quarantined]] = defaultdict(list)
    for item in items:
        usable = item.tenant is not None and identifier_problem(item.tenant) is None
        grouped[item.tenant if usable else None].append(item)
    for tenant, group in grouped.items():
        bind_tenant(conn, tenant)
        rows = []
        for q in group:
            file, reason, digest = storable(q.file), storable(q.reason), storable(q.content_hash)
            line_no = min(max(q.line_no, 0), TURN_MAX)  # PostgreSQL `integer`
            rows.append({
                "id": stable_id("quarantine", file, str(line_no), digest, reason),
                "tenant": tenant,
                "batch_id": batch_id,
                "file": file,
                "line_no": line_no,
                "reason": reason,
                "content_hash": digest,
            })  # fmt: skip
        stored += len(copy_insert(conn, quarantine, rows, skip_conflicts=True, returning="id"))
    return stored
