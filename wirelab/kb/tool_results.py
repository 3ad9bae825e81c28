"""What the knowledge-base tools return: each TypedDict becomes a tool's `outputSchema`."""

from __future__ import annotations

from typing import TypedDict


class IndexNote(TypedDict, total=False):
    """An optional `note`: the results came from the lexical index, and why."""

    note: str


class Passage(TypedDict):
    """One ranked passage of a document.

    Args:
        rank: Position in the ranking, from 1.
        chunk_id: The passage's id, to cite, e.g. "mcp-tools#2".
        doc_id: The document it comes from (read it with get_document).
        title: The document's title.
        heading: The heading of the passage's section.
        score: The method's score, rounded to 4 places (RRF for hybrid search).
        text: The passage itself.
    """

    rank: int
    chunk_id: str
    doc_id: str
    title: str
    heading: str
    score: float
    text: str


class SearchResults(IndexNote):
    """The passages found for a query.

    Args:
        query: The query, as given.
        method: How the passages were ranked: bm25, vector, hybrid or reranked.
        passages: The best passages, best first.
    """

    query: str
    method: str
    passages: list[Passage]


class Source(TypedDict):
    """A passage an answer quotes from.

    Args:
        chunk_id: The id cited in the answer's text, e.g. "mcp-tools#2".
        doc_id: The document's id.
        title: The document's title.
        uri: The document as a resource.
    """

    chunk_id: str
    doc_id: str
    title: str
    uri: str


class CitedAnswer(IndexNote):
    """An answer made of sentences quoted from the knowledge base.

    Args:
        answer: The sentences, each followed by the chunk id it comes from in brackets.
        found: False when no passage answers the question (then there are no sources).
        sources: The passages cited, in order of first citation.
    """

    answer: str
    found: bool
    sources: list[Source]


class DocumentSummary(TypedDict):
    """One document of the knowledge base.

    Args:
        id: The document's id, for get_document.
        title: Its title.
        tags: Its topics.
        chunks: How many passages it is cut into.
        words: How many words it holds.
        uri: The document as a resource.
    """

    id: str
    title: str
    tags: list[str]
    chunks: int
    words: int
    uri: str


class DocumentList(TypedDict):
    """Every document, sorted by id.

    Args:
        documents: The documents.
    """

    documents: list[DocumentSummary]


class FullDocument(IndexNote):
    """A whole document.

    Args:
        id: The document's id.
        title: Its title.
        tags: Its topics.
        uri: The document as a resource.
        chunk_ids: The ids of its passages, in reading order.
        text: The document's Markdown text.
    """

    id: str
    title: str
    tags: list[str]
    uri: str
    chunk_ids: list[str]
    text: str


class IndexState(TypedDict):
    """How the index was built.

    Args:
        lexical_backend: The BM25 library.
        vector_backend: The embedding model, or the lexical fallback's name.
        vector_dimension: The length of a passage vector.
        rrf_k: The constant of Reciprocal Rank Fusion.
        built_at: When the index was built (UTC, ISO 8601).
        build_seconds: How long building it took.
    """

    lexical_backend: str
    vector_backend: str
    vector_dimension: int
    rrf_k: int
    built_at: str
    build_seconds: float


class Statistics(IndexNote):
    """Counts and the state of the index.

    Args:
        documents: How many documents there are.
        chunks: How many passages they are cut into.
        index: How the index was built.
    """

    documents: int
    chunks: int
    index: IndexState
