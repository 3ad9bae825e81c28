"""MCP Apps (lesson 18): the server side by hand and with the official SDK, and the host's bridge.

The browser half (the view in JupyterLab, a click, the sandbox refusing a malicious view) is
tests/browser/test_apps_in_jupyterlab.py; here the host's decisions are checked in Python: what
the view is allowed to call, what CSP it gets, what the server declares.
"""

import asyncio
from typing import Any

import pytest

from wirelab.jsonrpc import METHOD_NOT_FOUND
from wirelab.kb.corpus import load_documents
from wirelab.kb.server import build_index, passages
from wirelab.mcp.client import connect_in_process
from wirelab.mcp.extensions.app_example import VIEW_URI, build_kb_app_server, kb_view
from wirelab.mcp.extensions.app_host import (
    APP_CLIENT_EXTENSIONS,
    DENIED,
    SANDBOX,
    AppRefused,
    AppSession,
    csp_policy,
    srcdoc,
)
from wirelab.mcp.extensions.apps import APP_MIME_TYPE, UI_EXTENSION, add_app, app_tool
from wirelab.mcp.server import Server

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def kb_server():
    return build_kb_app_server()


def hello(id, method, params=None):
    return {"jsonrpc": "2.0", "id": id, "method": method, "params": params or {}}


def with_view(server, use, approve=lambda call: True, tool="browse_kb"):
    """A host session on `tool`'s view; `use(session, posted, ran)` drives it as the view would."""
    ran = []

    async def run():
        async with connect_in_process(server, extensions=APP_CLIENT_EXTENSIONS) as client:
            client.wire.subscribe(
                lambda m: m.method == "tools/call" and m.sender == "client" and ran.append(m)
            )
            tools = {t["name"]: t for t in await client.list_tools()}
            posted = []
            session = AppSession(client, tools[tool], approve=approve, post=posted.append)
            return await use(session, posted, ran)

    return asyncio.run(run())


# --- the server, by hand and with the SDK ---


def build_sdk_app_server():
    """The same App with the official SDK: `Apps` stamps `_meta.ui` and serves the view."""
    from mcp.server import MCPServer
    from mcp.server.apps import Apps

    kb = build_index(load_documents(), dense="off")
    apps = Apps()
    apps.add_html_resource(VIEW_URI, kb_view(), name="kb-search-view", prefers_border=True)

    @apps.tool(resource_uri=VIEW_URI, title="Browse search results", structured_output=True)
    def browse_kb(query: str, k: int = 5) -> dict[str, Any]:
        """Search the knowledge base and show the passages as a list to click through."""
        return {"query": query, "method": "hybrid", "passages": passages(kb.search(query, k, "hybrid"))}

    server = MCPServer("kb-apps-sdk", extensions=[apps], log_level="WARNING")

    @server.tool(structured_output=True)
    def get_document(doc_id: str) -> dict[str, Any]:
        """Read one whole document of the knowledge base by its id."""
        found = kb.get_document(doc_id)
        return {"id": found.id, "title": found.title, "text": found.body}

    return server


def test_the_server_declares_the_extension_and_links_the_tool_to_its_view(kb_server):
    async def use(session, posted, ran):
        return session.client.server_capabilities, session.tool, await session.client.read_resource(VIEW_URI)

    capabilities, tool, read = with_view(kb_server, use)
    assert capabilities["extensions"] == {UI_EXTENSION: {}}
    assert tool["_meta"] == {"ui": {"resourceUri": VIEW_URI}}
    (contents,) = read["contents"]
    assert contents["mimeType"] == APP_MIME_TYPE and contents["_meta"] == {"ui": {"prefersBorder": True}}
    assert contents["text"].startswith("<!DOCTYPE html>") and "callServerTool" in contents["text"]


def test_the_sdk_s_apps_extension_serves_the_same_tool_meta_and_view():
    from mcp import Client

    async def run():
        async with Client(build_sdk_app_server(), mode="legacy") as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            read = await client.read_resource(VIEW_URI)
            return client, tools, read.contents[0]

    client, tools, contents = asyncio.run(run())
    assert tools["browse_kb"].meta == {"ui": {"resourceUri": VIEW_URI}}
    assert contents.mime_type == APP_MIME_TYPE and contents.meta == {"ui": {"prefersBorder": True}}
    assert contents.text == kb_view()


def test_a_tool_cannot_link_a_view_that_is_not_ui_or_not_served():
    server = Server("s")
    with pytest.raises(ValueError, match="ui://"):
        add_app(server, "https://example.com/view.html", "<p>")
    with pytest.raises(ValueError, match="no view"):
        app_tool(server, "ui://s/missing.html")(lambda: "x")


def test_the_view_is_one_document_with_the_ext_apps_bundle_inline_and_nothing_to_fetch():
    view = kb_view()
    assert "import " not in view.split('<script type="module">')[1].split("const { App }")[0]
    assert " src=" not in view and "http://" not in view.split("<script")[0]


