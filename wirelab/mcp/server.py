"""An MCP server from scratch: what it offers, and a session that answers messages.

A `Server` holds what is registered on it: tools, resources, resource
templates, prompts and completions. Each connection gets a `Session`, which
keeps the lifecycle state (initialized? which protocol version? which log
level and subscriptions?) and answers one message at a time:

    server = Server("notes")

    @server.tool()
    def add(a: int, b: int) -> int:
        '''Add two integers.'''
        return a + b

    session = server.connect(send=print)      # `send` carries notifications out
    await session.handle(request(1, "initialize", {"protocolVersion": "2025-11-25",
                                                   "capabilities": {}, "clientInfo": {...}}))
    await session.handle(request(2, "tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}}))
    # -> {"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "3"}]}}

The session's dispatcher is a table from method to handler (`Session.handlers`);
a later protocol era (2026-07-28, stateless) can build its own table from the
same handlers. No transport here: `wirelab.mcp.stdio` moves the messages.

A tool may also ask the client for something while it runs, with a request
that goes the other way (server to client): `ctx.sample(...)`
(`sampling/createMessage`), `ctx.list_roots()` (`roots/list`) and
`ctx.elicit(...)` (`elicitation/create`). Each is sent only if the client
declared the capability in `initialize`, and each result is checked before
the tool sees it.

Not covered: tasks, sampling with tools (`sampling.tools`), URL-mode
elicitation, and stripping newer fields for clients of older revisions.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import dataclasses
import importlib
import inspect
import itertools
import json
import logging
import re
import sys
import threading
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from wirelab import jsonrpc
from wirelab.errors import ToolError
from wirelab.jsonrpc import INVALID_PARAMS, INVALID_REQUEST, JsonRpcError, Message
from wirelab.tools import JSONSchema, function_schema, summary, type_schema

log = logging.getLogger(__name__)

LATEST_PROTOCOL_VERSION = "2025-11-25"
# Only the revisions this server implements. 2025-03-26 requires accepting JSON-RPC batches
# and 2024-11-05 has no structuredContent or elicitation; a client asking for either gets
# 2025-11-25 and decides whether it can go on. 2025-06-18 differs from 2025-11-25 only in
# additions this server does not use.
SUPPORTED_PROTOCOL_VERSIONS = ("2025-06-18", "2025-11-25")
RESOURCE_NOT_FOUND = -32002  # MCP's code up to 2025-11-25 (resources.mdx, "Error Handling")
CLIENT_REQUEST_TIMEOUT = 60.0  # seconds a server waits for the client (a user may be deciding)
ELICIT_ACTIONS = ("accept", "decline", "cancel")
LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")

Send = Callable[[Message], None]
LogLevel = Literal["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]


def _invalid_params(message: str, **data: Any) -> JsonRpcError:
    return JsonRpcError(INVALID_PARAMS, f"Invalid params: {message}", data or None)


def _text(text: str) -> dict[str, str]:
    return {"type": "text", "text": text}


def _without_none(**fields: Any) -> dict[str, Any]:
    return {name: value for name, value in fields.items() if value is not None}


class MissingClientCapability(RuntimeError):
    """The server wanted to send a request the client did not declare it can answer."""


class InvalidClientResult(ValueError):
    """The client answered a server-to-client request with a result of the wrong shape."""


# --- what a server offers ---------------------------------------------------


@dataclass
class Context:
    """What a tool may use while it runs: progress and log notifications for its call.

    A tool asks for it with a parameter annotated `Context`; that parameter is
    not part of the tool's input schema.
    """

    session: Session
    progress_token: str | int | None = None

    def report_progress(
        self, progress: float, total: float | None = None, message: str | None = None
    ) -> None:
        """Send `notifications/progress`, if the caller asked for it with a progress token."""
        if self.progress_token is not None:
            self.session.send(
                jsonrpc.notification(
                    "notifications/progress",
                    _without_none(
                        progressToken=self.progress_token, progress=progress, total=total, message=message
                    ),
                )
            )

    def log(self, level: LogLevel, data: Any, logger: str | None = None) -> None:
        """Send a `notifications/message` log entry to the client (if at or above its level)."""
        self.session.log(level, data, logger)

    async def sample(
        self, messages: str | list[dict[str, Any]], max_tokens: int, **options: Any
    ) -> dict[str, Any]:
        """Ask the client's model for one message; see `Session.create_message`.

        reply = await ctx.sample("Summarize: ...", max_tokens=100)
        reply["content"]["text"]
        """
        return await self.session.create_message(messages, max_tokens, **options)

    async def list_roots(self) -> list[dict[str, Any]]:
        """The client's roots (`file://` URIs the user chose); see `Session.list_roots`."""
        return await self.session.list_roots()

    async def elicit(self, message: str, requested_schema: JSONSchema) -> dict[str, Any]:
        """Ask the user for input through the client; see `Session.elicit`."""
        return await self.session.elicit(message, requested_schema)


