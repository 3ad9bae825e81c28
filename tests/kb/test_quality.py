"""Lesson 12's retrieval quality on the eval set: honest floors, and the table printed."""

from __future__ import annotations

import pytest

from wirelab.kb import KnowledgeBase
from wirelab.kb.corpus import DEFAULT_CORPUS
from wirelab.kb.evaluation import format_table, load_eval_set, quality_table


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return KnowledgeBase.build()


@pytest.fixture(scope="module")
def table(kb) -> dict[str, dict[str, float]]:
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


def test_the_held_out_set_asks_twenty_new_paraphrase_questions():
    kb = KnowledgeBase.build(dense="off")
    held_out = load_eval_set(kb, DEFAULT_CORPUS / "eval_heldout.json")
    assert len(held_out) >= 20 and {q.style for q in held_out} == {"paraphrase"}
    assert not {q.question for q in held_out} & {q.question for q in load_eval_set(kb)}


def test_hybrid_search_finds_a_relevant_document_in_the_top_five_on_the_held_out_set_mostly(kb):
    table = quality_table(kb, load_eval_set(kb, DEFAULT_CORPUS / "eval_heldout.json"), methods=("hybrid",))
    print(f"\nheld-out paraphrase questions\n{format_table(table)}")
    assert table["hybrid"]["hit@5"] >= 0.75  # 0.868 measured (benchmarks/results.md), ten points lower
