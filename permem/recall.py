"""Recall: first filter, then rank, then check again, then log.

1. **Authorize** the actor: the subject themself, the account holder for a third party they
   told us about (`<account>:<relation>`), or the holder of an explicit, unexpired, unrevoked
   grant for this subject and purpose. Otherwise the answer is `denied`, with the reason. A
   grantee sees only the claim scopes its grants cover (permem/grants.py: `global` covers
   global claims, a named scope that scope and global claims, `*` every scope).
2. **Filter** in PostgreSQL (tenant by row-level security): the subject's claims that are
   `active` (or `session_only` in the query's own session), not awaiting or refused
   confirmation, valid at the query's time, in the query's scope or `global` (and in the
   scopes the grant covers), of a purpose the request's purpose may use, of a subject that is
   not paused, and absent from the erasure ledger. A special-category claim serves only its
   own purpose or one that declares its category (policy.may_serve); the row keeps only the
   sensitivity, so the categories are recomputed from the claim text (classify.sensitivity_of:
   cached regexes; a `special` row with no recognised category serves only its own purpose).
   A factual question (“is MSG safe to eat?”) gets no biographical claims (facts,
   events, plans): objective truth is not personalized. An imported claim on a topic the
   subject spoke to themselves is not served (`shadowed_imports`): the user's word outweighs
   someone else's profile of them.
3. **Rank** only the survivors: exact cosine similarity from the vector index (prefiltered to
   exactly those ids; claims the index does not hold yet are embedded on the spot), blended
   with a lexical overlap signal.
4. **Re-check** the ranked ids against PostgreSQL in a new transaction, so a claim blocked,
   corrected or erased while ranking never comes back.
5. **Log** to `recall_log`: actor, subject, purpose, scope, a salted hash of the query text,
   the returned ids and the counts filtered out by reason: ids and counts only, never text.
"""

from __future__ import annotations

import re
import unicodedata
import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from permem import policy
from permem.classify import sensitivity_of
from permem.controls import subject_paused
from permem.embedding import Embedder
from permem.erasure.ledger import blocking
from permem.extraction import lexicon as lx
from permem.extraction.context import meaning
from permem.grants import covers
from permem.hashing import content_hash, normalize
from permem.logs import identifier_problem, parse_ts, unstorable_problem
from permem.recall_choice import replaced_from_start, shadowed_imports, superseded_in_time
from permem.records import Confirmation, Kind, Status, UserMemory
from permem.stores.database import (
    Database,
    check_tenant,
    register_tenant,
    tenant_salt,
    tenant_transaction,
)
from permem.stores.memories import record_from_row
from permem.stores.schema import grants, memories, recall_log
from permem.stores.vectors import VectorIndex

# How much of the score is meaning (cosine) and how much shared words.
VECTOR_WEIGHT = 0.8
LEXICAL_WEIGHT = 0.2
MAX_K = 50

_SCOPE = re.compile(r"^(global|(workspace|project):\S.*)$")
_FACTUAL_QUESTION = re.compile(
    r"^\s*(?:is|are|was|were|can|could|does|do|did|will|has|have|how (?:many|much|far|long|"
    r"old|big|tall|hot|cold)|what (?:is|are|was|were) the|who (?:is|was|wrote|invented)|"
    r"when (?:did|was|is)|why (?:is|are|do|does)|is it true|"
    # How the world works, and what is known: "how do scientists date rocks?", "what does
    # the research say about ...?", "is there evidence that ...?".
    r"how (?:do|does|did) (?!you\b)|"
    r"what (?:does|do|did) (?:the |recent |current )?(?:research|science|evidence|studies|"
    r"study|experts?|scientists?|data|history|doctors?|literature)|"
    r"is there (?:any |good |real )?(?:evidence|proof|research|data))\b"
    r"(?!.*\b(?:i|me|my|mine|we|our)\b)",
    re.IGNORECASE,
)
_REQUEST = re.compile(r"^\s*(?:can|could|would|will) you\b", re.IGNORECASE)
_OVERRIDE = re.compile(
    r"\b(?:this time|just this once|for once|today|tonight|instead|even though|anyway|"
    r"ignore my|forget (?:about )?my|for a change|actually|this once)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[^\W\d_]{3,}")
_STOP = frozenset(
    "the and for with that this you your are was were have has had not but can could would "
    "should will what when where which who how about from into just some any all more most "
    "very really also them they their there here then than too our ours out get got".split()
)


_IDENTIFIERS = ("tenant", "actor", "subject", "scope")


@dataclass(frozen=True, slots=True)
class RecallQuery:
    query_id: str
    tenant: str
    actor: str
    subject: str
    purpose: str
    scope: str
    ts: datetime
    text: str
    k: int = 5
    session: str | None = None


