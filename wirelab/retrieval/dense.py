"""Dense vectors and cosine ranking: the course's sentence encoder, or character n-grams.

`EncoderEmbedder` embeds with `wirelab.encoder` (Universal Sentence Encoder multilingual v3,
weights inside its package): English and Chinese share one 512-dimensional space, so a
Chinese question finds an English passage and the reverse, and a paraphrase finds its text
without a word in common.

`CharNgramEmbedder` is TF-IDF over character 3- to 5-grams taken inside words, also
unit-length. It is lexical: it forgives plural endings, typos and word splits
("list_changed"), but it cannot match a synonym or cross a language. It needs no model, so
it is built in a fraction of a second (`dense="off"`: the capstone server answers with it
while the encoder loads).

Whichever is in use, `backend` names it and `KnowledgeBase.stats` reports it.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

import numpy as np

from wirelab.encoder import NAME as ENCODER
from wirelab.encoder import shared_encoder

CHAR_NGRAMS = "char-ngram-tfidf"
NGRAM_SIZES = (3, 4, 5)
DENSE_CHOICES = ("auto", "off")


class Embedder(Protocol):
    """Turns texts into unit-length row vectors."""

    backend: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


class EncoderEmbedder:
    """The course's multilingual sentence encoder (`wirelab.encoder`), shared and cached."""

    backend = ENCODER

    def __init__(self) -> None:
        self._encoder = shared_encoder()
        self.dimension = self._encoder.dimension

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self._encoder.encode(list(texts))


def char_ngrams(text: str) -> Counter[str]:
    """`'Tools'` -> counts of ' to', 'too', ..., 'ols ' (each word padded with spaces)."""
    grams: Counter[str] = Counter()
    for word in re.findall(r"\w+", text.lower()):
        padded = f" {word} "
        for n in NGRAM_SIZES:
            grams.update(padded[i : i + n] for i in range(len(padded) - n + 1))
    return grams


class CharNgramEmbedder:
    """TF-IDF of character n-grams; the vocabulary and IDF come from `corpus`."""

    backend = CHAR_NGRAMS

    def __init__(self, corpus: Sequence[str]) -> None:
        counts = [char_ngrams(text) for text in corpus]
        document_frequency = Counter(gram for grams in counts for gram in grams)
        self._vocabulary = {gram: i for i, gram in enumerate(sorted(document_frequency))}
        size = len(corpus)
        self._idf = np.array(
            [math.log((1 + size) / (1 + document_frequency[g])) + 1 for g in self._vocabulary],
            dtype=np.float32,
        )
        self.dimension = len(self._vocabulary)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        matrix = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for gram, count in char_ngrams(text).items():
                if gram in self._vocabulary:
                    matrix[row, self._vocabulary[gram]] = 1 + math.log(count)
        matrix *= self._idf
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return matrix / np.where(norms == 0, 1, norms)


def load_embedder(corpus: Sequence[str], dense: str = "auto") -> Embedder:
    """The sentence encoder (`dense="auto"`) or character n-grams over `corpus` (`"off"`)."""
    if dense not in DENSE_CHOICES:
        raise ValueError(f"dense must be 'auto' or 'off', not {dense!r}")
    return EncoderEmbedder() if dense == "auto" else CharNgramEmbedder(corpus)


class VectorIndex:
    """Cosine ranking of texts embedded once by `embedder`."""

    def __init__(self, texts: Sequence[str], embedder: Embedder) -> None:
        self.embedder = embedder
        self.matrix = embedder.embed(texts)

    def similarities(self, query: str) -> np.ndarray:
        """Cosine similarity of `query` with every indexed text."""
        return self.matrix @ self.embedder.embed([query])[0]

    def rank(self, query: str, k: int) -> list[tuple[int, float]]:
        """The `k` most similar texts, best first (only those with positive similarity)."""
        scores = self.similarities(query)
        order = np.argsort(-scores, kind="stable")[:k]
        return [(int(i), float(scores[i])) for i in order if scores[i] > 0]