# --- the host's bridge ---


def test_the_host_answers_the_views_handshake_and_pushes_the_tool_result_in(kb_server):
    async def use(session, posted, ran):
        await session.receive(hello(1, "ui/initialize", {"protocolVersion": "2026-01-26"}))
        await session.receive({"jsonrpc": "2.0", "method": "ui/notifications/initialized"})
        await session.run_tool({"query": "isError"})
        return posted

    posted = with_view(kb_server, use)
    assert posted[0]["result"]["protocolVersion"] == "2026-01-26"
    assert posted[0]["result"]["hostContext"]["toolInfo"]["tool"]["name"] == "browse_kb"
    assert [m["method"] for m in posted[1:]] == [
        "ui/notifications/tool-input",
        "ui/notifications/tool-result",
    ]
    assert posted[2]["params"]["structuredContent"]["passages"]


def test_a_view_s_tool_call_runs_once_approved(kb_server):
    seen = []

    def approve(call):
        seen.append(call)
        return call["function"]["name"] == "get_document"

    async def use(session, posted, ran):
        await session.receive(
            hello(7, "tools/call", {"name": "get_document", "arguments": {"doc_id": "mcp-tools"}})
        )
        return posted, ran

    (answer,), ran = with_view(kb_server, use, approve)
    assert answer["id"] == 7 and answer["result"]["structuredContent"]["id"] == "mcp-tools"
    assert seen[0]["function"]["name"] == "get_document" and seen[0]["from"] == "app"
    assert [m.payload["params"]["name"] for m in ran] == ["get_document"]


def test_a_view_calling_a_tool_without_approval_is_refused_and_the_tool_never_runs(kb_server):
    async def use(session, posted, ran):
        await session.receive(hello(8, "tools/call", {"name": "kb_stats", "arguments": {}}))
        return posted, ran

    (answer,), ran = with_view(kb_server, use, approve=lambda call: False)
    assert answer["error"]["code"] == DENIED and "did not approve kb_stats" in answer["error"]["message"]
    assert ran == []


def test_a_view_cannot_call_a_tool_kept_for_the_model():
    server = Server("s")
    add_app(server, "ui://s/v.html", "<p>view</p>")

    @app_tool(server, "ui://s/v.html", visibility=["model"])
    def secret() -> str:
        """Only for the model."""
        return "s3cret"

    async def use(session, posted, ran):
        await session.receive(hello(1, "tools/call", {"name": "secret", "arguments": {}}))
        return posted, ran

    (answer,), ran = with_view(server, use, tool="secret")
    assert answer["error"]["code"] == METHOD_NOT_FOUND and ran == []


def test_every_message_of_the_view_and_the_host_is_on_the_wire(kb_server):
    async def use(session, posted, ran):
        seen = []
        session.wire.subscribe(seen.append)
        await session.receive(hello(1, "ui/initialize"))
        await session.receive(hello(2, "ui/open-link", {"url": "https://example.com"}))
        return seen

    seen = with_view(kb_server, use)
    assert [(m.sender, m.kind, m.method) for m in seen] == [
        ("client", "request", "ui/initialize"),
        ("server", "response", None),
        ("client", "request", "ui/open-link"),
        ("server", "error", None),  # -32601: this host offers no ui/open-link
    ]


# --- the sandbox ---


def test_the_default_csp_lets_the_view_reach_no_network():
    policy = dict(part.split(" ", 1) for part in csp_policy(None).split("; "))
    assert policy["default-src"] == "'none'" and policy["connect-src"] == "'none'"
    assert "allow-same-origin" not in SANDBOX


def test_declared_origins_open_only_their_directives_and_a_bad_origin_is_refused():
    policy = dict(
        part.split(" ", 1) for part in csp_policy({"connectDomains": ["https://api.example.com"]}).split("; ")
    )
    assert policy["connect-src"] == "https://api.example.com" and policy["default-src"] == "'none'"
    for sneaky in ("'unsafe-eval'", "https://a.example; script-src *", "* data:"):
        with pytest.raises(AppRefused):
            csp_policy({"resourceDomains": [sneaky]})


def test_the_csp_meta_comes_before_anything_the_view_writes():
    document = srcdoc("<!DOCTYPE html><html><head><script>fetch('https://x.example')</script>", None)
    assert document.startswith('<meta http-equiv="Content-Security-Policy"')


def test_a_view_that_is_not_an_mcp_app_is_not_shown():
    server = Server("s")
    server.resource("ui://s/plain.html", mime_type="text/html")(lambda: "<p>")
    add_app(server, "ui://s/v.html", "<p>")

    @app_tool(server, "ui://s/v.html")
    def tool() -> str:
        """A tool."""
        return "x"

    server.tools["tool"].resource_uri = "ui://s/plain.html"

    async def use(session, posted, ran):
        with pytest.raises(AppRefused, match="not text/html;profile=mcp-app"):
            await session.view()
        return True

    assert with_view(server, use, tool="tool")
