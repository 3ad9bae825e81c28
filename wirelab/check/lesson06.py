"""Checks for lab 06: Recall@k computed right, a retriever that finds the needed tools, and a
hybrid ranker that fuses BM25 and the sentence encoder by Reciprocal Rank Fusion.

The hybrid check compares the learner's ranking with RRF of the same two rankings (ties may
come in any order) on every English request of the eval set and on the same requests asked
in Chinese (`assets/tool_retrieval_eval_zh.json`) against the English tools.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from wirelab.check import CheckFailed, attempt, exercise, expect, passed
from wirelab.edition import say
from wirelab.tool_retrieval import ToolIndex, load_catalogue, recall_at_k

ASSETS = Path(__file__).resolve().parents[2] / "assets"
GROUPS = load_catalogue(ASSETS / "tool_catalogue.json")
TOOLS = [t for _, tools in GROUPS.values() for t in tools]
CASES = json.loads((ASSETS / "tool_retrieval_eval.json").read_text(encoding="utf-8"))
CASES_ZH = json.loads((ASSETS / "tool_retrieval_eval_zh.json").read_text(encoding="utf-8"))
REQUIRED_RECALL_AT_5 = 0.8
REQUIRED_HYBRID_RECALL_AT_3 = 0.95
DEPTH = 20  # how many tools of each ranking the hybrid ranker fuses
RRF_K = 60


@cache
def _index() -> ToolIndex:
    return ToolIndex(TOOLS)


def bm25_ranking(request: str, depth: int = DEPTH) -> list[str]:
    """Tool names by BM25 over their texts, best first (only tools sharing a word with `request`)."""
    return _index().search(request, depth, method="bm25")


def dense_ranking(request: str, depth: int = DEPTH) -> list[str]:
    """Tool names by the sentence encoder's cosine similarity to `request`, best first."""
    return _index().search(request, depth, method="dense")


def rrf_scores(request: str) -> dict[str, float]:
    """The expected fusion: 1 / (60 + rank) summed over both rankings, ranks from 1."""
    scores: dict[str, float] = {}
    for ranking in (bm25_ranking(request), dense_ranking(request)):
        for rank, name in enumerate(ranking, start=1):
            scores[name] = scores.get(name, 0.0) + 1 / (RRF_K + rank)
    return scores


def _kind(value: Any) -> str:
    """The type of `value`, with its items' types for a list (`list[Tool]`): no learner text."""
    if isinstance(value, list):
        return f"list[{' | '.join(sorted({type(v).__name__ for v in value}))}]"
    return type(value).__name__


@exercise
def check_recall_at_k(learner_recall_at_k: Any) -> None:
    ranked = {"q1": ["a", "b", "c"], "q2": ["x", "b", "y"], "q3": ["z"]}
    cases = [
        {"request": "q1", "tools": ["a"]},
        {"request": "q2", "tools": ["b", "c"]},
        {"request": "q3", "tools": ["a"]},
    ]

    def retrieve(request: str, k: int) -> list[str]:
        return ranked[request][:k]

    for k, want in ((1, 1 / 3), (2, 0.5), (3, 0.5)):
        got = attempt(learner_recall_at_k, retrieve, cases, k)
        expect(
            isinstance(got, float | int),
            say(
                f"recall_at_k returned {got!r}: return a number",
                f"recall_at_k 返回了 {got!r}：应当返回一个数",
            ),
        )
        if abs(got - want) > 1e-9:
            raise CheckFailed(
                say(
                    f"with k={k} recall_at_k returned {got:.3f}, expected {want:.3f}: per "
                    "case, the share of its expected tools found in retrieve(request, k) "
                    "(q2 needs 2 tools: finding 1 counts 0.5), then the mean over cases",
                    f"k={k} 时 recall_at_k 返回了 {got:.3f}，应为 {want:.3f}：先对每个用例算出"
                    "它需要的工具有几成出现在 retrieve(request, k) 中"
                    "（q2 需要 2 个工具，找到 1 个记 0.5），再对所有用例取平均",
                )
            )
    passed(
        say(
            "recall_at_k averages, per request, the share of needed tools found in the top k",
            "recall_at_k 对每个请求算出所需工具在前 k 名中找到的比例，再取平均",
        )
    )


