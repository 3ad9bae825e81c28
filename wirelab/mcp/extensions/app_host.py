"""The host's side of an MCP App: read the view, sandbox it, answer it, relay its tool calls.

An `AppSession` joins one view (an HTML document in a sandboxed iframe) to the course's MCP
`Client`. The view speaks JSON-RPC over `postMessage`, as an MCP client speaks to a server:

    view → host   ui/initialize, ui/notifications/initialized, tools/call, ui/notifications/size-changed
    host → view   ui/notifications/tool-input, ui/notifications/tool-result

A `tools/call` from the view goes through `approve`, the very function that approves the
model's calls (`wirelab.mcp.host.McpHost`: it gets a Chat Completions tool call), and only
for tools whose `_meta.ui.visibility` includes "app". Every message, both ways, is published
on `wire` (channel "app": the view as client, the host as server), so the wire inspector
shows it next to the host ↔ server traffic of the client's own wire.

`srcdoc(html, csp)` is what the iframe loads: the view with a Content-Security-Policy `<meta>`
first in its `<head>`, built from `_meta.ui.csp` (the spec's restrictive default when there is
none). The iframe is `sandbox="allow-scripts"` without `allow-same-origin`: the view runs in
an opaque origin of its own, so it cannot read the notebook's page, cookies or storage.

Not covered: `ui/open-link`, `ui/message`, `ui/update-model-context`, display modes, and the
separate-origin sandbox proxy a web host is asked to put between itself and the view.
"""

from __future__ import annotations

import html as html_text
import itertools
import json
from collections.abc import Awaitable, Callable
from typing import Any

from wirelab import jsonrpc
from wirelab.jsonrpc import INVALID_PARAMS, METHOD_NOT_FOUND, JsonRpcError, Message
from wirelab.mcp.client import Client
from wirelab.mcp.extensions.apps import APP_MIME_TYPE, UI_EXTENSION
from wirelab.wire import Wire, WireMessage

