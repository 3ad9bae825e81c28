"""Property-based fuzzing of the knowledge base's MCP server over stdio, with hypothesis (issue 14).

The real server (`python -m wirelab.kb.server --dense off`) gets raw lines of `tools/call`s to
its query tools: text of any kind, lone surrogate escapes (`"\\ud800"`, valid JSON but not
text), queries just under and over `MAX_QUERY_CHARS` and up to 100,000 characters, wrong-typed
or out-of-range `k`, `mode` and `candidates`, and a key given twice. Several go at once, so
they are answered concurrently. Every line gets exactly one answer, as strict JSON in UTF-8
with no lone surrogate, within a freeze guard:

- a key given twice: a parse error (-32700, id null);
- a lone surrogate: -32600 for that id (no answer at all before issue 14);
- a query over the cap: an `isError` result that says so;
- anything else: a result (structured unless `isError`), or -32600/-32602, never -32603;

and after each batch a plain search is answered.
"""

from __future__ import annotations

import collections
import itertools
import json
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import strict_loads
from wirelab import jsonrpc
from wirelab.kb.server import MAX_QUERY_CHARS

pytestmark = pytest.mark.timeout(120)

BOUNDED = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FREEZE_S = 30.0  # a freeze detector: a batch is answered in well under a second
SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff"]
QUERY_FIELD = {"search": "query", "search_reranked": "query", "answer_question": "question"}
CAPPED = tuple(QUERY_FIELD)  # the tools whose query is capped at MAX_QUERY_CHARS
INITIALIZE = jsonrpc.request(
    0,
    "initialize",
    {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "1"}},
)


class KbProcess:
    """The knowledge base's server in a subprocess: raw lines in, each answer line as it comes."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "wirelab.kb.server", "--dense", "off"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send([jsonrpc.encode(INITIALIZE)])
        assert self.answers(1)[0]["id"] == 0
        self.send([jsonrpc.encode(jsonrpc.notification("notifications/initialized"))])

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(b"")  # the server ended

    def send(self, lines: list[bytes]) -> None:
        self.process.stdin.write(b"".join(line + b"\n" for line in lines))
        self.process.stdin.flush()

    def answers(self, count: int) -> list[dict[str, Any]]:
        """The next `count` answers, each checked to be strict JSON in UTF-8 with no lone surrogate."""
        received = []
        for _ in range(count):
            try:
                line = self.lines.get(timeout=FREEZE_S)
            except queue.Empty:
                raise AssertionError(f"{len(received)} of {count} answers within {FREEZE_S} s") from None
            assert line, f"the server ended after {len(received)} of {count} answers"
            message = strict_loads(line.decode("utf-8"))
            jsonrpc.validate(message)
            assert jsonrpc.lone_surrogate(message) is None, message
            received.append(message)
        return received

    def close(self) -> None:
        self.process.stdin.close()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="module")
def kb() -> Iterator[KbProcess]:
    started = KbProcess()
    yield started
    started.close()


@dataclass(frozen=True)
class Call:
    """One `tools/call` line, and what sets its expected answer."""

    line: bytes
    id: int | None  # None for a line whose answer has id null (a parse error)
    tool: str
    query: str
    twice: bool  # a key of its arguments is given twice


words = st.sampled_from(
    [
        "stdio",
        "Mcp-Session-Id",
        "cancel",
        "session",
        "会话",
        "工具",
        "“quoted”",
        "é",
        "🙂",
        "\x00",
        "\t",
        "\u200b",
    ]
)
texts = st.text(max_size=40) | st.lists(words, max_size=20).map(" ".join)
next_id = itertools.count(1)


@st.composite
def queries(draw: st.DrawFn) -> str:
    """Any short text, maybe with a lone surrogate; or a length right at the cap; or a huge one."""
    text = draw(texts)
    kind = draw(st.sampled_from(["plain", "plain", "surrogate", "at-the-cap", "huge"]))
    if kind == "surrogate":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(SURROGATES)) + text[at:]
    elif kind == "at-the-cap":
        length = draw(st.integers(MAX_QUERY_CHARS - 3, MAX_QUERY_CHARS + 3))
        text = ((text or "word") * (length // max(len(text), 1) + 1))[:length]
    elif kind == "huge":
        text = "word " * draw(st.integers(MAX_QUERY_CHARS, 20_000))
    return text


odd_numbers = st.integers(-3, 60) | st.sampled_from(["5", 2.5, True, None, 10**30])


@st.composite
def calls(draw: st.DrawFn) -> Call:
    tool = draw(st.sampled_from(["search", "search", "search_reranked", "answer_question", "get_document"]))
    query = draw(queries() | st.sampled_from(["mcp-tools", "mcp-tools#2", ""]))
    field = QUERY_FIELD.get(tool, "doc_id")
    arguments: dict[str, Any] = {field: query}
    if tool != "get_document" and draw(st.booleans()):
        arguments["k" if tool != "answer_question" else "max_sentences"] = draw(odd_numbers)
    if tool == "search" and draw(st.booleans()):
        arguments["mode"] = draw(st.sampled_from(["hybrid", "bm25", "dense", "BM25", "", 3]))
    if tool == "search_reranked" and draw(st.booleans()):
        arguments["candidates"] = draw(odd_numbers)
    id = next(next_id)
    line = json.dumps(jsonrpc.request(id, "tools/call", {"name": tool, "arguments": arguments})).encode()
    twice = draw(st.integers(0, 9)) == 0
    if twice:  # the same key once more, first in the object
        line = line.replace(b'"arguments": {', b'"arguments": {"%s": "stdio", ' % field.encode(), 1)
    return Call(line, None if twice else id, tool, query, twice)


def check(call: Call, answer: dict[str, Any]) -> None:
    """The answer `call` must get (see the module's docstring)."""
    if call.twice:
        assert answer["error"]["code"] == jsonrpc.PARSE_ERROR, answer
        assert "appears twice" in answer["error"]["message"]
        return
    if jsonrpc.lone_surrogate(call.query) is not None:
        assert answer.get("error", {}).get("code") == jsonrpc.INVALID_REQUEST, answer
        return
    if "error" in answer:
        assert answer["error"]["code"] in (jsonrpc.INVALID_REQUEST, jsonrpc.INVALID_PARAMS), answer
        return
    result = answer["result"]
    assert isinstance(result["content"], list) and all(part["type"] == "text" for part in result["content"])
    if call.tool in CAPPED and len(call.query) > MAX_QUERY_CHARS:
        assert result.get("isError") is True, f"a query of {len(call.query)} characters was answered"
    if not result.get("isError"):
        assert isinstance(result["structuredContent"], dict), result


@BOUNDED
@given(st.lists(calls(), min_size=1, max_size=6))
def test_any_query_batch_gets_exactly_one_well_formed_answer_per_line(kb, batch):
    kb.send([call.line for call in batch])
    answers = kb.answers(len(batch))
    by_id = collections.defaultdict(list)
    for answer in answers:
        by_id[answer["id"]].append(answer)
    assert len(by_id[None]) == sum(call.twice for call in batch), answers
    for call in batch:
        if call.twice:
            check(call, by_id[None][0])
        else:
            assert len(by_id[call.id]) == 1, f"{len(by_id[call.id])} answers to id {call.id}"
            check(call, by_id[call.id][0])
    probe = next(next_id)
    kb.send(
        [
            jsonrpc.encode(
                jsonrpc.request(probe, "tools/call", {"name": "search", "arguments": {"query": "stdio"}})
            )
        ]
    )
    (answer,) = kb.answers(1)
    assert answer["id"] == probe and answer["result"]["structuredContent"]["passages"], answer
