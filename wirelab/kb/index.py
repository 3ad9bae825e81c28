"""`KnowledgeBase`: the corpus indexed once, searched by BM25, vectors, or both fused.

Everything the capstone server's six read-only tools need is a method here: `search`
(mode "bm25", "vector" or "hybrid"), `search_reranked`, `answer`, `list_documents`,
`get_document` and `stats`. The unit of retrieval is the chunk; results carry the chunk id
that answers cite. Hybrid fuses the top `DEPTH` of both rankings with Reciprocal Rank
Fusion (k=60), BM25's votes weighted by the share of the query's terms the corpus has
(`wirelab.retrieval.hybrid`): a question in the other language is ranked mostly by the encoder.
Nothing here writes: the documents are read once, at build time.

    >>> kb = KnowledgeBase.build()                          # doctest: +SKIP
    >>> [hit.chunk_id for hit in kb.search("Mcp-Session-Id", k=2)]  # doctest: +SKIP
    ['streamable-http#3', 'stateless-revision#4']
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from wirelab.kb.answer import Answer, compose_answer
from wirelab.kb.corpus import Chunk, Document, SearchHit, chunk_document, load_documents
from wirelab.kb.rerank import rerank
from wirelab.retrieval.dense import VectorIndex, load_embedder
from wirelab.retrieval.fusion import RRF_K
from wirelab.retrieval.hybrid import hybrid_rank
from wirelab.retrieval.lexical import BM25Index

MODES = ("bm25", "vector", "hybrid")
MAX_K = 50
DEPTH = 50


class UnknownDocumentError(LookupError):
    """No document (or chunk) has the id asked for."""


def check_query(query: object, k: object) -> None:
    """Raise `ValueError` (or `TypeError`) for an empty query or a `k` outside 1..MAX_K."""
    if not isinstance(query, str):
        raise TypeError(f"query must be a string, not {type(query).__name__}")
    if not query.strip():
        raise ValueError("query is empty: ask for something, e.g. 'what does tools/call return'")
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_K:
        raise ValueError(f"k must be an integer from 1 to {MAX_K}, not {k!r}")


class KnowledgeBase:
    """Chunks of `documents` in a BM25 index and a vector index, built in the constructor.

    `dense` picks the vectors (`wirelab.retrieval.dense.load_embedder`): "auto" is the
    course's multilingual sentence encoder, for an English and a Chinese corpus alike;
    "off" is character n-grams (no model to load).
    """

    def __init__(self, documents: Sequence[Document], dense: str = "auto") -> None:
        started = time.perf_counter()
        self.documents = {doc.id: doc for doc in documents}
        self.chunks = [chunk for doc in documents for chunk in chunk_document(doc)]
        self._chunk_by_id = {chunk.id: chunk for chunk in self.chunks}
        texts = [c.search_text(self.documents[c.doc_id].title) for c in self.chunks]
        self.lexical = BM25Index(texts)
        self.vectors = VectorIndex(texts, load_embedder(texts, dense))
        self.build_seconds = time.perf_counter() - started
        self.built_at = datetime.now(UTC).isoformat(timespec="seconds")

    @classmethod
    def build(cls, folder: Path | None = None, dense: str = "auto") -> KnowledgeBase:
        """Load every document in `folder` (default: the corpus in the notebook's language) and index it."""
        return cls(load_documents(folder), dense=dense)

    def _hit(self, rank: int, chunk: Chunk, score: float) -> SearchHit:
        title = self.documents[chunk.doc_id].title
        return SearchHit(rank, chunk.id, chunk.doc_id, title, chunk.heading, chunk.text, score)

    def _ranked_ids(self, query: str, mode: str, depth: int) -> list[tuple[str, float]]:
        if mode == "hybrid":
            ranked = hybrid_rank(self.lexical, self.vectors, query, max(depth, DEPTH))[:depth]
        else:
            ranked = (self.lexical if mode == "bm25" else self.vectors).rank(query, depth)
        return [(self.chunks[i].id, score) for i, score in ranked]

    def search(self, query: str, k: int = 5, mode: str = "hybrid") -> list[SearchHit]:
        """The `k` best chunks for `query` by `mode`: "bm25", "vector" or "hybrid" (RRF)."""
        check_query(query, k)
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        ranked = self._ranked_ids(query, mode, k)
        return [self._hit(r, self._chunk_by_id[cid], s) for r, (cid, s) in enumerate(ranked, 1)]

    def search_reranked(self, query: str, k: int = 5, candidates: int = 20) -> list[SearchHit]:
        """Hybrid search for `candidates` chunks, reordered by `rerank`, cut to `k`."""
        check_query(query, k)
        pool = self.search(query, k=max(k, min(candidates, MAX_K)), mode="hybrid")
        similarities = self.vectors.similarities(query)
        positions = {chunk.id: i for i, chunk in enumerate(self.chunks)}
        cosines = [float(similarities[positions[hit.chunk_id]]) for hit in pool]
        order = rerank(query, [(hit.chunk_id, hit.text) for hit in pool], cosines)[:k]
        chunk = self._chunk_by_id
        return [self._hit(r, chunk[cid], s) for r, (cid, s) in enumerate(order, 1)]

    def answer(self, question: str, k: int = 3, max_sentences: int = 3) -> Answer:
        """An extractive answer from the `k` best reranked chunks, citing `[doc-id#n]`."""
        hits = self.search_reranked(question, k)
        return compose_answer(question, hits, max_sentences, weight=self.lexical.idf)

    def list_documents(self) -> list[dict[str, object]]:
        """Id, title, tags, chunk count and word count of every document, sorted by id."""
        counts = {doc_id: 0 for doc_id in self.documents}
        for chunk in self.chunks:
            counts[chunk.doc_id] += 1
        return [
            {
                "id": d.id,
                "title": d.title,
                "tags": list(d.tags),
                "chunks": counts[d.id],
                "words": len(d.body.split()),
            }
            for d in sorted(self.documents.values(), key=lambda d: d.id)
        ]

    def get_document(self, doc_id: str) -> Document:
        """The document with `doc_id`; `UnknownDocumentError` lists the ids that exist."""
        if doc_id not in self.documents:
            known = ", ".join(sorted(self.documents))
            raise UnknownDocumentError(f"no document with id {doc_id!r}; known ids: {known}")
        return self.documents[doc_id]

    def get_chunk(self, chunk_id: str) -> Chunk:
        """The chunk with `chunk_id` (as cited in answers, e.g. 'mcp-tools#2')."""
        if chunk_id not in self._chunk_by_id:
            raise UnknownDocumentError(f"no chunk with id {chunk_id!r}; ids look like 'mcp-tools#2'")
        return self._chunk_by_id[chunk_id]

    def stats(self) -> dict[str, object]:
        """Counts and index state: backends, vector dimension, RRF constant, build time."""
        embedder = self.vectors.embedder
        return {
            "documents": len(self.documents),
            "chunks": len(self.chunks),
            "index": {
                "lexical_backend": self.lexical.name,
                "vector_backend": embedder.backend,
                "vector_dimension": embedder.dimension,
                "rrf_k": RRF_K,
                "built_at": self.built_at,
                "build_seconds": round(self.build_seconds, 3),
            },
        }
