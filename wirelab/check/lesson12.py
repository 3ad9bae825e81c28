"""Checks for lab 12: weighted RRF, hit@k and MRR written by hand, and a seventh read-only tool.

The metric checks compare the learner's functions with `wirelab.kb` on small cases and on
the eval set (BM25 rankings of a lexical-fallback index, built once). Both use the corpus of
the lab's language: the Chinese corpus and eval set in labs/zh and solutions/zh. The tool check builds
the knowledge-base server, lets the learner add a tool, serves it over Streamable HTTP on
127.0.0.1 and uses it through the official MCP SDK's client (`tools/list`, `tools/call`),
in a thread with its own event loop (a notebook's loop is already running).
"""

from __future__ import annotations

import asyncio
import json
import math
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any

from wirelab.check import CheckFailed, attempt, exercise, expect, passed
from wirelab.edition import language, say
from wirelab.kb import KnowledgeBase
from wirelab.kb.evaluation import load_eval_set, ranked_documents
from wirelab.kb.server import KnowledgeService, build_server
from wirelab.mcp.transports.http.server import serve_http
from wirelab.retrieval.fusion import reciprocal_rank_fusion
from wirelab.retrieval.metrics import mean_hit_at_k, mean_reciprocal_rank

# rankings, one weight per ranking, k
RRF_CASES = [
    ([["a", "b", "c"], ["c", "a", "d"]], [1.0, 1.0], 60),
    ([["x", "y"]], [1.0], 60),
    ([["a", "b", "c"], ["c", "a", "d"]], [3.0, 1.0], 60),
    ([["a", "b"], ["b", "a"], ["c"]], [1.0, 1.0, 0.0], 60),
    ([["a", "b", "c"], ["c", "b", "a"]], [1.0, 2.0], 0),
]
METRIC_CASES = [
    (["b", "a", "c"], {"a"}),
    (["a", "b"], {"a", "b"}),
    (["x", "y", "z"], {"a"}),
    (["x", "y", "z", "w", "a"], {"a", "q"}),
]
CHUNKS = {"en": "mcp-tools#2", "zh": "tool-call-id#1"}  # a passage the check reads, per corpus


@cache
def eval_runs() -> tuple[list[list[str]], list[frozenset[str]]]:
    """BM25 document rankings of the eval set and the relevant ids (lexical index, built once)."""
    kb = KnowledgeBase.build(dense="off")
    questions = load_eval_set(kb)
    return [ranked_documents(kb, q.question, "bm25") for q in questions], [q.relevant for q in questions]


def _weighted(rankings: list[list[str]], weights: list[float], k: int) -> list[tuple[str, float]]:
    """The expected fusion: RRF per ranking, times its weight; weight 0 ignores a ranking."""
    scores: dict[str, float] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        if weight == 0:
            continue
        fused = dict(reciprocal_rank_fusion([ranking], k=k))
        for item in ranking:
            scores[item] = scores.get(item, 0.0) + weight * fused[item]
    return sorted(scores.items(), key=lambda pair: -pair[1])


@exercise
def check_weighted_rrf(weighted_rrf: Any) -> None:
    for rankings, weights, k in RRF_CASES:
        want = _weighted(rankings, weights, k)
        got = attempt(weighted_rrf, rankings, weights, k)
        where = f"weighted_rrf({rankings}, {weights}, k={k})"
        expect(
            isinstance(got, list) and all(isinstance(p, tuple | list) and len(p) == 2 for p in got),
            say(
                f"{where} returned {got!r}: return a list of (item, score) pairs, best first",
                f"{where} 返回了 {got!r}：应当返回 (item, score) 对组成的列表，最好的在前",
            ),
        )
        expect(
            sorted(i for i, _ in got) == sorted(i for i, _ in want),
            say(
                f"{where} scored {[i for i, _ in got]}, expected {[i for i, _ in want]}: every item of every "
                "ranking with a weight above 0 appears once; a ranking of weight 0 adds nothing",
                f"{where} 给出分数的项是 {[i for i, _ in got]}，应为 {[i for i, _ in want]}："
                "权重大于 0 的每个排名里的每一项都恰好出现一次；权重为 0 的排名什么也不加",
            ),
        )
        scores = dict(got)
        for item, score in want:
            expect(
                math.isclose(scores[item], score, rel_tol=1e-9),
                say(
                    f"{where} gave {item!r} {scores[item]:.4f}, expected {score:.4f}: "
                    "add weight / (k + rank) for each ranking it is in, ranks counted from 1",
                    f"{where} 给 {item!r} 的分数是 {scores[item]:.4f}，应为 {score:.4f}："
                    "它每出现在一个排名里，就加上 weight / (k + rank)，rank 从 1 算起",
                ),
            )
        expect(
            [i for i, _ in got] == [i for i, _ in want],
            say(
                f"{where} ordered {[i for i, _ in got]}, expected {[i for i, _ in want]}: sort by score, "
                "highest first (a stable sort keeps ties in first-seen order)",
                f"{where} 排出的顺序是 {[i for i, _ in got]}，应为 {[i for i, _ in want]}："
                "按分数从高到低排序（稳定排序会让同分项保持先出现的顺序）",
            ),
        )
    try:
        weighted_rrf([["a"], ["b"]], [1.0], 60)
    except ValueError:
        pass
    except Exception as e:
        raise CheckFailed(
            say(
                f"weighted_rrf with 2 rankings and 1 weight raised {type(e).__name__}: raise ValueError",
                f"给 weighted_rrf 2 个排名和 1 个权重时，它抛出了 {type(e).__name__}：应当抛出 ValueError",
            )
        ) from None
    else:
        raise CheckFailed(
            say(
                "weighted_rrf with 2 rankings and 1 weight returned a fusion: raise ValueError when "
                "rankings and weights differ in number (zip(..., strict=True)), a silent drop hides a bug",
                "给 weighted_rrf 2 个排名和 1 个权重时，它照样返回了融合结果：排名和权重数量不一致时应当抛出 "
                "ValueError（zip(..., strict=True)），悄悄丢掉一个会把 bug 藏起来",
            )
        )
    passed(
        say(
            "weighted_rrf weighs each ranking, ignores weight 0, and refuses mismatched weights",
            "weighted_rrf 给每个排名加权，忽略权重为 0 的排名，并拒绝数量对不上的权重",
        )
    )


