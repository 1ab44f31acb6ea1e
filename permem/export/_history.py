"""Each record's status and confirmation changes, in the order they happened."""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, RowMapping

from permem.export._facts import _iso
from permem.records import UserMemory
from permem.stores.schema import memory_events


def history_of(
    conn: Connection, records: Sequence[UserMemory]
) -> dict[uuid.UUID, list[dict[str, Any]]]:
    """Each record's status and confirmation changes, in the order they happened."""
    if not records:
        return {}
    rows = conn.execute(
        sa.select(memory_events)
        .where(memory_events.c.memory_id.in_([r.id for r in records]))
        .order_by(memory_events.c.at, memory_events.c.id)
    ).mappings()
    grouped: dict[uuid.UUID, list[RowMapping]] = defaultdict(list)
    for row in rows:
        grouped[row["memory_id"]].append(row)
    histories: dict[uuid.UUID, list[dict[str, Any]]] = {}
    for record in records:
        current = {"status": record.status.value, "confirmation": record.confirmation.value}
        histories[record.id] = [
            {
                "field": e["field"],
                "old": e["old_value"],
                "new": e["new_value"],
                "actor": e["actor"],
                "reason": e["reason"],
                "at": _iso(e["at"]),
            }
            for e in _in_order(grouped.get(record.id, []), current)
        ]
    return histories


def _in_order(events: list[RowMapping], current: Mapping[str, str]) -> list[RowMapping]:
    """One record's `events` (sorted by time) with ties put in the order they must have had.

    An event's `at` is its transaction's start time, so the changes one transaction made share
    it. Each field's changes form a chain that ends in the record's `current` value, so walking
    back from it orders each field's changes within a transaction (even a change and its undo).
    How changes of different fields in one transaction interleave is not recorded.
    """
    groups: list[list[RowMapping]] = []
    for event in events:
        if groups and groups[-1][0]["at"] == event["at"]:
            groups[-1].append(event)
        else:
            groups.append([event])
    state = dict(current)  # each field's value after the changes not yet placed
    placed: list[list[RowMapping]] = []
    for group in reversed(groups):
        pending, backwards = list(group), []
        while pending:
            last = next(
                (e for e in reversed(pending) if state.get(e["field"]) == e["new_value"]),
                pending[-1],
            )
            pending = [e for e in pending if e is not last]
            backwards.append(last)
            state[last["field"]] = last["old_value"]
        placed.append(backwards[::-1])
    return [event for group in reversed(placed) for event in group]
