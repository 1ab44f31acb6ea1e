"""The bodies the HTTP service reads and writes (their JSON Schema is the OpenAPI document's).

Request bodies forbid unknown fields: `tenant` and `actor` are never read from a body, so a
body that sends them is refused (422) rather than silently ignored.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from permem.influence import MAX_NOTE
from permem.recall_query import MAX_K

__all__ = [
    "CorrectBody",
    "ExplainOut",
    "FeedbackBody",
    "ForgetBody",
    "ForgetOut",
    "GrantBody",
    "GrantOut",
    "InfluenceBody",
    "InfluenceOut",
    "PauseOut",
    "ProfileLineOut",
    "ProfileOut",
    "RecallBody",
    "RecallOut",
    "RecordOut",
    "RecalledOut",
    "Source",
]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RecallBody(_Body):
    """FORMATS.md's recall query without `tenant` and `actor` (they come from the credential)."""

    text: str = Field(description="The request the memory is wanted for.")
    purpose: str = Field(description="The declared purpose of the request.")
    subject: str | None = Field(
        default=None, description="Whose memory; default: the credential's actor."
    )
    scope: str = Field(default="global", description="global, workspace:<name> or project:<name>.")
    ts: str | None = Field(
        default=None, description="RFC 3339 time of the request (validity is judged then); now."
    )
    k: int = Field(default=5, ge=1, le=MAX_K, description="How many records at most.")
    session: str | None = Field(default=None, description="The caller's session id, if any.")
    query_id: str | None = Field(default=None, description="The caller's id for the query.")


class Source(BaseModel):
    message_id: str | None
    span: list[int] | None


class ClaimOut(BaseModel):
    """The fields a recalled record and an inspect line share (FORMATS.md)."""

    id: str
    subject: str
    claim: str
    origin: str
    kind: str
    scope: str
    purpose: str
    sensitivity: str
    confidence: float
    valid_from: str
    valid_until: str | None
    source: Source


class RecalledOut(ClaimOut):
    score: float
    conflicts_with_request: bool


class RecallOut(BaseModel):
    query_id: str
    recall_id: str = Field(description="Name it when reporting what the response used.")
    records: list[RecalledOut]
    context: str = Field(description="The records as a prompt-ready, attributed evidence block.")


class InfluenceBody(_Body):
    used_ids: list[str] = Field(description="Ids of the recalled records the response used.")
    note: str | None = Field(default=None, max_length=MAX_NOTE, description="Optional note.")


class InfluenceOut(BaseModel):
    id: str
    recall_id: str
    used_ids: list[str]
    note: str | None
    reported_by: str
    reported_at: str


class RecordOut(ClaimOut):
    """An inspect line (FORMATS.md): the recall fields plus the lifecycle fields."""

    status: str
    confirmation: str
    supersedes: str | None
    observed_at: str


class ExplainOut(BaseModel):
    claim: dict[str, Any]
    answers: dict[str, dict[str, Any]]


class CorrectBody(_Body):
    text: str = Field(description="The corrected claim.")


class FeedbackBody(_Body):
    wrong: bool = Field(default=True, description="True: the claim is wrong; false: right.")


class PauseOut(BaseModel):
    subject: str
    paused: bool


class ProfileLineOut(BaseModel):
    statement: str
    claim_ids: list[str]
    valid_from: str
    valid_until: str | None
    confidence: float


class ProfileOut(BaseModel):
    """The subject's synthesized profile (`permem profile --json`): `id` and `version` null when
    none is stored (nothing usable, or paused)."""

    id: str | None
    tenant: str
    subject: str
    purpose: str
    scope: str
    version: int | None
    synthesiser: str | None
    built_at: str | None
    paused: bool
    groups: dict[str, list[ProfileLineOut]]


class GrantBody(_Body):
    grantee: str = Field(description="Who may use the memory.")
    purpose: str = Field(description="For which declared purpose.")
    expires_at: str = Field(description="Until when (RFC 3339).")
    subject: str | None = Field(default=None, description="Whose memory; default: the actor.")
    scope: str = Field(
        default="global", description="global, workspace:<name>, project:<name> or all."
    )


class GrantOut(BaseModel):
    id: str
    grantee: str
    subject: str
    purpose: str
    scope: str
    expires_at: str
    granted_by: str
    granted_at: str
    revoked_at: str | None


class ForgetBody(_Body):
    """Exactly one of the three."""

    subject: str | None = Field(default=None, description="Everything of this subject.")
    source: str | None = Field(default=None, description="A message and all derived from it.")
    claim: str | None = Field(default=None, description="One claim (its id).")


class ForgetOut(BaseModel):
    request_id: str
    state: Literal["blocked", "held", "erased", "verified", "failed"]
    target: dict[str, str]
    nodes: int
    held: int
    requested_by: str
    requested_at: str | None
    blocked_at: str | None
    erased_at: str | None
    verified_at: str | None
