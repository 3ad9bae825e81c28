"""Lesson 18's MCP App: the capstone knowledge base's search results as a list you can click.

`build_kb_app_server()` is the capstone server (lesson 12) plus, written by hand, one App:
the tool `browse_kb(query)` answers like `search` and links the view `ui://kb/search.html`,
which lists the passages; a click on one calls `get_document` through the host and shows
the document. Lesson 18 and tests/mcp/extensions/test_apps.py serve the same view and tool with the
official SDK's `Apps` extension (`mcp.server.apps`); the package does not depend on the SDK.
"""

from __future__ import annotations

from wirelab.kb.corpus import load_documents
from wirelab.kb.server import KnowledgeService, build_index, build_server, passages
from wirelab.kb.tool_results import SearchResults
from wirelab.mcp.extensions.apps import add_app, app_tool, view_html
from wirelab.mcp.server import Server

VIEW_URI = "ui://kb/search.html"
VIEW_BODY = """
<style>
  body { font: 14px system-ui, sans-serif; margin: 8px; }
  ol { padding-left: 1.4em; }
  button { text-align: left; border: 0; background: none; color: #0645ad; cursor: pointer; padding: 2px 0; }
  #doc { white-space: pre-wrap; border-top: 1px solid #ccc; margin-top: 8px; }
</style>
<h3 id="query">Waiting for results…</h3>
<ol id="hits"></ol>
<div id="doc"></div>
"""
VIEW_SCRIPT = """
const app = new App({ name: "kb-search-view", version: "1.0.0" }, {});
const hits = document.getElementById("hits");
const doc = document.getElementById("doc");

function render(results) {
  document.getElementById("query").textContent = `${results.passages.length} passages for “${results.query}”`;
  hits.replaceChildren(...results.passages.map((passage) => {
    const button = document.createElement("button");
    button.textContent = `${passage.title} · ${passage.heading}`;
    button.dataset.doc = passage.doc_id;
    button.onclick = () => open(passage.doc_id);
    const item = document.createElement("li");
    item.append(button);
    return item;
  }));
}

async function open(docId) {
  doc.textContent = "asking the host…";
  try {
    const result = await app.callServerTool({ name: "get_document", arguments: { doc_id: docId } });
    const found = result.structuredContent;
    doc.dataset.doc = docId;
    doc.textContent = found ? `${found.title}\\n\\n${found.text.slice(0, 600)}…` : result.content[0].text;
  } catch (error) {
    doc.dataset.refused = docId;
    doc.textContent = `The host refused: ${error.message}`;
  }
}

app.ontoolresult = (result) => render(result.structuredContent);
await app.connect();
"""


def kb_view() -> str:
    """The view: the list, the ext-apps `App` inline, and the script above."""
    return view_html(VIEW_BODY, VIEW_SCRIPT, title="Knowledge base search")


def build_kb_app_server() -> Server:
    """The capstone server (lexical index: quick to build) with `browse_kb` and its view."""
    documents = load_documents()
    service = KnowledgeService(lambda: build_index(documents, dense="off"))
    server = build_server(service, documents)
    add_app(server, VIEW_URI, kb_view(), name="kb-search-view", prefers_border=True)

    @app_tool(server, VIEW_URI, title="Browse search results")
    async def browse_kb(query: str, k: int = 5) -> SearchResults:
        """Search the knowledge base and show the passages as a list to click through.

        Args:
            query: Words or a question, e.g. "tools/call isError".
            k: How many passages to show.
        """
        return await service.run(
            lambda kb: SearchResults(
                query=query, method="hybrid", passages=passages(kb.search(query, k, "hybrid"))
            )
        )

    return server
