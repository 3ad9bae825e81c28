"""Reciprocal Rank Fusion (Cormack, Clarke and Büttcher, 2009) of several rankings.

Each item scores the sum of `1 / (k + rank)` over the rankings it appears in, ranks counted
from 1. Only positions matter, so BM25 scores and cosine similarities, which live on very
different scales, never have to be compared or normalised. `k = 60` is the constant of the
original paper: it flattens the gap between rank 1 and rank 2 so that agreement between
rankings counts more than a single first place. A ranking may carry a weight that multiplies
its votes (weight 0 leaves it out); `hybrid_weights` gives BM25's.

    rankings [["a", "b"], ["b", "c"]]
    -> b: 1/62 + 1/61 = 0.0325, a: 1/61 = 0.0164, c: 1/62 = 0.0161
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

RRF_K = 60
Item = TypeVar("Item", bound=Hashable)


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[Item]], k: int = RRF_K, weights: Sequence[float] | None = None
) -> list[tuple[Item, float]]:
    """Fused `(item, score)` pairs, best first; ties go to the item seen first."""
    if k < 0:
        raise ValueError(f"the RRF constant k must be >= 0, not {k}")
    weights = [1.0] * len(rankings) if weights is None else list(weights)
    if len(weights) != len(rankings) or any(w < 0 for w in weights):
        raise ValueError(f"need one weight >= 0 per ranking: {len(rankings)} rankings, weights {weights}")
    scores: dict[Item, float] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        if len(set(ranking)) != len(ranking):
            raise ValueError(f"a ranking lists an item twice: {list(ranking)}")
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + weight / (k + rank)
    return sorted(scores.items(), key=lambda pair: -pair[1])
