"""An MCP server from scratch: what it offers, and a session that answers messages.

A `Server` holds what is registered on it: tools, resources, resource
templates, prompts and completions. Each connection gets a `Session`, which
keeps the lifecycle state (initialized? which protocol version? which log
level and subscriptions?) and answers one message at a time (`await session.handle(...)`
in a notebook or a coroutine; `asyncio.run` here):

    >>> import asyncio
    >>> from wirelab.jsonrpc import request
    >>> server = Server("notes")
    >>> @server.tool()
    ... def add(a: int, b: int) -> int:
    ...     '''Add two integers.'''
    ...     return a + b
    >>> session = server.connect(send=print)  # `send` carries notifications out
    >>> hello = {"protocolVersion": "2025-11-25", "capabilities": {},
    ...          "clientInfo": {"name": "me", "version": "1"}}
    >>> asyncio.run(session.handle(request(1, "initialize", hello)))["result"]["capabilities"]
    {'tools': {'listChanged': True}}
    >>> asyncio.run(session.handle(request(2, "tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}})))
    {'jsonrpc': '2.0', 'id': 2, 'result': {'content': [{'type': 'text', 'text': '3'}]}}

The capabilities `initialize` declares are derived from what is registered
(`Server.capabilities`). The session lives in `wirelab.mcp.session`, the
primitives in `wirelab.mcp.primitives`, the results in `wirelab.mcp.results`,
what client and server share in `wirelab.mcp.protocol`. No transport here:
`wirelab.mcp.transports.stdio` and `wirelab.mcp.transports.http.server` move the messages.

Tasks are added by `wirelab.mcp.extensions.tasks`, MCP Apps by `wirelab.mcp.extensions.apps`. Not covered:
sampling with tools (`sampling.tools`), URL-mode elicitation, and stripping newer fields
for clients of older revisions.
"""

from __future__ import annotations

import dataclasses
import inspect
import typing
from collections.abc import Callable
from typing import Any

from wirelab.mcp.primitives import (
    Completer,
    ServerPrompt,
    ServerResource,
    ServerResourceTemplate,
    ServerTool,
)
from wirelab.mcp.protocol import Send, warm_up_validation, without_none
from wirelab.mcp.session import Context, Session
from wirelab.tools import JSONSchema, function_schema, summary, type_schema

__all__ = [
    "Context",
    "Server",
    "ServerPrompt",
    "ServerResource",
    "ServerResourceTemplate",
    "ServerTool",
    "Session",
]


