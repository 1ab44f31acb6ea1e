"""A recall query and its answer: `parse_query` validates one query line (FORMATS.md) into a
`RecallQuery`; a `RecallAnswer` holds the `Recalled` claims, or why there are none. Used by
`permem.recall`, which re-exports them.
"""

from __future__ import annotations

import re
import unicodedata
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from permem.logs import identifier_problem, parse_ts, unstorable_problem
from permem.records import UserMemory
from permem.stores.database import (
    check_tenant,
)

MAX_K = 50
_SCOPE = re.compile(r"^(global|(workspace|project):\S.*)$")
_IDENTIFIERS = ("tenant", "actor", "subject", "scope")


def is_scope(value: str) -> bool:
    """Whether `value` names a scope: `global`, `workspace:<name>` or `project:<name>`."""
    return _SCOPE.match(value) is not None


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
    # The service that asks on the actor's behalf (an HTTP service key), logged beside it.
    via: str | None = None


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
    if not is_scope(fields["scope"]):
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
    # The id of this answer's `recall_log` row, once logged (influence reports name it).
    recall_id: uuid.UUID | None = None

    def as_json(self) -> dict[str, Any]:
        if self.error is not None:
            return {"query_id": self.query_id, "error": self.error}
        return {
            "query_id": self.query_id,
            "records": [r.as_json() for r in self.records],
            "denied": self.denied,
        }
