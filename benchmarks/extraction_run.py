"""One run of the extraction evaluation: a dataset's log files through `permem.nightly.run` into a
fresh database, and the stored claims and gate decisions read back as the owner."""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from permem import nightly
from permem.records import Confirmation, Status
from permem.runtime import close_all, runtime
from permem.settings import Settings
from permem.states import is_usable
from permem.stores.schema import gate_decisions, memories

from harness import FreshDatabase, log_files, read_jsonl

BATCH_SIZE = 2000


@dataclass(frozen=True)
class Claim:
    subject: str
    account: str
    kind: str
    origin: str
    text: str
    message_id: str
    status: str
    confirmation: str
    sensitivity: str

    @property
    def usable(self) -> bool:
        return is_usable(Status(self.status), Confirmation(self.confirmation))


@dataclass(frozen=True)
class Decision:
    message_id: str
    span: tuple[int, int]
    subject: str
    decision: str
    reasons: tuple[str, ...]


@dataclass
class Run:
    name: str
    messages: dict[str, dict[str, Any]]
    claims: list[Claim]
    decisions: list[Decision]
    candidates: int
    lines: int
    seconds: float
    claims_by_message: dict[str, list[Claim]] = field(default_factory=dict)
    rejected_by_message: dict[str, list[Decision]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        by_message: defaultdict[str, list[Claim]] = defaultdict(list)
        for claim in self.claims:
            by_message[claim.message_id].append(claim)
        self.claims_by_message = dict(by_message)
        rejected: defaultdict[str, list[Decision]] = defaultdict(list)
        for decision in self.decisions:
            if decision.decision == "reject":
                rejected[decision.message_id].append(decision)
        self.rejected_by_message = dict(rejected)

    @property
    def user_messages(self) -> int:
        return sum(m["role"] == "user" for m in self.messages.values())

    def text_of(self, decision: Decision) -> str:
        return self.messages[decision.message_id]["text"][decision.span[0] : decision.span[1]]


def ingest(server: str, name: str, folder: Path) -> Run:
    """Run the nightly pipeline over the folder's log files into a fresh database; read back."""
    files = log_files(folder)
    messages = {row["message_id"]: row for f in files for row in read_jsonl(f)}
    with FreshDatabase(server, prefix="permem_xeval") as fresh:
        settings = Settings(
            database_url=fresh.url, home=fresh.home, embedder="hashing", batch_size=BATCH_SIZE
        )
        try:
            runtime(settings)  # connect and migrate before the clock starts
            candidates = lines = 0
            started = time.perf_counter()
            for path in files:
                summary = nightly.run(settings, path)
                candidates += summary.counts["candidates"]
                lines += summary.counts["read"] + summary.counts["quarantined_lines"]
            seconds = time.perf_counter() - started
            owner = sa.create_engine(fresh.url, poolclass=sa.NullPool)
            with owner.connect() as conn:
                m = memories.c
                claims = [
                    Claim(*row)
                    for row in conn.execute(
                        sa.select(m.subject, m.account, m.kind, m.origin, m.claim,
                                  m.source_message_id, m.status, m.confirmation, m.sensitivity)
                        .where(m.status != Status.ERASED.value, m.source_message_id.is_not(None))
                    )
                ]  # fmt: skip
                g = gate_decisions.c
                decisions = [
                    Decision(mid, (start, end), subject, decision, tuple(reasons))
                    for mid, start, end, subject, decision, reasons in conn.execute(
                        sa.select(g.source_message_id, g.span_start, g.span_end, g.subject,
                                  g.decision, g.reasons)
                    )
                ]  # fmt: skip
            owner.dispose()
        finally:
            close_all()
    return Run(name, messages, claims, decisions, candidates, lines, seconds)
