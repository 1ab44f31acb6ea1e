"""The recall benchmark's stores: a fresh database and LanceDB folder per run, and timing
wrappers around the embedder and the index."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import sqlalchemy as sa
from numpy.typing import NDArray

from harness import FreshDatabase


class FreshStores(FreshDatabase):
    """A database created on the benchmark server and a LanceDB folder, both removed after."""

    def __init__(self, server: str, embedder: str = "minilm") -> None:
        from permem.settings import Settings

        super().__init__(server, prefix="permem_bench_recall")
        self.settings = Settings(database_url=self.url, home=self.home, embedder=embedder)

    def __enter__(self) -> FreshStores:
        super().__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        from permem.runtime import close_all

        close_all()
        super().__exit__(*exc)

    def owner(self) -> sa.Engine:
        """The database owner (a superuser on the benchmark servers: no row-level security)."""
        return sa.create_engine(self.url, isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)


class TimedEmbedder:
    """An `Embedder` that adds the time each `embed` call takes to `seconds`."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name: str = inner.name
        self.dimension: int = inner.dimension
        self.seconds = 0.0
        self.texts = 0

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        started = time.perf_counter()
        vectors: NDArray[np.float32] = self.inner.embed(texts)
        self.seconds += time.perf_counter() - started
        self.texts += len(texts)
        return vectors


def timed_index(uri: str, dimension: int) -> Any:
    """A `VectorIndex` whose `search` adds its time to `.seconds` (a subclass: the Recaller
    takes the concrete class)."""
    from permem.stores.vectors import VectorIndex

    class TimedIndex(VectorIndex):
        seconds = 0.0

        def search(self, vector: Any, **kwargs: Any) -> list[tuple[str, float]]:
            started = time.perf_counter()
            try:
                return super().search(vector, **kwargs)
            finally:
                self.seconds += time.perf_counter() - started

    return TimedIndex(uri, dimension)


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]
