"""The UserMemory record and the vocabularies it is written in.

A memory is a scoped claim, never a bare fact: who it is about, where it came from, where and
why it may be used, when it holds, how sure and how sensitive it is, and where it stands in its
lifecycle. The enum values are the strings stored in PostgreSQL and printed by the CLI.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any


class Role(StrEnum):
    """Who wrote a conversation message (FORMATS.md)."""

    USER = "user"
    ASSISTANT = "assistant"
    SYSTEM = "system"
    TOOL = "tool"
    DOCUMENT = "document"
    IMPORT = "import"


class Origin(StrEnum):
    """How a claim came to be known. Only `user`-role text yields the first two."""

    EXPLICIT_INSTRUCTION = "explicit_instruction"
    USER_FACT = "user_fact"
    OBSERVED_BEHAVIOR = "observed_behavior"
    INFERRED_PROFILE = "inferred_profile"
    IMPORTED = "imported"


class Kind(StrEnum):
    """What sort of claim it is."""

    PREFERENCE = "preference"
    CONSTRAINT = "constraint"
    FACT = "fact"
    INSTRUCTION = "instruction"
    EVENT = "event"
    PLAN = "plan"


class Sensitivity(StrEnum):
    """How strictly a claim is handled; `special` covers GDPR art. 9 categories."""

    NONE = "none"
    PERSONAL = "personal"
    SPECIAL = "special"


class Confirmation(StrEnum):
    """Whether the user verified the claim. `pending` and `rejected` claims are never used."""

    UNCONFIRMED = "unconfirmed"
    PENDING = "pending"
    CONFIRMED = "confirmed"
    REJECTED = "rejected"


class Status(StrEnum):
    """Where a claim stands in its lifecycle. Only `active` (and, inside its session,
    `session_only`) claims can be recalled."""

    ACTIVE = "active"
    SUPERSEDED = "superseded"
    SESSION_ONLY = "session_only"
    PAUSED = "paused"
    EXPIRED = "expired"
    RETRACTED = "retracted"
    BLOCKED = "blocked"
    ERASED = "erased"


class GateDecision(StrEnum):
    """What the write gate did with a candidate claim."""

    ACCEPT = "accept"
    SHORTEN = "shorten"
    REDACT = "redact"
    CONFIRM = "confirm"
    SESSION_ONLY = "session_only"
    REJECT = "reject"


DEFAULT_SCOPE = "global"
DEFAULT_PURPOSE = "assistant"


@dataclass(frozen=True, slots=True)
class SourceRef:
    """The exact support of a claim: a message and a character span of its text.

    `message_id` is None only for claims entered through a control (a user's correction),
    whose support is the control request itself.
    """

    message_id: str | None
    span: tuple[int, int] | None

    def __post_init__(self) -> None:
        if self.span is not None:
            start, end = self.span
            if not 0 <= start <= end:
                raise ValueError(f"source span must satisfy 0 <= start <= end, got {self.span}")

    def as_json(self) -> dict[str, Any]:
        return {"message_id": self.message_id, "span": list(self.span) if self.span else None}


@dataclass(frozen=True, slots=True)
class UserMemory:
    """One scoped claim about one subject, as stored in the system of record."""

    tenant: str
    subject: str
    account: str
    origin: Origin
    kind: Kind
    claim: str
    source: SourceRef
    scope: str
    purpose: str
    observed_at: datetime
    valid_from: datetime
    valid_until: datetime | None
    confidence: float
    sensitivity: Sensitivity
    confirmation: Confirmation = Confirmation.UNCONFIRMED
    status: Status = Status.ACTIVE
    supersedes: uuid.UUID | None = None
    evidence: str | None = None
    session: str | None = None
    topic: str | None = None
    policy_version: str | None = None
    id: uuid.UUID = field(default_factory=uuid.uuid4)
    created_at: datetime | None = None

    def __post_init__(self) -> None:
        for name in ("tenant", "subject", "account", "claim", "scope", "purpose"):
            if not getattr(self, name):
                raise ValueError(f"UserMemory.{name} must not be empty")
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"confidence must be within 0..1, got {self.confidence}")
        for name in ("observed_at", "valid_from", "valid_until"):
            value = getattr(self, name)
            if value is not None and value.tzinfo is None:
                raise ValueError(f"UserMemory.{name} must be timezone-aware")
        if self.valid_until is not None and self.valid_until < self.valid_from:
            raise ValueError("valid_until must not be before valid_from")

    def as_json(self) -> dict[str, Any]:
        """The record as FORMATS.md's inspect line: recall fields plus lifecycle fields."""
        return {
            "id": str(self.id),
            "subject": self.subject,
            "claim": self.claim,
            "origin": self.origin.value,
            "kind": self.kind.value,
            "scope": self.scope,
            "purpose": self.purpose,
            "sensitivity": self.sensitivity.value,
            "confidence": round(self.confidence, 4),
            "valid_from": self.valid_from.isoformat(),
            "valid_until": self.valid_until.isoformat() if self.valid_until else None,
            "source": self.source.as_json(),
            "status": self.status.value,
            "confirmation": self.confirmation.value,
            "supersedes": str(self.supersedes) if self.supersedes else None,
            "observed_at": self.observed_at.isoformat(),
        }


@dataclass(frozen=True, slots=True)
class Message:
    """One line of a conversation log (FORMATS.md). Its text is never stored by permem.

    `subject` is who is speaking: the account itself (the default, also when given as "") or
    `<account>:<person>` on an account several people share. `log_line` is the file and line
    number it was read from (None when not read from a log); it takes no part in equality.
    """

    message_id: str
    tenant: str
    account: str
    conversation_id: str
    turn: int
    role: Role
    text: str
    ts: datetime
    scope: str = DEFAULT_SCOPE
    purpose: str = DEFAULT_PURPOSE
    session: str | None = None
    incognito: bool = False
    subject: str = ""
    log_line: tuple[str, int] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        for name in ("message_id", "tenant", "account", "conversation_id", "scope", "purpose"):
            if not getattr(self, name):
                raise ValueError(f"message field {name!r} must not be empty")
        if self.ts.tzinfo is None:
            raise ValueError("message ts must carry a timezone offset")
        if not self.subject:
            object.__setattr__(self, "subject", self.account)
        elif self.subject != self.account and (
            not self.subject.startswith(self.account + ":")
            or len(self.subject) == len(self.account) + 1
        ):
            raise ValueError("message subject must be the account or <account>:<person>")