def parse_query(obj: Any) -> RecallQuery:
    """Validate one query line (FORMATS.md); ValueError with a short reason otherwise."""
    if not isinstance(obj, dict):
        raise ValueError("query is not a JSON object")
    for name in ("query_id", "tenant", "actor", "subject", "purpose", "scope", "ts", "text"):
        value = obj.get(name)
        if not isinstance(value, str) or (name != "text" and not value.strip()):
            raise ValueError(f"field {name} must be a non-empty string")
        problem = unstorable_problem(value)
        if problem:
            raise ValueError(f"field {name} {problem}")
    # The log's identifier rules (permem.logs), so a query names people as the log does.
    fields = {name: unicodedata.normalize("NFC", obj[name]) for name in _IDENTIFIERS}
    for name, value in fields.items():
        problem = identifier_problem(value)
        if problem:
            raise ValueError(f"field {name} {problem}")
    if not _SCOPE.match(fields["scope"]):
        raise ValueError("field scope must be global, workspace:<name> or project:<name>")
    ts = parse_ts(obj["ts"])
    k = obj.get("k", 5)
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= MAX_K:
        raise ValueError(f"field k must be an integer from 1 to {MAX_K}")
    session = obj.get("session")
    if session is not None:
        if not isinstance(session, str):
            raise ValueError("field session must be a string")
        session = unicodedata.normalize("NFC", session)
        problem = identifier_problem(session)
        if problem:
            raise ValueError(f"field session {problem}")
    check_tenant(fields["tenant"])
    return RecallQuery(
        query_id=obj["query_id"],
        tenant=fields["tenant"],
        actor=fields["actor"],
        subject=fields["subject"],
        purpose=obj["purpose"],
        scope=fields["scope"],
        ts=ts,
        text=obj["text"],
        k=k,
        session=session,
    )


@dataclass(frozen=True, slots=True)
class Recalled:
    record: UserMemory
    score: float
    conflicts_with_request: bool

    def as_json(self) -> dict[str, Any]:
        r = self.record
        return {
            "id": str(r.id),
            "subject": r.subject,
            "claim": r.claim,
            "origin": r.origin.value,
            "kind": r.kind.value,
            "scope": r.scope,
            "purpose": r.purpose,
            "sensitivity": r.sensitivity.value,
            "confidence": round(r.confidence, 4),
            "valid_from": r.valid_from.isoformat(),
            "valid_until": r.valid_until.isoformat() if r.valid_until else None,
            "source": r.source.as_json(),
            "score": round(self.score, 4),
            # The current request wins for this action only; the memory is unchanged.
            "conflicts_with_request": self.conflicts_with_request,
        }


@dataclass
class RecallAnswer:
    query_id: str
    records: list[Recalled] = field(default_factory=list)
    denied: str | None = None
    error: str | None = None
    filtered_out: Counter[str] = field(default_factory=Counter)

    def as_json(self) -> dict[str, Any]:
        if self.error is not None:
            return {"query_id": self.query_id, "error": self.error}
        return {
            "query_id": self.query_id,
            "records": [r.as_json() for r in self.records],
            "denied": self.denied,
        }


@dataclass(frozen=True, slots=True)
class Access:
    """What an authorized actor may read of the subject's memory: everything the request's
    scope and purpose allow (`grant_scopes` None: their own memory), or only the claim scopes
    their valid grants cover."""

    grant_scopes: frozenset[str] | None = None

    def covers(self, claim_scope: str) -> bool:
        return self.grant_scopes is None or covers(self.grant_scopes, claim_scope)


OWN_MEMORY = Access()


def authorize(conn: Connection, query: RecallQuery) -> Access | str:
    """The actor's access to the subject's memory for this purpose, or why they have none.

    A grant must have been made by the query's `ts` and be neither expired nor revoked at the
    later of `ts` and the database's current time: a caller cannot reach back to before a
    revocation or an expiry by dating its request in the past. The valid grants' scopes add
    up; every grant covers at least the global claims, so a valid grant never denies.
    """
    if query.actor == query.subject or query.subject.startswith(f"{query.actor}:"):
        return OWN_MEMORY
    ts = query.ts
    judged_at = sa.func.greatest(sa.literal(ts, sa.DateTime(timezone=True)), sa.func.now())
    scopes = frozenset(
        conn.execute(
            sa.select(grants.c.scope).where(
                grants.c.actor == query.actor,
                grants.c.subject == query.subject,
                grants.c.purpose == query.purpose,
                grants.c.granted_at <= ts,
                grants.c.expires_at > judged_at,
                sa.or_(grants.c.revoked_at.is_(None), grants.c.revoked_at > judged_at),
            )
        ).scalars()
    )
    if scopes:
        return Access(scopes)
    return (
        f"actor {query.actor} holds no valid grant to use the memory of {query.subject} "
        f"for purpose {query.purpose}"
    )


