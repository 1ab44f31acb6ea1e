"""Embedders: the real MiniLM model offline, the hashing embedder, and de-duplicated embedding."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from numpy.typing import NDArray

from permem import embedding
from permem.embedding import Embedder, HashingEmbedder, MiniLMEmbedder, embed_unique

SENTENCES = [
    "I'm allergic to peanuts",
    "peanut allergy",
    "I love hiking in the mountains on weekends",
    "Please answer in French from now on",
    "The quarterly report is due on Friday",
]


@pytest.fixture(scope="module")
def minilm_vectors() -> NDArray[np.float32]:
    return MiniLMEmbedder(batch_size=64).embed(SENTENCES)


def test_minilm_gives_384_dimensional_unit_rows(minilm_vectors: NDArray[np.float32]) -> None:
    assert MiniLMEmbedder.dimension == 384
    assert minilm_vectors.shape == (len(SENTENCES), 384)
    assert minilm_vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(minilm_vectors, axis=1), 1.0, atol=1e-5)


def test_minilm_scores_related_claims_above_unrelated(minilm_vectors: NDArray[np.float32]) -> None:
    similarity = minilm_vectors @ minilm_vectors.T
    related = similarity[0, 1]  # "I'm allergic to peanuts" vs "peanut allergy": no shared word
    assert related > 0.6
    for unrelated in similarity[0, 2:]:
        assert related > unrelated + 0.3


def test_minilm_batch_size_does_not_change_vectors(minilm_vectors: NDArray[np.float32]) -> None:
    small_batches = MiniLMEmbedder(batch_size=2).embed(SENTENCES)
    np.testing.assert_allclose(small_batches, minilm_vectors, atol=1e-4)
    assert MiniLMEmbedder().embed([]).shape == (0, 384)


def test_minilm_model_is_loaded_once_per_process(minilm_vectors: NDArray[np.float32]) -> None:
    assert embedding._minilm() is embedding._minilm()


def test_hashing_embedder_is_deterministic_and_normalised() -> None:
    texts = ["I'm allergic to peanuts", "", "  ...  ", "Prefers TEA", "prefers tea!"]
    first = HashingEmbedder().embed(texts)
    again = HashingEmbedder().embed(texts)
    assert first.shape == (len(texts), 384)
    assert first.dtype == np.float32
    np.testing.assert_array_equal(first, again)
    np.testing.assert_allclose(np.linalg.norm(first, axis=1), 1.0, atol=1e-6)
    np.testing.assert_array_equal(first[3], first[4])  # lower-cased, punctuation ignored


PEANUT = (284, -1.0)  # bucket and sign of "peanut" at 384 dimensions


def test_hashing_embedder_is_stable_across_runs() -> None:
    # Pinned: stored vectors stay comparable only if the hash never changes (blake2b, not
    # Python's per-process salted hash()).
    vector = HashingEmbedder().embed(["peanut"])[0]
    (bucket,) = np.flatnonzero(vector)
    assert (int(bucket), float(vector[bucket])) == PEANUT


def test_hashing_embedder_is_lexical_only() -> None:
    vectors = HashingEmbedder().embed(["allergic to peanuts", "is allergic to peanuts", "x y z"])
    assert float(vectors[0] @ vectors[1]) > 0.7  # shared words and word pairs
    assert abs(float(vectors[0] @ vectors[2])) < 0.3
    hashing = HashingEmbedder(dimension=64)
    assert hashing.embed(["a b"]).shape == (1, 64)
    assert hashing.name != HashingEmbedder().name


class CountingEmbedder:
    """A real embedder (HashingEmbedder underneath) that records what it was asked to embed."""

    def __init__(self) -> None:
        self.inner = HashingEmbedder(dimension=32)
        self.name = self.inner.name
        self.dimension = self.inner.dimension
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        self.calls.append(list(texts))
        return self.inner.embed(texts)


def test_embed_unique_embeds_each_distinct_text_once() -> None:
    counting = CountingEmbedder()
    embedder: Embedder = counting
    texts = ["likes tea", "likes coffee", "likes tea", "likes tea", "vegan", "likes coffee"]
    vectors = embed_unique(embedder, texts)
    assert counting.calls == [["likes tea", "likes coffee", "vegan"]]
    np.testing.assert_array_equal(vectors, counting.inner.embed(texts))
    assert vectors.shape == (len(texts), 32)


def test_embed_unique_of_nothing_calls_nothing() -> None:
    counting = CountingEmbedder()
    assert embed_unique(counting, []).shape == (0, 32)
    assert counting.calls == []


def test_text_vectors_embed_only_what_they_do_not_hold_in_one_call() -> None:
    """The claim cache (`Runtime.vectors`): rows in order, duplicates once, a second call embeds
    only the new texts, the rows equal the embedder's and are read-only, the oldest go first."""
    counting = CountingEmbedder()
    cache = embedding.TextVectors(size=3)
    first = cache.rows(counting, ["likes tea", "vegan", "likes tea"])
    np.testing.assert_array_equal(first, counting.inner.embed(["likes tea", "vegan", "likes tea"]))
    second = cache.rows(counting, ["vegan", "early flights", "likes tea"])
    assert counting.calls == [["likes tea", "vegan"], ["early flights"]]
    np.testing.assert_array_equal(second[0], first[1])
    assert (cache.hits, cache.misses) == (2, 3)
    assert not cache.vector(counting, "vegan").flags.writeable
    cache.rows(counting, ["aisle seats"])  # four texts held by a cache of three: "likes tea" goes
    assert len(cache) == 3
    cache.rows(counting, ["likes tea", "aisle seats"])
    assert counting.calls[-1] == ["likes tea"]
    assert cache.rows(counting, []).shape == (0, 32)


def test_a_cached_row_holds_no_other_texts_vectors() -> None:
    """Each row is a copy of its own: one text kept does not keep its whole batch alive."""
    cache = embedding.TextVectors(size=8)
    row = cache.vector(CountingEmbedder(), "likes tea")
    cache.rows(CountingEmbedder(), ["vegan", "early flights", "aisle seats"])
    assert row.base is None and all(r.base is None for r in cache._vectors.values())