@dataclass
class ServerTool:
    """A tool as `tools/list` describes it, plus the function `tools/call` runs."""

    name: str
    description: str
    input_schema: JSONSchema
    function: Callable[..., Any]
    output_schema: JSONSchema | None = None
    title: str | None = None
    annotations: dict[str, Any] | None = None
    context_parameter: str | None = None

    def describe(self) -> dict[str, Any]:
        return _without_none(
            name=self.name,
            title=self.title,
            description=self.description,
            inputSchema=self.input_schema,
            outputSchema=self.output_schema,
            annotations=self.annotations,
        )


@dataclass
class ServerResource:
    """A resource with a fixed URI; `read()` returns its text (str) or its bytes."""

    uri: str
    name: str
    read: Callable[[], str | bytes]
    description: str | None = None
    mime_type: str | None = None
    title: str | None = None

    def describe(self) -> dict[str, Any]:
        return _without_none(
            uri=self.uri,
            name=self.name,
            title=self.title,
            description=self.description,
            mimeType=self.mime_type,
        )


@dataclass
class ServerResourceTemplate:
    """Resources named by a URI template such as `notes://note/{slug}` (RFC 6570 level 1).

    `read(**variables)` returns the text or bytes, or raises `LookupError`
    when no resource has that URI.
    """

    uri_template: str
    name: str
    read: Callable[..., str | bytes]
    description: str | None = None
    mime_type: str | None = None
    title: str | None = None

    def describe(self) -> dict[str, Any]:
        return _without_none(
            uriTemplate=self.uri_template,
            name=self.name,
            title=self.title,
            description=self.description,
            mimeType=self.mime_type,
        )

    def match(self, uri: str) -> dict[str, str] | None:
        """The template's variables in `uri`, e.g. `notes://note/stdio` -> `{"slug": "stdio"}`."""
        parts = re.split(r"\{(\w+)\}", self.uri_template)
        pattern = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>[^/?#]+)" for i, p in enumerate(parts))
        found = re.fullmatch(pattern, uri)
        return found.groupdict() if found else None


@dataclass
class ServerPrompt:
    """A prompt template; `render(**arguments)` returns a string or a list of messages."""

    name: str
    description: str
    arguments: list[dict[str, Any]]
    render: Callable[..., Any]
    title: str | None = None

    def describe(self) -> dict[str, Any]:
        return _without_none(
            name=self.name, title=self.title, description=self.description, arguments=self.arguments
        )


Completer = Callable[[str], list[str]]


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
        self.info = _without_none(name=name, version=version, title=title)
        self.instructions = instructions
        self.page_size = page_size
        self.tools: dict[str, ServerTool] = {}
        self.resources: dict[str, ServerResource] = {}
        self.templates: dict[str, ServerResourceTemplate] = {}
        self.prompts: dict[str, ServerPrompt] = {}
        self.completers: dict[tuple[str, str], Completer] = {}
        self.sessions: set[Session] = set()
        warm_up_validation()

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
    """`fn`'s input schema, leaving out a parameter annotated `Context` (named in second place)."""
    hints = typing.get_type_hints(fn)
    context = next((n for n, hint in hints.items() if hint is Context), None)
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
        _without_none(name=name, description=prop.get("description"), required=name in schema["required"])
        for name, prop in schema["properties"].items()
    ]


# --- one connection ----------------------------------------------------------


