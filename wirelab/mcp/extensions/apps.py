"""MCP Apps (`io.modelcontextprotocol/ui`, stable 2026-01-26) on the course's server, by hand.

A tool names an HTML view in `_meta.ui.resourceUri`; the view is a `ui://` resource of MIME
type `text/html;profile=mcp-app`, whose `resources/read` contents may carry `_meta.ui.csp`
(the origins it needs). The server declares the extension in `capabilities.extensions`.

    server = Server("kb")
    add_app(server, "ui://kb/search.html", VIEW_HTML)
    @app_tool(server, "ui://kb/search.html")
    def browse(query: str) -> str: ...

`wirelab.mcp.extensions.app_host` is the other side: the host that renders the view and relays its
calls. `build_sdk_app_server` writes the same server with the official SDK's `Apps`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from wirelab.mcp.primitives import ServerResource, ServerTool
from wirelab.mcp.server import Server, _input_schema, _output_schema
from wirelab.tools import summary

UI_EXTENSION = "io.modelcontextprotocol/ui"
APP_MIME_TYPE = "text/html;profile=mcp-app"
Visibility = Literal["model", "app"]
BUNDLE = Path(__file__).resolve().parents[3] / "assets" / "apps" / "ext-apps-app-2.0.4.js"


@dataclass
class AppTool(ServerTool):
    """A tool whose result a view renders: `_meta.ui.resourceUri` (and `visibility`)."""

    resource_uri: str = ""
    visibility: list[Visibility] | None = None

    def describe(self) -> dict[str, Any]:
        ui: dict[str, Any] = {"resourceUri": self.resource_uri}
        if self.visibility is not None:
            ui["visibility"] = list(self.visibility)
        return {**super().describe(), "_meta": {"ui": ui}}


@dataclass
class AppResource(ServerResource):
    """A `ui://` view; `contents_meta` goes into its `resources/read` contents (`ui.csp`)."""

    contents_meta: dict[str, Any] = field(default_factory=dict)


def add_app(
    server: Server,
    uri: str,
    html: str,
    *,
    name: str | None = None,
    csp: dict[str, list[str]] | None = None,
    prefers_border: bool | None = None,
) -> None:
    """Serve `html` as the view `uri` and declare the extension.

    `csp` lists the origins the view needs (`connectDomains`, `resourceDomains`, …);
    left out, the host applies the spec's restrictive default: no network at all.
    """
    _require_ui(uri)
    ui: dict[str, Any] = {}
    if csp is not None:
        ui["csp"] = csp
    if prefers_border is not None:
        ui["prefersBorder"] = prefers_border
    server.resources[uri] = AppResource(
        uri, name or uri, lambda: html, None, APP_MIME_TYPE, contents_meta={"ui": ui} if ui else {}
    )
    server.extensions[UI_EXTENSION] = {}


def app_tool(
    server: Server,
    resource_uri: str,
    *,
    visibility: Sequence[Visibility] | None = None,
    name: str | None = None,
    title: str | None = None,
) -> Callable[[Callable], Callable]:
    """Register a tool whose results the view `resource_uri` renders."""
    _require_ui(resource_uri)

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        if resource_uri not in server.resources:
            raise ValueError(
                f"no view {resource_uri!r} on this server: call add_app(server, uri, html) first"
            )
        schema, context = _input_schema(fn)
        tool = AppTool(
            name or fn.__name__, summary(fn.__doc__), schema, fn, _output_schema(fn), title, None, context,
            resource_uri, list(visibility) if visibility is not None else None,
        )  # fmt: skip
        server.add_tool(tool)
        return fn

    return register


def view_html(body: str, script: str, *, title: str = "MCP App") -> str:
    """A self-contained view: `body`, the ext-apps `App` bundle inline, then `script` as a module.

    The bundle (npm @modelcontextprotocol/ext-apps 2.0.4, `app-with-deps.js`, ESM) ends in
    one `export{…}`; it is turned into `const {App} = (() => {…; return {App}})()` so that the
    whole view is one HTML document with no request to make.
    """
    bundle = BUNDLE.read_text(encoding="utf-8")
    code, _, exports = bundle.rpartition("export{")
    names = exports.rstrip("};\n").split(",")
    app_name = next(part.split(" as ")[0] for part in names if part.endswith(" as App"))
    inline = f"const {{ App }} = (() => {{\n{code}\nreturn {{ App: {app_name} }};\n}})();\n"
    return (
        f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{title}</title></head>\n'
        f'<body>\n{body}\n<script type="module">\n{inline}{script}\n</script>\n</body></html>\n'
    )


def _require_ui(uri: str) -> None:
    if not uri.startswith("ui://"):
        raise ValueError(f"an MCP App's view is a ui:// resource, not {uri!r}")
