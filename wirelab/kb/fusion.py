"""Reciprocal Rank Fusion (Cormack, Clarke and Büttcher, 2009) of several rankings.

Each item scores the sum of `1 / (k + rank)` over the rankings it appears in, ranks counted
from 1. Only positions matter, so BM25 scores and cosine similarities, which live on very
different scales, never have to be compared or normalised. `k = 60` is the constant of the
original paper: it flattens the gap between rank 1 and rank 2 so that agreement between
rankings counts more than a single first place. Not here: weights per ranking.

    rankings [["a", "b"], ["b", "c"]]
    -> b: 1/62 + 1/61 = 0.0325, a: 1/61 = 0.0164, c: 1/62 = 0.0161
"""

from __future__ import annotations

from collections.abc import Sequence

RRF_K = 60


def reciprocal_rank_fusion(rankings: Sequence[Sequence[str]], k: int = RRF_K) -> list[tuple[str, float]]:
    """Fused `(item, score)` pairs, best first; ties go to the item seen first."""
    if k < 0:
        raise ValueError(f"the RRF constant k must be >= 0, not {k}")
    scores: dict[str, float] = {}
    for ranking in rankings:
        if len(set(ranking)) != len(ranking):
            raise ValueError(f"a ranking lists an item twice: {list(ranking)}")
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda pair: -pair[1])