@exercise
def check_retriever(retrieve: Any) -> None:
    first = attempt(retrieve, CASES[0]["request"], 5)
    expect(
        isinstance(first, list) and all(isinstance(n, str) for n in first),
        say(
            f"retrieve returned {first!r}: return a list of tool names",
            f"retrieve 返回的是 {_kind(first)}：应当返回工具名（字符串）的列表",
        ),
    )
    expect(
        len(first) <= 5,
        say(
            f"retrieve(..., 5) returned {len(first)} names: at most k",
            f"retrieve(..., 5) 返回了 {len(first)} 个名字：最多只能返回 k 个",
        ),
    )
    score = attempt(recall_at_k, retrieve, CASES, 5)
    missed = [c["request"] for c in CASES if not set(c["tools"]) <= set(retrieve(c["request"], 5))]
    if score < REQUIRED_RECALL_AT_5:
        raise CheckFailed(
            say(
                f"Recall@5 is {score:.0%}, {REQUIRED_RECALL_AT_5:.0%} needed; e.g. missed "
                f"{missed[0]!r}. Score each tool by the request words found in its name and "
                "description (lower-case both, split on non-letters)",
                f"Recall@5 为 {score:.0%}，至少要 {REQUIRED_RECALL_AT_5:.0%}；例如漏掉了 "
                f"{missed[0]!r}。按请求中的词在工具 name 和 description 里出现的情况给每个工具打分"
                "（两边都转成小写，按非字母字符切分）",
            )
        )
    passed(
        say(
            f"your retriever reaches Recall@5 = {score:.0%} on {len(CASES)} requests",
            f"你的检索器在 {len(CASES)} 个请求上达到 Recall@5 = {score:.0%}",
        )
    )


def _rrf_mistake(request: str, got: list[str], k: int) -> str | None:
    """What is wrong with `got` as the top `k` of RRF for `request`, or None."""
    want = rrf_scores(request)
    unknown = [name for name in got if name not in want]
    if unknown:
        return say(
            f"{unknown[0]!r} is in neither ranking: fuse only what bm25_ranking and dense_ranking return",
            f"{unknown[0]!r} 不在任何一个排名里：只融合 bm25_ranking 和 dense_ranking 返回的结果",
        )
    if len(got) != min(k, len(want)) or len(set(got)) != len(got):
        return say(
            f"it returned {len(got)} names ({len(set(got))} different): the best {k}, each once",
            f"它返回了 {len(got)} 个名字（{len(set(got))} 个不同）：应当返回最好的 {k} 个，每个只出现一次",
        )
    scores = [want[name] for name in got]
    if any(a < b - 1e-12 for a, b in zip(scores, scores[1:], strict=False)):
        return say(
            "they are not in order of the summed 1 / (60 + rank), best first",
            "它们没有按 1 / (60 + rank) 之和从高到低排列",
        )
    best_left_out = max((v for n, v in want.items() if n not in got), default=0.0)
    if scores and best_left_out > scores[-1] + 1e-12:
        return say(
            "a tool with a higher summed 1 / (60 + rank) was left out: add up both rankings' votes",
            "漏掉了一个 1 / (60 + rank) 之和更高的工具：要把两个排名的票数加起来",
        )
    return None


@exercise
def check_hybrid(hybrid: Any) -> None:
    for case in [*CASES, *CASES_ZH]:
        got = attempt(hybrid, case["request"], 3)
        expect(
            isinstance(got, list) and all(isinstance(n, str) for n in got),
            say(
                f"hybrid returned {got!r}: return a list of tool names",
                f"hybrid 返回的是 {_kind(got)}：应当返回工具名（字符串）的列表",
            ),
        )
        if mistake := _rrf_mistake(case["request"], got, 3):
            raise CheckFailed(
                say(
                    f"hybrid({case['request']!r}, 3) returned {got}: {mistake}",
                    f"请求 {case['request']!r}：hybrid(request, 3) 返回了 {got}：{mistake}",
                )
            )
    for language, cases in ((say("English", "英文"), CASES), (say("Chinese", "中文"), CASES_ZH)):
        score = attempt(recall_at_k, hybrid, cases, 3)
        expect(
            score >= REQUIRED_HYBRID_RECALL_AT_3,
            say(
                f"Recall@3 on the {language} requests is {score:.0%}, "
                f"{REQUIRED_HYBRID_RECALL_AT_3:.0%} needed",
                f"{language}请求上的 Recall@3 为 {score:.0%}，至少要 {REQUIRED_HYBRID_RECALL_AT_3:.0%}",
            ),
        )
    english, chinese = recall_at_k(hybrid, CASES, 3), recall_at_k(hybrid, CASES_ZH, 3)
    passed(
        say(
            f"your hybrid ranker is RRF of BM25 and the encoder: Recall@3 = "
            f"{english:.0%} in English, {chinese:.0%} for the same requests in Chinese",
            f"你的混合排序器用 RRF 融合了 BM25 和编码器：英文请求 Recall@3 = "
            f"{english:.0%}，同样的请求换成中文为 {chinese:.0%}",
        )
    )
