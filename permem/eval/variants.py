"""The memory variants the lifecycle evaluation compares, on the same queries and the same k.

Each variant `retrieve`s (timed: what a request would pay) and then says what it supplied as
evidence (`supplied`, not timed: the evaluation's own reading of the stores).

- `none`: nothing, the no-memory baseline.
- `explicit_profile`: recall restricted to explicit instructions and user-provided facts: the
  same authorization, filters, ranking and re-check, over the `explicit_instruction` and
  `user_fact` claims only.
- `history`: the subject's raw messages (every role), ranked by the same embedder and blend;
  no gate and no filter but tenant and subject.
- `profile`: the synthesized profile of the query's subject, purpose and scope at its time
  (`permem.profile.read_profile`, after recall's authorization), its lines ranked by the same
  blend; a line's evidence is every claim it cites.
- `permem`: full recall (`permem.recall.Recaller`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from permem.embedding import Embedder, TextVectors, Vectors, embed_unique
from permem.eval.evidence import StoreView, claim_evidence, message_evidence
from permem.eval.metrics import Supplied
from permem.profile import ProfileLine, read_profile
from permem.recall import (
    LEXICAL_WEIGHT,
    QUERY_CACHE_SIZE,
    VECTOR_WEIGHT,
    Recaller,
    RecallQuery,
    above_floor,
    authorize,
    lexical_overlap,
    relevance_floor,
)
from permem.records import Message, Origin, UserMemory
from permem.stores.database import Database, tenant_transaction
from permem.stores.vectors import VectorIndex

__all__ = ["VARIANTS", "HistoryIndex", "Variant", "build_variants"]

VARIANTS: tuple[str, ...] = ("none", "explicit_profile", "history", "profile", "permem")
EXPLICIT_ORIGINS = frozenset({Origin.EXPLICIT_INSTRUCTION, Origin.USER_FACT})


class Variant(Protocol):
    """A way of supplying memory to a request.

    `retrieve(query, view)` returns what the variant would supply, best first, at most
    `query.k` items; it is what is timed (only `history` reads `view`: its raw messages).
    `supplied(found, view)` describes each item's evidence from the stores as they stand, in
    the same order."""

    name: str

    def retrieve(self, query: RecallQuery, view: StoreView) -> Sequence[Any]: ...

    def supplied(self, found: Sequence[Any], view: StoreView) -> tuple[Supplied, ...]: ...


class _NoMemory:
    name = "none"

    def retrieve(self, query: RecallQuery, view: StoreView) -> Sequence[Any]:
        return ()

    def supplied(self, found: Sequence[Any], view: StoreView) -> tuple[Supplied, ...]:
        return ()


class _Recalled:
    """Recall's records: each a claim, its evidence the claim itself."""

    def __init__(self, name: str, recaller: Recaller) -> None:
        self.name = name
        self._recaller = recaller

    def retrieve(self, query: RecallQuery, view: StoreView) -> Sequence[UserMemory]:
        return [r.record for r in self._recaller.recall(query).records]

    def supplied(self, found: Sequence[UserMemory], view: StoreView) -> tuple[Supplied, ...]:
        return tuple(Supplied((claim_evidence(view, r),)) for r in found)


class _ExplicitRecaller(Recaller):
    """Recall that ranks only the explicit claims among those its filters let through."""

    def _rank(
        self, query: RecallQuery, survivors: list[UserMemory]
    ) -> list[tuple[UserMemory, float]]:
        return super()._rank(query, [r for r in survivors if r.origin in EXPLICIT_ORIGINS])