def _blocked_ids(conn: Connection, records: Sequence[UserMemory]) -> set[str]:
    """Ids of `records` that the erasure ledger blocks (`permem.erasure.ledger`): by their
    node rows, or, from the moment a request row committed (before its expansion), by the
    request itself: the claim, the source message, or the subject's (and their third
    parties') records created at or before it."""
    if not records:
        return set()
    ledger = blocking(
        conn,
        memories=[str(r.id) for r in records],
        sources={r.source.message_id for r in records if r.source.message_id},
        subjects={r.subject for r in records},
    )
    return {
        str(r.id)
        for r in records
        if ledger.blocks_memory(str(r.id), r.subject, r.source.message_id or None, r.created_at)
    }


def is_factual_question(text: str, subject: str = "") -> bool:
    """A question about the world, not about the user: a remembered belief is no answer.

    Not factual: a question that names the user ("I", "my", ... or a name in their subject id,
    "When did Caroline ...?" for `lc-26-caroline`), and a request to the assistant ("Can you
    recommend ...?").
    """
    if _FACTUAL_QUESTION.match(text) is None or _REQUEST.match(text) is not None:
        return False
    names = {n for n in re.split(r"[^a-z]+", subject.casefold()) if len(n) >= 3}
    return not names & set(re.findall(r"[a-z]+", text.casefold()))


def exclusion(
    record: UserMemory, query: RecallQuery, factual: bool, access: Access = OWN_MEMORY
) -> str | None:
    """Why `record` may not be used for `query` by an actor with `access` (None: it may).
    Pure; order matters only for the counts in the log."""
    if record.status is Status.SESSION_ONLY:
        if query.session is None or record.session != query.session:
            return "other_session"
    elif record.status is not Status.ACTIVE:
        return f"status_{record.status.value}"
    if record.confirmation in (Confirmation.PENDING, Confirmation.REJECTED):
        return f"confirmation_{record.confirmation.value}"
    if record.valid_from > query.ts:
        return "not_yet_valid"
    if (
        record.kind is Kind.PLAN
        and record.valid_until is None
        and (record.valid_from <= record.observed_at or lx.INTENTION.search(record.claim))
    ):
        # An intention with no date of its own ("I'm going to learn to sail") says what the
        # user means to do, not how things are; a dated plan is current once its day comes,
        # and one bounded from now ("I'll be in Tokyo for ten days") is current for its span.
        # An intention stays one whatever its date ("planning to move in July").
        return "plan_not_started"
    if record.valid_until is not None and record.valid_until <= query.ts:
        return "expired"
    if record.scope not in (query.scope, "global"):
        return "scope"
    if not access.covers(record.scope):
        return "grant_scope"
    if record.purpose not in policy.usable_purposes(query.purpose):
        return "purpose"
    _, categories = sensitivity_of(meaning(record.claim, record.evidence))
    if not policy.may_serve(query.purpose, record.purpose, record.sensitivity, categories):
        return "special_category_purpose"
    if factual and (
        record.kind in (Kind.FACT, Kind.EVENT, Kind.PLAN)
        or lx.BELIEF.search(said := f"{record.evidence or ''} {record.claim}")
        or lx.SELF_BELIEF.search(said)
    ):
        # A belief guides the user's own choices ("so no sweets for mine"), never the answer
        # to a question about the world.
        return "factual_question"
    return None


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(normalize(text)) if w not in _STOP}


def lexical_overlap(query: str, claim: str) -> float:
    a, b = _words(query), _words(claim)
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


def conflicts(query_text: str, record: UserMemory) -> bool:
    """The request overrides the memory for this action ("steak tonight, for once")."""
    if not _OVERRIDE.search(query_text):
        return False
    topic = record.topic
    if topic and topic in lx.TOPICS and lx.TOPICS[topic].search(query_text):
        return True
    return lexical_overlap(query_text, record.claim) > 0


