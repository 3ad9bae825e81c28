"""Lesson 06's retrieval and tool-search figures: Recall@k and MRR per method, tokens per request.

    .venv/bin/python benchmarks/tool_retrieval.py

Part 1: the 36-tool catalogue's eval set, asked in English of the English catalogue, in Chinese
of its Chinese translation, and in Chinese of the English catalogue (cross-lingual), ranked by
BM25, by the sentence encoder (dense) and by both fused (hybrid). Part 2: deferred loading on
BFCL's `simple_python` and `multiple` functions as one catalogue (587 tools, 600 requests): the
tool tokens a request carries with every schema, with a search tool plus every name and
description, and with the search tool alone (the k loaded schemas on top), and the recall of
the search step. Tokens are counted as the offline model counts them (words and symbols).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from wirelab.tool_retrieval import (
    ToolIndex,
    bfcl_catalogue,
    listing_tokens,
    load_catalogue,
    recall_at_k,
    retrieval_table,
    tool_search,
    tool_tokens,
)
from wirelab.tools import ToolRegistry

ASSETS = Path(__file__).resolve().parents[1] / "assets"


def index_of(name: str) -> ToolIndex:
    return ToolIndex(t for _, tools in load_catalogue(ASSETS / name).values() for t in tools)


def cases_of(name: str) -> list[dict]:
    return json.loads((ASSETS / name).read_text(encoding="utf-8"))


def eval_tables() -> None:
    english, chinese = index_of("tool_catalogue.json"), index_of("tool_catalogue_zh.json")
    cases, cases_zh = cases_of("tool_retrieval_eval.json"), cases_of("tool_retrieval_eval_zh.json")
    for asked, index, requests in [
        ("English requests, English tools", english, cases),
        ("Chinese requests, Chinese tools", chinese, cases_zh),
        ("Chinese requests, English tools", english, cases_zh),
    ]:
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


if __name__ == "__main__":
    eval_tables()
    deferred_loading()
