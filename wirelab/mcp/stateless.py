"""The 2026-07-28 revision of MCP ("stateless"): every request stands alone.

There is no `initialize`. Each request carries, in `params._meta`, the
protocol version it speaks and the client's capabilities; over HTTP the
version, the method and the tool, prompt or resource name are repeated in
headers, and the server checks that they match the body:

    POST /mcp
    MCP-Protocol-Version: 2026-07-28
    Mcp-Method: tools/call
    Mcp-Name: add
    {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
     "params": {"name": "add", "arguments": {"a": 1, "b": 2},
                "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                          "io.modelcontextprotocol/clientCapabilities": {}}}}

`StatelessServer` answers such a request with the same handlers a
`Session` uses (`Session.handlers`), minus the methods this revision removed
(`initialize`, `ping`, `logging/setLevel`, `resources/subscribe`), plus
`server/discover`. Every result gets `resultType: "complete"`; list and read
results get the caching hints `ttlMs` and `cacheScope`. Errors are checked in
this order: missing `_meta` fields (-32602), headers that disagree with the
body (-32020), an unsupported version (-32022).

Not covered: `subscriptions/listen` (long-lived change notifications),
`InputRequiredResult` (the server asking the client for input), `x-mcp-header`
tool parameters (`Mcp-Param-*` headers) and `-32021` (this server requires no
client capability).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping
from typing import Any

from wirelab import jsonrpc
from wirelab.jsonrpc import INVALID_PARAMS, JsonRpcError, Message
from wirelab.mcp.protocol import (
    HANDSHAKE_ERA_VERSIONS,
    LOG_LEVELS,
    RESOURCE_NOT_FOUND,
    SUPPORTED_PROTOCOL_VERSIONS,
    Send,
)
from wirelab.mcp.server import Server
from wirelab.mcp.session import Session

MODERN_PROTOCOL_VERSION = "2026-07-28"
PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo"
LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"

HEADER_MISMATCH = -32020
UNSUPPORTED_PROTOCOL_VERSION = -32022

VERSION_HEADER = "MCP-Protocol-Version"
METHOD_HEADER = "Mcp-Method"
NAME_HEADER = "Mcp-Name"
NAME_PARAMS = {
    "tools/call": "name",
    "prompts/get": "name",
    "resources/read": "uri",
    # the tasks extension (SEP-2663): Mcp-Name carries the task id, for routing
    "tasks/get": "taskId",
    "tasks/update": "taskId",
    "tasks/cancel": "taskId",
}

REMOVED_METHODS = frozenset(
    {
        "initialize",
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "resources/unsubscribe",
        "notifications/initialized",
    }
)
CACHEABLE_METHODS = frozenset(
    {
        "server/discover",
        "tools/list",
        "resources/list",
        "resources/templates/list",
        "prompts/list",
        "resources/read",
    }
)
REQUEST_SCOPED_NOTIFICATIONS = frozenset({"notifications/progress", "notifications/message"})

_BASE64_SENTINEL = re.compile(r"=\?base64\?(?P<payload>.*)\?=", re.S)
_HEADER_SAFE = re.compile(r"[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?")


# --- the per-request envelope ---------------------------------------------------


def envelope_version(message: Any) -> str | None:
    """The protocol version a request's `_meta` declares, or None (a legacy message)."""
    params = message.get("params") if isinstance(message, dict) else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    return meta.get(PROTOCOL_VERSION_KEY) if isinstance(meta, dict) else None


def is_modern(message: Message, header_version: str | None) -> bool:
    """Does this request belong to the stateless era (by its `_meta` or its version header)?

    >>> is_modern({"method": "tools/list", "params": {}}, "2025-11-25")
    False
    >>> is_modern({"method": "tools/list", "params": {}}, "2026-07-28")
    True
    """
    if envelope_version(message) is not None:
        return True
    return header_version is not None and header_version not in HANDSHAKE_ERA_VERSIONS


def stamp(
    message: Message, client_info: Mapping[str, Any], capabilities: Mapping[str, Any] | None = None
) -> Message:
    """`message` with the per-request envelope added to its `_meta` (other `_meta` keys kept).

    Capabilities the request already declares (an extension, say) stand when none are given.
    """
    params = dict(message.get("params") or {})
    declared = params.get("_meta", {}).get(CLIENT_CAPABILITIES_KEY, {})
    params["_meta"] = {
        **params.get("_meta", {}),
        PROTOCOL_VERSION_KEY: MODERN_PROTOCOL_VERSION,
        CLIENT_INFO_KEY: dict(client_info),
        CLIENT_CAPABILITIES_KEY: dict(capabilities if capabilities is not None else declared),
    }
    return {**message, "params": params}


