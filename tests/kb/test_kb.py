"""Lesson 12's knowledge base: chunking, BM25, RRF, metrics, lookups, backends."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

from wirelab.kb import CorpusError, KnowledgeBase, UnknownDocumentError
from wirelab.kb.answer import NO_ANSWER
from wirelab.kb.corpus import chunk_document, load_documents, parse_document
from wirelab.kb.rerank import proximity
from wirelab.retrieval.dense import CHAR_NGRAMS, ENCODER, load_embedder
from wirelab.retrieval.fusion import reciprocal_rank_fusion
from wirelab.retrieval.metrics import evaluate, hit_at_k, mean_reciprocal_rank, reciprocal_rank

DOC = textwrap.dedent(
    """\
    ---
    id: demo
    title: A demo
    tags: [a, b]
    ---
    # A demo

    Intro text.

    ## First

    One paragraph.

    ## Second

    Another paragraph.
    """
)


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return KnowledgeBase.build(dense="off")


def test_a_document_header_gives_id_title_and_tags():
    doc = parse_document(DOC)
    assert (doc.id, doc.title, doc.tags) == ("demo", "A demo", ("a", "b"))


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("no header", "must open with"),
        ("---\nid: x\n", "no closing"),
        ("---\nid: x\n---\nbody", "lacks title"),
        ("---\nid: Bad Id\ntitle: t\n---\n", "lowercase"),
        ("---\njust words\n---\n", "not 'key: value'"),
    ],
)
def test_a_bad_header_is_a_clear_corpus_error(text, complaint):
    with pytest.raises(CorpusError, match=complaint):
        parse_document(text, "bad.md")


def test_duplicate_ids_in_a_folder_are_refused(tmp_path):
    for name in ("one.md", "two.md"):
        (tmp_path / name).write_text(DOC)
    with pytest.raises(CorpusError, match="duplicate id 'demo'"):
        load_documents(tmp_path)


def test_chunks_follow_headings_with_ids_numbered_from_zero():
    chunks = chunk_document(parse_document(DOC))
    assert [(c.id, c.heading, c.text) for c in chunks] == [
        ("demo#0", "A demo", "Intro text."),
        ("demo#1", "First", "One paragraph."),
        ("demo#2", "Second", "Another paragraph."),
    ]


def test_a_long_section_is_split_between_paragraphs():
    doc = parse_document(DOC.replace("One paragraph.", "word " * 30 + "\n\n" + "more " * 30))
    assert [c.id for c in chunk_document(doc, max_words=40)][:3] == ["demo#0", "demo#1", "demo#2"]
    assert chunk_document(doc, max_words=40)[2].text.startswith("more")


def test_chunk_ids_are_the_same_on_every_build(kb):
    again = [c.id for doc in load_documents() for c in chunk_document(doc)]
    assert again == [c.id for c in kb.chunks]
    assert len(set(again)) == len(again)


def test_bm25_finds_the_document_that_uses_an_exact_term(kb):
    assert kb.search("Mcp-Session-Id", k=1, mode="bm25")[0].doc_id == "streamable-http"
    assert kb.search("server/discover", k=1, mode="bm25")[0].doc_id == "stateless-revision"


def test_bm25_returns_nothing_for_words_the_corpus_lacks(kb):
    assert kb.search("zyzzyva quixotic", k=5, mode="bm25") == []


def test_rrf_sums_reciprocal_ranks_with_k_60():
    fused = dict(reciprocal_rank_fusion([["a", "b"], ["b", "c"]]))
    assert fused == pytest.approx({"b": 1 / 62 + 1 / 61, "a": 1 / 61, "c": 1 / 62})
    assert [item for item, _ in reciprocal_rank_fusion([["a", "b"], ["b", "c"]])] == ["b", "a", "c"]


def test_rrf_refuses_a_ranking_that_lists_an_item_twice():
    with pytest.raises(ValueError, match="twice"):
        reciprocal_rank_fusion([["a", "a"]])


def test_hit_at_k_and_reciprocal_rank_on_a_toy_ranking():
    assert (hit_at_k(["b", "a"], {"a"}, 1), hit_at_k(["b", "a"], {"a"}, 2)) == (0.0, 1.0)
    assert reciprocal_rank(["b", "c", "a"], {"a"}) == pytest.approx(1 / 3)
    assert reciprocal_rank(["b"], {"a"}) == 0.0


def test_mrr_averages_over_questions():
    run, relevant = [["a", "b"], ["x", "b"], ["z"]], [{"a"}, {"b"}, {"q"}]
    assert mean_reciprocal_rank(run, relevant) == pytest.approx((1 + 0.5 + 0) / 3)
    assert evaluate(run, relevant, ks=(1, 2)) == pytest.approx({"hit@1": 1 / 3, "hit@2": 2 / 3, "mrr": 0.5})


@pytest.mark.parametrize(
    ("run", "relevant", "complaint"),
    [([["a"]], [], "1 ranked lists but 0"), ([], [], "no questions"), ([["a"]], [set()], "no relevant")],
)
def test_metrics_refuse_mismatched_or_empty_input(run, relevant, complaint):
    with pytest.raises(ValueError, match=complaint):
        mean_reciprocal_rank(run, relevant)


def test_hit_at_k_refuses_k_below_one():
    with pytest.raises(ValueError, match="at least 1"):
        hit_at_k(["a"], {"a"}, 0)


def test_proximity_is_one_when_matched_terms_sit_together():
    assert proximity(["tool", "call"], ["tool", "call", "x"]) == 1.0
    assert proximity(["tool", "call"], ["tool", "x", "x", "call"]) == 0.5


def test_get_document_of_an_unknown_id_names_the_known_ids(kb):
    with pytest.raises(UnknownDocumentError, match="no document with id 'nope'; known ids: .*mcp-tools"):
        kb.get_document("nope")
    assert kb.get_document("mcp-tools").title == "Tools in MCP"


def test_get_chunk_resolves_a_cited_id_and_refuses_others(kb):
    assert kb.get_chunk("mcp-tools#0").doc_id == "mcp-tools"
    with pytest.raises(UnknownDocumentError, match="no chunk"):
        kb.get_chunk("mcp-tools#999")


@pytest.mark.parametrize(
    ("query", "k", "mode", "error", "complaint"),
    [
        ("  ", 5, "hybrid", ValueError, "empty"),
        (42, 5, "hybrid", TypeError, "string"),
        ("tools", 0, "hybrid", ValueError, "1 to 50"),
        ("tools", True, "hybrid", ValueError, "1 to 50"),
        ("tools", 5, "fuzzy", ValueError, "mode must be one of"),
    ],
)
def test_bad_search_input_is_a_clear_error(kb, query, k, mode, error, complaint):
    with pytest.raises(error, match=complaint):
        kb.search(query, k=k, mode=mode)


def test_list_documents_counts_every_document_and_its_chunks(kb):
    listed = kb.list_documents()
    assert [d["id"] for d in listed] == sorted(kb.documents)
    assert sum(d["chunks"] for d in listed) == len(kb.chunks)


def test_stats_report_counts_and_index_state(kb):
    stats = kb.stats()
    assert (stats["documents"], stats["chunks"]) == (len(kb.documents), len(kb.chunks))
    assert 14 <= stats["documents"] <= 20
    index = stats["index"]
    assert (index["lexical_backend"], index["vector_backend"], index["rrf_k"]) == (
        "bm25s",
        CHAR_NGRAMS,
        60,
    )
    assert set(index) >= {"vector_dimension", "built_at", "build_seconds"}


def test_search_reranked_returns_k_hits_ranked_from_one(kb):
    hits = kb.search_reranked("how does version negotiation work", k=3)
    assert [h.rank for h in hits] == [1, 2, 3]
    assert hits[0].score >= hits[-1].score


def test_an_answer_cites_the_chunks_its_sentences_come_from(kb):
    answer = kb.answer("What status does the server return for a POSTed notification?")
    assert answer.found
    for citation in answer.citations:
        assert f"[{citation.chunk_id}]" in answer.text
        assert kb.get_chunk(citation.chunk_id).doc_id == citation.doc_id


def test_a_question_the_corpus_cannot_answer_gets_no_citations(kb):
    answer = kb.answer("zyzzyva quixotic")
    assert (answer.found, answer.text) == (False, NO_ANSWER)


def test_with_dense_off_the_char_ngram_vectors_are_used():
    embedder = load_embedder(["tool calls", "json rpc"], dense="off")
    assert embedder.backend == CHAR_NGRAMS
    vectors = embedder.embed(["tool call"])
    assert np.linalg.norm(vectors[0]) == pytest.approx(1.0)


def test_an_unknown_dense_setting_is_refused():
    with pytest.raises(ValueError, match="'auto' or 'off'"):
        load_embedder(["x"], dense="require")


def test_by_default_the_sentence_encoder_gives_512_dimensional_unit_vectors():
    embedder = load_embedder([], dense="auto")
    vectors = embedder.embed(["list the tools", "tools/list", "列出所有工具"])
    assert (embedder.backend, embedder.dimension, vectors.shape) == (ENCODER, 512, (3, 512))
    assert np.linalg.norm(vectors, axis=1) == pytest.approx([1.0, 1.0, 1.0], abs=1e-5)
    assert float(vectors[0] @ vectors[2]) > 0.5  # the same request in English and Chinese


def test_a_chinese_question_finds_the_english_passage_by_hybrid_search():
    kb = KnowledgeBase.build()
    hits = kb.search("模型会自己运行我写的函数吗？", k=3, mode="hybrid")  # does the model run my function?
    assert hits[0].doc_id == "tool-call-loop"
