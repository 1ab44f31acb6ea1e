"""Revisions at load: a sentence that takes something back supersedes what it names.

`permem.extraction.modality` tells a retraction ("not Windows anymore", "the move is off",
"sorry, I meant 1200"); the pipeline turns each such candidate into a `Retraction` (what it
names is read from its whole context in memory, never stored); `apply_retractions` then marks
the subject's older active claims that share a content word with it (`policy.reference_words`)
as `superseded`, one event each, in the load transaction. History is kept.

A retraction that takes back a state ("I've quit caffeine", "cancelled every streaming
subscription") also means the older claims it shares no word with ("useless before my double
espresso", "we're a Netflix household"): under an embedder that reads meaning (`Meaning`),
an older claim whose cosine with the retraction reaches the embedder's calibrated threshold
(`policy.RETRACTION_MEANING`) is taken back too. The lexical embedder has no threshold: word
overlap already is what it measures.
"""

from __future__ import annotations

import re
import uuid
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

import numpy as np
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from permem import policy
from permem.embedding import Embedder, TextVectors, embed_unique
from permem.extraction.speakers import english_words
from permem.recall_choice import with_siblings
from permem.records import Confirmation, Kind, Status, UserMemory
from permem.stores.bulk import copy_insert
from permem.stores.schema import memories, memory_events


@dataclass(frozen=True, slots=True)
class Retraction:
    """A sentence that takes something back: who, where, when, and what it names."""

    id: uuid.UUID
    subject: str
    scope: str
    observed_at: Any
    message_id: str
    span_start: int
    named: frozenset[str]
    # Its own unredacted words (in memory only, never stored), when the retraction may also
    # name older claims by meaning; None for a claim that only rules out named words.
    said: str | None = None
    # What the clause that takes back names by itself ("no more monthly" in "biweekly
    # invoices, no more monthly"): when it names an older claim, only what it names is taken
    # back; when it names none, `named` decides.
    specific: frozenset[str] | None = None
    # A return to what held before ("back on my old ThinkPad", `modality.returns`): it takes
    # nothing back by its words; `permem.reinstatement` brings back what it names.
    returns: bool = False