def request_headers(message: Message) -> dict[str, str]:
    """The headers that mirror a stamped request's body: version, method and (some) name."""
    headers = {
        VERSION_HEADER: envelope_version(message) or MODERN_PROTOCOL_VERSION,
        METHOD_HEADER: message["method"],
    }
    name_param = NAME_PARAMS.get(message["method"])
    name = (message.get("params") or {}).get(name_param) if name_param else None
    if isinstance(name, str):
        headers[NAME_HEADER] = encode_header_value(name)
    return headers


def encode_header_value(value: str) -> str:
    """A header-safe value: itself, or `=?base64?…?=` for text HTTP cannot carry as is.

    >>> encode_header_value("get_weather")
    'get_weather'
    >>> encode_header_value("Hello, 世界")
    '=?base64?SGVsbG8sIOS4lueVjA==?='
    """
    if _HEADER_SAFE.fullmatch(value) and not _BASE64_SENTINEL.fullmatch(value):
        return value
    return f"=?base64?{base64.b64encode(value.encode()).decode()}?="


def decode_header_value(value: str) -> str:
    """The text of a header value, decoding the base64 sentinel; -32020 if it is malformed."""
    found = _BASE64_SENTINEL.fullmatch(value)
    if found is None:
        return value
    try:
        return base64.b64decode(found["payload"], validate=True).decode()
    except (binascii.Error, UnicodeDecodeError) as e:
        raise JsonRpcError(
            HEADER_MISMATCH, f"Header mismatch: {value!r} is not valid =?base64?…?= text"
        ) from e


# --- the checks, in order -------------------------------------------------------


def check_envelope(message: Message) -> dict[str, Any]:
    """The request's `_meta`, if it has the two required envelope fields; else -32602."""
    meta = (message.get("params") or {}).get("_meta")
    if not isinstance(meta, dict):
        raise JsonRpcError(
            INVALID_PARAMS,
            f"Invalid params: a {MODERN_PROTOCOL_VERSION} request "
            f"needs params._meta with {PROTOCOL_VERSION_KEY!r} and "
            f"{CLIENT_CAPABILITIES_KEY!r}",
        )
    missing = [key for key in (PROTOCOL_VERSION_KEY, CLIENT_CAPABILITIES_KEY) if key not in meta]
    if missing:
        raise JsonRpcError(INVALID_PARAMS, f"Invalid params: params._meta lacks {', '.join(missing)}")
    if not isinstance(meta[PROTOCOL_VERSION_KEY], str):
        raise JsonRpcError(INVALID_PARAMS, f"Invalid params: {PROTOCOL_VERSION_KEY} must be a string")
    return meta


def check_headers(message: Message, meta: Mapping[str, Any], headers: Mapping[str, str]) -> None:
    """Raise -32020 unless the version, method and name headers match the body."""
    expected = {VERSION_HEADER: meta[PROTOCOL_VERSION_KEY], METHOD_HEADER: message["method"]}
    name_param = NAME_PARAMS.get(message["method"])
    if name_param and (message.get("params") or {}).get(name_param) is not None:
        expected[NAME_HEADER] = message["params"][name_param]
    for header, body_value in expected.items():
        sent = headers.get(header)
        if sent is None:
            raise JsonRpcError(
                HEADER_MISMATCH,
                f"Header mismatch: the {header} header is required (the body says {body_value!r})",
            )
        if decode_header_value(sent) != body_value:
            raise JsonRpcError(
                HEADER_MISMATCH,
                f"Header mismatch: {header} header value {sent!r} does not match body value {body_value!r}",
            )


def check_version(meta: Mapping[str, Any]) -> None:
    """Raise -32022, naming the versions this server speaks, for any version but 2026-07-28."""
    requested = meta[PROTOCOL_VERSION_KEY]
    if requested != MODERN_PROTOCOL_VERSION:
        raise JsonRpcError(
            UNSUPPORTED_PROTOCOL_VERSION,
            "Unsupported protocol version",
            {"supported": supported_versions(), "requested": requested},
        )


def supported_versions() -> list[str]:
    """Every version this server speaks, newest first; the legacy ones need `initialize`."""
    return [MODERN_PROTOCOL_VERSION, *reversed(SUPPORTED_PROTOCOL_VERSIONS)]


# --- serving one request -----------------------------------------------------------


