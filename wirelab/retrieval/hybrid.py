"""Hybrid ranking: BM25 and dense vectors over the same texts, fused by weighted RRF.

Both rankings are cut to `depth` and fused with `reciprocal_rank_fusion`. BM25's votes are
weighted by its `coverage` of the query, the share of the query's terms that occur in the
texts at all: a query in the texts' language is read almost whole (weight near 1); a query
in another language shares only names and identifiers with them, and its BM25 ranking is
then mostly noise, so the vectors decide. The vectors always vote with weight 1.

    texts ["tool calls run in parallel", "the server lists its tools"], query "并行 tool calls":
    coverage 2/3 ("tool" and "call" occur, "并行" does not), so each BM25 vote counts 2/3.
"""

from __future__ import annotations

from wirelab.retrieval.dense import VectorIndex
from wirelab.retrieval.fusion import reciprocal_rank_fusion
from wirelab.retrieval.lexical import BM25Index

DEPTH = 50


def hybrid_rank(
    lexical: BM25Index, vectors: VectorIndex, query: str, depth: int = DEPTH
) -> list[tuple[int, float]]:
    """`(position, fused score)` pairs of the indexed texts, best first, at most `depth`."""
    rankings = [[i for i, _ in index.rank(query, depth)] for index in (lexical, vectors)]
    fused = reciprocal_rank_fusion(rankings, weights=[lexical.coverage(query), 1.0])
    return fused[:depth]
