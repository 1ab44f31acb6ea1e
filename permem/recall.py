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
   not paused, and absent from the erasure ledger. The column checks run in the query
   (`column_exclusion`): only the claims they let through are read, the others are counted by
   reason; the checks that read the text run in Python on those candidates. A
   special-category claim serves only its own purpose or one that declares its category
   (policy.may_serve); the row keeps only the sensitivity, so the categories are recomputed
   from the claim text (extraction.sensitive.sensitivity_of: cached regexes; a `special` row
   with no recognised category serves only its own purpose).
   A factual question (“is MSG safe to eat?”) gets no biographical claims (facts,
   events, plans): objective truth is not personalized. An imported claim on a topic the
   subject spoke to themselves is not served (`shadowed_imports`): the user's word outweighs
   someone else's profile of them.
3. **Rank** only the survivors: exact cosine similarity from the vector index (prefiltered to
   exactly those ids, k = their number; claims the index does not hold yet are embedded on the
   spot; the query's vector comes from a small LRU cache), blended with a lexical overlap
   signal. A claim scoring below its embedder's relevance floor (`RELEVANCE_FLOORS`) is not
   returned.
4. **Re-check** the ranked ids against PostgreSQL in a new transaction, so a claim blocked,
   corrected or erased while ranking never comes back.
5. **Log** to `recall_log`: actor (and the service asking for them, `via`), subject, purpose,
   scope, a salted hash of the query text, the returned ids and the counts filtered out by
   reason: ids and counts only, never text. The row's id is the answer's `recall_id`.

The query and its answer are in `permem.recall_query`, steps 1 and 2 (authorization and the
exclusion filter) in `permem.recall_filter`; both re-exported here, the `Recaller` runs them.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping, Sequence
from typing import TypeVar

import numpy as np
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from permem.controls import subject_paused
from permem.embedding import Embedder, TextVectors
from permem.extraction import lexicon as lx
from permem.extraction.for_whom import ForWhom, request_for_whom
from permem.hashing import content_hash, normalize
from permem.recall_asof import read_as_of
from permem.recall_choice import replaced_from_start, shadowed_imports, superseded_in_time
from permem.recall_filter import (
    OWN_MEMORY,
    Access,
    _blocked_ids,
    authorize,
    candidates,
    column_exclusion,
    exclusion,
    is_factual_question,
    speakers,
    usable,
)
from permem.recall_query import MAX_K, RecallAnswer, Recalled, RecallQuery, parse_query
from permem.records import UserMemory
from permem.request_time import Window, about
from permem.stores.database import (
    Database,
    register_tenant,
    tenant_salt,
    tenant_transaction,
)
from permem.stores.schema import memories, recall_log
from permem.stores.vectors import VectorIndex

# How much of the score is meaning (cosine) and how much shared words.
VECTOR_WEIGHT = 0.8
LEXICAL_WEIGHT = 0.2
# Abstention: a ranked claim whose score (the blend above) is below its embedder's floor is not
# returned (`below_relevance_floor`), so a question nothing in memory speaks to gets no
# records. An embedder not listed has no floor, and none is listed: calibrated on the dev
# PrefEval and LoCoMo sets (`benchmarks/recall.py --parts floor`, docs/recall.md), no MiniLM
# floor that keeps recall@5 within a point answers a single unanswerable query with nothing,
# and standing instructions ("British spelling everywhere") score near or below 0 for the
# requests they govern (so would a floor drop them), with either embedder.
RELEVANCE_FLOORS: Mapping[str, float] = {}
# Query texts whose vectors a Recaller keeps (the same question is often asked again).
QUERY_CACHE_SIZE = 1024

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


__all__ = [
    "LEXICAL_WEIGHT",
    "MAX_K",
    "OWN_MEMORY",
    "QUERY_CACHE_SIZE",
    "RELEVANCE_FLOORS",
    "VECTOR_WEIGHT",
    "Access",
    "RecallAnswer",
    "RecallQuery",
    "Recalled",
    "Recaller",
    "above_floor",
    "authorize",
    "column_exclusion",
    "conflicts",
    "exclusion",
    "is_factual_question",
    "lexical_overlap",
    "parse_query",
    "relevance_floor",
    "replaced_from_start",
    "shadowed_imports",
    "superseded_in_time",
    "usable",
]


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(normalize(text)) if w not in _STOP}