class Recaller:
    """Answers recall queries over one database, vector index and embedder."""

    def __init__(self, db: Database, index: VectorIndex, embedder: Embedder) -> None:
        self._db = db
        self._index = index
        self._embedder = embedder
        self._salts: dict[str, bytes] = {}

    def recall(self, query: RecallQuery) -> RecallAnswer:
        """Filter, rank, re-check and log (see the module docstring); two transactions."""
        answer = RecallAnswer(query.query_id)
        with tenant_transaction(self._db.app, query.tenant) as conn:
            access = authorize(conn, query)
            if isinstance(access, str):
                answer.denied = access
                self._log(conn, query, answer)
                return answer
            if subject_paused(conn, query.subject):
                rows: list[Any] = []
                answer.filtered_out["subject_paused"] = conn.execute(
                    sa.select(sa.func.count())
                    .select_from(memories)
                    .where(memories.c.subject == query.subject)
                ).scalar_one()
            else:
                rows = list(
                    conn.execute(
                        sa.select(memories).where(memories.c.subject == query.subject)
                    ).mappings()
                )
            records = [record_from_row(r) for r in rows]
            blocked = _blocked_ids(conn, records)
        factual = is_factual_question(query.text, query.subject)
        shadowed = shadowed_imports(records, query.ts)
        survivors: list[UserMemory] = []
        for record in records:
            reason = "erasure_ledger" if str(record.id) in blocked else None
            reason = reason or exclusion(record, query, factual, access)
            if reason is None and record.id in shadowed:
                reason = "user_statement_preferred"
            if reason is None:
                survivors.append(record)
            else:
                answer.filtered_out[reason] += 1
        replaced = superseded_in_time(survivors) | replaced_from_start(survivors)
        if replaced:
            answer.filtered_out["superseded_in_time"] += len(replaced)
            survivors = [r for r in survivors if r.id not in replaced]
        ranked = self._rank(query, survivors, len(records))
        with tenant_transaction(self._db.app, query.tenant) as conn:
            confirmed = self._recheck(conn, query, access, [r for r, _ in ranked])
            answer.records = [
                Recalled(record, score, conflicts(query.text, record))
                for record, score in ranked
                if record.id in confirmed
            ][: query.k]
            answer.filtered_out["changed_while_ranking"] += len(ranked) - len(
                [r for r, _ in ranked if r.id in confirmed]
            )
            self._log(conn, query, answer)
        return answer

    def _rank(
        self, query: RecallQuery, survivors: list[UserMemory], subject_rows: int
    ) -> list[tuple[UserMemory, float]]:
        """Score the survivors: exact vector search over the subject's rows (all of them, so no
        id list has to be parsed; rows that did not survive the filter are dropped here), plus
        the lexical signal."""
        if not survivors:
            return []
        vector = self._embedder.embed([query.text])[0]
        wanted = {str(r.id) for r in survivors}
        similarity = {
            memory_id: score
            for memory_id, score in self._index.search(
                vector,
                tenant=query.tenant,
                subject=query.subject,
                k=max(subject_rows, len(survivors)),
            )
            if memory_id in wanted
        }
        missing = [r for r in survivors if str(r.id) not in similarity]
        if missing:  # committed but not indexed yet: the index lags, the ranking does not
            vectors = self._embedder.embed([r.claim for r in missing])
            for record, row in zip(missing, vectors, strict=True):
                similarity[str(record.id)] = float(np.dot(vector, row))
        scored = [
            (
                r,
                VECTOR_WEIGHT * similarity[str(r.id)]
                + LEXICAL_WEIGHT * lexical_overlap(query.text, r.claim),
            )
            for r in survivors
        ]
        scored.sort(key=lambda pair: (-pair[1], str(pair[0].id)))
        return scored[: max(query.k * 2, query.k + 5)]

    def _recheck(
        self, conn: Connection, query: RecallQuery, access: Access, ranked: list[UserMemory]
    ) -> set[uuid.UUID]:
        """The ids among `ranked` that PostgreSQL still allows, read afresh (the grants as
        authorized at the start of the request: a revocation meanwhile is not seen)."""
        if not ranked or subject_paused(conn, query.subject):
            return set()
        rows = conn.execute(
            sa.select(memories).where(memories.c.id.in_([r.id for r in ranked]))
        ).mappings()
        fresh = [record_from_row(r) for r in rows]
        blocked = _blocked_ids(conn, fresh)
        factual = is_factual_question(query.text, query.subject)
        return {
            r.id
            for r in fresh
            if str(r.id) not in blocked and exclusion(r, query, factual, access) is None
        }

    def _salt(self, conn: Connection, tenant: str) -> bytes:
        """The tenant's salt, read once per Recaller (a query may name a tenant with no memory
        yet: it is registered then)."""
        salt = self._salts.get(tenant)
        if salt is None:
            register_tenant(conn, tenant)
            salt = self._salts[tenant] = tenant_salt(conn)
        return salt

    def _log(self, conn: Connection, query: RecallQuery, answer: RecallAnswer) -> None:
        conn.execute(
            sa.insert(recall_log).values(
                tenant=query.tenant,
                query_id=query.query_id,
                actor=query.actor,
                subject=query.subject,
                purpose=query.purpose,
                scope=query.scope,
                query_hash=content_hash(self._salt(conn, query.tenant), query.text),
                returned_ids=[r.record.id for r in answer.records],
                filtered_out=dict(answer.filtered_out),
                denied=answer.denied,
            )
        )