class Server:
    """The tools, resources and prompts a server offers; `connect` opens a session.

    Register with the decorators `tool`, `resource`, `resource_template`,
    `prompt` and `completion`. `page_size` is how many items one `…/list`
    page holds before the result carries a `nextCursor`.
    """

    def __init__(
        self,
        name: str,
        version: str = "0.1.0",
        *,
        title: str | None = None,
        instructions: str | None = None,
        page_size: int = 50,
    ) -> None:
        self.info = without_none(name=name, version=version, title=title)
        self.instructions = instructions
        self.page_size = page_size
        self.tools: dict[str, ServerTool] = {}
        self.resources: dict[str, ServerResource] = {}
        self.templates: dict[str, ServerResourceTemplate] = {}
        self.prompts: dict[str, ServerPrompt] = {}
        self.completers: dict[tuple[str, str], Completer] = {}
        self.extensions: dict[str, dict[str, Any]] = {}  # by reverse-DNS id, e.g. MCP Apps
        self.sessions: set[Session] = set()
        warm_up_validation()

    def capabilities(self) -> dict[str, Any]:
        """What `initialize` declares, derived from what is registered, as the SDK does.

        `logging` only when a tool takes a `Context` (the only way this server
        sends log messages); `completions` only when a completion is registered.
        """
        logs = any(tool.context_parameter for tool in self.tools.values())
        offers = [
            ("tools", {"listChanged": True}, self.tools),
            ("resources", {"subscribe": True, "listChanged": True}, self.resources or self.templates),
            ("prompts", {"listChanged": True}, self.prompts),
            ("logging", {}, logs),
            ("completions", {}, self.completers),
            ("extensions", self.extensions, self.extensions),
        ]
        return {name: capability for name, capability, present in offers if present}

    def connect(self, send: Send) -> Session:
        """A new session; `send` is called with every message the server sends unasked."""
        session = Session(self, send)
        self.sessions.add(session)
        return session

    def tool(
        self,
        *,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        output_schema: JSONSchema | None = None,
        annotations: dict[str, Any] | None = None,
    ) -> Callable[[Callable], Callable]:
        """Register a function as a tool: its input schema comes from its signature.

        A return annotation that is a TypedDict or a dataclass becomes the
        tool's `outputSchema` (or pass `output_schema`); the result is then
        also sent as `structuredContent`.
        """

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            schema, context = _input_schema(fn)
            self.add_tool(
                ServerTool(
                    name or fn.__name__,
                    description or summary(fn.__doc__),
                    schema,
                    fn,
                    output_schema or _output_schema(fn),
                    title,
                    annotations,
                    context,
                )
            )
            return fn

        return register

    def add_tool(self, tool: ServerTool) -> None:
        """Add a tool; connected clients get `notifications/tools/list_changed`."""
        self.tools[tool.name] = tool
        self._broadcast("notifications/tools/list_changed")

    def remove_tool(self, name: str) -> None:
        """Remove a tool; connected clients get `notifications/tools/list_changed`."""
        del self.tools[name]
        self._broadcast("notifications/tools/list_changed")

    def resource(
        self,
        uri: str,
        *,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        mime_type: str = "text/plain",
    ) -> Callable[[Callable], Callable]:
        """Register a function returning the text (or bytes) of the resource `uri`."""

        def register(fn: Callable[[], str | bytes]) -> Callable[[], str | bytes]:
            self.resources[uri] = ServerResource(
                uri, name or fn.__name__, fn, description or summary(fn.__doc__), mime_type, title
            )
            self._broadcast("notifications/resources/list_changed")
            return fn

        return register

    def resource_template(
        self,
        uri_template: str,
        *,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        mime_type: str = "text/plain",
    ) -> Callable[[Callable], Callable]:
        """Register a function of the template's variables; it raises `LookupError` if none."""

        def register(fn: Callable[..., str | bytes]) -> Callable[..., str | bytes]:
            self.templates[uri_template] = ServerResourceTemplate(
                uri_template, name or fn.__name__, fn, description or summary(fn.__doc__), mime_type, title
            )
            return fn

        return register

    def prompt(
        self, *, name: str | None = None, title: str | None = None, description: str | None = None
    ) -> Callable[[Callable], Callable]:
        """Register a prompt: its arguments are the function's (string) parameters."""

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            prompt = ServerPrompt(
                name or fn.__name__, description or summary(fn.__doc__), _prompt_arguments(fn), fn, title
            )
            self.prompts[prompt.name] = prompt
            self._broadcast("notifications/prompts/list_changed")
            return fn

        return register

    def completion(self, ref: str, argument: str) -> Callable[[Completer], Completer]:
        """Register completions for `argument` of a prompt (by name) or a URI template.

        The function gets what the user typed so far and returns suggestions.
        """

        def register(fn: Completer) -> Completer:
            self.completers[(ref, argument)] = fn
            return fn

        return register

    def resource_updated(self, uri: str) -> None:
        """Tell the sessions subscribed to `uri` that it changed."""
        for session in list(self.sessions):
            session.resource_updated(uri)

    def _broadcast(self, method: str) -> None:
        for session in list(self.sessions):
            session.notify(method)


def _input_schema(fn: Callable[..., Any]) -> tuple[JSONSchema, str | None]:
    """`fn`'s input schema, leaving out a parameter annotated `Context` or a subclass (named second)."""
    hints = typing.get_type_hints(fn)
    is_context = [isinstance(hint, type) and issubclass(hint, Context) for hint in hints.values()]
    context = next((name for name, yes in zip(hints, is_context, strict=True) if yes), None)
    if context is None:
        return function_schema(fn), None
    signature = inspect.signature(fn)
    visible = signature.replace(parameters=[p for p in signature.parameters.values() if p.name != context])

    def described(*args: Any, **kwargs: Any) -> None:
        """Stands for `fn` without its context parameter, only to be described."""

    described.__signature__ = visible  # type: ignore[attr-defined]
    described.__annotations__ = {n: h for n, h in hints.items() if n != context}
    described.__doc__, described.__name__ = fn.__doc__, fn.__name__
    return function_schema(described), context


def _output_schema(fn: Callable[..., Any]) -> JSONSchema | None:
    returns = typing.get_type_hints(fn).get("return")
    if typing.is_typeddict(returns) or dataclasses.is_dataclass(returns):
        return type_schema(returns)
    return None


def _prompt_arguments(fn: Callable[..., Any]) -> list[dict[str, Any]]:
    schema = function_schema(fn)
    return [
        without_none(name=name, description=prop.get("description"), required=name in schema["required"])
        for name, prop in schema["properties"].items()
    ]