@dataclass(frozen=True, slots=True)
class Meaning:
    """Which older claims a retraction means by meaning: cosine with what it said at or above
    `threshold` under `embedder`."""

    embedder: Embedder
    threshold: float
    # The process's claim vectors (`Runtime.vectors`): a claim the load embeds here is not
    # embedded again when its batch is indexed, nor an old claim each time it is compared.
    cache: TextVectors | None = None

    def vectors(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """One unit vector per distinct text, embedded in one call (`embed_unique`)."""
        unique = list(dict.fromkeys(texts))
        rows = (
            embed_unique(self.embedder, unique)
            if self.cache is None
            else self.cache.rows(self.embedder, unique)
        )
        return dict(zip(unique, rows, strict=True))


def meaning_for(embedder: Embedder, cache: TextVectors | None = None) -> Meaning | None:
    """The embedder's calibrated meaning check, if it has one."""
    threshold = policy.RETRACTION_MEANING.get(embedder.name)
    return None if threshold is None else Meaning(embedder, threshold, cache)


def apply_retractions(
    conn: Connection,
    tenant: str,
    retractions: Sequence[Retraction],
    superseded: list[str],
    meaning: Meaning | None = None,
) -> None:
    """Supersede, for each retraction, the subject's older active claims in its scope (or
    global) that it names: a content word shared between the retraction with its context and
    the old claim with its own ("take it off my list" after "had the mango lassi again"
    names the mango lassi claim). The old rows stay as history; one event each. A return
    (`Retraction.returns`) takes nothing back here (`permem.reinstatement`)."""
    retractions = [r for r in retractions if not r.returns]
    if not retractions:
        return
    subjects = sorted({r.subject for r in retractions})
    rows = conn.execute(
        sa.select(memories.c.id, memories.c.subject, memories.c.scope, memories.c.claim,
                  memories.c.evidence, memories.c.observed_at, memories.c.source_message_id,
                  memories.c.span_end, memories.c.span_start, memories.c.kind,
                  memories.c.valid_from)
        .where(memories.c.status == Status.ACTIVE.value, memories.c.subject.in_(subjects))
    ).all()  # fmt: skip
    by_subject: dict[str, list[Any]] = defaultdict(list)
    for row in rows:
        by_subject[row[1]].append(row)
    # What each old claim names, read once per row, not once per retraction.
    names = {row[0]: policy.reference_words(f"{row[4] or ''} {row[3]}") for row in rows}
    by_meaning = [r for r in retractions if r.said is not None] if meaning is not None else []
    vectors = (
        meaning.vectors(
            [r.said or "" for r in by_meaning]
            + [row[3] for r in by_meaning for row in by_subject[r.subject]]
        )
        if meaning is not None and by_meaning
        else {}
    )
    replaced: dict[uuid.UUID, uuid.UUID] = {}
    taken = set(superseded)
    for retraction in sorted(retractions, key=lambda r: (r.observed_at, str(r.id))):
        said = vectors.get(retraction.said or "") if retraction.said is not None else None
        # "that plan lasted two days": a plan pointed at names the plans said before it.
        names_plan = _THAT_PLAN.search(retraction.said or "") is not None
        brands = brands_of(retraction.said or "")
        named = retraction.named
        if retraction.specific and any(
            names_any(retraction.specific, names[row[0]], brands)
            for row in by_subject[retraction.subject]
            if row[0] != retraction.id and row[6] != retraction.message_id
        ):
            named = retraction.specific
        for memory_id, _, scope, claim, _, observed_at, source, end, _, kind, starts in by_subject[
            retraction.subject
        ]:
            said_before = observed_at < retraction.observed_at or (
                source == retraction.message_id and (end or 0) <= retraction.span_start
            )
            if source == retraction.message_id and starts > retraction.observed_at:
                # A change still to come said in the same message ("Starting in October I'll
                # swim at the lido instead, I've bought a season pass") is what the message
                # announces, not a state it takes back; a later message may still call it off.
                said_before = False
            if (
                memory_id == retraction.id
                or scope not in (retraction.scope, "global")
                or not said_before
                or str(memory_id) in taken
                or memory_id in replaced
            ):
                continue
            if (
                (names_plan and kind == Kind.PLAN.value)
                or names_any(named, names[memory_id], brands)
                or policy.named_by_kind(named, names[memory_id])
                or (
                    meaning is not None
                    and said is not None
                    and source != retraction.message_id
                    and float(vectors[claim] @ said) >= meaning.threshold
                )
            ):
                replaced[memory_id] = retraction.id
    # The clauses said beside a retracted claim go with it, unless they are said with a
    # retraction that took something back ("I run 5k - scratch that, 10k": the 10k stays). A
    # change that took nothing back goes with the clause beside it ("new laptop: a MacBook
    # Air. Everything's macOS now", then "I gave the Mac back": macOS goes too).
    retracting = set(replaced.values())
    speaking = {r.message_id for r in retractions if r.id in retracting}
    spans = [
        (row[0], row[6], row[8] or 0, row[7] or 0)
        for row in rows
        if row[0] not in retracting and row[6] not in speaking and str(row[0]) not in taken
    ]
    # Each sibling goes with the retraction that took back a claim of its message.
    message_of = {row[0]: row[6] for row in rows}
    by_message = {message_of[old]: new for old, new in replaced.items()}
    for memory_id in with_siblings(set(replaced), spans) - set(replaced):
        replaced[memory_id] = by_message[message_of[memory_id]]
    mark_superseded(conn, tenant, replaced, superseded, why="retracted by")


def names_any(
    named: frozenset[str], words: frozenset[str], brands: frozenset[str] = frozenset()
) -> bool:
    """Whether a retraction's words name a claim's: a word they share, or a name the user
    capitalised (`brands`) that heads a compound word of the claim: "the Surface died" names
    "notes on my surfacebook" (surface and book are both words, and Surface is a name). Only
    names head compounds: "last week" names no "weekend"."""
    if named & words:
        return True
    return any(_compound_of(head, word) for head in brands & named for word in words)


def brands_of(text: str) -> frozenset[str]:
    """The names the user capitalised inside a sentence ("the Surface", not "The" opening it), as
    `reference_words` spells them."""
    found = [m.group() for m in _INNER_CAPITAL.finditer(text)]
    return policy.reference_words(" ".join(found)) if found else frozenset()


_INNER_CAPITAL = re.compile(r"(?<![.!?]\s)(?<=\s)[A-Z][a-z]{2,}\b")
_COMPOUND_PART = 3
# Endings that WordNet also lists as words ("sion", "ment"): a derived word, not a compound
# ("pension" is no kind of pen).
_SUFFIXES = frozenset(
    "sion tion ment ness less able ible ings ers ery ism ist ity ive ous ance ence ship hood "
    "ward wards like ful".split()
)


def _compound_of(head: str, word: str) -> bool:
    """`word` is `head` and another word ("surfacebook": surface, book). Stems lose a final "e"
    (`reference_words`: "surface" -> "surfac"), so the head may be the stem of a word."""
    if len(head) < _COMPOUND_PART or not word.startswith(head):
        return False
    known = english_words()
    if head not in known and head + "e" in known and word.startswith(head + "e"):
        head += "e"
    rest = word[len(head) :]
    return len(rest) >= _COMPOUND_PART and rest not in _SUFFIXES and rest in known and head in known


_THAT_PLAN = re.compile(
    r"\b(?:that|this)\s+(?:plan|resolution|goal|challenge|regime|new\s+routine)\b", re.IGNORECASE
)

TopicKey = tuple[str, str, str]


def topic_key(record: UserMemory) -> TopicKey | None:
    """The (subject, topic, scope) whose older claims `record` replaces, if any. An imported
    field replaces nothing: it is someone else's record of the user, never a correction (the
    user's own later statement does replace it). A claim replaces only when it is usable now
    and open-ended, and does not say it adds ("I also speak Dutch"): a pending claim waits
    for its confirmation, a bounded one ("until June") replaces nothing for good, and one
    that starts later ("as of October I'll live in Rotterdam") replaces the old one only from
    then (recall_choice.superseded_in_time)."""
    if not policy.replaces_on_topic(record.topic, record.claim, record.origin):
        return None
    usable = record.status is Status.ACTIVE and record.confirmation is not Confirmation.PENDING
    if usable and record.valid_until is None and record.valid_from <= record.observed_at:
        return (record.subject, record.topic or "", record.scope)
    return None


@dataclass(frozen=True, slots=True)
class _Held:
    """An active claim on a topic key, as supersession needs it."""

    id: uuid.UUID
    message_id: str | None
    observed_at: datetime
    valid_from: datetime


def plan_topic_supersession(
    conn: Connection, records: Sequence[UserMemory]
) -> tuple[list[UserMemory], dict[uuid.UUID, uuid.UUID]]:
    """The records with `supersedes` set, and every claim they replace (old id -> new id).

    A standing claim on an exclusive topic replaces *every* older active claim of its
    (subject, topic, scope), not only the latest: two claims of one earlier message, a pending
    claim confirmed later and a bounded one all stop together. `supersedes` names the latest
    of them. Claims of one message never replace each other; a claim that starts later is not
    replaced by one said before it starts. A claim that arrives late, older than an active
    claim on its key, is itself replaced by that newer claim."""
    keys = {k for r in records if (k := topic_key(r)) is not None}
    if not keys:
        return list(records), {}
    held: dict[TopicKey, list[_Held]] = defaultdict(list)
    rows = conn.execute(
        sa.select(memories.c.id, memories.c.subject, memories.c.topic, memories.c.scope,
                  memories.c.source_message_id, memories.c.observed_at, memories.c.valid_from)
        .where(
            memories.c.status == Status.ACTIVE.value,
            sa.tuple_(memories.c.subject, memories.c.topic, memories.c.scope).in_(list(keys)),
        )
        # The id breaks ties (claims of one batch share `created_at`): which claim is the
        # latest must not depend on the order rows were written in.
        .order_by(memories.c.observed_at, memories.c.created_at, memories.c.id)
    ).all()  # fmt: skip
    for memory_id, subject, topic, scope, message_id, observed_at, valid_from in rows:
        held[(subject, topic, scope)].append(_Held(memory_id, message_id, observed_at, valid_from))
    replaced: dict[uuid.UUID, uuid.UUID] = {}
    result: list[UserMemory] = []
    for record in sorted(records, key=lambda r: (r.observed_at, str(r.id))):
        key = topic_key(record)
        if key is None:
            result.append(record)
            continue
        mine = _Held(record.id, record.source.message_id, record.observed_at, record.valid_from)
        others = [
            h
            for h in held[key]
            if h.id != mine.id and (h.message_id != mine.message_id or h.message_id is None)
        ]
        older = [h for h in others if h.observed_at <= mine.observed_at]
        newer = [h for h in others if h.observed_at > mine.observed_at]
        # A plan that starts after this statement keeps its own date.
        replaced_now = [h for h in older if h.valid_from <= mine.observed_at]
        for h in replaced_now:
            replaced[h.id] = record.id
        if replaced_now:
            record = replace(record, supersedes=replaced_now[-1].id)
        if newer:
            replaced[record.id] = newer[0].id
        else:
            gone = {h.id for h in replaced_now}
            held[key] = [h for h in held[key] if h.id not in gone] + [mine]
        result.append(record)
    return result, replaced


def with_topic_siblings(
    conn: Connection, replaced: Mapping[uuid.UUID, uuid.UUID]
) -> dict[uuid.UUID, uuid.UUID]:
    """`replaced` (old id -> new id, written rows) and the clauses said beside each replaced
    claim, which go with it as they do in recall (`with_siblings`: "I think in miles and
    Fahrenheit, I grew up in Ohio"), unless they are on an exclusive topic of their own."""
    result = dict(replaced)
    if not replaced:
        return result
    message_of = dict(
        conn.execute(
            sa.select(memories.c.id, memories.c.source_message_id).where(
                memories.c.id.in_(list(replaced)), memories.c.source_message_id.is_not(None)
            )
        ).all()
    )
    if not message_of:
        return result
    rows = conn.execute(
        sa.select(memories.c.id, memories.c.source_message_id, memories.c.span_start,
                  memories.c.span_end, memories.c.topic)
        .where(memories.c.status == Status.ACTIVE.value,
               memories.c.source_message_id.in_(sorted(set(message_of.values()))))
    ).all()  # fmt: skip
    spans = [
        (row[0], row[1], row[2] or 0, row[3] or 0)
        for row in rows
        if row[0] in replaced or row[4] not in policy.EXCLUSIVE_TOPICS
    ]
    by_message = {message_of[old]: new for old, new in replaced.items() if old in message_of}
    newer = set(replaced.values())
    sibling_message = {row[0]: row[1] for row in rows}
    for sibling in with_siblings(set(replaced), spans) - set(replaced) - newer:
        result[sibling] = by_message[sibling_message[sibling]]
    return result


def supersede_older(conn: Connection, record: UserMemory, *, actor: str) -> list[uuid.UUID]:
    """After a claim became usable outside the nightly run (confirmed, or a correction), the
    older active claims on its topic key stop, as they would have at load, with the clauses
    said beside them."""
    _, replaced = plan_topic_supersession(conn, [record])
    return mark_superseded(
        conn, record.tenant, with_topic_siblings(conn, replaced), [], actor=actor
    )


def mark_superseded(
    conn: Connection,
    tenant: str,
    replaced: Mapping[uuid.UUID, uuid.UUID],
    superseded: list[str],
    *,
    actor: str = "nightly",
    why: str = "superseded by",
) -> list[uuid.UUID]:
    """Move each still-active claim of `replaced` (old id -> new id) to `superseded`, one event
    for each row that actually changed; the ids that changed."""
    changed = move_status(
        conn, tenant, replaced, Status.ACTIVE, Status.SUPERSEDED, actor=actor, why=why
    )
    superseded.extend(str(i) for i in changed)
    return changed


def move_status(
    conn: Connection,
    tenant: str,
    moves: Mapping[uuid.UUID, uuid.UUID],
    old: Status,
    new: Status,
    *,
    actor: str,
    why: str,
) -> list[uuid.UUID]:
    """Move each claim of `moves` (claim id -> the claim that causes it) that is still in
    status `old` to `new`, set-based, with one `memory_events` row (reason "<why> <cause>")
    for each row that actually changed; the ids that changed."""
    if not moves:
        return []
    update = sa.update(memories).where(
        memories.c.id.in_(list(moves)), memories.c.status == old.value
    )
    if new is Status.SUPERSEDED:
        # When the cause was said: the claim was current until then (`permem.recall_asof`).
        pairs = sa.values(
            sa.column("claim", sa.Uuid), sa.column("cause", sa.Uuid), name="pairs"
        ).data(list(moves.items()))
        cause = memories.alias("cause")
        said = sa.select(cause.c.observed_at).where(cause.c.id == pairs.c.cause).scalar_subquery()
        update = update.where(memories.c.id == pairs.c.claim).values(superseded_from=said)
    changed = list(conn.execute(update.values(status=new.value).returning(memories.c.id)).scalars())
    copy_insert(
        conn,
        memory_events,
        [
            {
                "tenant": tenant,
                "memory_id": memory_id,
                "field": "status",
                "old_value": old.value,
                "new_value": new.value,
                "actor": actor,
                "reason": f"{why} {moves[memory_id]}",
            }
            for memory_id in sorted(changed, key=str)
        ],
    )
    return changed