class _Ranker:
    """recall's ranking blend (cosine and shared words) over texts that are not claims."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._queries = TextVectors(QUERY_CACHE_SIZE)
        self._floor = relevance_floor(embedder.name)

    def best(
        self, query: RecallQuery, texts: Sequence[str], vectors: Vectors
    ) -> list[tuple[int, float]]:
        """(position, score) of the `query.k` best texts, best first (ties by position)."""
        if not texts:
            return []
        vector = self._queries.vector(self._embedder, query.text)
        cosine = vectors @ vector
        scored = [
            (i, VECTOR_WEIGHT * float(cosine[i]) + LEXICAL_WEIGHT * lexical_overlap(query.text, t))
            for i, t in enumerate(texts)
        ]
        scored.sort(key=lambda pair: (-pair[1], pair[0]))
        kept, _ = above_floor(scored, self._floor)
        return kept[: query.k]


class HistoryIndex:
    """The raw messages' vectors, embedded once as they are ingested (the history store's
    index: a request pays for its query's vector and the ranking, not for the messages')."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._vectors: dict[tuple[str, str], Vectors] = {}

    def add(self, messages: Sequence[Message]) -> None:
        new = [m for m in messages if (m.tenant, m.message_id) not in self._vectors]
        rows = embed_unique(self._embedder, [m.text for m in new])
        for m, row in zip(new, rows, strict=True):
            self._vectors[(m.tenant, m.message_id)] = row

    def matrix(self, messages: Sequence[Message]) -> Vectors:
        if not messages:
            return np.zeros((0, self._embedder.dimension), dtype=np.float32)
        return np.stack([self._vectors[(m.tenant, m.message_id)] for m in messages])


class _History:
    name = "history"

    def __init__(self, embedder: Embedder, index: HistoryIndex) -> None:
        self._ranker = _Ranker(embedder)
        self._index = index

    def retrieve(self, query: RecallQuery, view: StoreView) -> Sequence[Message]:
        messages = view.history(query.tenant, query.subject)
        ranked = self._ranker.best(query, [m.text for m in messages], self._index.matrix(messages))
        return [messages[i] for i, _ in ranked]

    def supplied(self, found: Sequence[Message], view: StoreView) -> tuple[Supplied, ...]:
        return tuple(Supplied((message_evidence(view, m),)) for m in found)


class _Profile:
    name = "profile"

    def __init__(self, db: Database, embedder: Embedder) -> None:
        self._db = db
        self._embedder = embedder
        self._ranker = _Ranker(embedder)
        self._lines: dict[str, Vectors] = {}

    def _vectors(self, statements: Sequence[str]) -> Vectors:
        new = sorted({s for s in statements if s not in self._lines})
        for s, row in zip(new, embed_unique(self._embedder, new), strict=True):
            self._lines[s] = row
        return np.stack([self._lines[s] for s in statements])

    def retrieve(self, query: RecallQuery, view: StoreView) -> Sequence[ProfileLine]:
        with tenant_transaction(self._db.app, query.tenant) as conn:
            if isinstance(authorize(conn, query), str):
                return []
        profile = read_profile(
            self._db, query.tenant, query.subject, purpose=query.purpose, scope=query.scope,
            now=query.ts,
        )  # fmt: skip
        if not profile.lines:
            return []
        statements = [line.statement for line in profile.lines]
        ranked = self._ranker.best(query, statements, self._vectors(statements))
        return [profile.lines[i] for i, _ in ranked]

    def supplied(self, found: Sequence[ProfileLine], view: StoreView) -> tuple[Supplied, ...]:
        return tuple(
            Supplied(tuple(claim_evidence(view, c) for c in _cited(line, view))) for line in found
        )


def _cited(line: ProfileLine, view: StoreView) -> list[UserMemory]:
    return [view.claims[i] for i in line.claim_ids if i in view.claims]


def build_variants(
    db: Database, index: VectorIndex, embedder: Embedder, history: HistoryIndex
) -> dict[str, Variant]:
    """Every variant over one scenario's stores, by name, in `VARIANTS` order."""
    made: list[Variant] = [
        _NoMemory(),
        _Recalled("explicit_profile", _ExplicitRecaller(db, index, embedder)),
        _History(embedder, history),
        _Profile(db, embedder),
        _Recalled("permem", Recaller(db, index, embedder)),
    ]
    return {v.name: v for v in made}
