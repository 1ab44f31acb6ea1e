"""A small, hand-written example written through the core API (used by `make demo`).

Alice's conversation yields three claims; a later message corrects one of them, so the old claim
stays as history with status `superseded` and the correction points at it.
"""

from __future__ import annotations

from datetime import UTC, datetime

from permem.records import (
    Confirmation,
    Kind,
    Message,
    Origin,
    Role,
    Sensitivity,
    SourceRef,
    UserMemory,
)
from permem.stores.database import Database, register_tenant, tenant_transaction
from permem.stores.memories import append_correction, append_memories, list_memories
from permem.stores.sources import append_sources

TENANT = "demo"
SUBJECT = "alice"

_TEXTS = {
    "demo-1": "I'm allergic to peanuts, please remember that for recipes.",
    "demo-2": "Always answer in metric units.",
    "demo-3": "I'm vegetarian.",
    "demo-4": "Actually I'm pescatarian now.",
}


def _message(message_id: str, turn: int) -> Message:
    return Message(
        message_id=message_id,
        tenant=TENANT,
        account=SUBJECT,
        conversation_id="demo-conversation",
        turn=turn,
        role=Role.USER,
        text=_TEXTS[message_id],
        ts=datetime(2026, 11, 2, 8, turn, tzinfo=UTC),
    )


def _claim(
    message: Message, claim: str, end: int, kind: Kind, origin: Origin, **extra: object
) -> UserMemory:
    fields: dict[str, object] = {
        "tenant": TENANT,
        "subject": SUBJECT,
        "account": SUBJECT,
        "origin": origin,
        "kind": kind,
        "claim": claim,
        "source": SourceRef(message.message_id, (0, end)),
        "scope": "global",
        "purpose": "assistant",
        "observed_at": message.ts,
        "valid_from": message.ts,
        "valid_until": None,
        "confidence": 0.9,
        "sensitivity": Sensitivity.NONE,
        "policy_version": "demo",
    }
    fields.update(extra)
    return UserMemory(**fields)  # type: ignore[arg-type]


def seed(db: Database) -> int:
    """Write the example once; return how many records were written (0 when already there)."""
    messages = [_message(mid, turn) for turn, mid in enumerate(_TEXTS, start=1)]
    with tenant_transaction(db.app, TENANT) as conn:
        register_tenant(conn, TENANT)
        if list_memories(conn, SUBJECT):
            return 0
        append_sources(conn, messages)
        allergy = _claim(
            messages[0],
            "is allergic to peanuts",
            23,
            Kind.CONSTRAINT,
            Origin.USER_FACT,
            purpose="recipes",
            sensitivity=Sensitivity.SPECIAL,
            confirmation=Confirmation.CONFIRMED,
        )
        metric = _claim(
            messages[1], "answer in metric units", 30, Kind.INSTRUCTION, Origin.EXPLICIT_INSTRUCTION
        )
        vegetarian = _claim(
            messages[2], "is vegetarian", 14, Kind.PREFERENCE, Origin.USER_FACT, topic="diet"
        )
        append_memories(conn, [allergy, metric, vegetarian])
        pescatarian = _claim(
            messages[3],
            "is pescatarian",
            28,
            Kind.PREFERENCE,
            Origin.USER_FACT,
            topic="diet",
            supersedes=vegetarian.id,
        )
        append_correction(conn, pescatarian, actor=SUBJECT)
    return 4
