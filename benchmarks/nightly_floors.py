"""The floors of the nightly's non-NLP stages, measured in the end-to-end run's own child right
after the run, on the stores it left (`nightly_runs.end_to_end_child`):

- load: a bare COPY of the same rows (read back from the tables `load` writes: sources,
  memories, gate decisions, the lineage edges of extraction and context, memory events,
  quarantine and the index queue) into empty copies of those tables (`LIKE ... INCLUDING ALL`:
  the same indexes and constraints, no row-level security, no foreign keys), one transaction
  per batch as the run does, every table's share of the batch in one COPY;
- index: a bare LanceDB append of the same vectors (the rows of the run's index table) into a
  new table in another folder, one append per batch;
- embedding: the run's embedder alone (the model already loaded) over the distinct texts of the
  indexed claims, in chunks of `EMBED_CHUNK` (about a batch's claims), against the seconds the
  index step spent getting those vectors (`IndexResult.embed_seconds`, cache hits included);
- prepare (and gate, whose state comes from prepare): the state reads prepare needs, batch by
  batch over the same log: in one transaction per batch, for each tenant its binding, its salt
  and `read_known` (processed sources, the erasure ledger, paused subjects). The stores are
  those at the end of the run, so the reads see at least as many rows as the run's did.

Only the copies, appends and reads are timed; reading the rows back and splitting them is not.
"""

from __future__ import annotations

import shutil
import tempfile
import time
import uuid
from collections import defaultdict
from pathlib import Path
from typing import Any

# The tables `load` writes, and which of their rows it wrote (the rest is the index stage's).
LOADED: dict[str, str] = {
    "sources": "SELECT * FROM sources",
    "memories": "SELECT * FROM memories",
    "gate_decisions": "SELECT * FROM gate_decisions",
    "lineage_edges": "SELECT * FROM lineage_edges WHERE relation IN ('extracted', 'context')",
    "memory_events": "SELECT * FROM memory_events",
    "quarantine": "SELECT * FROM quarantine",
    # The queue is empty once indexed: the rows load queued are the indexed claims.
    "index_queue": "SELECT tenant, id AS memory_id, created_at AS enqueued_at FROM memories "
    "WHERE status IN ('active', 'session_only', 'paused', 'superseded') "
    "AND confirmation IN ('unconfirmed', 'confirmed')",
}


# Texts per call of the embedding floor: about the claims a 5,000-line batch indexes.
EMBED_CHUNK = 1_400


def stage_floors(settings: Any, log: Path, batches: int) -> dict[str, Any]:
    """Seconds of each floor (see the module docstring) and the rows or vectors it moved."""
    return {
        "load": load_floor(settings, max(batches, 1)),
        "index": index_floor(settings, max(batches, 1)),
        "embed": embed_floor(settings),
        "prepare": prepare_floor(settings, log),
    }


def embed_floor(settings: Any) -> dict[str, Any]:
    import lancedb
    import psycopg

    from permem.runtime import build_embedder, runtime

    rt = runtime(settings)
    index = rt.index
    ids = lancedb.connect(index.uri).open_table(index.table_name).to_arrow().column("id")
    url = rt.db.owner_url.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(url) as conn:
        texts = [
            row[0]
            for row in conn.execute(
                "SELECT DISTINCT claim FROM memories WHERE id::text = ANY(%s)", (ids.to_pylist(),)
            )
        ]
    embedder = build_embedder(settings.embedder)
    started = time.perf_counter()
    for at in range(0, len(texts), EMBED_CHUNK):
        embedder.embed(texts[at : at + EMBED_CHUNK])
    return {"seconds": time.perf_counter() - started, "rows": len(texts)}


def _split(lines: list[bytes], parts: int) -> list[list[bytes]]:
    size = -(-len(lines) // parts) if lines else 0
    return [lines[i * size : (i + 1) * size] for i in range(parts)]


def load_floor(settings: Any, batches: int) -> dict[str, Any]:
    import psycopg

    from permem.runtime import runtime

    url = runtime(settings).db.owner_url.replace("postgresql+psycopg://", "postgresql://", 1)
    schema = f"floor_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(url, autocommit=True) as conn:
        chunks: dict[str, list[list[bytes]]] = {}
        columns: dict[str, list[str]] = {}
        rows = 0
        for table, query in LOADED.items():
            with conn.cursor() as cursor:
                cursor.execute(f"{query} LIMIT 0")
                columns[table] = [d.name for d in cursor.description or ()]
                data = bytearray()
                with cursor.copy(f"COPY ({query}) TO STDOUT") as copy:
                    for block in copy:
                        data += block
            lines = bytes(data).splitlines(keepends=True)
            rows += len(lines)
            chunks[table] = _split(lines, batches)
        conn.execute(f"CREATE SCHEMA {schema}")
        try:
            for table in LOADED:
                conn.execute(f"CREATE TABLE {schema}.{table} (LIKE public.{table} INCLUDING ALL)")
            started = time.perf_counter()
            for batch in range(batches):
                with conn.transaction(), conn.cursor() as cursor:
                    for table in LOADED:
                        names = ", ".join(f'"{c}"' for c in columns[table])
                        statement = f"COPY {schema}.{table} ({names}) FROM STDIN"
                        with cursor.copy(statement) as copy:
                            copy.write(b"".join(chunks[table][batch]))
            seconds = time.perf_counter() - started
        finally:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
    return {"seconds": seconds, "rows": rows}


def index_floor(settings: Any, batches: int) -> dict[str, Any]:
    import lancedb

    from permem.runtime import runtime

    index = runtime(settings).index
    rows = lancedb.connect(index.uri).open_table(index.table_name).to_arrow()
    folder = Path(tempfile.mkdtemp(prefix="permem-floor-lance-"))
    try:
        table = lancedb.connect(str(folder)).create_table("floor", schema=rows.schema)
        size = -(-rows.num_rows // batches) if rows.num_rows else 0
        started = time.perf_counter()
        for batch in range(batches):
            part = rows.slice(batch * size, size)
            if part.num_rows:
                table.add(part)
        seconds = time.perf_counter() - started
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return {"seconds": seconds, "rows": rows.num_rows}


def prepare_floor(settings: Any, log: Path) -> dict[str, Any]:
    from permem.arrivals import read_known
    from permem.logs import batches, read_log
    from permem.records import Message
    from permem.runtime import runtime
    from permem.stores.database import bind_tenant, tenant_salt

    db = runtime(settings).db
    seconds = 0.0
    messages = 0
    for batch in batches(read_log(log), settings.batch_size):
        grouped: dict[str, list[Message]] = defaultdict(list)
        for message in batch.messages:
            if not message.incognito:
                grouped[message.tenant].append(message)
        started = time.perf_counter()
        with db.app.begin() as conn:
            for tenant, group in grouped.items():
                bind_tenant(conn, tenant)
                tenant_salt(conn)
                read_known(conn, group)
                messages += len(group)
        seconds += time.perf_counter() - started
    return {"seconds": seconds, "messages": messages}