def lexical_overlap(query: str, claim: str) -> float:
    a, b = _words(query), _words(claim)
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


def relevance_floor(embedder_name: str) -> float | None:
    """The score below which `embedder_name`'s rankings are not served (None: no floor)."""
    return RELEVANCE_FLOORS.get(embedder_name)


_Ranked = TypeVar("_Ranked")


def above_floor(
    scored: Sequence[tuple[_Ranked, float]], floor: float | None
) -> tuple[list[tuple[_Ranked, float]], int]:
    """The (item, score) pairs scoring at least `floor`, in order, and how many fell below."""
    if floor is None:
        return list(scored), 0
    kept = [pair for pair in scored if pair[1] >= floor]
    return kept, len(scored) - len(kept)


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

    def __init__(
        self, db: Database, index: VectorIndex, embedder: Embedder, *, abstain: bool = True
    ) -> None:
        """`abstain=False` serves every ranked claim, however low its score (no relevance
        floor: for calibrating one)."""
        self._db = db
        self._index = index
        self._embedder = embedder
        self._floor = relevance_floor(embedder.name) if abstain else None
        self._queries = TextVectors(QUERY_CACHE_SIZE)
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
                records: list[UserMemory] = []
                answer.filtered_out["subject_paused"] = conn.execute(
                    sa.select(sa.func.count())
                    .select_from(memories)
                    .where(memories.c.subject == query.subject)
                ).scalar_one()
            else:
                records = candidates(conn, query, access, answer.filtered_out)
            blocked = _blocked_ids(conn, records)
            speaking = speakers(conn, query, access, records)
        # Read from the query's text once; the re-check judges by the same reading.
        factual = is_factual_question(query.text, query.subject)
        for_whom = request_for_whom(query.text, query.subject)
        when = about(query.text, query.ts)
        survivors, filtered = usable(
            records, query, blocked, factual=factual, access=access, for_whom=for_whom,
            when=when, others=speaking,
        )  # fmt: skip
        answer.filtered_out.update(filtered)
        ranked, below = above_floor(self._rank(query, survivors), self._floor)
        if below:
            answer.filtered_out["below_relevance_floor"] += below
        ranked = ranked[: max(query.k * 2, query.k + 5)]
        with tenant_transaction(self._db.app, query.tenant) as conn:
            confirmed = self._recheck(
                conn, query, access, [r for r, _ in ranked], factual=factual, for_whom=for_whom,
                when=when,
            )  # fmt: skip
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
        self, query: RecallQuery, survivors: list[UserMemory]
    ) -> list[tuple[UserMemory, float]]:
        """Score every survivor, best first: exact vector search prefiltered to exactly the
        survivors' ids (k = their number), plus the lexical signal."""
        if not survivors:
            return []
        vector = self._queries.vector(self._embedder, query.text)
        similarity = dict(
            self._index.search(
                vector,
                tenant=query.tenant,
                subject=query.subject,
                k=len(survivors),
                ids=[str(r.id) for r in survivors],
            )
        )
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
        return scored

    def _recheck(
        self,
        conn: Connection,
        query: RecallQuery,
        access: Access,
        ranked: list[UserMemory],
        *,
        factual: bool,
        for_whom: ForWhom,
        when: Window,
    ) -> set[uuid.UUID]:
        """The ids among `ranked` that PostgreSQL still allows, read afresh (the grants as
        authorized at the start of the request: a revocation meanwhile is not seen)."""
        if not ranked or subject_paused(conn, query.subject):
            return set()
        fresh = read_as_of(conn, query.ts, memories.c.id.in_([r.id for r in ranked]))
        blocked = _blocked_ids(conn, fresh)
        return {
            r.id
            for r in fresh
            if str(r.id) not in blocked
            and exclusion(r, query, factual, access, for_whom, when) is None
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
        answer.recall_id = conn.execute(
            sa.insert(recall_log)
            .values(
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
                via=query.via,
            )
            .returning(recall_log.c.id)
        ).scalar_one()
