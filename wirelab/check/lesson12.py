"""Checks for lab 12: RRF, hit@k and MRR written by hand, and a seventh read-only tool.

The metric checks compare the learner's functions with `wirelab.kb` on small cases and on
the eval set (BM25 rankings of a lexical-fallback index, built once). The tool check builds
the knowledge-base server in-process, lets the learner add a tool, and talks to it with
`tools/list` and `tools/call` on a session of its own, in a thread with its own event loop
(a notebook's loop is already running).
"""

from __future__ import annotations

import asyncio
import json
import math
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any

from wirelab import jsonrpc
from wirelab.check import CheckFailed, attempt, exercise, expect, passed
from wirelab.kb import KnowledgeBase
from wirelab.kb.evaluation import load_eval_set, ranked_documents
from wirelab.kb.fusion import reciprocal_rank_fusion
from wirelab.kb.metrics import mean_hit_at_k, mean_reciprocal_rank
from wirelab.kb.server import KnowledgeService, build_server

RRF_CASES = [
    ([["a", "b", "c"], ["c", "a", "d"]], 60),
    ([["x", "y"]], 60),
    ([["a", "b"], ["b", "a"], ["c"]], 60),
    ([["a", "b", "c"], ["c", "b", "a"]], 0),
]
METRIC_CASES = [
    (["b", "a", "c"], {"a"}),
    (["a", "b"], {"a", "b"}),
    (["x", "y", "z"], {"a"}),
    (["x", "y", "z", "w", "a"], {"a", "q"}),
]
CHUNK = "mcp-tools#2"


@cache
def eval_runs() -> tuple[list[list[str]], list[frozenset[str]]]:
    """BM25 document rankings of the eval set and the relevant ids (lexical index, built once)."""
    kb = KnowledgeBase.build(dense="off")
    questions = load_eval_set(kb)
    return [ranked_documents(kb, q.question, "bm25") for q in questions], [q.relevant for q in questions]


@exercise
def check_rrf(rrf: Any) -> None:
    for rankings, k in RRF_CASES:
        want = reciprocal_rank_fusion(rankings, k=k)
        got = attempt(rrf, rankings, k)
        expect(
            isinstance(got, list) and all(isinstance(p, tuple) and len(p) == 2 for p in got),
            f"rrf(...) returned {got!r}: return a list of (item, score) pairs, best first",
        )
        expect(
            {item for item, _ in got} == {item for item, _ in want},
            f"rrf({rankings}, k={k}) scored {[i for i, _ in got]}: every item of every ranking "
            f"must appear once, e.g. {[i for i, _ in want]}",
        )
        scores = dict(got)
        for item, score in want:
            expect(
                math.isclose(scores[item], score, rel_tol=1e-9),
                f"rrf({rankings}, k={k}) gave {item!r} {scores[item]:.4f}, expected {score:.4f}: "
                "add 1 / (k + rank) for each ranking it is in, ranks counted from 1",
            )
        expect(
            [i for i, _ in got] == [i for i, _ in want],
            f"rrf({rankings}, k={k}) ordered {[i for i, _ in got]}, expected "
            f"{[i for i, _ in want]}: sort by score, highest first (a stable sort keeps ties "
            "in first-seen order)",
        )
    passed("rrf agrees with wirelab.kb.fusion on every case, k = 0 and k = 60")


@exercise
def check_hit_at_k(hit_at_k: Any) -> None:
    for ranked, relevant in METRIC_CASES:
        for k in (1, 2, 5):
            want = 1.0 if set(ranked[:k]) & relevant else 0.0
            got = attempt(hit_at_k, ranked, relevant, k)
            expect(
                got == want,
                f"hit_at_k({ranked}, {relevant}, k={k}) returned {got!r}, expected "
                f"{want}: 1.0 if any of the first k ids is relevant, else 0.0",
            )
    passed("hit_at_k looks only at the first k ids")


@exercise
def check_reciprocal_rank(reciprocal_rank: Any) -> None:
    for ranked, relevant in METRIC_CASES:
        first = next((pos for pos, item in enumerate(ranked, 1) if item in relevant), None)
        want = 1 / first if first else 0.0
        got = attempt(reciprocal_rank, ranked, relevant)
        expect(
            isinstance(got, int | float) and math.isclose(got, want),
            f"reciprocal_rank({ranked}, {relevant}) returned {got!r}, expected {want:.3f}: "
            "1 / position of the FIRST relevant id, positions from 1; 0.0 when none is found",
        )
    passed("reciprocal_rank is 1 / the position of the first relevant id")