@exercise
def check_hit_at_k(hit_at_k: Any) -> None:
    for ranked, relevant in METRIC_CASES:
        for k in (1, 2, 5):
            want = 1.0 if set(ranked[:k]) & relevant else 0.0
            got = attempt(hit_at_k, ranked, relevant, k)
            expect(
                got == want,
                say(
                    f"hit_at_k({ranked}, {relevant}, k={k}) returned {got!r}, expected "
                    f"{want}: 1.0 if any of the first k ids is relevant, else 0.0",
                    f"hit_at_k({ranked}, {relevant}, k={k}) 返回了 {got!r}，应为 "
                    f"{want}：前 k 个 id 中只要有一个相关就是 1.0，否则是 0.0",
                ),
            )
    passed(say("hit_at_k looks only at the first k ids", "hit_at_k 只看前 k 个 id"))


@exercise
def check_reciprocal_rank(reciprocal_rank: Any) -> None:
    for ranked, relevant in METRIC_CASES:
        first = next((pos for pos, item in enumerate(ranked, 1) if item in relevant), None)
        want = 1 / first if first else 0.0
        got = attempt(reciprocal_rank, ranked, relevant)
        expect(
            isinstance(got, int | float) and math.isclose(got, want),
            say(
                f"reciprocal_rank({ranked}, {relevant}) returned {got!r}, expected {want:.3f}: "
                "1 / position of the FIRST relevant id, positions from 1; 0.0 when none is found",
                f"reciprocal_rank({ranked}, {relevant}) 返回了 {got!r}，应为 {want:.3f}："
                "只看第一个相关 id，结果是 1 / 它的位置，位置从 1 算起；一个都没找到时为 0.0",
            ),
        )
    passed(
        say(
            "reciprocal_rank is 1 / the position of the first relevant id",
            "reciprocal_rank 等于 1 / 第一个相关 id 的位置",
        )
    )


@exercise
def check_eval_scores(scores: Any) -> None:
    runs, relevant = eval_runs()
    got = attempt(scores, runs, relevant)
    expect(
        isinstance(got, dict) and set(got) == {"hit@1", "hit@5", "mrr"},
        say(
            f"scores(...) returned {got!r}: return {{'hit@1': ..., 'hit@5': ..., 'mrr': ...}}",
            f"scores(...) 返回了 {got!r}：应当返回 {{'hit@1': ..., 'hit@5': ..., 'mrr': ...}}",
        ),
    )
    want = {
        "hit@1": mean_hit_at_k(runs, relevant, 1),
        "hit@5": mean_hit_at_k(runs, relevant, 5),
        "mrr": mean_reciprocal_rank(runs, relevant),
    }
    for name, value in want.items():
        expect(
            math.isclose(got[name], value),
            say(
                f"on the eval set your {name} is {got[name]:.3f}, the "
                f"package's {value:.3f}: average your per-question values over all "
                f"{len(runs)} questions",
                f"在评测集上你的 {name} 是 {got[name]:.3f}，包算出的是 {value:.3f}："
                f"要把每个问题的值在全部 {len(runs)} 个问题上取平均",
            ),
        )
    passed(
        say(
            f"your hit@1 {got['hit@1']:.3f}, hit@5 {got['hit@5']:.3f} and MRR {got['mrr']:.3f} "
            "match wirelab.retrieval.metrics on the eval set",
            f"在评测集上，你的 hit@1 {got['hit@1']:.3f}、hit@5 {got['hit@5']:.3f} 和 MRR {got['mrr']:.3f} "
            "与 wirelab.retrieval.metrics 一致",
        )
    )


