"""What a nightly batch sets aside so that no row and no message can fail it, or stall it.

Every path below leaves `quarantine` rows (file, reason, a hash; never the text: identifiers
in a reason are escaped with `ascii` and cut short) and is final, so a re-run adds nothing and
never retries the same thing forever. Claim and decision ids derive from the source, so the
rows a re-run would write are the rows already there.

- `set_aside` (a validation with row-level failures, `permem.quality`): the offending claims
  are not stored; each keeps its gate decision row, now `reject` with the reason
  `validation:<expectation>` prepended, and gets a quarantine row (file `<validation>`, reason
  `validation <expectation>: claim <id> of message <id>`). Its message is recorded as processed
  and its other claims load: re-extracting it would yield the same offending claim.
- `hold_back` (a systemic validation failure): none of the batch's claims is stored; every
  message is recorded as processed without claims, every candidate is a `reject` decision
  `validation:batch-rejected`, and each message gets a quarantine row (file `<validation>`)
  naming it and the first systemic failure. The run still fails, and the next one moves past
  these messages instead of stopping at the same place.
- `load_isolating` (a load PostgreSQL refuses because of a value): the batch is loaded in one
  transaction; only when that raises a value error (`refused_by_value`: SQLSTATE class 22 data
  exception, 23 integrity constraint, 54 program limit such as an index row too large, or a
  value the driver cannot encode, like a NUL byte or a lone surrogate) is it split in halves,
  and each half split again, down to the single message, which is quarantined (file `<load>`,
  reason naming the message id and the error class) while everything else loads. A lost
  connection or any other error is raised unchanged: the task retries it.
"""

from __future__ import annotations

import hashlib
import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

import psycopg
import sqlalchemy as sa

from permem import pipeline
from permem.hashing import content_hash
from permem.logs import Quarantined
from permem.pipeline import LoadResult, Prepared, Proposal
from permem.policy import GateOutcome
from permem.quality import BatchValidation
from permem.records import GateDecision, Message
from permem.revisions import Meaning
from permem.stores.database import Database

__all__ = [
    "LOAD_FILE",
    "VALIDATION_FILE",
    "Loaded",
    "hold_back",
    "load_isolating",
    "refused_by_value",
    "set_aside",
]

# The `file` of quarantine rows that no log line names.
VALIDATION_FILE = "<validation>"
LOAD_FILE = "<load>"
BATCH_REJECTED = "validation:batch-rejected"
# SQLSTATE classes of errors caused by a value: data exception, integrity constraint violation,
# program limit exceeded (an index row too large).
_VALUE_CLASSES = frozenset({"22", "23", "54"})
_SHOWN = 80


@dataclass
class Loaded:
    """What a batch's load stored, and the quarantine entries of what PostgreSQL refused."""

    result: LoadResult
    refused: list[Quarantined] = field(default_factory=list)


def set_aside(
    prepared: Prepared, proposals: Sequence[Proposal], validation: BatchValidation
) -> tuple[Prepared, list[Proposal]]:
    """The batch without the claims `validation` set aside: their proposals rejected, a
    quarantine entry each. Returns its inputs unchanged when nothing was set aside."""
    if not validation.set_aside:
        return prepared, list(proposals)
    kept: list[Proposal] = []
    entries: list[Quarantined] = []
    for proposal in proposals:
        record = proposal.record
        failed = validation.set_aside.get(str(record.id)) if record is not None else None
        if record is None or not failed:
            kept.append(proposal)
            continue
        message = proposal.candidate.message
        kept.append(_rejected(proposal, tuple(f"validation:{name}" for name in failed)))
        entries.append(
            Quarantined(
                file=VALIDATION_FILE,
                line_no=0,
                reason=(
                    f"validation {', '.join(failed)}: claim {record.id} "
                    f"of message {_shown(message.message_id)}"
                ),
                content_hash=_hash(prepared, message.tenant, proposal.candidate.claim_text),
                tenant=message.tenant,
            )
        )
    return replace(prepared, quarantined=[*prepared.quarantined, *entries]), kept


def hold_back(
    prepared: Prepared, proposals: Sequence[Proposal], validation: BatchValidation
) -> tuple[Prepared, list[Proposal]]:
    """The batch of a systemic failure as it is recorded: messages processed without claims,
    every proposal rejected, one quarantine entry per message."""
    first = (validation.systemic or validation.failures or ("unknown failure",))[0]
    entries = [
        Quarantined(
            file=VALIDATION_FILE,
            line_no=0,
            reason=(
                f"validation rejected batch {prepared.batch}: message "
                f"{_shown(message.message_id)} held back: {first}"
            ),
            content_hash=_hash(prepared, message.tenant, message.text),
            tenant=message.tenant,
        )
        for message in prepared.messages
    ]
    held = replace(
        prepared,
        messages=[],
        record_only=[*prepared.messages, *prepared.record_only],
        quarantined=[*prepared.quarantined, *entries],
    )
    return held, [_rejected(p, (BATCH_REJECTED,)) for p in proposals]


def _hash(prepared: Prepared, tenant: str, text: str) -> str:
    # A lone surrogate cannot be encoded; the hash must still be computable.
    readable = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    return content_hash(prepared.tenants[tenant].salt, readable)


def _rejected(proposal: Proposal, reasons: tuple[str, ...]) -> Proposal:
    before = proposal.outcome.reasons if proposal.outcome is not None else ()
    outcome = GateOutcome(GateDecision.REJECT, (*reasons, *before))
    return replace(proposal, outcome=outcome, record=None)


