"""Retrieval metrics: hit@k and Mean Reciprocal Rank (MRR) over a set of questions.

A *run* is one ranked list of ids per question; the *relevant* sets say which ids are
right. hit@k is the share of questions with at least one relevant id in the first k;
the reciprocal rank of a question is 1 / (position of its first relevant id), or 0 when
none is retrieved, and MRR is its mean. Both are binary-relevance measures: they ignore
how many relevant ids were found. Not here: recall, nDCG, graded relevance.

    ranked ["b", "a"], relevant {"a"} -> hit@1 = 0, hit@2 = 1, reciprocal rank = 0.5
"""

from __future__ import annotations

from collections.abc import Collection, Sequence


def hit_at_k(ranked: Sequence[str], relevant: Collection[str], k: int) -> float:
    """1.0 if a relevant id is among the first `k` of `ranked`, else 0.0."""
    if k < 1:
        raise ValueError(f"k must be at least 1, not {k}")
    return 1.0 if any(item in relevant for item in ranked[:k]) else 0.0


def reciprocal_rank(ranked: Sequence[str], relevant: Collection[str]) -> float:
    """1 / position of the first relevant id (positions from 1), 0.0 if there is none."""
    return next((1.0 / pos for pos, item in enumerate(ranked, 1) if item in relevant), 0.0)


def check_run(run: Sequence[Sequence[str]], relevant: Sequence[Collection[str]]) -> None:
    """Raise `ValueError` unless there is one non-empty relevant set per ranked list."""
    if len(run) != len(relevant):
        raise ValueError(f"{len(run)} ranked lists but {len(relevant)} relevant sets")
    if not run:
        raise ValueError("no questions to evaluate")
    empty = [i for i, ids in enumerate(relevant) if not ids]
    if empty:
        raise ValueError(f"questions {empty} have no relevant ids")


def mean_hit_at_k(run: Sequence[Sequence[str]], relevant: Sequence[Collection[str]], k: int) -> float:
    """hit@k averaged over questions."""
    check_run(run, relevant)
    return sum(hit_at_k(r, rel, k) for r, rel in zip(run, relevant, strict=True)) / len(run)


def mean_reciprocal_rank(run: Sequence[Sequence[str]], relevant: Sequence[Collection[str]]) -> float:
    """MRR: reciprocal rank averaged over questions."""
    check_run(run, relevant)
    return sum(reciprocal_rank(r, rel) for r, rel in zip(run, relevant, strict=True)) / len(run)


def evaluate(
    run: Sequence[Sequence[str]], relevant: Sequence[Collection[str]], ks: Sequence[int] = (1, 5)
) -> dict[str, float]:
    """`{'hit@1': ..., 'hit@5': ..., 'mrr': ...}` for one run."""
    scores = {f"hit@{k}": mean_hit_at_k(run, relevant, k) for k in ks}
    scores["mrr"] = mean_reciprocal_rank(run, relevant)
    return scores
