"""The nightly run's claim vectors (`Runtime.vectors`): a claim the load embeds to compare a
retraction by meaning is not embedded again when its batch is indexed, and the run stores
exactly what it stores without the cache. Real MiniLM, PostgreSQL and LanceDB."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import sqlalchemy as sa
from numpy.typing import NDArray

from permem import nightly
from permem.embedding import MiniLMEmbedder, TextVectors
from permem.runtime import install, runtime
from permem.settings import Settings
from tests.conftest import DatabaseFactory
from tests.test_nightly import line, rows, snapshot, write_log


class CountingMiniLM:
    """MiniLM, recording every text it is asked to embed."""

    name = MiniLMEmbedder.name
    dimension = MiniLMEmbedder.dimension

    def __init__(self) -> None:
        self.inner = MiniLMEmbedder()
        self.texts: Counter[str] = Counter()

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        self.texts.update(texts)
        return self.inner.embed(texts)


LOG = [
    line("m1", "I practise my Fender every evening", day=1),
    line("m2", "Weekends are for sailing on the lake", day=1),
    line("m3", "I prefer window seats on long flights", day=2),
    line("m4", "I've given up the guitar, I sold it last week", day=3),
    line("m5", "I prefer answers in metric units", day=3),
    line("m6", "I don't sail anymore, the boat is sold", day=4),
]


def _run(settings: Settings, log: Path, cache: TextVectors) -> CountingMiniLM:
    counting = CountingMiniLM()
    rt = runtime(settings).with_parts(embedder=counting)
    rt.vectors = cache
    install(rt)
    nightly.run(settings, log)
    return counting


def test_the_load_and_the_index_share_claim_vectors_and_store_the_same(
    settings: Settings, database_factory: DatabaseFactory, tmp_path: Path
) -> None:
    log = write_log(tmp_path / "log.jsonl", LOG)
    cached = settings.model_copy(update={"embedder": "minilm", "batch_size": 2})
    with database_factory() as other_url:
        uncached = cached.model_copy(update={"database_url": other_url, "home": tmp_path / "b"})
        with_cache = _run(cached, log, TextVectors(1024))
        without = _run(uncached, log, TextVectors(1))
        stores = (cached, uncached)
        engines = [sa.create_engine(s.database_url or "", poolclass=sa.NullPool) for s in stores]
        try:
            states = [snapshot(engine, s) for engine, s in zip(engines, stores, strict=True)]
            status = {r["claim"]: r["status"] for r in rows(engines[0], "SELECT * FROM memories")}
        finally:
            for engine in engines:
                engine.dispose()
    assert states[0] == states[1]
    # The meaning check ran (no shared word between the guitar and the Fender) ...
    assert status["I practise my Fender every evening"] == "superseded"
    # ... the same texts were embedded, none more often with the cache, and the claims a
    # load compared by meaning were not embedded again when their batch was indexed right
    # after it. (Older claims may still be embedded twice: a batch's load runs beside the
    # indexing of the batch before, and both may miss a text neither has finished.)
    assert set(without.texts) == set(with_cache.texts)
    assert all(with_cache.texts[text] <= n for text, n in without.texts.items())
    for compared in ("I sold it last week", "I don't sail anymore, the boat is sold"):
        assert (without.texts[compared], with_cache.texts[compared]) == (2, 1)
