"""One client's connection to an MCP server: lifecycle, the method table, requests back.

A `Session` keeps the lifecycle state (initialized? which protocol version?
which log level and subscriptions?) and answers one message at a time with
`handle(message)`. Its dispatcher is a table from method to handler
(`Session.handlers`); the 2026-07-28 era (`wirelab.mcp.stateless`) builds its
own table from the same handlers.

A tool may ask the client for something while it runs, with a request that
goes the other way (`ctx.sample`, `ctx.list_roots`, `ctx.elicit`): see
`wirelab.mcp.server_to_client`.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from wirelab import jsonrpc
from wirelab.errors import ToolError
from wirelab.jsonrpc import INVALID_REQUEST, JsonRpcError, Message
from wirelab.mcp.primitives import Registry, ServerResourceTemplate
from wirelab.mcp.protocol import (
    LATEST_PROTOCOL_VERSION,
    LOG_LEVELS,
    RESOURCE_NOT_FOUND,
    SUPPORTED_PROTOCOL_VERSIONS,
    LogLevel,
    Send,
    argument_problems,
    decode_cursor,
    encode_cursor,
    invalid_params,
    optional_object,
    request_meta,
    required_string,
    without_none,
)
from wirelab.mcp.results import (
    error_result,
    prompt_messages,
    resource_contents,
    tool_result,
)
from wirelab.mcp.server_to_client import ServerToClient
from wirelab.tools import JSONSchema

log = logging.getLogger("wirelab.mcp.server")  # one logger for the server side, session included


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
                    without_none(
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


class Session(ServerToClient):
    """One client's connection to a `Server`: lifecycle state and the method table.

    `handle(message)` returns the response to a request, or None for a
    notification. Requests other than `initialize` and `ping` are refused
    until `initialize` has been answered.
    """

    def __init__(self, server: Registry, send: Send) -> None:
        self.server, self.send = server, send
        self.initialized = False  # True once `initialize` is answered: clients send at once
        self.client_ready = False  # True once `notifications/initialized` arrived
        self.protocol_version: str | None = None
        self.client_info: dict[str, Any] = {}
        self.client_capabilities: dict[str, Any] = {}
        self.log_level: LogLevel = "info"
        self.subscriptions: set[str] = set()
        self.in_flight: dict[Any, asyncio.Task] = {}
        super().__init__()  # the requests we send the client, by id, and its cached roots
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
            return await self.dispatcher.handle(message, request_meta(message))
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
            self.notify("notifications/message", without_none(level=level, logger=logger, data=data))

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
            raise invalid_params(
                f'initialize needs "protocolVersion", a string such as "{LATEST_PROTOCOL_VERSION}"'
            )
        supported = requested in SUPPORTED_PROTOCOL_VERSIONS
        self.protocol_version = requested if supported else LATEST_PROTOCOL_VERSION
        self.client_info = optional_object(params, "clientInfo")
        self.client_capabilities = optional_object(params, "capabilities")
        self.initialized = True
        log.info("initialize from %s: protocol %s", self.client_info.get("name"), self.protocol_version)
        return without_none(
            protocolVersion=self.protocol_version,
            capabilities=self.capabilities(),
            serverInfo=self.server.info,
            instructions=self.server.instructions,
        )

    def capabilities(self) -> dict[str, Any]:
        """What this server declares: derived from what is registered (`Server.capabilities`)."""
        return self.server.capabilities()

    def ping(self, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        return {}

    def on_initialized(self, params: dict[str, Any]) -> None:
        self.client_ready = True

    def on_cancelled(self, params: dict[str, Any]) -> None:
        """Stop the request the client gave up on; it gets no response."""
        request_id = params.get("requestId")
        task = self.in_flight.get(request_id) if isinstance(request_id, str | int) else None
        if task is not None:
            log.info("cancelled request %r: %s", params.get("requestId"), params.get("reason"))
            task.cancel()

    # --- tools ---

    def list_tools(self, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        page, next_cursor = self.paginate("tools", list(self.server.tools.values()), params)
        return without_none(tools=[t.describe() for t in page], nextCursor=next_cursor)

    async def call_tool(self, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        """Run a tool. Unknown tool: protocol error. Bad arguments or a failing tool: `isError`."""
        name = required_string(params, "name")
        tool = self.server.tools.get(name)
        if tool is None:
            raise invalid_params(f"unknown tool {name!r}; tools: {', '.join(self.server.tools)}", name=name)
        arguments = {} if params.get("arguments") is None else params["arguments"]
        problems = argument_problems(tool.input_schema, arguments)  # not an object: an isError result
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
        return without_none(resources=[r.describe() for r in page], nextCursor=next_cursor)

    def list_resource_templates(self, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        templates = list(self.server.templates.values())
        page, next_cursor = self.paginate("resourceTemplates", templates, params)
        return without_none(resourceTemplates=[t.describe() for t in page], nextCursor=next_cursor)

    def read_resource(self, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        uri = required_string(params, "uri")
        static = self.server.resources.get(uri)
        if static is not None:
            contents = resource_contents(uri, static.mime_type, static.read())
            meta = getattr(static, "contents_meta", None)  # e.g. an MCP App's `ui.csp`
            return {"contents": [contents | ({"_meta": meta} if meta else {})]}
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
        uri = required_string(params, "uri")
        if uri not in self.server.resources and not self.matching_templates(uri):
            raise JsonRpcError(RESOURCE_NOT_FOUND, f"Resource not found: {uri}", {"uri": uri})
        self.subscriptions.add(uri)
        return {}

    def unsubscribe(self, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        self.subscriptions.discard(required_string(params, "uri"))
        return {}

    # --- prompts, completion, logging ---

    def list_prompts(self, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        page, next_cursor = self.paginate("prompts", list(self.server.prompts.values()), params)
        return without_none(prompts=[p.describe() for p in page], nextCursor=next_cursor)

    def get_prompt(self, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        name = required_string(params, "name")
        prompt = self.server.prompts.get(name)
        if prompt is None:
            raise invalid_params(f"unknown prompt {name!r}; prompts: {', '.join(self.server.prompts)}")
        arguments = optional_object(params, "arguments")
        if not all(isinstance(value, str) for value in arguments.values()):
            raise invalid_params(f"prompt {prompt.name!r}: every argument must be a string")
        missing = [a["name"] for a in prompt.arguments if a["required"] and a["name"] not in arguments]
        unknown = sorted(set(arguments) - {a["name"] for a in prompt.arguments})
        if missing or unknown:
            raise invalid_params(
                f"prompt {prompt.name!r}: missing arguments {missing}, unknown arguments {unknown}"
            )
        try:
            rendered = prompt.render(**arguments)
        except LookupError as e:  # the prompt found nothing for its arguments
            raise invalid_params(f"prompt {prompt.name!r}: nothing found for {e}") from e
        return {"description": prompt.description, "messages": prompt_messages(rendered)}

    def complete(self, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        ref, argument = optional_object(params, "ref"), optional_object(params, "argument")
        key = ref.get("name") if ref.get("type") == "ref/prompt" else ref.get("uri")
        known = self.server.prompts if ref.get("type") == "ref/prompt" else self.server.templates
        if not isinstance(argument.get("name"), str):
            raise invalid_params('"argument" must be an object with a "name" string')
        if not isinstance(key, str) or key not in known:
            raise invalid_params(f"nothing to complete for ref {ref!r}")
        completer = self.server.completers.get((key, argument.get("name")))
        values = completer(str(argument.get("value", ""))) if completer else []
        return {"completion": {"values": values[:100], "total": len(values), "hasMore": len(values) > 100}}

    def set_log_level(self, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        level = params.get("level")
        if level not in LOG_LEVELS:
            raise invalid_params(f"level must be one of {', '.join(LOG_LEVELS)}; got {level!r}")
        self.log_level = level
        return {}

    # --- pagination ---

    def paginate(self, kind: str, items: list[Any], params: dict[str, Any]) -> tuple[list, str | None]:
        """One page of `items` and the cursor of the next page (None on the last page)."""
        start = decode_cursor(kind, params["cursor"], len(items)) if "cursor" in params else 0
        end = start + self.server.page_size
        return items[start:end], encode_cursor(kind, end) if end < len(items) else None
