"""A notebook cell as an MCP App host: the view in a sandboxed iframe, bridged to the client.

    view = await show_app(client, "browse_kb", {"query": "isError"}, approve=approve)

`show_app` reads the tool's `ui://` view, shows it in the cell's output (an anywidget whose
iframe is `sandbox="allow-scripts"`, its CSP from the resource's `_meta.ui.csp`), calls the
tool, and pushes the result in. What the view sends arrives here as a custom message and is
answered by `wirelab.mcp.extensions.app_host.AppSession` on the kernel's event loop; `view.wire` carries
that traffic for the wire inspector, `client.wire` the host ↔ server side.
"""

from __future__ import annotations

import asyncio
import pathlib
from typing import Any

import anywidget
import traitlets
from IPython.display import display

from wirelab.jsonrpc import Message
from wirelab.mcp.client import Client
from wirelab.mcp.extensions.app_host import SANDBOX, Approve, AppSession
from wirelab.widgets.kernel_patch import keep_cell_parents

HERE = pathlib.Path(__file__).parent


class AppView(anywidget.AnyWidget):
    """One MCP App view in the notebook; `session` answers it."""

    _esm = HERE / "app_view.js"
    srcdoc = traitlets.Unicode().tag(sync=True)
    sandbox = traitlets.Unicode(SANDBOX).tag(sync=True)
    title = traitlets.Unicode("MCP App").tag(sync=True)
    height = traitlets.Int(360, min=80, max=2000).tag(sync=True)

    def __init__(self, session: AppSession, srcdoc: str, loop: asyncio.AbstractEventLoop) -> None:
        keep_cell_parents()  # the view's messages come during async cells: see kernel_patch
        super().__init__(srcdoc=srcdoc, title=f"MCP App: {session.tool['name']}")
        self.session, self._loop = session, loop
        session.post = self.post
        self.on_msg(self._from_browser)

    @property
    def wire(self):  # noqa: ANN201 - a wirelab.wire.Wire, for inspect_wire(view)
        return self.session.wire

    def post(self, message: Message) -> None:
        """Send one message into the view (the browser relays it with postMessage)."""
        self.send({"kind": "to_view", "message": message})

    def _from_browser(self, widget: Any, content: Any, buffers: Any) -> None:
        if isinstance(content, dict) and content.get("kind") == "from_view":
            self._loop.call_soon_threadsafe(self._loop.create_task, self._answer(content.get("message")))

    async def _answer(self, message: Any) -> None:
        """Let the session answer; then fit the iframe to the height the view reported."""
        await self.session.receive(message)
        if self.session.height:
            self.height = max(80, min(2000, self.session.height + 16))

    def __repr__(self) -> str:
        return f"AppView(tool={self.session.tool['name']!r}, sandbox={self.sandbox!r})"


async def show_app(
    client: Client, tool_name: str, arguments: dict[str, Any], *, approve: Approve, height: int = 360
) -> AppView:
    """Render `tool_name`'s view in this cell's output, then run the tool and show its result."""
    tools = {tool["name"]: tool for tool in await client.list_tools()}
    if tool_name not in tools:
        raise LookupError(f"the server has no tool {tool_name!r}; it has {', '.join(tools)}")
    session = AppSession(client, tools[tool_name], approve=approve)
    view = AppView(session, await session.view(), asyncio.get_running_loop())
    view.height = height
    display(view)
    await session.run_tool(arguments)
    return view
