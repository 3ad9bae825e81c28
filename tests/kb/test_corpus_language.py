"""Without a folder, the knowledge base reads the corpus of the notebook's language.

The Chinese lesson 12 runs the English code cells, `load_documents()` and `python -m
wirelab.kb.server` without `--corpus`; in notebooks/zh (or with WIRELAB_LANG=zh) they must
read assets/kb/zh and its eval set, and everywhere else assets/kb, as before.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from wirelab.kb import KnowledgeBase
from wirelab.kb.corpus import DEFAULT_CORPUS, corpus_folder, default_corpus, load_documents
from wirelab.kb.evaluation import load_eval_set
from wirelab.kb.server import parse_arguments
from wirelab.mcp.host import McpHost


@pytest.fixture(autouse=True)
def outside_any_notebook(monkeypatch, tmp_path):
    monkeypatch.delenv("WIRELAB_LANG", raising=False)
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    monkeypatch.chdir(tmp_path)


def sources(documents) -> set[str]:
    return {str(Path(doc.source).parent) for doc in documents}


def test_outside_the_chinese_edition_the_default_is_the_english_corpus():
    assert default_corpus() == DEFAULT_CORPUS == corpus_folder("en")
    documents = load_documents()
    assert sources(documents) == {str(DEFAULT_CORPUS)}
    assert documents == load_documents(DEFAULT_CORPUS)
    assert parse_arguments([]).corpus is None  # the server decides when it starts


def test_a_kernel_in_a_zh_folder_reads_the_chinese_corpus(tmp_path, monkeypatch):
    for edition in ("notebooks", "solutions", "labs"):
        (tmp_path / edition / "zh").mkdir(parents=True)
        monkeypatch.chdir(tmp_path / edition / "zh")
        assert default_corpus() == corpus_folder("zh")
    assert sources(load_documents()) == {str(corpus_folder("zh"))}
    monkeypatch.chdir(tmp_path / "notebooks")
    assert default_corpus() == corpus_folder("en")


def test_jupyterlab_and_wirelab_lang_choose_the_corpus(monkeypatch):
    monkeypatch.setenv("JPY_SESSION_NAME", "notebooks/zh/12_capstone_knowledge_base.ipynb")
    assert default_corpus() == corpus_folder("zh")
    monkeypatch.setenv("WIRELAB_LANG", "en")  # overrides the notebook's folder
    assert default_corpus() == corpus_folder("en")
    monkeypatch.setenv("WIRELAB_LANG", "fr")
    with pytest.raises(ValueError, match="WIRELAB_LANG='fr' is not a language of the course"):
        load_documents()


def test_the_index_and_the_eval_set_follow_the_same_language(monkeypatch):
    english = KnowledgeBase.build(dense="off")
    assert "mcp-tools" in english.documents
    english_set = load_eval_set(english, DEFAULT_CORPUS / "eval.json")
    assert [q.id for q in load_eval_set(english)] == [q.id for q in english_set]
    monkeypatch.setenv("WIRELAB_LANG", "zh")
    chinese = KnowledgeBase.build(dense="off")
    assert set(chinese.documents) == {doc.id for doc in load_documents(corpus_folder("zh"))}
    questions = load_eval_set(chinese)  # the English eval set would name documents this one lacks
    chinese_set = load_eval_set(chinese, corpus_folder("zh") / "eval.json")
    assert [q.id for q in questions] == [q.id for q in chinese_set]
    assert all(q.id.startswith("zq") for q in questions)


@pytest.mark.timeout(120)
def test_the_server_started_from_the_chinese_edition_serves_the_chinese_corpus(monkeypatch):
    monkeypatch.setenv("WIRELAB_LANG", "zh")  # what a kernel in notebooks/zh passes on to the server
    with McpHost.stdio([sys.executable, "-m", "wirelab.kb.server", "--dense", "off"]) as host:
        listed = host.run(host.client.call_tool("list_documents", {}))["structuredContent"]["documents"]
    assert {d["id"] for d in listed} == {doc.id for doc in load_documents(corpus_folder("zh"))}
    assert any(d["title"].startswith("工具投毒") for d in listed)
