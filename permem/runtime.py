"""The heavy objects of a process, built once from the settings and shared by its stages.

Engines, the spaCy pipeline, the redactor, the embedder and the vector index are expensive to
build (seconds, hundreds of MB); Prefect tasks receive only the small `Settings` and look the
runtime up here, so tasks stay cheap to call and their inputs stay small.
"""

from __future__ import annotations

import functools
import threading
from typing import TYPE_CHECKING, Any

from permem.embedding import Embedder, HashingEmbedder, MiniLMEmbedder, TextVectors
from permem.extraction import Extractor
from permem.extraction.rules import RuleExtractor
from permem.nlp import load_pipeline
from permem.redaction import Redactor
from permem.settings import Settings

if TYPE_CHECKING:
    # Imported where a store is opened: a Dask worker of the nightly run only parses
    # (`analyzers`) and never loads the database driver, the migrations or LanceDB.
    from permem.stores.database import Database
    from permem.stores.vectors import IndexWriter, VectorIndex


# Claim vectors a process keeps (`Runtime.vectors`): at 384 float32 dimensions about 24 MB,
# the claims of about ten nightly batches of 5,000 lines.
CLAIM_VECTORS = 16_384


class Runtime:
    """The database, and the extractor, redactor, embedder and vector index, each built on
    first use (a recall never loads the parser; a control never loads the embedder).

    Pass any of them to use another implementation (an LLM-backed extractor, say).
    """

    def __init__(
        self,
        settings: Settings,
        db: Database,
        *,
        extractor: Extractor | None = None,
        redactor: Redactor | None = None,
        embedder: Embedder | None = None,
        index: VectorIndex | None = None,
    ) -> None:
        self.settings = settings
        self.db = db
        self._extractor = extractor
        self._redactor = redactor
        self._embedder = embedder
        self._index = index
        self._writer: IndexWriter | None = None
        self._lock = threading.Lock()
        # Claim texts embedded lately, by any embedder (keyed by its name): the nightly load
        # embeds a batch's claims to compare retractions by meaning, its index step embeds
        # the same claims to index them (MiniLM, 20k lines: 1,177 of 4,571 texts indexed had
        # been embedded before in the run).
        self.vectors = TextVectors(CLAIM_VECTORS)

    @property
    def extractor(self) -> Extractor:
        with self._lock:
            if self._extractor is None:
                self._extractor = RuleExtractor(load_pipeline())
            return self._extractor

    @property
    def redactor(self) -> Redactor:
        with self._lock:
            if self._redactor is None:
                self._redactor = shared_redactor()
            return self._redactor

    @property
    def embedder(self) -> Embedder:
        with self._lock:
            if self._embedder is None:
                self._embedder = build_embedder(self.settings.embedder)
            return self._embedder

    @property
    def index(self) -> VectorIndex:
        from permem.stores.vectors import VectorIndex

        embedder = self.embedder
        with self._lock:
            if self._index is None:
                self._index = VectorIndex(
                    self.settings.resolved_lance_uri, embedder.dimension, embedder=embedder.name
                )
            return self._index

    @property
    def writer(self) -> IndexWriter:
        """The nightly's writes to `index`, in a child process once a night is long enough to
        make LanceDB's retained memory matter (`permem.stores.vectors.IndexWriter`)."""
        from permem.stores.vectors import IndexWriter

        index = self.index
        with self._lock:
            if self._writer is None:
                self._writer = IndexWriter(index)
            return self._writer

    def close(self) -> None:
        """Stop the writer's child process, if any, and dispose of the connections."""
        with self._lock:
            if self._writer is not None:
                self._writer.close()
                self._writer = None
        self.db.dispose()

    def with_parts(self, **parts: Any) -> Runtime:
        """A runtime over the same database with some parts replaced."""
        current: dict[str, Any] = {
            "extractor": self._extractor,
            "redactor": self._redactor,
            "embedder": self._embedder,
            "index": self._index,
        }
        current.update(parts)
        return Runtime(self.settings, self.db, **current)


@functools.cache
def shared_redactor() -> Redactor:
    """One redactor per process (building Presidio's analyzer takes about a second)."""
    return Redactor(load_pipeline())


@functools.cache
def shared_extractor() -> Extractor:
    """One rule extractor per process (it holds the spaCy pipeline)."""
    return RuleExtractor(load_pipeline())


@functools.cache
def build_embedder(name: str) -> Embedder:
    if name == "minilm":
        return MiniLMEmbedder()
    if name == "hashing":
        return HashingEmbedder()
    from permem.errors import ConfigurationError

    raise ConfigurationError(f"unknown embedder {name!r}; use minilm or hashing")


_RUNTIMES: dict[Settings, Runtime] = {}
_LOCK = threading.Lock()


def runtime(settings: Settings) -> Runtime:
    """The process's runtime for `settings`, built on first use (which migrates the schema
    to head)."""
    with _LOCK:
        found = _RUNTIMES.get(settings)
        if found is None:
            found = _RUNTIMES[settings] = _build(settings)
        return found


def analyzers(settings: Settings) -> tuple[Extractor, Redactor]:
    """The extractor and redactor for `settings` in this process, without opening a store.

    Those of the runtime built or installed here for `settings` when there is one; otherwise
    (a nightly worker process, which only parses) the process's own, built on first use.
    """
    with _LOCK:
        found = _RUNTIMES.get(settings)
    if found is not None:
        return found.extractor, found.redactor
    return shared_extractor(), shared_redactor()


def install(rt: Runtime) -> None:
    """Use `rt` for its settings in this process: how another extractor, redactor or
    embedder (an LLM-backed extractor, say) is plugged in without changing the stages."""
    with _LOCK:
        _RUNTIMES[rt.settings] = rt


def end_night(settings: Settings) -> None:
    """Stop the index writer's child process of `settings`' runtime, if it started one: the
    nightly run's last step, so no child outlives its night."""
    with _LOCK:
        found = _RUNTIMES.get(settings)
    if found is not None:
        with found._lock:
            writer = found._writer
        if writer is not None:
            writer.close()


def close_all() -> None:
    """Dispose every runtime's connections and forget them (process exit, tests)."""
    with _LOCK:
        for rt in _RUNTIMES.values():
            rt.close()
        _RUNTIMES.clear()


def _build(settings: Settings) -> Runtime:
    from permem.stores import migrate
    from permem.stores.database import open_database

    db = open_database(settings)
    if migrate.current_revision(db) != migrate.head_revision():
        migrate.upgrade(db)
    return Runtime(settings, db)
