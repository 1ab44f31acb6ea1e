"""Who may recall what (steps 1 and 2 of `permem.recall`): `authorize` turns an actor and a
subject into an `Access` or a reason for denial, `exclusion` says why one claim may not be used
for a query (pure; its reasons are the log's counts), `column_exclusion` is the part of it that
PostgreSQL can decide from the row's columns alone (`candidates` reads only the rows it lets
through), `usable` applies `exclusion` and recall's choices among the survivors (the one reading
of "what recall could use now", shared with the synthesized profile), `is_factual_question`
tells a question about the world from one about the user, and `_blocked_ids` asks the erasure
ledger. Re-exported by `permem.recall`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from permem import policy
from permem.erasure.ledger import blocking
from permem.extraction import lexicon as lx
from permem.extraction.context import meaning
from permem.extraction.for_whom import (
    ForWhom,
    claim_for_whom,
    names_others,
    own_way,
    request_for_whom,
    serves,
)
from permem.extraction.sensitive import sensitivity_of
from permem.grants import ALL_SCOPES, covers, owns_memory
from permem.recall_asof import read_as_of, status_as_of
from permem.recall_choice import (
    replaced_from_start,
    retimed,
    settled,
    shadowed_imports,
    superseded_in_time,
)
from permem.recall_query import RecallQuery
from permem.records import DEFAULT_SCOPE, Confirmation, Kind, Origin, Status, UserMemory
from permem.request_time import Window, about
from permem.stores.memories import record_from_row
from permem.stores.schema import grants, memories

_FACTUAL_QUESTION = re.compile(
    r"^\s*(?:is|are|was|were|can|could|does|do|did|will|has|have|how (?:many|much|far|long|"
    r"old|big|tall|hot|cold)|what (?:is|are|was|were) the|who (?:is|was|wrote|invented)|"
    r"when (?:did|was|is)|why (?:is|are|do|does)|is it true|"
    # How the world works, and what is known: "how do scientists date rocks?", "what does
    # the research say about ...?", "is there evidence that ...?".
    r"how (?:do|does|did) (?!you\b)|"
    r"what (?:does|do|did) (?:the |recent |current )?(?:research|science|evidence|studies|"
    r"study|experts?|scientists?|data|history|doctors?|literature)|"
    r"is there (?:any |good |real )?(?:evidence|proof|research|data)|"
    # About people in general, causes and origins: "should people unplug phones at 100%?",
    # "what causes autism?", "where does the superstition about 13 come from?".
    r"(?:should|do|does|can|must) (?:people|one|everyone|anyone|kids|children|adults|humans|"
    r"babies|dogs|cats)|what (?:actually |really )?(?:causes|makes|shortens|affects|"
    r"determines|happens)|what's the|where (?:does|do|did) .{1,60} come from)\b"
    r"(?!.*\b(?:i|me|my|mine|we|our)\b)",
    re.IGNORECASE,
)
# A question about the user's own here and now, though it names no "I": a day ("is Wednesday
# the 25th free for a call?"), tonight or this weekend, the flat or the plants at home.
_SITUATED = re.compile(
    r"\b(?:tonight|today|tomorrow|yesterday|right now|this (?:morning|afternoon|evening|"
    r"weekend|week|month|summer|winter|spring|autumn|fall)|(?:next|coming|last) (?:week|weekend|"
    r"month|\w+day)|(?<!\ba )(?<!\bany )(?<!\bevery )(?:mon|tues|wednes|thurs|fri|satur|sun)days?|"
    r"the (?:whole )?(?:flat|apartment|house|garden|kitchen|bathroom|bedroom|spare room|"
    r"living room|hallway|balcony|lawn|plants|fridge|boiler|car|bike))\b",
    re.IGNORECASE,
)
# How to answer, whatever the question: form, length, style, units, language ("explain things
# with an everyday analogy", "short version first", "it's all metric for me").
_ANSWER_FORM = re.compile(
    r"\b(?:answers?|repl(?:y|ies)|responses?|explain\w*|explanations?|short version|tl;?dr|"
    r"summary first|summaries|bullet(?:s| points?)?|analog(?:y|ies)|examples?|fun facts?|jargon|"
    r"plain (?:english|language|words)|simple terms|step[ -]by[ -]step|concise|briefly|"
    r"in detail|detailed|tone|formal|informal|emoji|sources|citations?|metric|imperial|"
    r"celsius|fahrenheit|24-hour|12-hour|(?:british|american|us|uk) spelling|spell\w*|"
    r"(?:the )?(?:british|american) way)\b",
    re.IGNORECASE,
)
_REQUEST = re.compile(r"^\s*(?:can|could|would|will) you\b", re.IGNORECASE)


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
    if owns_memory(query.actor, query.subject):
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
    if _SITUATED.search(text) is not None:
        return False
    names = {n for n in re.split(r"[^a-z]+", subject.casefold()) if len(n) >= 3}
    return not names & set(re.findall(r"[a-z]+", text.casefold()))


def answers_how(record: UserMemory) -> bool:
    """The claim says how the user wants answers given (form, length, style, units,
    language), not what they believe, do or have: the one part of memory that a question
    about the world may use."""
    said = f"{record.evidence or ''} {record.claim}"
    return (
        record.kind not in (Kind.EVENT, Kind.PLAN)
        and (_ANSWER_FORM.search(record.claim) is not None
             or lx.FORMAT_INSTRUCTION.search(record.claim) is not None)
        and lx.BELIEF.search(said) is None
        and lx.SELF_BELIEF.search(said) is None
    )  # fmt: skip


def exclusion(
    record: UserMemory,
    query: RecallQuery,
    factual: bool,
    access: Access = OWN_MEMORY,
    for_whom: ForWhom | None = None,
    when: Window | None = None,
) -> str | None:
    """Why `record` may not be used for `query` by an actor with `access` (None: it may).
    `for_whom`: whom the request serves (`permem.extraction.for_whom`), `when`: the time it
    is about (`permem.request_time.about`); each read from the query when None.
    Pure; order matters only for the counts in the log."""
    if record.status is Status.SESSION_ONLY:
        # A request that names its session sees that session's claims only; one that names
        # none (the command-line query format has no session) sees them while they last
        # (the session's lifetime, policy.SESSION_TTL, or the one-off's own end).
        if query.session is not None and record.session != query.session:
            return "other_session"
    elif record.status is not Status.ACTIVE:
        return f"status_{record.status.value}"
    if record.confirmation in (Confirmation.PENDING, Confirmation.REJECTED):
        return f"confirmation_{record.confirmation.value}"
    # Validity is judged over the time the request is about ("next Wednesday"), not only the
    # moment it is made; what was said after the request is never used.
    when = when or about(query.text, query.ts)
    if record.valid_from > when.last or (not when.is_now and record.observed_at > query.ts):
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
    if record.valid_until is not None and record.valid_until <= when.start:
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
    if factual and not answers_how(record):
        # A question about the world is answered from the world: of the user's memory only
        # how they want answers given applies ("explain with an analogy", "metric for me").
        # A belief guides the user's own choices ("so no sweets for mine"), never the answer.
        return "factual_question"
    request = for_whom or request_for_whom(query.text, query.subject)
    # Whom a claim is for includes what it points back to ("Those meals must be vegan" after
    # "I often cook for my flatmate").
    said = meaning(record.claim, record.evidence)
    # How the user likes their own things, by its own words (the context may name others).
    own = own_way(record.claim)
    # Whom the claim's own words say it is for comes first; its context only when they say
    # none ("When I book for the team it's economy" after "on my own trips ...").
    whom = claim_for_whom(record.claim)
    if whom is ForWhom.ANY and not own:
        whom = claim_for_whom(said)
    if not serves(whom, record.kind, request, names_other=names_others(said), own=own):
        # "For me alone: …" is not for a table for two; the user's own tastes are not for a
        # flight booked for someone else.
        return "for_whom"
    return None


def usable(
    records: Sequence[UserMemory],
    query: RecallQuery,
    blocked: set[str],
    *,
    factual: bool,
    access: Access = OWN_MEMORY,
    for_whom: ForWhom | None = None,
    when: Window | None = None,
    others: Sequence[UserMemory] = (),
) -> tuple[list[UserMemory], Counter[str]]:
    """The records of one subject that recall may use for `query`, in their order, and the
    others counted by reason: the ledger (`blocked` ids), `exclusion`, an import the user's own
    word shadows (`shadowed_imports`), then recall's choices in time (`superseded_in_time`,
    `replaced_from_start`, `settled`). `others`: the subject's claims outside `records` that an
    import among them may give way to (`speakers`). Pure."""
    filtered: Counter[str] = Counter()
    when = when or about(query.text, query.ts)  # read once for every record
    shadowed = shadowed_imports([*records, *others], query.ts)
    survivors: list[UserMemory] = []
    for record in records:
        reason = "erasure_ledger" if str(record.id) in blocked else None
        reason = reason or exclusion(record, query, factual, access, for_whom, when)
        if reason is None and record.id in shadowed:
            reason = "user_statement_preferred"
        if reason is None:
            survivors.append(record)
        else:
            filtered[reason] += 1
    replaced = (
        superseded_in_time(survivors)
        | replaced_from_start(survivors)
        | settled(survivors)
        | retimed(survivors)
    )
    if replaced:
        filtered["superseded_in_time"] += len(replaced)
        survivors = [r for r in survivors if r.id not in replaced]
    return survivors, filtered


def column_exclusion(query: RecallQuery, access: Access = OWN_MEMORY) -> sa.ColumnElement[Any]:
    """`exclusion`'s reason as a SQL expression over a `memories` row, for the checks that are
    pure column predicates (session and status, confirmation, validity at `query.ts`, scope,
    grant scope, purpose), in `exclusion`'s order; NULL when the row passes them or when the
    text decides (an open-ended plan: `plan_not_started` reads the claim, and it comes before
    `expired`), so the caller runs `exclusion` on every row this leaves NULL. Where it gives a
    reason, that reason is the one `exclusion` gives."""
    m = memories.c
    ts = sa.literal(query.ts, sa.DateTime(timezone=True))
    when = about(query.text, query.ts)
    start = sa.literal(when.start, sa.DateTime(timezone=True))
    last = sa.literal(when.last, sa.DateTime(timezone=True))
    said_after = sa.false() if when.is_now else m.observed_at > ts
    status = status_as_of(query.ts)  # a replacement said after the request replaces nothing yet
    # A query with no session sees session-only claims while they last (`exclusion`).
    session = sa.false() if query.session is None else m.session.is_distinct_from(query.session)
    scopes = [query.scope, DEFAULT_SCOPE]
    if access.grant_scopes is None or ALL_SCOPES in access.grant_scopes:
        granted: sa.ColumnElement[bool] = sa.true()
    elif access.grant_scopes:  # `covers`: a grant's own scope and the global claims
        granted = m.scope.in_(sorted(access.grant_scopes | {DEFAULT_SCOPE}))
    else:
        granted = sa.false()
    unusable = [Confirmation.PENDING.value, Confirmation.REJECTED.value]
    return sa.case(
        (sa.and_(status == Status.SESSION_ONLY.value, session), sa.literal("other_session")),
        (
            status.not_in([Status.ACTIVE.value, Status.SESSION_ONLY.value]),
            sa.literal("status_") + status,
        ),
        (m.confirmation.in_(unusable), sa.literal("confirmation_") + m.confirmation),
        (sa.or_(m.valid_from > last, said_after), sa.literal("not_yet_valid")),
        (sa.and_(m.kind == Kind.PLAN.value, m.valid_until.is_(None)), sa.null()),
        (sa.and_(m.valid_until.is_not(None), m.valid_until <= start), sa.literal("expired")),
        (m.scope.not_in(scopes), sa.literal("scope")),
        (sa.not_(granted), sa.literal("grant_scope")),
        (m.purpose.not_in(sorted(policy.usable_purposes(query.purpose))), sa.literal("purpose")),
        else_=sa.null(),
    )


def candidates(
    conn: Connection, query: RecallQuery, access: Access, filtered_out: Counter[str]
) -> list[UserMemory]:
    """The subject's claims that `column_exclusion` lets through, for `exclusion` to judge;
    the others are only counted, by reason, into `filtered_out` (PostgreSQL groups them, no
    row of them is read). The subject's history is never read whole."""
    m = memories.c
    reason = column_exclusion(query, access)
    of_subject = m.subject == query.subject
    for why, count in conn.execute(
        sa.select(reason, sa.func.count()).where(of_subject, reason.is_not(None)).group_by(reason)
    ):
        filtered_out[why] += count
    return read_as_of(conn, query.ts, of_subject, reason.is_(None))


def speakers(
    conn: Connection, query: RecallQuery, access: Access, found: Sequence[UserMemory]
) -> list[UserMemory]:
    """The subject's own claims outside `found` (the candidates) on the topics of the imports
    in `found`: what `shadowed_imports` needs besides the candidates to judge them (it reads
    every claim of the subject on those topics, usable for this request or not)."""
    topics = {r.topic for r in found if r.origin is Origin.IMPORTED and r.topic}
    if not topics:
        return []
    m = memories.c
    rows = conn.execute(
        sa.select(memories).where(
            m.subject == query.subject,
            m.topic.in_(sorted(topics)),
            m.origin != Origin.IMPORTED.value,
            column_exclusion(query, access).is_not(None),  # not among the candidates
        )
    ).mappings()
    return [record_from_row(r) for r in rows]
