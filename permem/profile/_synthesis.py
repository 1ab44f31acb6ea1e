"""Synthesisers: the claims recall could use now, made into grouped profile lines.

`Synthesiser` is the contract an LLM synthesiser can be added behind; `RuleSynthesiser` is
the default, deterministic and offline.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from permem.profile._statement import statement_of
from permem.records import Kind, UserMemory

__all__ = ["GROUPS", "ProfileLine", "RuleSynthesiser", "Synthesiser", "group_of"]

# The profile's groups, in the order it lists them.
GROUPS: tuple[str, ...] = ("instructions", "constraints", "preferences", "facts")
_GROUP_OF_KIND = {
    Kind.INSTRUCTION: "instructions",
    Kind.CONSTRAINT: "constraints",
    Kind.PREFERENCE: "preferences",
    Kind.FACT: "facts",
    Kind.EVENT: "facts",
    Kind.PLAN: "facts",
}


def group_of(kind: Kind) -> str:
    """The profile group a claim of `kind` is listed in (events and plans are facts)."""
    return _GROUP_OF_KIND[kind]


@dataclass(frozen=True, slots=True)
class ProfileLine:
    """One statement of a profile, the claims it stands for, and when it holds (the earliest
    start and the latest end of its claims; None: open-ended)."""

    group: str
    statement: str
    claim_ids: tuple[uuid.UUID, ...]
    valid_from: datetime
    valid_until: datetime | None
    confidence: float

    def as_json(self) -> dict[str, Any]:
        return {
            "group": self.group,
            "statement": self.statement,
            "claim_ids": [str(i) for i in self.claim_ids],
            "valid_from": self.valid_from.isoformat(),
            "valid_until": self.valid_until.isoformat() if self.valid_until else None,
            "confidence": round(self.confidence, 4),
        }


class Synthesiser(Protocol):
    """Makes profile lines of one subject's usable claims (for one purpose and scope).

    * `name` identifies the synthesiser and its version; it is stored with each profile, and a
      change of name regenerates the profiles.
    * `lines(claims)` returns the lines in the order the profile lists them. Each line is in
      one of `GROUPS`, cites at least one of `claims` by id and says nothing that is not in the
      claims it cites: a line never outlives the claims it cites, because erasing a claim
      erases every profile version that cites it. Every claim given may be cited; none that
      was not given. The same claims give the same lines.
    """

    name: str

    def lines(self, claims: Sequence[UserMemory]) -> list[ProfileLine]: ...


class RuleSynthesiser:
    """The default: each claim's normalised statement (`statement_of`) in its kind's group;
    claims of one group that say the same thing share one line. Lines are listed by group,
    then in the order their first claim was said."""

    name = "rules/1"

    def lines(self, claims: Sequence[UserMemory]) -> list[ProfileLine]:
        merged: dict[tuple[str, str], list[UserMemory]] = {}
        ordered = sorted(claims, key=lambda r: (r.observed_at, str(r.id)))
        for record in ordered:
            key = (group_of(record.kind), statement_of(record.claim))
            merged.setdefault(key, []).append(record)
        lines = [
            ProfileLine(
                group=group,
                statement=statement,
                claim_ids=tuple(r.id for r in said),
                valid_from=min(r.valid_from for r in said),
                valid_until=None
                if any(r.valid_until is None for r in said)
                else max(r.valid_until for r in said if r.valid_until is not None),
                confidence=max(r.confidence for r in said),
            )
            for (group, statement), said in merged.items()
        ]
        return sorted(lines, key=lambda line: GROUPS.index(line.group))
