"""A claim's status as it stood at a request's time: what was said after the request neither
serves it nor takes anything from it.

Supersession is written when the replacing claim is stored: the old claim's status becomes
`superseded`, with `superseded_from` the time the replacing claim was said
(`revisions.move_status`, `stores.memories.append_correction`; migration 0015). A request
about an earlier time (a replay, an audit, a request stamped before the night that stored the
change) must see the old claim as it was then: "I live in Halifax" is still where the user
lives for a request made before "we moved, I live in Bologna now" was said. So a superseded
claim counts as `active` for a request at `ts` before its `superseded_from`; one with no such
time (superseded before 0015 with no recorded cause) stays superseded. Erasing the replacing
claim changes nothing here: for later requests the old claim stays superseded. History is not
rewritten: this is a reading, the stored status is unchanged.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from permem.records import Status, UserMemory
from permem.stores.memories import record_from_row
from permem.stores.schema import memories

__all__ = ["read_as_of", "status_as_of"]


def status_as_of(ts: datetime) -> sa.ColumnElement[str]:
    """`memories.status` as it stood at `ts` (module doc), as a SQL expression over a row."""
    m = memories.c
    at = sa.literal(ts, sa.DateTime(timezone=True))
    return sa.case(
        (
            sa.and_(m.status == Status.SUPERSEDED.value, m.superseded_from > at),
            sa.literal(Status.ACTIVE.value),
        ),
        else_=m.status,
    )


def read_as_of(conn: Connection, ts: datetime, *where: Any) -> list[UserMemory]:
    """The claims `where` selects, each with its status as it stood at `ts`."""
    status = status_as_of(ts).label("status_as_of")
    rows = conn.execute(sa.select(memories, status).where(*where)).mappings()
    out = []
    for row in rows:
        record = record_from_row(row)
        if row["status_as_of"] != record.status.value:
            record = dataclasses.replace(record, status=Status(row["status_as_of"]))
        out.append(record)
    return out
