"""The eight answers for one claim, read in one tenant-bound transaction."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from permem.errors import BadInput
from permem.explain._controls import _controls
from permem.explain._currency import _currency, _paused_by
from permem.explain._derivatives import _derivatives
from permem.explain._guarantees import select_tests
from permem.explain._origin import _purpose_and_scope, _source_and_origin, _subject_and_actors
from permem.explain._selection import _selection
from permem.export import gate_of
from permem.stores.database import Database, tenant_transaction
from permem.stores.memories import get_memory

ANSWER_KEYS: tuple[str, ...] = (
    "subject_and_actors",
    "source_and_origin",
    "purpose_and_scope",
    "currency",
    "selection",
    "controls",
    "derivatives",
    "tests",
)


def explain_claim(
    db: Database, tenant: str, claim_id: uuid.UUID, *, now: datetime
) -> dict[str, Any]:
    """The eight answers for `claim_id` in `tenant`, as of `now`: `{"claim", "answers"}`.

    `claim` holds the inspect fields; `answers` has exactly the keys of `ANSWER_KEYS`, each a
    dict of facts with a `summary`. Raises `NotFound` for an id the tenant does not hold.
    Changes nothing.
    """
    if now.tzinfo is None:
        raise BadInput("the time of an explanation must carry a timezone")
    with tenant_transaction(db.app, tenant) as conn:
        record = get_memory(conn, claim_id)
        gate = gate_of(conn, [record.id]).get(record.id)
        paused_by = _paused_by(conn, record.subject)
        answers = {
            "subject_and_actors": _subject_and_actors(conn, record, now),
            "source_and_origin": _source_and_origin(conn, record, gate),
            "purpose_and_scope": _purpose_and_scope(record),
            "currency": _currency(conn, record, paused_by, now),
            "selection": _selection(conn, record),
            "controls": _controls(tenant, record, paused_by),
            "derivatives": _derivatives(conn, record, now),
            "tests": select_tests(record, gate is not None),
        }
    return {"claim": record.as_json(), "answers": answers}