UI_PROTOCOL_VERSION = "2026-01-26"
DENIED = -32001  # implementation-defined: the host refused (the user did not approve)
SANDBOX = "allow-scripts"
DEFAULT_CSP = {
    "default-src": ["'none'"],
    "script-src": ["'self'", "'unsafe-inline'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "media-src": ["'self'", "data:"],
    "connect-src": ["'none'"],
}
CSP_DIRECTIVES = {
    "connectDomains": ["connect-src"],
    "resourceDomains": ["script-src", "style-src", "img-src", "font-src", "media-src"],
    "frameDomains": ["frame-src"],
    "baseUriDomains": ["base-uri"],
}
APP_CLIENT_EXTENSIONS = {UI_EXTENSION: {"mimeTypes": [APP_MIME_TYPE]}}
Approve = Callable[[dict[str, Any]], bool]


class AppRefused(ValueError):
    """The server's view cannot be shown: not a ui:// resource, or not an MCP App."""


def csp_policy(csp: dict[str, list[str]] | None) -> str:
    """The Content-Security-Policy for a view: the default, plus the origins `csp` declares.

    >>> csp_policy(None).split("; ")[-1]
    "connect-src 'none'"
    >>> csp_policy({"connectDomains": ["https://api.example.com"]}).split("; ")[-1]
    'connect-src https://api.example.com'
    """
    policy = {name: list(values) for name, values in DEFAULT_CSP.items()}
    for key, origins in (csp or {}).items():
        if key not in CSP_DIRECTIVES:
            continue  # an unknown key loosens nothing
        for directive in CSP_DIRECTIVES[key]:
            kept = [v for v in policy.get(directive, []) if v != "'none'"]
            policy[directive] = kept + [_origin(origin) for origin in origins]
    return "; ".join(f"{name} {' '.join(values)}" for name, values in policy.items())


def _origin(origin: str) -> str:
    """An origin as a CSP source; anything with a quote, space or semicolon is refused."""
    if not isinstance(origin, str) or any(c in origin for c in "'\"; ,\n"):
        raise AppRefused(f"{origin!r} is not an origin a CSP can name")
    return origin


def srcdoc(view: str, csp: dict[str, list[str]] | None) -> str:
    """The view with its Content-Security-Policy `<meta>` as the first thing the browser reads."""
    meta = f'<meta http-equiv="Content-Security-Policy" content="{html_text.escape(csp_policy(csp))}">'
    return meta + view


class AppSession:
    """One rendered view of `tool`, bridged to `client`; `post` sends a message into the view."""

    def __init__(
        self,
        client: Client,
        tool: dict[str, Any],
        *,
        approve: Approve,
        post: Callable[[Message], Awaitable[None] | None] | None = None,
        host_info: dict[str, str] | None = None,
    ) -> None:
        self.client, self.tool, self.approve = client, tool, approve
        self.post = post or (lambda message: None)
        self.host_info = host_info or {"name": "wirelab-notebook-host", "version": "0.1.0"}
        self.wire = Wire()
        self.ui = (tool.get("_meta") or {}).get("ui") or {}
        self.arguments: dict[str, Any] | None = None
        self.result: dict[str, Any] | None = None
        self.initialized = False
        self.height: int | None = None
        self._ids = itertools.count(1)
        self.handlers = {
            "ui/initialize": self.initialize,
            "tools/call": self.call_tool,
            "ui/notifications/initialized": self.on_initialized,
            "ui/notifications/size-changed": self.on_size_changed,
        }

    async def view(self) -> str:
        """The iframe's document: `resources/read` of the tool's `ui://` view, with its CSP."""
        uri = self.ui.get("resourceUri")
        if not isinstance(uri, str) or not uri.startswith("ui://"):
            raise AppRefused(f"{self.tool['name']} names no ui:// view (_meta.ui.resourceUri is {uri!r})")
        (contents, *_) = (await self.client.read_resource(uri))["contents"]
        if contents.get("mimeType") != APP_MIME_TYPE or "text" not in contents:
            raise AppRefused(f"{uri} is {contents.get('mimeType')!r}, not {APP_MIME_TYPE}: not shown")
        csp = ((contents.get("_meta") or {}).get("ui") or {}).get("csp")
        return srcdoc(contents["text"], csp)

    async def run_tool(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """Call the tool for the model (already approved), then push its input and result in."""
        self.arguments = arguments
        self.result = await self.client.call_tool(self.tool["name"], arguments)
        if self.initialized:
            await self.push_result()
        return self.result

    async def push_result(self) -> None:
        tool_input = {"arguments": self.arguments or {}}
        await self.send(jsonrpc.notification("ui/notifications/tool-input", tool_input))
        await self.send(jsonrpc.notification("ui/notifications/tool-result", self.result))

    # --- what the view sends ---

    async def receive(self, message: Any) -> None:
        """One message from the view: answer a request, act on a notification, log the rest."""
        self.wire.publish(WireMessage.jsonrpc("app", "client", message))
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            return  # not JSON-RPC: a view's own chatter, ignored
        if "method" not in message:
            return  # an answer to a request of ours: the host sends none
        response = await jsonrpc.Dispatcher(self.handlers).handle(message)
        if response is not None:
            await self.send(response)

    async def send(self, message: Message) -> None:
        self.wire.publish(WireMessage.jsonrpc("app", "server", message))
        sent = self.post(message)
        if sent is not None:
            await sent

    def initialize(self, params: dict[str, Any]) -> dict[str, Any]:
        """Answer the view's handshake: who the host is, what it offers, which tool this is."""
        tool = {key: self.tool[key] for key in ("name", "description", "inputSchema") if key in self.tool}
        return {
            "protocolVersion": UI_PROTOCOL_VERSION,
            "hostInfo": self.host_info,
            "hostCapabilities": {"serverTools": {}, "sandbox": {"csp": self.ui.get("csp", {})}},
            "hostContext": {"toolInfo": {"tool": tool}, "theme": "light", "displayMode": "inline"},
        }

    async def on_initialized(self, params: dict[str, Any]) -> None:
        self.initialized = True
        if self.result is not None:
            await self.push_result()

    def on_size_changed(self, params: dict[str, Any]) -> None:
        height = params.get("height")
        self.height = int(height) if isinstance(height, int | float) else self.height

    async def call_tool(self, params: dict[str, Any]) -> dict[str, Any]:
        """A view's `tools/call`: only app-visible tools, only once `approve` says yes."""
        name, arguments = params.get("name"), params.get("arguments") or {}
        tools = {tool["name"]: tool for tool in await self.client.list_tools()}
        if name not in tools:
            raise JsonRpcError(INVALID_PARAMS, f"unknown tool {name!r}")
        visibility = ((tools[name].get("_meta") or {}).get("ui") or {}).get("visibility", ["model", "app"])
        if "app" not in visibility:
            raise JsonRpcError(
                METHOD_NOT_FOUND, f"{name} is not callable from a view (visibility {visibility})"
            )
        call = {
            "id": f"app-{next(self._ids)}",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments)},
            "from": "app",
        }
        if not self.approve(call):
            raise JsonRpcError(DENIED, f"the user did not approve {name}", {"tool": name})
        return await self.client.call_tool(name, arguments)
