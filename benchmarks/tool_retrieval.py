"""Lesson 06's retrieval and tool-search figures: Recall@k and MRR per method, tokens per request.

    .venv/bin/python benchmarks/tool_retrieval.py

Part 1: the 36-tool catalogue's eval set, asked in English of the English catalogue, in Chinese
of its Chinese translation, and in Chinese of the English catalogue (cross-lingual), ranked by
BM25, by the sentence encoder (dense) and by both fused (hybrid). Part 2: deferred loading on
BFCL's `simple_python` and `multiple` functions as one catalogue (587 tools, 600 requests): the
tool tokens a request carries with every schema, with a search tool plus every name and
description, and with the search tool alone (the k loaded schemas on top), and the recall of
the search step. Tokens are counted as the offline model counts them (words and symbols).
Part 3 (`--variants`): the fusions `benchmarks/kb_fusion.py` measures for lesson 12, on part 1's
eval sets: the course's weighted RRF, a three-way RRF with character n-gram vectors (n-grams
weighted 1, by BM25's coverage, or only when request and tools share a script), CombSUM of
z-scored scores, and RRF with hubness-corrected cosines (CSLS).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from kb_fusion import hubness, standard

from wirelab.retrieval.dense import CharNgramEmbedder, VectorIndex
from wirelab.retrieval.fusion import reciprocal_rank_fusion
from wirelab.retrieval.lexical import HAN, top_k
from wirelab.tool_retrieval import (
    ToolIndex,
    bfcl_catalogue,
    listing_tokens,
    load_catalogue,
    mean_reciprocal_rank,
    recall_at_k,
    retrieval_table,
    tool_search,
    tool_text,
    tool_tokens,
)
from wirelab.tools import ToolRegistry

ASSETS = Path(__file__).resolve().parents[1] / "assets"


def index_of(name: str) -> ToolIndex:
    return ToolIndex(t for _, tools in load_catalogue(ASSETS / name).values() for t in tools)


def cases_of(name: str) -> list[dict]:
    return json.loads((ASSETS / name).read_text(encoding="utf-8"))


def eval_sets() -> list[tuple[str, ToolIndex, list[dict]]]:
    """Lesson 06's three evals: who asks, the catalogue searched, and the requests."""
    english, chinese = index_of("tool_catalogue.json"), index_of("tool_catalogue_zh.json")
    cases, cases_zh = cases_of("tool_retrieval_eval.json"), cases_of("tool_retrieval_eval_zh.json")
    return [
        ("English requests, English tools", english, cases),
        ("Chinese requests, Chinese tools", chinese, cases_zh),
        ("Chinese requests, English tools", english, cases_zh),
    ]


def eval_tables() -> None:
    for asked, index, requests in eval_sets():
        print(f"{asked} ({len(requests)} requests)")
        for method, row in retrieval_table(index, requests).items():
            print(f"  {method:<7}" + "  ".join(f"{name} {value:.3f}" for name, value in row.items()))


def deferred_loading() -> None:
    tools, cases = bfcl_catalogue()
    started = time.perf_counter()
    index, by_name = ToolIndex(tools), {t.name: t for t in tools}
    print(f"\n{len(tools)} tools, {len(cases)} requests, indexed in {time.perf_counter() - started:.1f} s")
    search = tool_tokens([tool_search(index, ToolRegistry())])
    print(f"  every schema             {tool_tokens(tools):>7,} tokens  recall 1.000")
    for k in (3, 5):
        found = [index.search(case["request"], k) for case in cases]
        loaded = sum(tool_tokens(by_name[n] for n in names) for names in found) / len(found)
        recall = recall_at_k(index.retriever("hybrid"), cases, k)
        listed = search + listing_tokens(tools) + loaded
        print(f"  k={k} names listed        {listed:>7,.0f} tokens  recall {recall:.3f}")
        print(f"  k={k} search tool alone   {search + loaded:>7,.0f} tokens  recall {recall:.3f}")
    for method in ("bm25", "dense"):
        recall = recall_at_k(index.retriever(method), cases, 5)
        print(f"  search by {method} alone: recall@5 {recall:.3f}")


def fusions(index: ToolIndex) -> dict[str, Callable[[str], list[int]]]:
    bm25, vectors = index._bm25, index._vectors
    texts = [tool_text(t) for t in index.tools]
    ngrams = VectorIndex(texts, CharNgramEmbedder(texts))
    tools_han = any(HAN.search(text) for text in texts)
    hub = hubness(vectors.matrix)

    def rrf(request: str, third: float | None = None, cosines: np.ndarray | None = None) -> list[int]:
        cos = vectors.similarities(request) if cosines is None else cosines
        rankings = [[i for i, _ in bm25.rank(request, 50)], [i for i, _ in top_k(cos, 50)]]
        weights = [bm25.coverage(request), 1.0]
        if third is not None:
            rankings.append([i for i, _ in ngrams.rank(request, 50)])
            weights.append(third)
        return [i for i, _ in reciprocal_rank_fusion(rankings, weights=weights)]

    def zscore(request: str) -> list[int]:
        fused = bm25.coverage(request) * standard(np.asarray(bm25.scores(request), dtype=float))
        fused += standard(np.asarray(vectors.similarities(request), dtype=float))
        return [int(i) for i in np.argsort(-fused, kind="stable")[:50]]

    return {
        "rrf": rrf,
        "rrf3": lambda r: rrf(r, 1.0),
        "rrf3 cov": lambda r: rrf(r, bm25.coverage(r)),
        "rrf3 script": lambda r: rrf(r, float(bool(HAN.search(r)) == tools_han)),
        "z-score sum": zscore,
        "csls": lambda r: rrf(r, cosines=2 * vectors.similarities(r) - hub),
    }


def retriever(index: ToolIndex, rank: Callable[[str], list[int]]) -> Callable[[str, int], list[str]]:
    return lambda request, k: [index.tools[i].name for i in rank(request)[:k]]


def variants() -> None:
    for asked, index, requests in eval_sets():
        print(f"\nfusions: {asked} ({len(requests)} requests)")
        for name, rank in fusions(index).items():
            names = retriever(index, rank)
            row = {f"Recall@{k}": recall_at_k(names, requests, k) for k in (1, 3, 5)}
            row["MRR"] = mean_reciprocal_rank(names, requests)
            print(f"  {name:<12}" + "  ".join(f"{key} {value:.3f}" for key, value in row.items()))


if __name__ == "__main__":
    if "--variants" in sys.argv[1:]:
        variants()
    else:
        eval_tables()
        deferred_loading()