@exercise
def check_eval_scores(scores: Any) -> None:
    runs, relevant = eval_runs()
    got = attempt(scores, runs, relevant)
    expect(
        isinstance(got, dict) and set(got) == {"hit@1", "hit@5", "mrr"},
        f"scores(...) returned {got!r}: return {{'hit@1': ..., 'hit@5': ..., 'mrr': ...}}",
    )
    want = {
        "hit@1": mean_hit_at_k(runs, relevant, 1),
        "hit@5": mean_hit_at_k(runs, relevant, 5),
        "mrr": mean_reciprocal_rank(runs, relevant),
    }
    for name, value in want.items():
        expect(
            math.isclose(got[name], value),
            f"on the eval set your {name} is {got[name]:.3f}, the "
            f"package's {value:.3f}: average your per-question values over all "
            f"{len(runs)} questions",
        )
    passed(
        f"your hit@1 {got['hit@1']:.3f}, hit@5 {got['hit@5']:.3f} and MRR {got['mrr']:.3f} "
        "match wirelab.kb.metrics on the eval set"
    )


# --- the seventh tool -------------------------------------------------------------


async def _exchange(add_tool: Any) -> tuple[Any, dict, dict, dict]:
    kb = KnowledgeBase.build(dense="off")
    service = KnowledgeService(lambda: kb)
    server = build_server(service, list(kb.documents.values()))
    try:
        attempt(add_tool, server, service)
        session = server.connect(send=lambda message: None)
        await session.handle(
            jsonrpc.request(
                1,
                "initialize",
                {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "check"}},
            )
        )
        listed = await session.handle(jsonrpc.request(2, "tools/list"))
        good = await _call(session, 3, {"chunk_id": CHUNK})
        bad = await _call(session, 4, {"chunk_id": "no-such-chunk#9"})
        return kb, listed, good, bad
    finally:
        service.close()


def _call(session: Any, id: int, arguments: dict) -> Any:
    return session.handle(jsonrpc.request(id, "tools/call", {"name": "get_passage", "arguments": arguments}))


def _text(response: dict) -> str:
    result = response.get("result") or {}
    if "structuredContent" in result:
        return json.dumps(result["structuredContent"], ensure_ascii=False)
    return " ".join(block.get("text", "") for block in result.get("content", []))


@exercise
def check_passage_tool(add_tool: Any) -> None:
    with ThreadPoolExecutor(max_workers=1) as thread:
        kb, listed, good, bad = thread.submit(asyncio.run, _exchange(add_tool)).result()
    tools = {t["name"]: t for t in listed["result"]["tools"]}
    expect(
        "get_passage" in tools,
        f"the server's tools are {sorted(tools)}: register a tool named "
        "get_passage with @server.tool(...) inside add_passage_tool",
    )
    expect(len(tools) == 7, f"the server has {len(tools)} tools, expected the six plus get_passage")
    annotations = tools["get_passage"].get("annotations") or {}
    expect(
        annotations.get("readOnlyHint") is True,
        f"get_passage's annotations are {annotations}: "
        "pass annotations={'readOnlyHint': True} (READ_ONLY), it only reads",
    )
    expect(
        "chunk_id" in tools["get_passage"]["inputSchema"]["properties"],
        "get_passage must take one parameter named chunk_id (a string)",
    )
    expect(
        "result" in good and not good["result"].get("isError"),
        f"get_passage(chunk_id={CHUNK!r}) failed: {_text(good) or good.get('error')}",
    )
    text = kb.get_chunk(CHUNK).text
    expect(
        text[:60] in _text(good),
        f"get_passage(chunk_id={CHUNK!r}) returned {_text(good)[:120]!r}: "
        "return the chunk's text (kb.get_chunk(chunk_id).text)",
    )
    if "result" not in bad or bad["result"].get("isError") is not True:
        raise CheckFailed(
            "get_passage(chunk_id='no-such-chunk#9') must be an isError result, not "
            f"{bad}: run the lookup through service.run(...), which turns "
            "UnknownDocumentError into a ToolError"
        )
    passed("get_passage is a seventh read-only tool: it returns a passage and refuses unknown ids")
