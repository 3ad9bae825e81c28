"""Lesson 12's knowledge-base server: six read-only tools and the documents as resources.

Most tests talk to `python -m wirelab.kb.server --dense off` over stdio, through our client
(kept open for the module by an `McpHost`) and through the official SDK client; one starts
it with the sentence encoder. A few run the server in-process to control when the index is
ready.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import jsonschema
import pytest

from wirelab import jsonrpc
from wirelab.jsonrpc import JsonRpcError
from wirelab.kb import KnowledgeBase
from wirelab.kb.corpus import DEFAULT_CORPUS, load_documents
from wirelab.kb.server import INDEX_URI, MAX_QUERY_CHARS, KnowledgeService, build_server, host_config
from wirelab.mcp.host import McpHost
from wirelab.retrieval.dense import CHAR_NGRAMS, ENCODER

pytestmark = pytest.mark.timeout(120)

SERVER = [sys.executable, "-m", "wirelab.kb.server"]
TOOLS = ["answer_question", "search", "search_reranked", "list_documents", "get_document", "kb_stats"]
VALID_CALLS = {
    "answer_question": {"question": "Which header carries the session id in Streamable HTTP?"},
    "search": {"query": "Mcp-Session-Id", "k": 3},
    "search_reranked": {"query": "how does a client cancel a request", "k": 2},
    "list_documents": {},
    "get_document": {"doc_id": "mcp-tools"},
    "kb_stats": {},
}
PARAPHRASE = "How can I tell whether search results are actually good?"  # eval q34


@pytest.fixture(scope="module")
def host():
    with McpHost.stdio([*SERVER, "--dense", "off"]) as started:
        yield started


@pytest.fixture(scope="module")
def kb():
    return KnowledgeBase.build(dense="off")


@pytest.fixture(scope="module")
def tools(host):
    return {t["name"]: t for t in host.run(host.client.list_tools())}


def call(host, name, arguments):
    return host.run(host.client.call_tool(name, arguments))


def structured(host, name, arguments):
    result = call(host, name, arguments)
    assert not result.get("isError"), result
    return result["structuredContent"]


# --- the tools ------------------------------------------------------------------


def test_the_server_offers_the_six_tools(tools):
    assert list(tools) == TOOLS


def test_every_tool_is_annotated_read_only_and_closed_world(tools):
    lacking = [
        name
        for name, tool in tools.items()
        if (tool.get("annotations") or {}).get("readOnlyHint") is not True
    ]
    assert lacking == []
    assert all(tool["annotations"]["openWorldHint"] is False for tool in tools.values())


@pytest.mark.parametrize("name", TOOLS)
def test_every_tool_returns_structured_content_that_matches_its_output_schema(host, tools, name):
    result = call(host, name, VALID_CALLS[name])
    jsonschema.validate(result["structuredContent"], tools[name]["outputSchema"])
    assert json.loads(result["content"][0]["text"]) == result["structuredContent"]


def test_an_answer_cites_the_chunks_its_sentences_come_from(host):
    answer = structured(host, "answer_question", VALID_CALLS["answer_question"])
    cited = re.findall(r"\[([a-z0-9-]+#\d+)\]", answer["answer"])
    assert answer["found"] is True and "Mcp-Session-Id" in answer["answer"]
    assert cited[0] == "streamable-http#3"
    assert sorted({s["chunk_id"] for s in answer["sources"]}) == sorted(set(cited))
    assert answer["sources"][0]["uri"] == "kb://documents/streamable-http"


def test_a_question_the_corpus_cannot_answer_gets_no_sources(host):
    answer = structured(host, "answer_question", {"question": "zyxwvut qwertyuiop?"})
    assert answer["found"] is False and answer["sources"] == []
    assert "no passage" in answer["answer"]


def test_max_sentences_limits_the_citations_of_an_answer(host):
    arguments = {**VALID_CALLS["answer_question"], "max_sentences": 1}
    answer = structured(host, "answer_question", arguments)
    assert len(re.findall(r"\[[a-z0-9-]+#\d+\]", answer["answer"])) == 1


@pytest.mark.parametrize("mode", ["hybrid", "bm25", "vector"])
def test_search_ranks_as_the_knowledge_base_does(host, kb, mode):
    found = structured(host, "search", {"query": "tools/call isError", "k": 4, "mode": mode})
    assert found["method"] == mode
    assert [p["chunk_id"] for p in found["passages"]] == [
        hit.chunk_id for hit in kb.search("tools/call isError", k=4, mode=mode)
    ]
    assert [p["rank"] for p in found["passages"]] == [1, 2, 3, 4]


def test_search_is_hybrid_when_no_mode_is_given(host):
    assert structured(host, "search", {"query": "stdio"})["method"] == "hybrid"


def test_search_reranked_returns_the_rerankers_order(host, kb):
    query = "how does a client cancel a request"
    found = structured(host, "search_reranked", {"query": query, "k": 3, "candidates": 10})
    assert found["method"] == "reranked"
    assert [p["chunk_id"] for p in found["passages"]] == [
        hit.chunk_id for hit in kb.search_reranked(query, k=3, candidates=10)
    ]


def test_list_documents_lists_every_document_with_its_resource_uri(host, kb):
    documents = structured(host, "list_documents", {})["documents"]
    assert [d["id"] for d in documents] == sorted(kb.documents)
    assert all(d["uri"] == f"kb://documents/{d['id']}" and d["chunks"] >= 1 for d in documents)


def test_get_document_returns_its_text_and_chunk_ids(host, kb):
    document = structured(host, "get_document", {"doc_id": "json-rpc"})
    assert document["text"] == kb.get_document("json-rpc").body
    assert document["chunk_ids"] == [c.id for c in kb.chunks if c.doc_id == "json-rpc"]
    assert document["title"] == kb.get_document("json-rpc").title


def test_kb_stats_counts_and_names_the_lexical_fallback_when_dense_is_off(host, kb):
    stats = structured(host, "kb_stats", {})
    assert (stats["documents"], stats["chunks"]) == (len(kb.documents), len(kb.chunks))
    assert stats["index"]["vector_backend"] == CHAR_NGRAMS
    assert stats["index"]["lexical_backend"] == "bm25s" and stats["index"]["rrf_k"] == 60


# --- bad input ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "arguments", "says"),
    [
        ("search", {"query": "   "}, "query is empty"),
        ("search", {"query": "stdio", "k": 0}, "less than the minimum of 1"),
        ("search", {"query": "stdio", "k": 51}, "greater than the maximum of 50"),
        ("search", {"query": "stdio", "k": "five"}, "is not of type 'integer'"),
        ("search", {"query": "stdio", "mode": "BM25"}, "is not one of"),
        ("search", {}, "'query' is a required property"),
        ("search", {"query": "stdio", "limit": 3}, "Additional properties are not allowed"),
        ("search_reranked", {"query": "stdio", "candidates": 0}, "less than the minimum of 1"),
        ("answer_question", {"question": ""}, "query is empty"),
        ("answer_question", {"question": "stdio?", "max_sentences": 0}, "less than the minimum"),
        ("get_document", {"doc_id": "no-such-doc"}, "known ids: client-features"),
        ("get_document", {"doc_id": "mcp-tools#2"}, "is a chunk id, not a document id"),
        ("get_document", {"doc_id": 7}, "is not of type 'string'"),
    ],
)
def test_bad_input_is_an_is_error_result_that_says_what_is_wrong(host, name, arguments, says):
    result = call(host, name, arguments)
    assert result["isError"] is True
    assert says in result["content"][0]["text"]


def test_the_server_keeps_answering_after_bad_input(host):
    call(host, "search", {"query": "   "})
    assert structured(host, "search", {"query": "stdio", "k": 1})["passages"]


def test_an_unknown_tool_is_a_protocol_error(host):
    with pytest.raises(JsonRpcError) as refused:
        call(host, "add_document", {"text": "x"})
    assert refused.value.code == jsonrpc.INVALID_PARAMS and "kb_stats" in refused.value.message


# --- the resources ----------------------------------------------------------------


def test_every_document_is_listed_as_a_resource_after_the_index(host, kb):
    resources = host.run(host.client.list_resources())
    assert [r["uri"] for r in resources] == [INDEX_URI] + [
        f"kb://documents/{doc_id}" for doc_id in sorted(kb.documents)
    ]
    assert all(r["mimeType"] == "text/markdown" for r in resources[1:])


def test_the_documents_are_also_offered_as_a_uri_template(host):
    templates = host.run(host.client.list_resource_templates())
    assert [t["uriTemplate"] for t in templates] == ["kb://documents/{id}"]


def test_a_document_resource_holds_the_documents_markdown(host, kb):
    contents = host.run(host.client.read_resource("kb://documents/mcp-tools"))["contents"][0]
    assert contents["text"] == kb.get_document("mcp-tools").body
    assert contents["mimeType"] == "text/markdown"


def test_the_index_resource_lists_every_document(host, kb):
    text = host.run(host.client.read_resource(INDEX_URI))["contents"][0]["text"]
    assert [d["id"] for d in json.loads(text)] == sorted(kb.documents)


def test_reading_an_unknown_document_is_resource_not_found(host):
    with pytest.raises(JsonRpcError) as missing:
        host.run(host.client.read_resource("kb://documents/no-such-doc"))
    assert missing.value.code == -32002


def test_document_ids_complete_in_the_uri_template(host):
    ref = {"type": "ref/resource", "uri": "kb://documents/{id}"}
    assert host.run(host.client.complete(ref, "id", "mcp-t")) == ["mcp-tools"]


# --- read-only ------------------------------------------------------------------


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file under `folder` (the Chinese corpus in kb/zh/ included) by its SHA-256."""
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in files}


