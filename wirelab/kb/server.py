"""The capstone MCP server: the knowledge base of `assets/kb/`, read-only, over stdio.

    python -m wirelab.kb.server                 # sentence-encoder vectors (English and Chinese)
    python -m wirelab.kb.server --dense off     # character n-gram vectors: no model to load
    python -m wirelab.kb.server --corpus assets/kb/zh   # the Chinese corpus
    python -m wirelab.kb.server --print-config  # the block a desktop host needs to launch it

Without `--corpus` it serves the corpus in the language of the notebook that starts it
(`wirelab.kb.corpus.default_corpus`): assets/kb/zh from the Chinese edition or with
WIRELAB_LANG=zh, assets/kb otherwise (a desktop host, a terminal). The vectors come from the
course's multilingual sentence encoder (`wirelab.encoder`) for either corpus, so a question in
one language finds passages in the other.

Six tools, each annotated `readOnlyHint: true`: `answer_question` (extractive, cited by
chunk id), `search` (hybrid: BM25 and vectors fused by RRF), `search_reranked`,
`list_documents`, `get_document` and `kb_stats`. Every document is also a resource,
`kb://documents/{id}` (listed one by one, and as a template), indexed by the resource
`kb://documents`. Nothing here writes: the documents are read once at start and the index
lives in memory.

The index is built once per process, in worker threads started with the server, so
`initialize` is answered at once. A lexical (BM25) index, ready in about a second, answers
while the encoder loads and embeds the corpus (a few seconds), each result saying so in a `note`. Queries run
on a small pool of threads, so one slow query holds up no other, and each query is capped at
`MAX_QUERY_CHARS`. Not here: HTTP, reloading the corpus, and any tool that changes anything.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Literal, TypeVar

from wirelab.errors import ToolError
from wirelab.kb.corpus import CorpusError, Document, SearchHit, load_documents
from wirelab.kb.index import MAX_K, KnowledgeBase, UnknownDocumentError
from wirelab.kb.tool_results import (
    CitedAnswer,
    DocumentList,
    DocumentSummary,
    FullDocument,
    Passage,
    SearchResults,
    Source,
    Statistics,
)
from wirelab.mcp.server import Server, ServerTool
from wirelab.mcp.transports.stdio import run_stdio

log = logging.getLogger(__name__)

SERVER_NAME = "wirelab-kb"
DOCUMENT_URI = "kb://documents/{id}"
INDEX_URI = "kb://documents"
READ_ONLY = {"readOnlyHint": True, "openWorldHint": False}
INSTRUCTIONS = (
    "A read-only knowledge base on LLM tool calling and the Model Context Protocol. Use "
    "answer_question for a short answer citing chunk ids such as [mcp-tools#2], search or "
    "search_reranked to find passages, get_document to read a whole document."
)
MAX_QUERY_CHARS = 1000  # a question, not a document: longer queries are an isError result
QUERY_WORKERS = 4
T = TypeVar("T")


def build_index(documents: Sequence[Document], dense: str = "auto") -> KnowledgeBase:
    """Index `documents` as the server does: sentence-encoder vectors, or n-grams with "off"."""
    return KnowledgeBase(documents, dense=dense)


LEXICAL_ONLY = (
    "The dense (vector) index is still being built: these results are lexical-only (BM25) "
    "for now; hybrid and vector ranking start once it is ready."
)


class KnowledgeService:
    """The knowledge base, built on worker threads; queries run on a pool of `workers`.

    With `interim` (a quick lexical build), queries are answered by it while `build` (the
    encoder index, a few seconds) runs on a thread of its own, and each result carries a
    `note` saying so; if `build` fails, the interim index goes on answering, with a note
    naming the failure. Without `interim`, queries wait for `build`. One slow query does not
    hold up the rest, and a query still waiting for a worker is dropped when its call is
    cancelled (`notifications/cancelled`). Errors a caller can fix come back as `ToolError`s,
    which the server turns into `isError` results: a bad query or `k` (`ValueError`), an
    unknown id.
    """

    def __init__(
        self,
        build: Callable[[], KnowledgeBase],
        interim: Callable[[], KnowledgeBase] | None = None,
        workers: int = QUERY_WORKERS,
    ) -> None:
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kb-index")
        self._interim = self._worker.submit(interim) if interim else None
        self._builder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kb-dense") if interim else None
        self._built = (self._builder or self._worker).submit(build)
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="kb-query")

    async def run(self, query: Callable[[KnowledgeBase], T]) -> T:
        """`query(kb)` on a worker thread, with the best index ready; cancelling the call drops it."""
        future = self._pool.submit(self._answer, query)
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            future.cancel()  # still queued: it never runs (a running query is short: capped input)
            raise

    def _answer(self, query: Callable[[KnowledgeBase], T]) -> T:
        kb, note = self._ready_index()
        try:
            result = query(kb)
        except UnknownDocumentError as e:
            raise ToolError("unknown_id", str(e), suggestion="Call list_documents for the ids.") from e
        except ValueError as e:
            raise ToolError("invalid_argument", str(e)) from e
        return {**result, "note": note} if note and isinstance(result, dict) else result

    def _ready_index(self) -> tuple[KnowledgeBase, str | None]:
        """The built index, or the interim one (waiting for it if need be) and why."""
        interim_ready = self._interim is not None and self._interim.exception() is None
        if interim_ready and not self._built.done():
            return self._interim.result(), LEXICAL_ONLY
        try:
            return self._built.result(), None
        except Exception as e:
            if interim_ready:
                return (
                    self._interim.result(),
                    f"The dense index could not be built ({e}): results are BM25-only.",
                )
            raise ToolError(
                "index_unavailable",
                f"the index could not be built: {e}",
                suggestion="Read the server's stderr; restart it with --dense off.",
            ) from e

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._worker.shutdown(wait=False, cancel_futures=True)
        if self._builder is not None:
            self._builder.shutdown(wait=False, cancel_futures=True)


# --- the server ---------------------------------------------------------------


def document_uri(doc_id: str) -> str:
    """`'mcp-tools'` -> `'kb://documents/mcp-tools'`."""
    return DOCUMENT_URI.format(id=doc_id)


def passages(hits: Sequence[SearchHit]) -> list[Passage]:
    return [
        Passage(
            rank=h.rank,
            chunk_id=h.chunk_id,
            doc_id=h.doc_id,
            title=h.title,
            heading=h.heading,
            score=round(h.score, 4),
            text=h.text,
        )
        for h in hits
    ]


def cited_answer(kb: KnowledgeBase, question: str, max_sentences: int) -> CitedAnswer:
    found = kb.answer(question, max_sentences=max_sentences)
    sources = [
        Source(chunk_id=c.chunk_id, doc_id=c.doc_id, title=c.title, uri=document_uri(c.doc_id))
        for c in found.citations
    ]
    return CitedAnswer(answer=found.text, found=found.found, sources=sources)


def full_document(kb: KnowledgeBase, doc_id: str) -> FullDocument:
    if "#" in doc_id and doc_id.split("#")[0] in kb.documents:
        raise ToolError(
            "unknown_id",
            f"{doc_id!r} is a chunk id, not a document id",
            suggestion=f"Ask for the document {doc_id.split('#')[0]!r}.",
        )
    doc = kb.get_document(doc_id)
    return FullDocument(
        id=doc.id,
        title=doc.title,
        tags=list(doc.tags),
        uri=document_uri(doc.id),
        chunk_ids=[c.id for c in kb.chunks if c.doc_id == doc.id],
        text=doc.body,
    )


def build_server(service: KnowledgeService, documents: Sequence[Document]) -> Server:
    """The knowledge-base server: six read-only tools over `service`, `documents` as resources."""
    server = Server(SERVER_NAME, "0.1.0", title="Tools on the Wire knowledge base", instructions=INSTRUCTIONS)
    _add_search_tools(server, service)
    _add_document_tools(server, service)
    _add_resources(server, {doc.id: doc for doc in documents})
    return server


def bound(tool: ServerTool, **ranges: tuple[int, int]) -> None:
    """Give integer parameters a `minimum` and `maximum`, strings a `maxLength`, in the schema."""
    for name, (low, high) in ranges.items():
        if tool.input_schema["properties"][name].get("type") == "string":
            tool.input_schema["properties"][name]["maxLength"] = high
        else:
            tool.input_schema["properties"][name].update(minimum=low, maximum=high)


def _add_search_tools(server: Server, service: KnowledgeService) -> None:
    @server.tool(title="Answer a question, with citations", annotations=READ_ONLY)
    async def answer_question(question: str, max_sentences: int = 3) -> CitedAnswer:
        """Answer a question about tool calling or MCP with sentences quoted from the
        knowledge base, each citing the chunk id it comes from.

        Args:
            question: The question, e.g. "Which header carries the session id?".
            max_sentences: The most sentences to quote.
        """
        return await service.run(lambda kb: cited_answer(kb, question, max_sentences))

    @server.tool(title="Search passages (hybrid)", annotations=READ_ONLY)
    async def search(
        query: str, k: int = 5, mode: Literal["hybrid", "bm25", "vector"] = "hybrid"
    ) -> SearchResults:
        """Search the knowledge base for passages: BM25 and vector rankings fused by
        Reciprocal Rank Fusion.

        Args:
            query: Words or a question, e.g. "tools/call isError".
            k: How many passages to return.
            mode: hybrid (both rankings fused), bm25 (exact words) or vector (meaning).
        """
        return await service.run(
            lambda kb: SearchResults(query=query, method=mode, passages=passages(kb.search(query, k, mode)))
        )

    @server.tool(title="Search passages, then rerank", annotations=READ_ONLY)
    async def search_reranked(query: str, k: int = 5, candidates: int = 20) -> SearchResults:
        """Search the knowledge base (hybrid), then reorder the candidates with a finer score.

        Args:
            query: Words or a question, e.g. "how does a client cancel a request".
            k: How many passages to return.
            candidates: How many hybrid results to rerank.
        """
        return await service.run(
            lambda kb: SearchResults(
                query=query, method="reranked", passages=passages(kb.search_reranked(query, k, candidates))
            )
        )

    query = (1, MAX_QUERY_CHARS)
    bound(server.tools["answer_question"], question=query, max_sentences=(1, 10))
    bound(server.tools["search"], query=query, k=(1, MAX_K))
    bound(server.tools["search_reranked"], query=query, k=(1, MAX_K), candidates=(1, MAX_K))


def _add_document_tools(server: Server, service: KnowledgeService) -> None:
    @server.tool(title="List the documents", annotations=READ_ONLY)
    async def list_documents() -> DocumentList:
        """List every document of the knowledge base: id, title, tags, size."""
        found = await service.run(lambda kb: kb.list_documents())
        return DocumentList(documents=[DocumentSummary(**d, uri=document_uri(d["id"])) for d in found])

    @server.tool(title="Read a document", annotations=READ_ONLY)
    async def get_document(doc_id: str) -> FullDocument:
        """Read one whole document of the knowledge base by its id.

        Args:
            doc_id: The document's id, e.g. "mcp-tools" (list_documents gives them all).
        """
        return await service.run(lambda kb: full_document(kb, doc_id))

    @server.tool(title="Knowledge-base statistics", annotations=READ_ONLY)
    async def kb_stats() -> Statistics:
        """Count the documents and passages and describe the index (backends, build time)."""
        return await service.run(lambda kb: kb.stats())


def _add_resources(server: Server, documents: dict[str, Document]) -> None:
    @server.resource(INDEX_URI, name="documents", title="Documents", mime_type="application/json")
    def index() -> str:
        """Every document: id, title, tags and URI."""
        return json.dumps(
            [
                {"id": d.id, "title": d.title, "tags": list(d.tags), "uri": document_uri(d.id)}
                for d in documents.values()
            ],
            indent=2,
        )

    for doc in documents.values():
        server.resource(
            document_uri(doc.id),
            name=doc.id,
            title=doc.title,
            description=f"The document {doc.title!r}, as Markdown.",
            mime_type="text/markdown",
        )(lambda doc=doc: doc.body)

    @server.resource_template(DOCUMENT_URI, name="document", title="A document", mime_type="text/markdown")
    def document(id: str) -> str:
        """One document of the knowledge base, as Markdown."""
        return documents[id].body  # KeyError, a LookupError: no such resource

    @server.completion(DOCUMENT_URI, "id")
    def complete_id(prefix: str) -> list[str]:
        return [doc_id for doc_id in documents if doc_id.startswith(prefix)]


# --- running it -----------------------------------------------------------------


def host_config(python: str = sys.executable, args: Sequence[str] = ()) -> dict[str, object]:
    """The `mcpServers` block desktop hosts (Claude Desktop, Cursor, VS Code…) read to launch it."""
    return {"mcpServers": {SERVER_NAME: {"command": python, "args": ["-m", "wirelab.kb.server", *args]}}}


def parse_arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m wirelab.kb.server",
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--dense",
        choices=("auto", "off"),
        default="auto",
        help="vectors from the sentence encoder (auto) or from character n-grams (off)",
    )
    parser.add_argument(
        "--corpus",
        type=Path,
        default=None,
        help="the folder of Markdown documents (default: assets/kb, or assets/kb/zh in the "
        "Chinese edition and with WIRELAB_LANG=zh)",
    )
    parser.add_argument(
        "--print-config", action="store_true", help="print the mcpServers block for a desktop host, then exit"
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    """Serve the knowledge base on stdio until stdin ends; logs go to stderr."""
    options = parse_arguments(sys.argv[1:] if argv is None else argv)
    if options.print_config:
        extra = [] if options.dense == "auto" else ["--dense", options.dense]
        print(json.dumps(host_config(args=extra), indent=2))
        return
    logging.basicConfig(
        stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s"
    )
    try:
        documents = load_documents(options.corpus)
    except CorpusError as e:
        sys.exit(f"wirelab.kb.server: {e}")
    dense = options.dense
    lexical = None if dense == "off" else (lambda: build_index(documents, dense="off"))
    service = KnowledgeService(lambda: _logged_build(documents, dense), interim=lexical)
    try:
        run_stdio(build_server(service, documents))
    finally:
        service.close()


def _logged_build(documents: Sequence[Document], dense: str) -> KnowledgeBase:
    log.info("indexing %d documents (dense=%s)", len(documents), dense)
    try:
        kb = build_index(documents, dense)
    except Exception:
        log.exception("the index could not be built")
        raise
    log.info(
        "index ready: %d chunks, vectors by %s, in %.1f s",
        len(kb.chunks),
        kb.vectors.embedder.backend,
        kb.build_seconds,
    )
    return kb


if __name__ == "__main__":
    main()
