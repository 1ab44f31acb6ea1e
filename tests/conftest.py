"""Real PostgreSQL for every test: the server named by PERMEM_TEST_DATABASE_URL, or an embedded
one started for the session. Each test that needs a database gets a fresh one, dropped after
(`database_factory` makes them for any scope). The flow tests share one Prefect test server
(`prefect_server`) for the session."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import make_url

from permem.extraction.cues import Cue
from permem.extraction.rules import RuleExtractor
from permem.nlp import load_pipeline
from permem.records import Kind, Message, Origin, Role, Sensitivity, SourceRef, UserMemory
from permem.runtime import close_all
from permem.settings import Settings
from permem.stores import migrate
from permem.stores.database import Database, open_database
from permem.stores.embedded import start_embedded, stop_embedded

SERVER_VARIABLE = "PERMEM_TEST_DATABASE_URL"
T0 = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)


@pytest.fixture(scope="session")
def pg_server_url() -> Iterator[str]:
    """Owner URL of a maintenance database on the server the tests use."""
    url = os.environ.get(SERVER_VARIABLE)
    if url:
        yield url.replace("postgresql://", "postgresql+psycopg://", 1)
        return
    # Outside pytest's rotating basetemp: another pytest session on the machine may prune
    # old basetemps while this server still runs from one.
    folder = Path(tempfile.mkdtemp(prefix="permem-test-pg-"))
    try:
        yield start_embedded(folder / "pgdata", database="postgres")
    finally:
        stop_embedded(folder / "pgdata")
        shutil.rmtree(folder, ignore_errors=True)


DatabaseFactory = Callable[[], AbstractContextManager[str]]


@pytest.fixture(scope="session")
def database_factory(pg_server_url: str) -> DatabaseFactory:
    """`with database_factory() as url:` a new, empty database on the test server, dropped
    on leaving (its open connections with it). For any fixture scope."""

    @contextmanager
    def new_database() -> Iterator[str]:
        name = f"permem_test_{uuid.uuid4().hex[:12]}"
        admin = sa.create_engine(pg_server_url, isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)
        try:
            with admin.connect() as conn:
                conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
            try:
                yield (
                    make_url(pg_server_url).set(database=name).render_as_string(hide_password=False)
                )
            finally:
                with admin.connect() as conn:
                    conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        finally:
            admin.dispose()

    return new_database


@pytest.fixture
def database_url(database_factory: DatabaseFactory) -> Iterator[str]:
    """A new, empty database for one test."""
    with database_factory() as url:
        try:
            yield url
        finally:
            # The runtimes the test opened hold pooled connections to this database.
            close_all()


@pytest.fixture(scope="session")
def prefect_server() -> Iterator[str]:
    """The API URL of one Prefect test server (temporary SQLite) for the whole session; flows
    run in a test that asks for it report there. Started on first use: it takes seconds."""
    from prefect.settings import PREFECT_API_URL
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=120):
        yield str(PREFECT_API_URL.value())


@pytest.fixture(scope="session")
def extractor() -> RuleExtractor:
    """The rule extractor over the real spaCy pipeline (loaded once per process)."""
    return RuleExtractor(load_pipeline())


@pytest.fixture
def other_database_url(database_factory: DatabaseFactory) -> Iterator[str]:
    """A second new, empty database for one test."""
    with database_factory() as url:
        yield url


@pytest.fixture
def two_stores(database_url: str, other_database_url: str, tmp_path: Path) -> list[Settings]:
    """Two fresh stores (database and LanceDB folder), same settings otherwise: a run one way
    and a run another way, whose stored states are compared."""
    return [
        Settings(database_url=url, home=tmp_path / name, embedder="hashing", batch_size=8)
        for url, name in ((database_url, "single"), (other_database_url, "other"))
    ]


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    return Settings(database_url=database_url, home=tmp_path / "home")


@pytest.fixture
def hashing(settings: Settings) -> Settings:
    """The settings with the fast lexical embedder and batches of 5 lines."""
    return settings.model_copy(update={"embedder": "hashing", "batch_size": 5})


def cli_env(settings: Settings) -> dict[str, str]:
    """The environment a `permem` command needs to use `settings`' stores (hashing embedder)."""
    return {
        "PERMEM_DATABASE_URL": settings.database_url or "",
        "PERMEM_HOME": str(settings.home),
        "PERMEM_EMBEDDER": "hashing",
    }


def write_jsonl(path: Path, records: Iterable[dict[str, Any]]) -> Path:
    """`records` as a JSON Lines file at `path`."""
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path


def corpus_texts(
    folder: Path, *, per_template: int | None = None, keys: tuple[str, ...] = ("text",)
) -> set[str]:
    """The texts of the generated corpus's development half (written into `folder`): every
    `keys` field of every line of its scenarios' files. Tests that compare a fast path with a
    bare one read their texts here."""
    from permem import corpus
    from permem.scenarios import json_lines, scenario_folders

    sizes = {} if per_template is None else {"per_template": per_template}
    corpus.generate(folder, half="dev", **sizes)
    texts: set[str] = set()
    for scenario in scenario_folders([folder]):
        for log in scenario.glob("*.jsonl"):
            for line in json_lines(log):
                texts.update(v for key in keys if isinstance(v := line.get(key), str))
    return texts


