"""The capstone knowledge base in Chinese: jieba-segmented BM25 finds the right document.

MiniLM is English-only, so the Chinese index pairs BM25 with the character n-gram vectors, and
the default settings (`dense="auto"`, what lesson 12 and the server use) choose them for a
Chinese corpus even where MiniLM is installed. The eval set (assets/kb/zh/eval.json) was
written before anything was measured.
"""

from __future__ import annotations

import pytest

from wirelab.kb import KnowledgeBase
from wirelab.kb.corpus import CorpusError, corpus_folder, load_documents
from wirelab.kb.dense import CHAR_NGRAMS, is_chinese, resolve_dense
from wirelab.kb.evaluation import format_table, load_eval_set, quality_table
from wirelab.kb.lexical import chinese_terms, terms


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return KnowledgeBase.build(corpus_folder("zh"))  # the default settings: dense="auto"


def texts(language: str) -> list[str]:
    return [f"{doc.title}\n{doc.body}" for doc in load_documents(corpus_folder(language))]


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


def test_by_default_the_chinese_corpus_gets_the_character_n_gram_vectors(kb):
    assert kb.stats()["index"]["vector_backend"] == CHAR_NGRAMS


def test_only_the_chinese_corpus_is_told_apart_as_chinese():
    assert is_chinese(texts("zh")) and not is_chinese(texts("en"))
    assert is_chinese(["工具调用 (tool call) 的参数是一个 JSON 字符串"])
    assert not is_chinese(["A glossary entry: tool call (工具调用) is what the model writes."])


def test_auto_turns_the_vectors_off_for_chinese_only_and_an_explicit_choice_stands():
    assert resolve_dense(texts("zh"), "auto") == "off"
    assert resolve_dense(texts("en"), "auto") == "auto"
    assert resolve_dense(texts("zh"), "require") == "require"
    with pytest.raises(ValueError, match="dense must be"):
        resolve_dense(texts("zh"), "maybe")


@pytest.mark.parametrize("method", ["bm25", "hybrid"])
def test_chinese_retrieval_with_the_default_settings_reaches_hit_at_5_of_0_9(table, method):
    assert table[method]["hit@5"] >= 0.9
    assert table[method]["mrr"] >= 0.8


def test_the_six_tools_answer_in_chinese(kb):
    answer = kb.answer("幂等键在重试时怎么用？")
    assert "retries-idempotency" in {c.doc_id for c in answer.citations} or "幂等" in answer.text
    assert kb.search("工具投毒", k=3)[0].doc_id == "tool-poisoning"
    assert kb.search_reranked("混淆代理", k=3)[0].doc_id == "confused-deputy"
