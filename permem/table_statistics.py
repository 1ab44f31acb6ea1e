"""Planner statistics kept fresh while a night loads.

A night appends far more rows than the tables held when it started, and the load's reads (the
subject's claims on a topic, what a retraction names, what a return brings back) are planned
from the statistics PostgreSQL last gathered. autovacuum gathers them on a live server, but
only after a table has grown by a tenth and at its own pace; where it is off (this machine's
server, some managed set-ups) nothing does. Measured side by side with
`benchmarks/load_growth.py` (200k lines, results/load_growth.txt): without a refresh the load
went from 0.61 to 0.91 s a batch and prepare from 0.24 to 0.45 s over the night; with it, 0.70
to 0.68 s and 0.27 to 0.24 s, for 8 refreshes costing 4.2 s in all.

So the nightly run counts the claims it stores and runs `ANALYZE` on the tables it writes and
reads whenever they have grown by `GROWTH` of what they held at the last refresh (and by at
least `MIN_ROWS`): a few refreshes a night, each a sample of at most 30,000 rows a table. It
runs as the tables' owner (PostgreSQL 15 lets nobody else analyse them); a refresh that fails
is reported once as a warning and the night goes on without: statistics are an optimisation,
never a reason to stop loading.
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from sqlalchemy.exc import SQLAlchemyError

from permem.stores.database import Database

__all__ = ["ANALYZED_TABLES", "GROWTH", "MIN_ROWS", "StatisticsRefresh"]

log = logging.getLogger(__name__)

# The tables a night writes and then reads by subject, topic, source or status (prepare's
# state and the load's supersession, retractions and returns). The night's largest tables,
# gate_decisions and lineage_edges, are only appended to: analysing them costs the most and
# plans nothing the night runs.
ANALYZED_TABLES = ("memories", "sources", "memory_events", "erasure_ledger")
GROWTH = 0.25  # refresh when the claims stored since the last refresh reach this share ...
MIN_ROWS = 5_000  # ... and at least this many (a small night never pays for a refresh)


class StatisticsRefresh:
    """Counts the claims a night stores; refreshes the statistics when they are due."""

    def __init__(self, db: Database, *, growth: float = GROWTH, min_rows: int = MIN_ROWS) -> None:
        self._db = db
        self._growth = growth
        self._min_rows = min_rows
        self._held: float | None = None  # claims at the last refresh (the estimate at start)
        self._since = 0
        self._failed = False
        self.refreshes = 0

    def stored(self, rows: int) -> bool:
        """Count `rows` claims just stored; run ANALYZE if the tables have grown enough since
        the last one. Returns whether it ran."""
        if self._failed:
            return False
        try:
            if self._held is None:
                self._held = self._estimate()
            self._since += rows
            if self._since < max(self._min_rows, self._growth * self._held):
                return False
            self._analyze()
        except SQLAlchemyError as exc:
            # Reading the estimate or analysing: either way the night goes on without.
            self._failed = True
            log.warning("statistics not refreshed during the night (%s)", str(exc).splitlines()[0])
            return False
        self._held += self._since
        self._since = 0
        self.refreshes += 1
        return True

    def _estimate(self) -> float:
        """The claims the planner believes `memories` holds (0 for a table never analysed)."""
        with self._db.app.connect() as conn:
            tuples = conn.execute(
                sa.text("SELECT reltuples FROM pg_class WHERE oid = 'memories'::regclass")
            ).scalar()
        return max(0.0, float(tuples or 0.0))

    def _analyze(self) -> None:
        engine = self._db.owner_engine()
        try:
            with engine.connect() as conn:
                conn.execute(sa.text("ANALYZE " + ", ".join(ANALYZED_TABLES)))
                conn.commit()
        finally:
            engine.dispose()