def user_line(
    message_id: str, text: str, *, turn: int = 0, ts: str = "2026-03-01T10:00:00Z", **fields: Any
) -> dict[str, Any]:
    """A log line of ana's in tenant acme (FORMATS.md), any field overridable."""
    return {
        "message_id": message_id, "tenant": "acme", "account": "ana", "conversation_id": "c",
        "turn": turn, "role": "user", "text": text, "ts": ts, **fields,
    }  # fmt: skip


class ReadClaim(NamedTuple):
    """A claim as extraction and classification read it, before the gate."""

    claim: str
    cues: frozenset[Cue]
    topic: str | None
    kind: Kind
    valid_from: datetime
    valid_until: datetime | None


def read_claims(
    *said: str, ts: datetime, apart: timedelta = timedelta(minutes=1)
) -> list[ReadClaim]:
    """Each claim read from the messages `said` (ana's, one conversation, the first at `ts`,
    each next `apart` later), in order."""
    from permem.classify import classify_all
    from permem.logs import parse_message
    from permem.runtime import shared_extractor

    messages = [
        parse_message(user_line(f"m{n + 1}", text, turn=2 * n, ts=(ts + n * apart).isoformat()))
        for n, text in enumerate(said)
    ]
    candidates = shared_extractor().extract(messages)
    return [
        ReadClaim(c.claim_text, c.cues, c.topic, c.kind, k.valid_from, k.valid_until)
        for c, k in zip(candidates, classify_all(candidates), strict=True)
    ]


def days(read: ReadClaim) -> tuple[str, str | None]:
    """The first day a claim holds and the day after its last (None: open), ISO dates."""
    until = read.valid_until
    return read.valid_from.date().isoformat(), None if until is None else until.date().isoformat()


def ingest(settings: Settings, log: Path, records: Iterable[dict[str, Any]]) -> None:
    """Write `records` to `log` and run the nightly pipeline over it, in process."""
    from permem import nightly

    nightly.run(settings, write_jsonl(log, records))


def nightly_cli(settings: Settings, log: Path, records: Iterable[dict[str, Any]]) -> Any:
    """Run the nightly pipeline over `records` (written to `log`) with the hashing embedder;
    return a Typer CliRunner on the same stores."""
    from typer.testing import CliRunner

    from permem import nightly

    configured = settings.model_copy(update={"embedder": "hashing"})
    nightly.run(configured, write_jsonl(log, records))
    return CliRunner(env=cli_env(configured))


@pytest.fixture
def bare_db(settings: Settings) -> Iterator[Database]:
    """The database with no schema yet."""
    db = open_database(settings)
    yield db
    db.dispose()


@pytest.fixture
def db(bare_db: Database) -> Database:
    """The database migrated to head."""
    migrate.upgrade(bare_db)
    return bare_db


@pytest.fixture
def owner(db: Database) -> Iterator[sa.Engine]:
    """An engine as the database owner (a superuser on the test servers)."""
    engine = db.owner_engine()
    yield engine
    engine.dispose()


def message(tenant: str = "acme", message_id: str = "m1", **overrides: Any) -> Message:
    fields: dict[str, Any] = {
        "message_id": message_id,
        "tenant": tenant,
        "account": "alice",
        "conversation_id": "c1",
        "turn": 1,
        "role": Role.USER,
        "text": "I'm allergic to peanuts.",
        "ts": T0,
    }
    fields.update(overrides)
    return Message(**fields)


def memory(tenant: str = "acme", message_id: str | None = "m1", **overrides: Any) -> UserMemory:
    fields: dict[str, Any] = {
        "tenant": tenant,
        "subject": "alice",
        "account": "alice",
        "origin": Origin.USER_FACT,
        "kind": Kind.CONSTRAINT,
        "claim": "is allergic to peanuts",
        "source": SourceRef(message_id, (0, 23) if message_id else None),
        "scope": "global",
        "purpose": "assistant",
        "observed_at": T0,
        "valid_from": T0,
        "valid_until": None,
        "confidence": 0.9,
        "sensitivity": Sensitivity.SPECIAL,
    }
    fields.update(overrides)
    return UserMemory(**fields)


MessageFactory = Callable[..., Message]
MemoryFactory = Callable[..., UserMemory]


def sql_rows(settings: Settings, sql: str) -> list[dict[str, Any]]:
    """Every row `sql` returns on the stores of `settings`, read as the owner."""
    engine = sa.create_engine(settings.database_url or "", poolclass=sa.NullPool)
    try:
        with engine.connect() as conn:
            return [dict(r) for r in conn.execute(sa.text(sql)).mappings()]
    finally:
        engine.dispose()


def recalled_claims(settings: Settings, text: str, ts: str = "2026-03-20T12:00:00Z") -> list[str]:
    """The claims ana's own recall (tenant acme, purpose assistant, global) returns for `text`."""
    from permem.recall import Recaller, parse_query
    from permem.runtime import runtime

    rt = runtime(settings)
    query = {
        "query_id": "q", "tenant": "acme", "actor": "ana", "subject": "ana",
        "purpose": "assistant", "scope": "global", "ts": ts, "text": text, "k": 20,
    }  # fmt: skip
    answer = Recaller(rt.db, rt.index, rt.embedder).recall(parse_query(query))
    return [r.record.claim for r in answer.records]
