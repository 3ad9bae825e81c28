"""A small, read-only knowledge base: BM25, optional dense vectors, fusion, rerank, answers.

The capstone server (lesson 12) wraps `KnowledgeBase`; this package knows nothing of MCP.

    >>> from wirelab.kb import KnowledgeBase
    >>> kb = KnowledgeBase.build()                 # doctest: +SKIP
    >>> kb.search("tools/call", k=3, mode="hybrid")  # doctest: +SKIP
"""

from wirelab.kb.answer import Answer, Citation
from wirelab.kb.corpus import Chunk, CorpusError, Document, SearchHit
from wirelab.kb.index import KnowledgeBase, UnknownDocumentError

__all__ = [
    "Answer",
    "Chunk",
    "Citation",
    "CorpusError",
    "Document",
    "KnowledgeBase",
    "SearchHit",
    "UnknownDocumentError",
]
