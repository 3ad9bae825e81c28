"""The six knowledge-base tools over stdio, serving the Chinese corpus (`--corpus assets/kb/zh`).

The server runs with its default `--dense auto`: the course's multilingual sentence encoder,
as for English, so an English question finds a Chinese passage.
"""

from __future__ import annotations

import sys

import pytest

from tests.kb.test_server import wait_for_the_encoder_index
from wirelab.kb.corpus import corpus_folder
from wirelab.mcp.host import McpHost
from wirelab.retrieval.dense import ENCODER

pytestmark = pytest.mark.timeout(120)

SERVER = [sys.executable, "-m", "wirelab.kb.server", "--corpus", str(corpus_folder("zh"))]


@pytest.fixture(scope="module")
def host():
    with McpHost.stdio(SERVER) as started:
        wait_for_the_encoder_index(started)  # the answers below come from the full index
        yield started


def structured(host, name, arguments):
    result = host.run(host.client.call_tool(name, arguments))
    assert not result.get("isError"), result
    return result["structuredContent"]


def test_the_chinese_server_offers_the_same_six_tools(host):
    names = [t["name"] for t in host.run(host.client.list_tools())]
    assert names == [
        "answer_question",
        "search",
        "search_reranked",
        "list_documents",
        "get_document",
        "kb_stats",
    ]


def test_a_chinese_question_gets_a_chinese_answer_citing_its_source(host):
    answer = structured(host, "answer_question", {"question": "写操作超时后为什么要先查状态再重试？"})
    assert answer["found"] is True and "状态" in answer["answer"]
    assert answer["sources"][0]["chunk_id"].startswith("retries-idempotency#")


def test_search_and_rerank_find_the_document_in_chinese(host):
    found = structured(host, "search", {"query": "工具投毒", "k": 3})
    assert found["passages"][0]["doc_id"] == "tool-poisoning"
    reranked = structured(host, "search_reranked", {"query": "混淆代理和提示注入的区别", "k": 2})
    assert reranked["passages"][0]["doc_id"] == "confused-deputy"


def test_documents_and_statistics_describe_the_chinese_corpus(host):
    listed = structured(host, "list_documents", {})["documents"]
    assert 15 <= len(listed) <= 20 and any(d["title"].startswith("工具投毒") for d in listed)
    document = structured(host, "get_document", {"doc_id": "transports"})
    assert "Streamable HTTP" in document["text"]
    assert structured(host, "kb_stats", {})["documents"] == len(listed)


def test_by_default_the_chinese_server_uses_the_encoder_and_answers_english_questions(host):
    stats = structured(host, "kb_stats", {})
    found = structured(host, "search", {"query": "How do I stop a retried order from being placed twice?"})
    assert stats["index"]["vector_backend"] == ENCODER
    assert "retries-idempotency" in [p["doc_id"] for p in found["passages"][:3]]
