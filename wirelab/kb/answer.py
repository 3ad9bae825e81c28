"""Answer a question with citations, by extraction: no language model writes the text.

The best passages come from the knowledge base's reranked search; each is cut into
sentences, and a sentence scores the share of the question's distinct terms it contains
(stemmed, as in `lexical.terms`), each term weighted by its IDF so that "notification"
counts more than "server", with a small bonus for coming from a better-ranked passage. The
top sentences are returned in score order, each followed by the id of the chunk it was taken
from, for example ``... one JSON object. [streamable-http#1]``. A question whose terms
appear in no retrieved sentence gets an honest "no answer" with no citations.
Not here: paraphrasing, merging sentences, or a generative model.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from wirelab.kb.corpus import SearchHit
from wirelab.retrieval.lexical import terms

NO_ANSWER = "The knowledge base has no passage that answers this question."
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"(])|(?<=[。！？])\s*")  # English; Chinese


@dataclass(frozen=True)
class Citation:
    """A chunk an answer quotes from."""

    chunk_id: str
    doc_id: str
    title: str


@dataclass(frozen=True)
class Answer:
    """Extracted sentences with the chunks they cite; `found` is False for "no answer"."""

    question: str
    text: str
    citations: tuple[Citation, ...]

    @property
    def found(self) -> bool:
        return bool(self.citations)


def sentences(text: str) -> list[str]:
    """`'One. Two words.'` -> `['One.', 'Two words.']`; `'一。二！'` -> `['一。', '二！']`."""
    return [s for s in SENTENCE_END.split(" ".join(text.split())) if s]


def weighted_coverage(wanted: Sequence[str], present: Sequence[str], weight: Callable[[str], float]) -> float:
    """Weighted share of the distinct `wanted` terms that are `present` (0.0 to 1.0)."""
    total = sum(weight(term) for term in set(wanted))
    found = sum(weight(term) for term in set(wanted) & set(present))
    return found / total if total else 0.0


def scored_sentences(
    question: str, hits: Sequence[SearchHit], weight: Callable[[str], float]
) -> list[tuple[float, str, int]]:
    """`(score, sentence, hit position)` for every sentence sharing a term with `question`."""
    wanted = terms(question)
    found = []
    for position, hit in enumerate(hits):
        for sentence in sentences(hit.text):
            share = weighted_coverage(wanted, terms(sentence), weight)
            if share > 0:
                found.append((share + 0.05 / (position + 1), sentence, position))
    return sorted(found, key=lambda item: -item[0])


def compose_answer(
    question: str,
    hits: Sequence[SearchHit],
    max_sentences: int = 3,
    weight: Callable[[str], float] = lambda term: 1.0,
) -> Answer:
    """The best `max_sentences` sentences of `hits`, each cited as `[chunk-id]`."""
    best = scored_sentences(question, hits, weight)[:max_sentences]
    if not best:
        return Answer(question, NO_ANSWER, ())
    text = " ".join(f"{sentence} [{hits[position].chunk_id}]" for _, sentence, position in best)
    cited = dict.fromkeys(hits[position] for _, _, position in best)
    citations = tuple(Citation(hit.chunk_id, hit.doc_id, hit.title) for hit in cited)
    return Answer(question, text, citations)
