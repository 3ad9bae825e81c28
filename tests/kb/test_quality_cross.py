"""Cross-lingual retrieval: a Chinese question finds the English passage, and the reverse.

Each corpus has a second eval set, `eval_cross.json`: its own questions asked in the other
language, with the same relevant documents (translated once, before anything was measured).
BM25 can match only the names and identifiers the two languages share; the sentence encoder
puts both languages in one space, and hybrid search weights BM25 by how much of the question
it reads (`BM25Index.coverage`).
"""

from __future__ import annotations

import pytest

from wirelab.kb import KnowledgeBase
from wirelab.kb.corpus import corpus_folder
from wirelab.kb.evaluation import format_table, load_eval_set, quality_table
from wirelab.retrieval.lexical import BM25Index


@pytest.fixture(scope="module", params=["en", "zh"])
def table(request) -> dict[str, dict[str, float]]:
    folder = corpus_folder(request.param)
    kb = KnowledgeBase.build(folder)
    questions = load_eval_set(kb, folder / "eval_cross.json")
    table = quality_table(kb, questions, methods=("bm25", "vector", "hybrid"))
    print(f"\n{request.param} corpus, questions in the other language\n{format_table(table)}")
    return table


def test_each_cross_lingual_set_asks_every_question_of_its_corpus_eval_set():
    for language in ("en", "zh"):
        folder = corpus_folder(language)
        kb = KnowledgeBase.build(folder, dense="off")
        own = load_eval_set(kb, folder / "eval.json")
        cross = load_eval_set(kb, folder / "eval_cross.json")
        assert [q.relevant for q in cross] == [q.relevant for q in own]
        assert all(q.question != o.question for q, o in zip(cross, own, strict=True))


def test_hybrid_search_finds_a_relevant_document_in_the_top_five_for_85_percent(table):
    assert table["hybrid"]["hit@5"] >= 0.85


def test_the_encoder_crosses_languages_where_bm25_cannot(table):
    assert table["vector"]["hit@5"] > table["bm25"]["hit@5"] + 0.2


def test_coverage_is_the_share_of_query_terms_the_corpus_has():
    index = BM25Index(["tool calls run in parallel", "the server lists its tools"])
    assert index.coverage("parallel tool calls") == 1.0
    assert index.coverage("并行 tool calls") == pytest.approx(2 / 3)
    assert index.coverage("???") == 0.0