def test_using_every_tool_and_resource_changes_no_file_of_the_corpus(tmp_path):
    corpus = tmp_path / "kb"
    shutil.copytree(DEFAULT_CORPUS, corpus)
    before = fingerprint(corpus)
    with McpHost.stdio([*SERVER, "--dense", "off", "--corpus", str(corpus)]) as host:
        for name, arguments in VALID_CALLS.items():
            assert not call(host, name, arguments).get("isError")
        for resource in host.run(host.client.list_resources()):
            host.run(host.client.read_resource(resource["uri"]))
    assert fingerprint(corpus) == before


# --- the index, built once in the background ---------------------------------------


def initialize(session):
    return session.handle(
        jsonrpc.request(
            1,
            "initialize",
            {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test"}},
        )
    )


def tools_call(session, id, name, arguments):
    return session.handle(jsonrpc.request(id, "tools/call", {"name": name, "arguments": arguments}))


def test_the_server_answers_initialize_and_lists_while_the_index_is_still_building():
    documents = load_documents()
    release = threading.Event()

    def slow_build():
        release.wait(30)
        return KnowledgeBase(documents, dense="off")

    async def scenario():
        service = KnowledgeService(slow_build)
        session = build_server(service, documents).connect(send=lambda message: None)
        listed = [
            await initialize(session),
            await session.handle(jsonrpc.request(2, "tools/list")),
            await session.handle(jsonrpc.request(3, "resources/read", {"uri": INDEX_URI})),
        ]
        waiting = asyncio.create_task(tools_call(session, 4, "kb_stats", {}))
        await asyncio.sleep(0)
        pending = not waiting.done()
        release.set()
        stats = await waiting
        service.close()
        return listed, pending, stats

    listed, pending, stats = asyncio.run(scenario())
    assert all("result" in response for response in listed) and pending
    assert stats["result"]["structuredContent"]["documents"] == 20


def test_a_failed_build_makes_each_tool_say_the_index_is_unavailable():
    def broken_build():
        raise RuntimeError("the encoder's weights could not be read")

    async def scenario():
        service = KnowledgeService(broken_build)
        session = build_server(service, load_documents()).connect(send=lambda message: None)
        await initialize(session)
        response = await tools_call(session, 2, "search", {"query": "stdio"})
        service.close()
        return response["result"]

    result = asyncio.run(scenario())
    assert result["isError"] is True
    assert "index could not be built" in result["content"][0]["text"]
    assert "weights could not be read" in result["content"][0]["text"]


# --- the official SDK client ------------------------------------------------------


def test_the_sdk_client_uses_the_tools_and_resources():
    from mcp import ClientSession, StdioServerParameters, stdio_client

    parameters = StdioServerParameters(command=sys.executable, args=[*SERVER[1:], "--dense", "off"])

    async def scenario():
        async with stdio_client(parameters) as (read, write), ClientSession(read, write) as session:
            initialized = await session.initialize()
            return (
                initialized,
                await session.list_tools(),
                await session.call_tool("answer_question", VALID_CALLS["answer_question"]),
                await session.call_tool("search", {"query": "stdio", "k": 0}),
                await session.list_resource_templates(),
                await session.read_resource("kb://documents/json-rpc"),
            )

    initialized, tools, answer, invalid, templates, document = asyncio.run(scenario())
    assert initialized.server_info.name == "wirelab-kb" and "read-only" in initialized.instructions
    assert [t.name for t in tools.tools] == TOOLS
    assert all(t.annotations.read_only_hint is True for t in tools.tools)
    assert answer.structured_content["sources"][0]["chunk_id"] == "streamable-http#3"
    assert invalid.is_error is True
    assert templates.resource_templates[0].uri_template == "kb://documents/{id}"
    assert document.contents[0].text.startswith("# JSON-RPC 2.0")


# --- the sentence encoder ---------------------------------------------------------


def wait_for_the_encoder_index(host: McpHost) -> dict:
    """kb_stats once the encoder's index has replaced the lexical interim (a few seconds)."""
    for _ in range(120):  # a hang guard
        stats = structured(host, "kb_stats", {})
        if "note" not in stats:
            return stats
        time.sleep(1)
    raise AssertionError("the encoder's index was not ready after 120 s")


@pytest.mark.timeout(180)
def test_by_default_the_server_uses_the_sentence_encoder_and_crosses_languages():
    with McpHost.stdio(SERVER, timeout=150) as host:
        stats = wait_for_the_encoder_index(host)
        found = structured(host, "search", {"query": "模型会自己运行我写的函数吗？", "k": 3})
    assert stats["index"]["vector_backend"] == ENCODER and stats["index"]["vector_dimension"] == 512
    assert found["passages"][0]["doc_id"] == "tool-call-loop"


# --- launching it -----------------------------------------------------------------


def test_print_config_gives_the_block_a_desktop_host_reads():
    printed = subprocess.run(
        [*SERVER, "--print-config", "--dense", "off"], capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(printed) == {
        "mcpServers": {
            "wirelab-kb": {"command": sys.executable, "args": ["-m", "wirelab.kb.server", "--dense", "off"]}
        }
    }


def test_host_config_names_the_interpreter_it_is_given():
    block = host_config("/opt/course/.venv/bin/python")
    assert block["mcpServers"]["wirelab-kb"] == {
        "command": "/opt/course/.venv/bin/python",
        "args": ["-m", "wirelab.kb.server"],
    }


def test_an_unknown_dense_option_is_refused_before_serving():
    refused = subprocess.run(
        [*SERVER, "--dense", "maybe"], capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    assert refused.returncode == 2 and "invalid choice: 'maybe'" in refused.stderr


def test_a_corpus_folder_without_documents_is_refused_before_serving(tmp_path):
    refused = subprocess.run(
        [*SERVER, "--corpus", str(tmp_path)], capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    assert refused.returncode != 0 and "no *.md documents found" in refused.stderr


# --- issue 14: a query cap, cancellable work, no query holding up the rest ------


def test_a_query_over_the_cap_is_a_clear_is_error_result_and_is_fast(host):
    """Before the cap, search_reranked with 100k words took about 18 s."""
    started = time.monotonic()
    result = call(host, "search_reranked", {"query": "tool " * 100_000})
    assert result["isError"] and "is too long" in result["content"][0]["text"]
    assert len(result["content"][0]["text"]) < 1000  # the query is not echoed back whole
    assert time.monotonic() - started < 10


@pytest.mark.parametrize("name, key", [("search", "query"), ("answer_question", "question")])
def test_every_query_parameter_declares_its_cap(tools, name, key):
    assert tools[name]["inputSchema"]["properties"][key]["maxLength"] == MAX_QUERY_CHARS


def test_a_lone_surrogate_in_a_search_gets_one_error_answer():
    """Before the fix the KB server answered nothing and the client waited forever."""
    line = (
        '{"jsonrpc": "2.0", "id": 7, "method": "tools/call", '
        '"params": {"name": "search", "arguments": {"query": "\\ud800"}}}'
    )
    initialize_line = json.dumps(
        jsonrpc.request(
            0,
            "initialize",
            {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        )
    )
    done = subprocess.run(
        [*SERVER, "--dense", "off"],
        input=f"{initialize_line}\n{line}\n".encode(),
        capture_output=True,
        timeout=60,
        check=True,
    )
    answers = [json.loads(text) for text in done.stdout.splitlines()]
    assert [a["id"] for a in answers] == [0, 7] and "lone surrogate" in answers[1]["error"]["message"]


def blocked_service(release: threading.Event, ran: list[str]):
    """A service with two workers, and a query that holds its worker until `release`."""
    documents = load_documents()
    service = KnowledgeService(lambda: KnowledgeBase(documents, dense="off"), workers=2)

    def slow(kb):
        ran.append("slow")
        release.wait(30)
        return "slow"

    return service, slow


def test_one_slow_query_does_not_hold_up_the_rest():
    """Before the fix every query shared one worker thread."""
    release, ran = threading.Event(), []

    async def scenario():
        service, hold = blocked_service(release, ran)
        slow = asyncio.create_task(service.run(hold))
        fast = await asyncio.wait_for(service.run(lambda kb: len(kb.chunks)), 20)
        release.set()
        await slow
        service.close()
        return fast

    assert asyncio.run(scenario()) > 0


def test_a_cancelled_query_that_waits_for_a_worker_never_runs():
    release, ran = threading.Event(), []

    async def scenario():
        service, hold = blocked_service(release, ran)
        busy = [asyncio.create_task(service.run(hold)) for _ in range(2)]
        for _ in range(200):  # until both workers are held (the index builds first)
            if len(ran) == 2:
                break
            await asyncio.sleep(0.1)
        waiting = asyncio.create_task(service.run(lambda kb: ran.append("cancelled one")))
        await asyncio.sleep(0.1)
        waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)  # the cancel is through
        release.set()
        await asyncio.gather(*busy)
        await asyncio.sleep(0.2)
        service.close()

    asyncio.run(scenario())
    assert ran == ["slow", "slow"]


# --- the slow first call (issue 15): lexical answers while the dense index builds ---


def test_while_the_dense_index_builds_the_tools_answer_lexically_and_say_so():
    documents = load_documents()
    release = threading.Event()

    def slow_dense_build():  # stands for the encoder loading and embedding the corpus
        release.wait(30)
        return KnowledgeBase(documents, dense="off")

    async def scenario():
        service = KnowledgeService(slow_dense_build, interim=lambda: KnowledgeBase(documents, dense="off"))
        server = build_server(service, documents)
        session = server.connect(send=lambda message: None)
        await initialize(session)
        early = {
            name: await asyncio.wait_for(tools_call(session, index, name, VALID_CALLS[name]), 10)
            for index, name in enumerate(["search", "search_reranked", "answer_question", "kb_stats"], 2)
        }
        release.set()
        await asyncio.wrap_future(service._built)
        later = await tools_call(session, 9, "search", VALID_CALLS["search"])
        service.close()
        return server, early, later

    server, early, later = asyncio.run(scenario())
    for name, response in early.items():
        result = response["result"]
        assert not result.get("isError"), result
        assert "lexical-only (BM25) for now" in result["structuredContent"]["note"]
        jsonschema.validate(result["structuredContent"], server.tools[name].output_schema)
    assert early["search"]["result"]["structuredContent"]["passages"]
    assert "note" not in later["result"]["structuredContent"]


def test_a_failed_dense_build_leaves_the_lexical_index_answering_with_a_note_naming_it():
    documents = load_documents()

    def broken_dense_build():
        raise RuntimeError("the encoder's weights could not be read")

    async def scenario():
        service = KnowledgeService(broken_dense_build, interim=lambda: KnowledgeBase(documents, dense="off"))
        session = build_server(service, documents).connect(send=lambda message: None)
        await initialize(session)
        with contextlib.suppress(RuntimeError):
            await asyncio.wrap_future(service._built)
        response = await tools_call(session, 2, "search", {"query": "stdio"})
        service.close()
        return response["result"]

    result = asyncio.run(scenario())
    assert not result.get("isError") and result["structuredContent"]["passages"]
    assert "could not be built" in result["structuredContent"]["note"]
    assert "weights could not be read" in result["structuredContent"]["note"]


def test_a_lexical_server_answers_without_a_note(host):
    result = host.run(host.client.call_tool("search", VALID_CALLS["search"]))
    assert "note" not in result["structuredContent"]
