"""The capstone knowledge base in Chinese: jieba-segmented BM25 finds the right document.

The default settings (`dense="auto"`, what lesson 12 and the server use) pair BM25 with the
course's multilingual sentence encoder, as for English. The eval set (assets/kb/zh/eval.json)
was written before anything was measured.
"""

from __future__ import annotations

import pytest

from wirelab.kb import KnowledgeBase
from wirelab.kb.corpus import CorpusError, corpus_folder, load_documents
from wirelab.kb.evaluation import format_table, load_eval_set, quality_table
from wirelab.retrieval.dense import ENCODER
from wirelab.retrieval.lexical import chinese_terms, terms


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return KnowledgeBase.build(corpus_folder("zh"))  # the default settings: dense="auto"


@pytest.fixture(scope="module")
def table(kb) -> dict[str, dict[str, float]]:
    table = quality_table(kb, load_eval_set(kb, corpus_folder("zh") / "eval.json"))
    print(f"\nChinese corpus, vectors by {kb.stats()['index']['vector_backend']}\n{format_table(table)}")
    return table


def test_chinese_is_cut_into_words_and_function_words_are_dropped():
    assert chinese_terms("幂等键怎么用") == ["幂等键", "用"]
    assert "工具" in terms("工具投毒是什么？") and "是" not in terms("工具投毒是什么？")


def test_mixed_text_keeps_the_english_terms_stemmed():
    assert terms("并行 tool calls") == ["tool", "call", "并行"]


def test_english_text_is_tokenized_as_before():
    assert terms("Calling tools/call twice") == ["call", "tool", "call", "twice"]


def test_the_chinese_corpus_has_fifteen_to_twenty_documents_and_thirty_questions(kb):
    assert 15 <= len(load_documents(corpus_folder("zh"))) <= 20
    questions = load_eval_set(kb, corpus_folder("zh") / "eval.json")
    assert len(questions) >= 30 and {q.style for q in questions} == {"lexical", "paraphrase"}


def test_an_unknown_language_has_no_corpus():
    with pytest.raises(CorpusError, match="no corpus in 'fr'"):
        corpus_folder("fr")


def test_by_default_the_chinese_corpus_gets_the_sentence_encoder_vectors(kb):
    assert kb.stats()["index"]["vector_backend"] == ENCODER


def test_chinese_hybrid_search_finds_a_relevant_document_in_the_top_five_for_95_percent(table):
    assert table["hybrid"]["hit@5"] >= 0.95


@pytest.mark.parametrize("method", ["bm25", "hybrid"])
def test_chinese_retrieval_with_the_default_settings_reaches_hit_at_5_of_0_9(table, method):
    assert table[method]["hit@5"] >= 0.9
    assert table[method]["mrr"] >= 0.8


def test_the_six_tools_answer_in_chinese(kb):
    answer = kb.answer("幂等键在重试时怎么用？")
    assert "retries-idempotency" in {c.doc_id for c in answer.citations} or "幂等" in answer.text
    assert kb.search("工具投毒", k=3)[0].doc_id == "tool-poisoning"
    assert kb.search_reranked("混淆代理", k=3)[0].doc_id == "confused-deputy"