class Session:
    """One client's connection to a `Server`: lifecycle state and the method table.

    `handle(message)` returns the response to a request, or None for a
    notification. Requests other than `initialize` and `ping` are refused
    until `initialize` has been answered.
    """

    def __init__(self, server: Server, send: Send) -> None:
        self.server, self.send = server, send
        self.initialized = False  # True once `initialize` is answered: clients send at once
        self.client_ready = False  # True once `notifications/initialized` arrived
        self.protocol_version: str | None = None
        self.client_info: dict[str, Any] = {}
        self.client_capabilities: dict[str, Any] = {}
        self.log_level: LogLevel = "info"
        self.subscriptions: set[str] = set()
        self.in_flight: dict[Any, asyncio.Task] = {}
        self.client_requests: dict[int, asyncio.Future] = {}  # ours to the client, by id
        self._client_request_ids = itertools.count(1)
        self._roots: list[dict[str, Any]] | None = None  # cached until roots/list_changed
        self.handlers: dict[str, jsonrpc.Handler] = {
            "initialize": self.initialize,
            "ping": self.ping,
            "notifications/initialized": self.on_initialized,
            "notifications/cancelled": self.on_cancelled,
            "tools/list": self.list_tools,
            "tools/call": self.call_tool,
            "resources/list": self.list_resources,
            "resources/templates/list": self.list_resource_templates,
            "resources/read": self.read_resource,
            "resources/subscribe": self.subscribe,
            "resources/unsubscribe": self.unsubscribe,
            "prompts/list": self.list_prompts,
            "prompts/get": self.get_prompt,
            "completion/complete": self.complete,
            "logging/setLevel": self.set_log_level,
        }
        self.dispatcher = jsonrpc.Dispatcher(self.handlers, guard=self.require_initialize)

    async def handle(self, message: Message) -> Message | None:
        """Answer one valid JSON-RPC message (see `jsonrpc.receive` for checking one).

        A response completes the server-to-client request with its id, and
        `notifications/roots/list_changed` forgets the cached roots; both stay
        out of `handlers`, the table of what the client may ask of the server.
        """
        if jsonrpc.is_response(message):
            return self.take_client_response(message)
        if message.get("method") == "notifications/roots/list_changed":
            self._roots = None
            return None
        if not jsonrpc.is_request(message):
            return await self.dispatcher.handle(message)
        task = asyncio.current_task()
        self.in_flight[message["id"]] = task
        try:
            return await self.dispatcher.handle(message, _meta(message))
        finally:
            if self.in_flight.get(message["id"]) is task:
                del self.in_flight[message["id"]]

    def close(self) -> None:
        """Forget this session: it gets no more notifications; our requests to it fail."""
        self.server.sessions.discard(self)
        for future in self.client_requests.values():
            if not future.done():
                future.set_exception(ConnectionError("the client disconnected before answering"))

    def notify(self, method: str, params: Mapping[str, Any] | None = None) -> None:
        """Send a notification, once the client may receive them (after `initialize`)."""
        if self.initialized:
            self.send(jsonrpc.notification(method, params))

    def log(self, level: LogLevel, data: Any, logger: str | None = None) -> None:
        """Send `notifications/message` if `level` is at or above the client's chosen level."""
        if LOG_LEVELS.index(level) >= LOG_LEVELS.index(self.log_level):
            self.notify("notifications/message", _without_none(level=level, logger=logger, data=data))

    def resource_updated(self, uri: str) -> None:
        if uri in self.subscriptions:
            self.notify("notifications/resources/updated", {"uri": uri})

    def require_initialize(self, message: Message) -> None:
        """The lifecycle guard: only `initialize` and `ping` come before `initialize`.

        The spec names no error code for this. We answer -32600 Invalid Request
        with a message that says what to do. (The Python SDK 2.3 answers -32602
        for compatibility, in `mcp/server/runner.py`; -32002, the "server not
        initialized" of LSP, is MCP's resource-not-found.) Notifications are
        dropped, as the SDK does.
        """
        if self.initialized or message["method"] in ("initialize", "ping"):
            return
        log.warning("refused %s: the client has not sent initialize", message["method"])
        raise JsonRpcError(
            INVALID_REQUEST, f"Server not initialized: send initialize before {message['method']}"
        )

    # --- lifecycle ---

    def initialize(self, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        """Negotiate the version: the client's if we support it, else our latest."""
        if self.initialized:
            raise JsonRpcError(INVALID_REQUEST, "Invalid Request: initialize was already answered")
        requested = params.get("protocolVersion")
        if not isinstance(requested, str):
            raise _invalid_params(
                f'initialize needs "protocolVersion", a string such as "{LATEST_PROTOCOL_VERSION}"'
            )
        supported = requested in SUPPORTED_PROTOCOL_VERSIONS
        self.protocol_version = requested if supported else LATEST_PROTOCOL_VERSION
        self.client_info = params.get("clientInfo") or {}
        self.client_capabilities = params.get("capabilities") or {}
        self.initialized = True
        log.info("initialize from %s: protocol %s", self.client_info.get("name"), self.protocol_version)
        return _without_none(
            protocolVersion=self.protocol_version,
            capabilities=self.capabilities(),
            serverInfo=self.server.info,
            instructions=self.server.instructions,
        )

    def capabilities(self) -> dict[str, Any]:
        return {
            "tools": {"listChanged": True},
            "resources": {"subscribe": True, "listChanged": True},
            "prompts": {"listChanged": True},
            "logging": {},
            "completions": {},
        }

    def ping(self, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        return {}

    def on_initialized(self, params: dict[str, Any]) -> None:
        self.client_ready = True

    def on_cancelled(self, params: dict[str, Any]) -> None:
        """Stop the request the client gave up on; it gets no response."""
        task = self.in_flight.get(params.get("requestId"))
        if task is not None:
            log.info("cancelled request %r: %s", params.get("requestId"), params.get("reason"))
            task.cancel()

    # --- tools ---

    def list_tools(self, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        page, next_cursor = self.paginate("tools", list(self.server.tools.values()), params)
        return _without_none(tools=[t.describe() for t in page], nextCursor=next_cursor)

    async def call_tool(self, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        """Run a tool. Unknown tool: protocol error. Bad arguments or a failing tool: `isError`."""
        tool = self.server.tools.get(params.get("name"))
        if tool is None:
            raise _invalid_params(
                f"unknown tool {params.get('name')!r}; tools: {', '.join(self.server.tools)}",
                name=params.get("name"),
            )
        arguments = params.get("arguments") or {}
        problems = argument_problems(tool.input_schema, arguments)
        if problems:
            return error_result(f"Invalid arguments for {tool.name}: " + "; ".join(problems))
        if tool.context_parameter:
            arguments = {**arguments, tool.context_parameter: Context(self, meta.get("progressToken"))}
        try:
            value = tool.function(**arguments)
            value = await value if inspect.isawaitable(value) else value
        except ToolError as e:
            return error_result(e.content())
        except Exception as e:  # the model reads what went wrong and may try again
            log.exception("tool %s failed", tool.name)
            return error_result(f"{tool.name} failed: {type(e).__name__}: {e}")
        return tool_result(tool, value)

    # --- resources ---

    def list_resources(self, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        page, next_cursor = self.paginate("resources", list(self.server.resources.values()), params)
        return _without_none(resources=[r.describe() for r in page], nextCursor=next_cursor)

    def list_resource_templates(self, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        templates = list(self.server.templates.values())
        page, next_cursor = self.paginate("resourceTemplates", templates, params)
        return _without_none(resourceTemplates=[t.describe() for t in page], nextCursor=next_cursor)

    def read_resource(self, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        uri = _required_string(params, "uri")
        static = self.server.resources.get(uri)
        if static is not None:
            return {"contents": [resource_contents(uri, static.mime_type, static.read())]}
        for template, variables in self.matching_templates(uri):
            try:
                content = template.read(**variables)
            except LookupError:
                continue
            return {"contents": [resource_contents(uri, template.mime_type, content)]}
        raise JsonRpcError(RESOURCE_NOT_FOUND, f"Resource not found: {uri}", {"uri": uri})

    def matching_templates(self, uri: str) -> list[tuple[ServerResourceTemplate, dict[str, str]]]:
        matches = ((t, t.match(uri)) for t in self.server.templates.values())
        return [(t, variables) for t, variables in matches if variables is not None]

    def subscribe(self, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        uri = _required_string(params, "uri")
        if uri not in self.server.resources and not self.matching_templates(uri):
            raise JsonRpcError(RESOURCE_NOT_FOUND, f"Resource not found: {uri}", {"uri": uri})
        self.subscriptions.add(uri)
        return {}

    def unsubscribe(self, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        self.subscriptions.discard(_required_string(params, "uri"))
        return {}

    # --- prompts, completion, logging ---

    def list_prompts(self, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        page, next_cursor = self.paginate("prompts", list(self.server.prompts.values()), params)
        return _without_none(prompts=[p.describe() for p in page], nextCursor=next_cursor)

    def get_prompt(self, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        prompt = self.server.prompts.get(params.get("name"))
        if prompt is None:
            raise _invalid_params(
                f"unknown prompt {params.get('name')!r}; prompts: {', '.join(self.server.prompts)}"
            )
        arguments = params.get("arguments") or {}
        missing = [a["name"] for a in prompt.arguments if a["required"] and a["name"] not in arguments]
        unknown = sorted(set(arguments) - {a["name"] for a in prompt.arguments})
        if missing or unknown:
            raise _invalid_params(
                f"prompt {prompt.name!r}: missing arguments {missing}, unknown arguments {unknown}"
            )
        try:
            rendered = prompt.render(**arguments)
        except LookupError as e:  # the prompt found nothing for its arguments
            raise _invalid_params(f"prompt {prompt.name!r}: nothing found for {e}") from e
        return {"description": prompt.description, "messages": prompt_messages(rendered)}

    def complete(self, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        ref, argument = params.get("ref") or {}, params.get("argument") or {}
        key = ref.get("name") if ref.get("type") == "ref/prompt" else ref.get("uri")
        known = self.server.prompts if ref.get("type") == "ref/prompt" else self.server.templates
        if key not in known:
            raise _invalid_params(f"nothing to complete for ref {ref!r}")
        completer = self.server.completers.get((key, argument.get("name")))
        values = completer(str(argument.get("value", ""))) if completer else []
        return {"completion": {"values": values[:100], "total": len(values), "hasMore": len(values) > 100}}

    def set_log_level(self, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        level = params.get("level")
        if level not in LOG_LEVELS:
            raise _invalid_params(f"level must be one of {', '.join(LOG_LEVELS)}; got {level!r}")
        self.log_level = level
        return {}

    # --- requests to the client (sampling, roots, elicitation) ---

    async def request(
        self, method: str, params: Mapping[str, Any] | None = None, *, timeout: float = CLIENT_REQUEST_TIMEOUT
    ) -> Any:
        """Send a request to the client and wait for its result; an error raises `JsonRpcError`.

        If the client does not answer within `timeout` seconds, or the tool
        that asked is itself cancelled, the client gets `notifications/cancelled`.
        """
        if self.protocol_version not in SUPPORTED_PROTOCOL_VERSIONS:
            raise RuntimeError(
                f"protocol {self.protocol_version} has no server-to-client requests: "
                "a 2026-07-28 server answers with an InputRequiredResult instead"
            )
        id = next(self._client_request_ids)
        future = self.client_requests[id] = asyncio.get_running_loop().create_future()
        self.send(jsonrpc.request(id, method, params))
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            self.notify("notifications/cancelled", {"requestId": id, "reason": "no answer in time"})
            raise TimeoutError(f"the client did not answer {method} within {timeout} s") from None
        except asyncio.CancelledError:
            self.notify(
                "notifications/cancelled", {"requestId": id, "reason": "the request that needed it ended"}
            )
            raise
        finally:
            del self.client_requests[id]

    def take_client_response(self, response: Message) -> None:
        """Complete the request the client answered; a response to nothing is logged and dropped."""
        future = self.client_requests.get(response["id"])
        if future is None or future.done():
            log.warning("the client answered no pending request: id %r", response["id"])
        elif "error" in response:
            future.set_exception(JsonRpcError.from_object(response["error"]))
        else:
            future.set_result(response["result"])

    def require_client_capability(self, name: str, method: str) -> dict[str, Any]:
        """The client's declared capability `name`; `MissingClientCapability` if it has none."""
        declared = self.client_capabilities.get(name)
        if not isinstance(declared, dict):
            raise MissingClientCapability(
                f"the client did not declare {name!r} in initialize, so the server must not send {method}"
            )
        return declared

    async def create_message(
        self,
        messages: str | list[dict[str, Any]],
        max_tokens: int,
        *,
        system_prompt: str | None = None,
        model_preferences: dict[str, Any] | None = None,
        include_context: str | None = None,
        temperature: float | None = None,
        timeout: float = CLIENT_REQUEST_TIMEOUT,
    ) -> dict[str, Any]:
        """`sampling/createMessage`: the client's model writes one message; a string is one user turn.

        Returns the checked result: `role`, `content`, `model`, `stopReason`.
        """
        declared = self.require_client_capability("sampling", "sampling/createMessage")
        if include_context in ("thisServer", "allServers") and "context" not in declared:
            raise MissingClientCapability(
                f"includeContext {include_context!r} needs the client's "
                '"sampling.context" capability; omit it or use "none"'
            )
        params = _without_none(
            messages=sampling_messages(messages),
            maxTokens=max_tokens,
            systemPrompt=system_prompt,
            modelPreferences=model_preferences,
            includeContext=include_context,
            temperature=temperature,
        )
        result = await self.request("sampling/createMessage", params, timeout=timeout)
        return checked_sampling_result(result)

    async def list_roots(self) -> list[dict[str, Any]]:
        """`roots/list`, asked once and cached until the client sends `roots/list_changed`."""
        self.require_client_capability("roots", "roots/list")
        if self._roots is None:
            self._roots = checked_roots(await self.request("roots/list"))
        return self._roots

    async def elicit(
        self, message: str, requested_schema: JSONSchema, *, timeout: float = CLIENT_REQUEST_TIMEOUT
    ) -> dict[str, Any]:
        """`elicitation/create` in form mode: `{"action": "accept", "content": {...}}`, or decline/cancel.

        Accepted content is checked against `requested_schema`.
        """
        declared = self.require_client_capability("elicitation", "elicitation/create")
        if declared and "form" not in declared:
            raise MissingClientCapability("the client declared elicitation without form mode")
        params = {"mode": "form", "message": message, "requestedSchema": requested_schema}
        result = await self.request("elicitation/create", params, timeout=timeout)
        return checked_elicit_result(result, requested_schema)

    # --- pagination ---

    def paginate(self, kind: str, items: list[Any], params: dict[str, Any]) -> tuple[list, str | None]:
        """One page of `items` and the cursor of the next page (None on the last page)."""
        start = decode_cursor(kind, params["cursor"], len(items)) if "cursor" in params else 0
        end = start + self.server.page_size
        return items[start:end], encode_cursor(kind, end) if end < len(items) else None


def encode_cursor(kind: str, offset: int) -> str:
    """An opaque cursor, e.g. `encode_cursor("tools", 50)` -> 'eyJsaXN0Ijo…'."""
    return base64.urlsafe_b64encode(json.dumps({"list": kind, "offset": offset}).encode()).decode()


def decode_cursor(kind: str, cursor: Any, length: int) -> int:
    """The offset in a cursor this server made for `kind`; -32602 for any other cursor."""
    try:
        state = json.loads(base64.urlsafe_b64decode(str(cursor).encode()))
        offset = state["offset"] if state["list"] == kind else None
    except (ValueError, TypeError, KeyError, binascii.Error):
        offset = None
    if not isinstance(offset, int) or not 0 <= offset < length:
        raise _invalid_params(f"invalid cursor {cursor!r}: pass back a nextCursor this server sent")
    return offset


def warm_up_validation() -> None:
    """Start importing jsonschema in a thread: it takes seconds (more on a busy machine).

    At the top of this module the import would delay every server's start (and its
    answer to initialize); left to the first tools/call, it would delay that call past
    a client's timeout. In a thread it overlaps the handshake; a call that comes too
    early waits for the rest of the import.
    """
    if "jsonschema" not in sys.modules:
        threading.Thread(target=importlib.import_module, args=("jsonschema",), daemon=True).start()


def argument_problems(schema: JSONSchema, arguments: Any) -> list[str]:
    """What is wrong with `arguments` under `schema` (JSON Schema 2020-12), one line each."""
    import jsonschema  # warm_up_validation() started this import when the server was made

    validator = jsonschema.Draft202012Validator(schema)
    return [
        f"{'/'.join(map(str, e.absolute_path)) or 'arguments'}: {e.message}"
        for e in sorted(validator.iter_errors(arguments), key=lambda e: list(e.absolute_path))
    ]


def error_result(text: str) -> dict[str, Any]:
    """A tool result that reports a failure the model can read and correct."""
    return {"content": [_text(text)], "isError": True}


def tool_result(tool: ServerTool, value: Any) -> dict[str, Any]:
    """A tool's return value as a `CallToolResult`; structured when it has an output schema."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = dataclasses.asdict(value)
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    if tool.output_schema is None:
        return {"content": [_text(text)]}
    problems = argument_problems(tool.output_schema, value)
    if problems:  # a server bug: the spec says results MUST conform to the output schema
        raise JsonRpcError(
            jsonrpc.INTERNAL_ERROR,
            f"Internal error: {tool.name} returned a value that breaks its outputSchema: {problems}",
        )
    return {"content": [_text(text)], "structuredContent": value}


def resource_contents(uri: str, mime_type: str | None, content: str | bytes) -> dict[str, Any]:
    """Text contents, or base64 `blob` contents for bytes."""
    if isinstance(content, bytes):
        return _without_none(uri=uri, mimeType=mime_type, blob=base64.b64encode(content).decode())
    return _without_none(uri=uri, mimeType=mime_type, text=content)


def prompt_messages(rendered: Any) -> list[dict[str, Any]]:
    """A prompt's messages: a string is one user message; `(role, text)` pairs become messages."""
    if isinstance(rendered, str):
        rendered = [("user", rendered)]
    return [{"role": role, "content": _text(text)} for role, text in rendered]


def sampling_messages(messages: str | list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sampling messages: a string is one user message, e.g.
    `"Hi"` -> `[{"role": "user", "content": {"type": "text", "text": "Hi"}}]`."""
    return [{"role": "user", "content": _text(messages)}] if isinstance(messages, str) else messages


def checked_sampling_result(result: Any) -> dict[str, Any]:
    """A `CreateMessageResult` as received; `InvalidClientResult` says what is missing."""
    if not isinstance(result, dict):
        raise InvalidClientResult(f"sampling result must be an object, got {result!r}")
    problems = [
        f"{name} must be {what}"
        for name, what, ok in [
            ("role", '"assistant" or "user"', result.get("role") in ("assistant", "user")),
            ("content", "a content object or a list of them", isinstance(result.get("content"), dict | list)),
            ("model", "a string naming the model", isinstance(result.get("model"), str)),
        ]
        if not ok
    ]
    if problems:
        raise InvalidClientResult("bad sampling result: " + "; ".join(problems))
    return result


def checked_roots(result: Any) -> list[dict[str, Any]]:
    """The `roots` of a `ListRootsResult`; each needs a `file://` URI."""
    roots = result.get("roots") if isinstance(result, dict) else None
    if not isinstance(roots, list):
        raise InvalidClientResult(f'roots/list result must have a "roots" list, got {result!r}')
    for root in roots:
        if not (isinstance(root, dict) and str(root.get("uri")).startswith("file://")):
            raise InvalidClientResult(f"each root needs a file:// uri, got {root!r}")
    return roots


def checked_elicit_result(result: Any, schema: JSONSchema) -> dict[str, Any]:
    """An `ElicitResult`: a known action, and for accept, content that fits the schema."""
    action = result.get("action") if isinstance(result, dict) else None
    if action not in ELICIT_ACTIONS:
        raise InvalidClientResult(
            f"elicitation action must be one of {', '.join(ELICIT_ACTIONS)}, got {result!r}"
        )
    if action == "accept":
        problems = argument_problems(schema, result.get("content"))
        if problems:
            raise InvalidClientResult("accepted content breaks the requested schema: " + "; ".join(problems))
    return result


def _meta(request: Message) -> dict[str, Any]:
    """The request's `_meta` object (where `progressToken` travels), `{}` when absent."""
    meta = (request.get("params") or {}).get("_meta")
    return meta if isinstance(meta, dict) else {}


def _required_string(params: dict[str, Any], name: str) -> str:
    value = params.get(name)
    if not isinstance(value, str):
        raise _invalid_params(f'"{name}" must be a string')
    return value
