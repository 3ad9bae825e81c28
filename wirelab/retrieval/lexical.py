"""BM25 ranking of passages, using the `bm25s` library with an English stemmer.

`terms` is the one tokenizer of the package (BM25, rerank and answers all use it): lowercase
words of two or more characters, common English words removed (bm25s's 179-word list),
Snowball-stemmed by PyStemmer, so "calls" and "calling" both become "call". Chinese has no
spaces between words, so each run of Chinese characters is segmented by jieba (search mode:
a long word also yields its shorter words, "幂等键" -> "幂等", "幂等键") and common function
words (的, 是, 怎么, …) are dropped; English in the same text is treated as above. BM25 parameters
are bm25s defaults (Lucene variant, k1=1.5, b=0.75). Not here: phrase queries, fields, or an
index saved to disk (the corpus is small and is indexed in memory in well under a second).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from functools import cache

import bm25s
import jieba
import numpy as np
import Stemmer
from bm25s.stopwords import STOPWORDS_EN_PLUS

WORD = re.compile(r"(?u)\b\w\w+\b")
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")
STOPWORDS_ZH = frozenset(
    [
        "的",
        "了",
        "是",
        "在",
        "和",
        "与",
        "或",
        "也",
        "就",
        "都",
        "而",
        "及",
        "把",
        "被",
        "让",
        "给",
        "对",
        "从",
        "向",
        "这",
        "那",
        "它",
        "他",
        "她",
        "我",
        "你",
        "们",
        "个",
        "一个",
        "有",
        "没有",
        "吗",
        "呢",
        "吧",
        "啊",
        "什么",
        "怎么",
        "怎样",
        "如何",
        "为什么",
        "哪些",
        "哪个",
        "是否",
        "要",
        "会",
        "能",
        "可以",
        "应该",
        "还是",
        "之",
        "其",
        "等",
        "时",
    ]
)
jieba.setLogLevel(60)  # jieba prints its dictionary loading to stderr otherwise


@cache
def _stemmer() -> Stemmer.Stemmer:
    return Stemmer.Stemmer("english")


def terms(text: str) -> list[str]:
    """`'Calling tools/call twice'` -> `['call', 'tool', 'call', 'twice']`; Chinese via `chinese_terms`."""
    words = [w for w in WORD.findall(HAN.sub(" ", text).lower()) if w not in STOPWORDS_EN_PLUS]
    return _stemmer().stemWords(words) + chinese_terms(text)


def chinese_terms(text: str) -> list[str]:
    """`'幂等键怎么用'` -> `['幂等键', '用']`: jieba's search-mode words, function words dropped."""
    return [
        word for run in HAN.findall(text) for word in jieba.cut_for_search(run) if word not in STOPWORDS_ZH
    ]


def top_k(scores: np.ndarray, k: int) -> list[tuple[int, float]]:
    """Indices of the `k` highest positive scores, best first; ties keep corpus order."""
    order = np.argsort(-scores, kind="stable")[:k]
    return [(int(i), float(scores[i])) for i in order if scores[i] > 0]


class BM25Index:
    """BM25 over a fixed list of texts; `rank` returns `(position, score)` pairs."""

    name = "bm25s"

    def __init__(self, texts: Sequence[str]) -> None:
        self._size = len(texts)
        token_lists = [terms(text) for text in texts]
        self._document_frequency = Counter(t for tokens in token_lists for t in set(tokens))
        self._retriever = bm25s.BM25()
        self._retriever.index(token_lists, show_progress=False)

    def idf(self, term: str) -> float:
        """BM25's inverse document frequency of a stemmed `term`: rare terms weigh more."""
        frequency = self._document_frequency[term]
        return math.log(1 + (self._size - frequency + 0.5) / (frequency + 0.5))

    def coverage(self, query: str) -> float:
        """The share of `query`'s terms that occur in the corpus: 0.0 when it has none.

        A question in the corpus's language scores near 1; one in another language shares
        only names and identifiers with it (`'幂等键 for retries'` on an English corpus: 2 of
        3 terms at best), which is how much its BM25 ranking can be trusted.
        """
        query_terms = terms(query)
        if not query_terms:
            return 0.0
        return sum(t in self._document_frequency for t in query_terms) / len(query_terms)

    def scores(self, query: str) -> np.ndarray:
        """One BM25 score per indexed text (zeros when no query term is in the corpus)."""
        query_terms = terms(query)
        if not query_terms:
            return np.zeros(self._size, dtype=np.float32)
        return self._retriever.get_scores(query_terms)

    def rank(self, query: str, k: int) -> list[tuple[int, float]]:
        """The `k` best texts that share at least one term with `query`."""
        return top_k(self.scores(query), k)