# --- the seventh tool -------------------------------------------------------------


def _exchange(add_tool: Any) -> tuple[Any, dict, dict | None, dict | None]:
    """Build the server, let the learner add a tool, and use it through the MCP SDK's client."""
    kb = KnowledgeBase.build(dense="off")
    service = KnowledgeService(lambda: kb)
    server = build_server(service, list(kb.documents.values()))
    try:
        attempt(add_tool, server, service)
        with serve_http(server) as running, ThreadPoolExecutor(max_workers=1) as thread:
            # a thread of its own: a notebook's event loop is already running
            return (kb, *thread.submit(asyncio.run, _through_the_sdk(running.url)).result(timeout=60))
    finally:
        service.close()


async def _through_the_sdk(url: str) -> tuple[dict, dict | None, dict | None]:
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async with streamable_http_client(url) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        listed = await session.list_tools()
        tools = {t.name: t.model_dump(by_alias=True, exclude_none=True) for t in listed.tools}
        if "get_passage" not in tools:
            return tools, None, None
        good = await session.call_tool("get_passage", {"chunk_id": CHUNKS[language()]})
        bad = await session.call_tool("get_passage", {"chunk_id": "no-such-chunk#9"})
    return tools, good.model_dump(by_alias=True), bad.model_dump(by_alias=True)


def _text(result: dict) -> str:
    if result.get("structuredContent"):
        return json.dumps(result["structuredContent"], ensure_ascii=False)
    return " ".join(block.get("text") or "" for block in result.get("content", []))


@exercise
def check_passage_tool(add_tool: Any) -> None:
    kb, tools, good, bad = _exchange(add_tool)
    chunk = CHUNKS[language()]
    expect(
        "get_passage" in tools,
        say(
            f"an MCP client listed the tools {sorted(tools)}: register a tool named "
            "get_passage with @server.tool(...) inside add_passage_tool",
            f"MCP 客户端列出的工具是 {sorted(tools)}：在 add_passage_tool 里用 @server.tool(...) "
            "注册一个名为 get_passage 的工具",
        ),
    )
    expect(
        len(tools) == 7,
        say(
            f"the server has {len(tools)} tools, expected the six plus get_passage",
            f"服务器有 {len(tools)} 个工具，应当是原来的六个再加 get_passage",
        ),
    )
    annotations = tools["get_passage"].get("annotations") or {}
    expect(
        annotations.get("readOnlyHint") is True,
        say(
            f"get_passage's annotations are {annotations}: "
            "pass annotations=READ_ONLY ({'readOnlyHint': True}): it only reads",
            f"get_passage 的 annotations 是 {annotations}："
            "要传 annotations=READ_ONLY（{'readOnlyHint': True}）：它只读不写",
        ),
    )
    expect(
        list(tools["get_passage"]["inputSchema"].get("properties", {})) == ["chunk_id"],
        say(
            f"get_passage takes {list(tools['get_passage']['inputSchema'].get('properties', {}))}: it must "
            "take one parameter named chunk_id (a string), the id that answers cite",
            f"get_passage 的参数是 {list(tools['get_passage']['inputSchema'].get('properties', {}))}："
            "它必须只有一个名为 chunk_id 的参数（字符串），也就是回答里引用的那个 id",
        ),
    )
    expect(
        bool(tools["get_passage"].get("description")),
        say(
            "get_passage has no description: give the function a docstring, the model reads it",
            "get_passage 没有 description：给函数写一个 docstring，模型会读它",
        ),
    )
    expect(
        not good.get("isError"),
        say(
            f"get_passage(chunk_id={chunk!r}) failed: {_text(good)}",
            f"get_passage(chunk_id={chunk!r}) 失败了：{_text(good)}",
        ),
    )
    text = kb.get_chunk(chunk).text
    expect(
        text[:60] in _text(good),
        say(
            f"get_passage(chunk_id={chunk!r}) returned {_text(good)[:120]!r}: "
            "return the chunk's text (kb.get_chunk(chunk_id).text)",
            f"get_passage(chunk_id={chunk!r}) 返回了 {_text(good)[:120]!r}："
            "应当返回该片段的文本（kb.get_chunk(chunk_id).text）",
        ),
    )
    if bad.get("isError") is not True:
        raise CheckFailed(
            say(
                "get_passage(chunk_id='no-such-chunk#9') must be an isError result, not "
                f"{_text(bad)[:120]!r}: run the lookup through service.run(...), which turns "
                "UnknownDocumentError into a ToolError",
                "get_passage(chunk_id='no-such-chunk#9') 的结果必须是 isError，而不是 "
                f"{_text(bad)[:120]!r}：通过 service.run(...) 去查，它会把 "
                "UnknownDocumentError 变成 ToolError",
            )
        )
    passed(
        say(
            "an MCP client lists get_passage as read-only, reads a passage, and gets isError for a bad id",
            "MCP 客户端看到 get_passage 标为只读，能读出一个片段，遇到错误的 id 得到 isError",
        )
    )
