"""Rerank a short list of candidate passages with a finer, slower score than retrieval's.

A cross-encoder (a model that reads query and passage together) is the usual reranker, but
none ships for offline use here, so this step is a hand-made scorer instead, and should be
judged as one: its weights were set by hand, not learned, and the benchmark reports whether
it helps on the eval set. For each candidate it combines

- `cosine`:    the dense similarity of query and passage (semantic match), weight 0.5;
- `coverage`:  the share of distinct query terms found in the passage, weight 0.25;
- `bigrams`:   the share of adjacent query-term pairs found adjacent in the passage, 0.15;
- `proximity`: matched terms / length of the shortest span that holds them all, 0.10.

Terms are the stemmed words of `lexical.terms`. Not here: learned weights, field boosts.
"""

from __future__ import annotations

from collections.abc import Sequence

from wirelab.retrieval.lexical import terms

WEIGHTS = {"cosine": 0.5, "coverage": 0.25, "bigrams": 0.15, "proximity": 0.10}


def coverage(query_terms: Sequence[str], text_terms: Sequence[str]) -> float:
    """`['tool', 'call']` in `['call', 'a']` -> 0.5."""
    wanted = set(query_terms)
    return len(wanted & set(text_terms)) / len(wanted) if wanted else 0.0


def bigram_overlap(query_terms: Sequence[str], text_terms: Sequence[str]) -> float:
    """Share of the query's adjacent pairs that occur adjacent in the text."""
    wanted = set(zip(query_terms, query_terms[1:], strict=False))
    present = set(zip(text_terms, text_terms[1:], strict=False))
    return len(wanted & present) / len(wanted) if wanted else 0.0


def proximity(query_terms: Sequence[str], text_terms: Sequence[str]) -> float:
    """`matched / shortest window holding every matched term`: 1.0 when they sit together."""
    matched = set(query_terms) & set(text_terms)
    if not matched:
        return 0.0
    best, last_seen = len(text_terms), {}
    for position, term in enumerate(text_terms):
        if term in matched:
            last_seen[term] = position
            if len(last_seen) == len(matched):
                best = min(best, position - min(last_seen.values()) + 1)
    return len(matched) / best


def features(query: str, text: str, cosine: float) -> dict[str, float]:
    """The four named signals for one passage."""
    query_terms, text_terms = terms(query), terms(text)
    return {
        "cosine": max(cosine, 0.0),
        "coverage": coverage(query_terms, text_terms),
        "bigrams": bigram_overlap(query_terms, text_terms),
        "proximity": proximity(query_terms, text_terms),
    }


def rerank_score(query: str, text: str, cosine: float) -> float:
    """The weighted sum of `features`, between 0 and 1."""
    signals = features(query, text, cosine)
    return sum(WEIGHTS[name] * value for name, value in signals.items())


def rerank(
    query: str, candidates: Sequence[tuple[str, str]], cosines: Sequence[float]
) -> list[tuple[str, float]]:
    """`(id, text)` candidates with their cosines -> `(id, score)` best first (stable ties)."""
    if len(candidates) != len(cosines):
        raise ValueError(f"{len(candidates)} candidates but {len(cosines)} cosine values")
    scored = [
        (item, rerank_score(query, text, cosine))
        for (item, text), cosine in zip(candidates, cosines, strict=True)
    ]
    return sorted(scored, key=lambda pair: -pair[1])