class StatelessServer:
    """Answer 2026-07-28 requests for `server`, each with a fresh, throw-away `Session`.

    >>> import asyncio
    >>> from wirelab.jsonrpc import request
    >>> server = Server("notes")
    >>> @server.tool()
    ... def add(a: int, b: int) -> int:
    ...     '''Add two integers.'''
    ...     return a + b
    >>> stateless = StatelessServer(server)
    >>> message = stamp(request(1, "tools/list"), {"name": "me", "version": "1"})
    >>> result = asyncio.run(stateless.handle(message, print))["result"]
    >>> [tool["name"] for tool in result["tools"]], result["resultType"]
    (['add'], 'complete')
    >>> result["ttlMs"], result["cacheScope"]
    (0, 'public')
    >>> result["_meta"]
    {'io.modelcontextprotocol/serverInfo': {'name': 'notes', 'version': '0.1.0'}}
    """

    def __init__(self, server: Server) -> None:
        self.server = server

    async def handle(
        self, message: Message, send: Send, headers: Mapping[str, str] | None = None
    ) -> Message | None:
        """The response to one request (None for a notification); `send` gets its notifications.

        `headers` (an HTTP request's) are checked against the body; pass None off HTTP.
        """
        if not jsonrpc.is_request(message):
            return None
        try:
            meta = check_envelope(message)
            if headers is not None:
                check_headers(message, meta, headers)
            check_version(meta)
        except JsonRpcError as error:
            return jsonrpc.error_response(message["id"], error)
        session = self.open_session(meta, send)
        try:
            response = await self.dispatcher(session).handle(message, meta)
        finally:
            session.close()
        return self.finish(message["method"], response)

    def open_session(self, meta: Mapping[str, Any], send: Send) -> Session:
        """A session that lives for one request and knows what its `_meta` declared."""
        wants_logs = meta.get(LOG_LEVEL_KEY) in LOG_LEVELS

        def send_scoped(notification: Message) -> None:
            if notification["method"] not in REQUEST_SCOPED_NOTIFICATIONS:
                return  # change notifications need subscriptions/listen, which is not covered
            if notification["method"] == "notifications/message" and not wants_logs:
                return  # no logLevel in _meta: the client asked for no log messages
            send(notification)

        session = self.server.connect(send_scoped)
        session.initialized = session.client_ready = True
        session.protocol_version = MODERN_PROTOCOL_VERSION
        session.client_info = meta.get(CLIENT_INFO_KEY) or {}
        session.client_capabilities = meta[CLIENT_CAPABILITIES_KEY]
        if wants_logs:
            session.log_level = meta[LOG_LEVEL_KEY]
        return session

    def dispatcher(self, session: Session) -> jsonrpc.Dispatcher:
        """The session's method table, minus what 2026-07-28 removed, plus `server/discover`."""
        table = {
            method: handler for method, handler in session.handlers.items() if method not in REMOVED_METHODS
        }
        return jsonrpc.Dispatcher({**table, "server/discover": self.discover})

    def discover(self, params: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        """What `server/discover` answers: versions, capabilities, instructions."""
        result: dict[str, Any] = {
            "supportedVersions": supported_versions(),
            "capabilities": self.capabilities(),
        }
        if self.server.instructions:
            result["instructions"] = self.server.instructions
        return result

    def capabilities(self) -> dict[str, Any]:
        """The server's, without `listChanged` or `subscribe`: both need subscriptions/listen.

        Extensions keep their settings; 2025-11-25's core `tasks` is the
        `io.modelcontextprotocol/tasks` extension here (SEP-2663).
        """
        declared = self.server.capabilities()
        modern: dict[str, Any] = {name: {} for name in declared if name not in ("tasks", "extensions")}
        extensions = dict(declared.get("extensions", {}))
        if "tasks" in declared:
            extensions["io.modelcontextprotocol/tasks"] = {}
        return modern | ({"extensions": extensions} if extensions else {})

    def finish(self, method: str, response: Message | None) -> Message | None:
        """Add what every 2026-07-28 result carries; rename the retired resource-not-found code."""
        if response is None or "error" in response:
            if response is not None and response["error"]["code"] == RESOURCE_NOT_FOUND:
                response["error"]["code"] = INVALID_PARAMS  # -32002 is retired in 2026-07-28
            return response
        result = {"resultType": "complete", **response["result"]}  # a task keeps its "task"
        result["_meta"] = {**result.get("_meta", {}), SERVER_INFO_KEY: self.server.info}
        if method in CACHEABLE_METHODS:
            result.update(ttlMs=0, cacheScope="public")  # 0: tools may change at any time
        return {**response, "result": result}