def refused_by_value(error: BaseException) -> bool:
    """Whether `error` is PostgreSQL (or its driver) refusing a value, not a failing server."""
    cause = error.orig if isinstance(error, sa.exc.StatementError) else error
    if isinstance(cause, UnicodeError):
        return True
    if isinstance(cause, psycopg.Error):
        if cause.sqlstate is None:
            # Raised by the driver before sending: a value it cannot adapt (a NUL byte).
            return isinstance(cause, psycopg.DataError | psycopg.IntegrityError)
        return cause.sqlstate[:2] in _VALUE_CLASSES
    return False


_UnitKind = Literal["message", "record_only", "quarantined"]
_Unit = tuple[_UnitKind, int]


def load_isolating(
    db: Database,
    prepared: Prepared,
    proposals: Sequence[Proposal],
    batch_id: uuid.UUID,
    meaning: Meaning | None = None,
) -> Loaded:
    """Load the batch in one transaction; if PostgreSQL refuses a value, bisect down to the
    messages (and quarantine entries) it refuses, quarantine those and load the rest."""
    try:
        return Loaded(pipeline.load(db, prepared, proposals, batch_id, meaning))
    except Exception as error:
        if not refused_by_value(error):
            raise
    by_message: dict[tuple[str, str], list[Proposal]] = {}
    for proposal in proposals:
        message = proposal.candidate.message
        by_message.setdefault((message.tenant, message.message_id), []).append(proposal)
    units: list[_Unit] = [
        *(("message", i) for i in range(len(prepared.messages))),
        *(("record_only", i) for i in range(len(prepared.record_only))),
        *(("quarantined", i) for i in range(len(prepared.quarantined))),
    ]
    loaded = Loaded(LoadResult(0, 0, 0, 0, []))

    def part_of(units: Sequence[_Unit]) -> tuple[Prepared, list[Proposal]]:
        chosen: dict[_UnitKind, list[int]] = {"message": [], "record_only": [], "quarantined": []}
        for kind, index in units:
            chosen[kind].append(index)
        messages = [prepared.messages[i] for i in chosen["message"]]
        part = Prepared(
            batch=prepared.batch,
            messages=messages,
            record_only=[prepared.record_only[i] for i in chosen["record_only"]],
            quarantined=[prepared.quarantined[i] for i in chosen["quarantined"]],
            tenants=prepared.tenants,
            counts=Counter(),
        )
        own = [p for m in messages for p in by_message.get((m.tenant, m.message_id), [])]
        return part, own

    def attempt(units: Sequence[_Unit]) -> None:
        try:
            _add(loaded.result, pipeline.load(db, *part_of(units), batch_id, meaning))
        except Exception as error:
            if not refused_by_value(error):
                raise
            if len(units) == 1:
                refused = _refusal(prepared, units[0], error)
                loaded.result.quarantined += _store_refusal(db, prepared, refused, batch_id)
                loaded.refused.append(refused)
            else:
                middle = len(units) // 2
                attempt(units[:middle])
                attempt(units[middle:])

    middle = len(units) // 2
    attempt(units[:middle])
    attempt(units[middle:])
    return loaded


def _add(total: LoadResult, part: LoadResult) -> None:
    total.memories += part.memories
    total.decisions += part.decisions
    total.sources += part.sources
    total.quarantined += part.quarantined
    total.superseded.extend(part.superseded)
    total.reinstated.extend(part.reinstated)


def _refusal(prepared: Prepared, unit: _Unit, error: BaseException) -> Quarantined:
    kind, index = unit
    if kind == "quarantined":
        item = prepared.quarantined[index]
        # The entry itself held the refused value: keep only what is always storable.
        return Quarantined(
            file=_shown(item.file),
            line_no=max(0, min(item.line_no, 2**31 - 1)),
            reason=_shown(item.reason, 400),
            content_hash=_shown(item.content_hash),
            tenant=None,
        )
    message: Message = (prepared.messages if kind == "message" else prepared.record_only)[index]
    return Quarantined(
        file=LOAD_FILE,
        line_no=0,
        reason=(
            f"load: PostgreSQL refused message {_shown(message.message_id)}: {_error_name(error)}"
        ),
        content_hash=hashlib.sha256(message.text.encode("utf-8", "surrogatepass")).hexdigest(),
        tenant=message.tenant,
    )


def _store_refusal(
    db: Database, prepared: Prepared, entry: Quarantined, batch_id: uuid.UUID
) -> int:
    """Store one quarantine entry; under no tenant when its tenant is the refused value."""
    for candidate in (entry, replace(entry, tenant=None)):
        part = Prepared(prepared.batch, [], [], [candidate], prepared.tenants, Counter())
        try:
            return pipeline.load(db, part, [], batch_id).quarantined
        except Exception as error:
            if not refused_by_value(error) or candidate.tenant is None:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def _error_name(error: BaseException) -> str:
    cause = error.orig if isinstance(error, sa.exc.StatementError) else error
    name = type(cause).__name__
    state = getattr(cause, "sqlstate", None)
    return f"{name} ({state})" if state else name


def _shown(value: str, limit: int = _SHOWN) -> str:
    """`value` with anything PostgreSQL or a terminal would choke on escaped, cut short."""
    escaped = "".join(c if c.isprintable() else ascii(c)[1:-1] for c in value)
    return escaped if len(escaped) <= limit else escaped[: limit - 3] + "..."
