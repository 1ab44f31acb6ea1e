"""Cost of the system of record's guarantees on the append path, measured side by side.

Appends N claims in batches through `append_memories` (application role: row-level security,
salted hashes, lineage edges, column privileges, append-only triggers) and the same rows as a
plain multi-row INSERT by the owner (a superuser: no RLS, no hashing, no lineage), then reads
one subject's history both ways. Reports the ratios. Run by hand:

    PERMEM_BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \
        .venv/bin/python benchmarks/append.py [N]

Without the variable it uses an embedded server in a temporary folder, stopped and removed
afterwards (`harness.benchmark_server`). Results are appended
to benchmarks/results/append.txt.
"""

from __future__ import annotations

import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import make_url

from permem.records import Kind, Message, Origin, Role, Sensitivity, SourceRef, UserMemory
from permem.settings import Settings
from permem.stores import migrate
from permem.stores.database import open_database, register_tenant, tenant_transaction
from permem.stores.memories import append_memories, list_memories
from permem.stores.sources import append_sources

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import benchmark_server  # noqa: E402

BATCH = 1000
SUBJECTS = 200
T0 = datetime(2026, 11, 1, tzinfo=UTC)


def _batch(tenant: str, start: int) -> tuple[list[Message], list[UserMemory]]:
    messages, records = [], []
    for i in range(start, start + BATCH):
        subject = f"user-{i % SUBJECTS}"
        text = f"I prefer option {i} for everything I do on weekday number {i % 7}."
        messages.append(Message(f"m{i}", tenant, subject, f"c{i % 97}", i, Role.USER, text, T0))
        records.append(
            UserMemory(
                tenant=tenant, subject=subject, account=subject, origin=Origin.USER_FACT,
                kind=Kind.PREFERENCE, claim=f"prefers option {i}",
                source=SourceRef(f"m{i}", (0, len(text))), scope="global", purpose="assistant",
                observed_at=T0, valid_from=T0, valid_until=None, confidence=0.8,
                sensitivity=Sensitivity.NONE,
            )
        )  # fmt: skip
    return messages, records


def main(n: int) -> str:
    server, stop_server = benchmark_server()
    try:
        return _measure(server, n)
    finally:
        stop_server()


def _measure(server: str, n: int) -> str:
    name = f"permem_bench_{uuid.uuid4().hex[:8]}"
    admin = sa.create_engine(server, isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    url = make_url(server).set(database=name).render_as_string(hide_password=False)
    db = open_database(Settings(database_url=url, home=Path(tempfile.mkdtemp())))
    try:
        migrate.upgrade(db)
        with tenant_transaction(db.app, "bench") as conn:
            register_tenant(conn, "bench")

        started = time.perf_counter()
        for start in range(0, n, BATCH):
            messages, records = _batch("bench", start)
            with tenant_transaction(db.app, "bench") as conn:
                append_sources(conn, messages)
                append_memories(conn, records)
        guarded = time.perf_counter() - started

        owner = db.owner_engine()
        plain_rows = []
        for start in range(0, n, BATCH):
            _, records = _batch("plain", start)
            plain_rows.append([
                {"tenant": r.tenant, "subject": r.subject, "account": r.account,
                 "origin": r.origin.value, "kind": r.kind.value, "claim": r.claim,
                 "scope": r.scope, "purpose": r.purpose, "observed_at": r.observed_at,
                 "valid_from": r.valid_from, "confidence": r.confidence,
                 "sensitivity": r.sensitivity.value, "confirmation": "unconfirmed",
                 "status": "active", "claim_hash": "x", "subject_hash": "x"}
                for r in records
            ])  # fmt: skip
        from permem.stores.schema import memories

        started = time.perf_counter()
        for rows in plain_rows:
            with owner.begin() as conn:
                conn.execute(sa.insert(memories), rows)
        plain = time.perf_counter() - started

        with owner.begin() as conn:
            conn.execute(sa.text("ANALYZE"))
        reads = 200
        started = time.perf_counter()
        for i in range(reads):
            with tenant_transaction(db.app, "bench") as conn:
                list_memories(conn, f"user-{i % SUBJECTS}")
        read_rls = (time.perf_counter() - started) / reads
        started = time.perf_counter()
        for i in range(reads):
            with owner.connect() as conn:
                conn.execute(
                    sa.select(memories).where(
                        memories.c.tenant == "plain", memories.c.subject == f"user-{i % SUBJECTS}"
                    )
                ).all()
        read_plain = (time.perf_counter() - started) / reads
        owner.dispose()
    finally:
        db.dispose()
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        admin.dispose()

    per_subject = n // SUBJECTS
    return (
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} n={n} batch={BATCH} server={make_url(server).host}\n"
        f"  append (sources+claims+lineage, RLS, hashing): {n / guarded:,.0f} claims/s\n"
        f"  plain owner INSERT of claims only:             {n / plain:,.0f} claims/s\n"
        f"  ratio guarded/plain time: {guarded / plain:.2f}x\n"
        f"  one subject's history ({per_subject} rows): RLS {read_rls * 1000:.2f} ms, "
        f"plain {read_plain * 1000:.2f} ms, ratio {read_rls / read_plain:.2f}x\n"
    )


if __name__ == "__main__":
    report = main(int(sys.argv[1]) if len(sys.argv) > 1 else 50_000)
    print(report, end="")
    out = Path(__file__).parent / "results" / "append.txt"
    with out.open("a") as fh:
        fh.write(report)
