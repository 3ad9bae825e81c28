"""Lesson 12's retrieval quality on the eval set: honest floors, and the table printed."""

from __future__ import annotations

import pytest

from wirelab.kb import KnowledgeBase
from wirelab.kb.evaluation import format_table, load_eval_set, quality_table


@pytest.fixture(scope="module")
def table() -> dict[str, dict[str, float]]:
    kb = KnowledgeBase.build()
    table = quality_table(kb, load_eval_set(kb))
    print(f"\nvector backend: {kb.stats()['index']['vector_backend']}\n{format_table(table)}")
    return table


def test_the_eval_set_has_thirty_questions_of_both_styles():
    kb = KnowledgeBase.build(dense="off")
    questions = load_eval_set(kb)
    assert len(questions) >= 30
    assert {q.style for q in questions} == {"lexical", "paraphrase"}


@pytest.mark.parametrize("method", ["bm25", "vector", "hybrid", "rerank"])
def test_every_method_finds_a_relevant_document_in_the_top_five_mostly(table, method):
    assert table[method]["hit@5"] >= 0.6


def test_hybrid_search_finds_a_relevant_document_in_the_top_five_for_every_question(table):
    assert table["hybrid"]["hit@5"] == 1.0  # as with all-MiniLM-L6-v2 before it (benchmarks/results.md)
    assert table["hybrid"]["mrr"] >= 0.9
