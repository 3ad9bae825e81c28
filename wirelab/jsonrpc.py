"""JSON-RPC 2.0 from scratch: messages, error objects and a dispatcher.

JSON-RPC has three kinds of message, told apart by their members:

    {"jsonrpc": "2.0", "id": 1, "method": "add", "params": {"a": 1, "b": 2}}  # request
    {"jsonrpc": "2.0", "method": "log", "params": {"text": "hi"}}             # notification: no "id"
    {"jsonrpc": "2.0", "id": 1, "result": 3}                                  # response

A `Dispatcher` is a table from method name to handler. It answers each
request with a result or an error object and never answers a notification:

    >>> import asyncio
    >>> rpc = Dispatcher({"add": lambda params: params["a"] + params["b"]})
    >>> asyncio.run(rpc.handle(request(1, "add", {"a": 1, "b": 2})))
    {'jsonrpc': '2.0', 'id': 1, 'result': 3}
    >>> asyncio.run(rpc.handle(request(2, "sub")))["error"]
    {'code': -32601, 'message': 'Method not found: sub'}
    >>> asyncio.run(rpc.handle(notification("add", {"a": 1, "b": 2}))) is None
    True

What this module leaves out: transports (bytes on a pipe or an HTTP body,
see `wirelab.mcp.transports.stdio`) and batches, which MCP removed in 2025-06-18 and
which `parse` rejects with -32600.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from wirelab import json_text
from wirelab.json_text import lone_surrogate, shown

Message = dict[str, Any]
Id = str | int
Handler = Callable[..., Any | Awaitable[Any]]
Guard = Callable[[Message], None]

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603


class JsonRpcError(Exception):
    """An error that becomes a JSON-RPC error object: `code`, `message`, optional `data`."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(f"{message} ({code})")
        self.code, self.message, self.data = code, message, data

    def as_object(self) -> dict[str, Any]:
        """The `error` member of a response, e.g. `{"code": -32601, "message": "..."}`."""
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error

    @classmethod
    def from_object(cls, error: Mapping[str, Any]) -> JsonRpcError:
        """The exception for an `error` member received from a peer."""
        return cls(error.get("code", INTERNAL_ERROR), error.get("message", ""), error.get("data"))


def request(id: Id, method: str, params: Mapping[str, Any] | None = None) -> Message:
    """A request: the peer must answer it with a response carrying the same `id`."""
    message: Message = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        message["params"] = dict(params)
    return message


def notification(method: str, params: Mapping[str, Any] | None = None) -> Message:
    """A notification: no `id` member, so it is never answered."""
    message: Message = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = dict(params)
    return message


def result_response(id: Id, result: Any) -> Message:
    """The successful response to the request `id`."""
    return {"jsonrpc": "2.0", "id": id, "result": result}


def error_response(id: Id | None, error: JsonRpcError) -> Message:
    """The error response to the request `id`; `id` is None when it could not be read."""
    return {"jsonrpc": "2.0", "id": id, "error": error.as_object()}


def is_request(message: Message) -> bool:
    return "method" in message and "id" in message


def is_notification(message: Message) -> bool:
    return "method" in message and "id" not in message


def is_response(message: Message) -> bool:
    """A response names the request it answers: `id` (null only if that id was unreadable)."""
    return "method" not in message and "id" in message and ("result" in message or "error" in message)


def parse(data: str | bytes) -> Message:
    """Decode one message from its JSON text and check its envelope (`decode`, then `validate`)."""
    message = decode(data)
    validate(message)
    return message


def receive(data: str | bytes) -> tuple[Message | None, Message | None]:
    """Check one incoming message: `(message, None)`, or `(None, the error response to send)`.

    >>> receive('{"jsonrpc": "2.0", "id": 0, "method": "ping"}')
    ({'jsonrpc': '2.0', 'id': 0, 'method': 'ping'}, None)
    >>> _, answer = receive('{"jsonrpc": "1.0", "id": 7, "method": "ping"}')
    >>> answer["id"], answer["error"]["code"]
    (7, -32600)
    >>> _, answer = receive("{not json")
    >>> answer["id"], answer["error"]["code"]
    (None, -32700)
    """
    try:
        value = decode(data)
    except JsonRpcError as error:
        return None, error_response(None, error)
    try:
        validate(value)
    except JsonRpcError as error:
        return None, error_response(request_id(value), error)
    return value, None


def decode(data: str | bytes) -> Any:
    """The JSON value of `data`; -32700 for bytes that are not UTF-8 or text that is not JSON.

    Read strictly (`wirelab.json_text`), so also -32700: NaN, Infinity and numbers that
    overflow a float (a response could not carry them back as JSON), integers too long to
    convert, nesting too deep to read, and an object with the same key twice (peers disagree
    on which one wins).
    """
    try:
        return json_text.loads(data)
    except json_text.JsonTextError as e:
        raise JsonRpcError(PARSE_ERROR, f"Parse error: {e}") from e


def encode(message: Any) -> bytes:
    """`message` as compact UTF-8 JSON; ASCII escapes if it holds text UTF-8 cannot carry."""
    try:
        return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()
    except UnicodeEncodeError:  # a lone surrogate that got in some other way
        return json.dumps(message, separators=(",", ":")).encode()


def validate(message: Any) -> None:
    """Raise -32600 unless `message` is a JSON-RPC 2.0 request, notification or response."""
    if isinstance(message, list):
        raise JsonRpcError(
            INVALID_REQUEST, "Invalid Request: batches are not supported, send one message per line"
        )
    if not isinstance(message, dict):
        raise JsonRpcError(INVALID_REQUEST, "Invalid Request: a message must be a JSON object")
    if message.get("jsonrpc") != "2.0":
        raise JsonRpcError(INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be exactly "2.0"')
    if "id" in message and not _valid_id(message["id"], response=is_response(message)):
        raise JsonRpcError(INVALID_REQUEST, 'Invalid Request: "id" must be a string or a number')
    if "method" in message:
        _validate_call(message)
    elif "result" in message or "error" in message:
        _validate_response(message)
    else:
        raise JsonRpcError(
            INVALID_REQUEST,
            'Invalid Request: a message needs "method" '
            '(request, notification) or "result"/"error" (response)',
        )
    text = lone_surrogate(message)
    if text is not None:
        raise JsonRpcError(
            INVALID_REQUEST,
            f"Invalid Request: the string {shown(text)} holds a lone surrogate, which is not "
            "a character (UTF-8 cannot carry it); send the character itself or a surrogate pair",
        )


def _valid_id(id: Any, *, response: bool) -> bool:
    if id is None:  # only a response to a request whose id could not be read has id null
        return response
    return isinstance(id, str | int | float) and not isinstance(id, bool)


def _validate_call(message: Message) -> None:
    if not isinstance(message["method"], str):
        raise JsonRpcError(INVALID_REQUEST, 'Invalid Request: "method" must be a string')
    if not isinstance(message.get("params", {}), dict):
        raise JsonRpcError(
            INVALID_REQUEST,
            'Invalid Request: "params" must be an object here (MCP uses named parameters only)',
        )


def _validate_response(message: Message) -> None:
    if "id" not in message:
        raise JsonRpcError(
            INVALID_REQUEST,
            'Invalid Request: a response needs the "id" of the request it answers '
            "(null only when that id could not be read)",
        )
    if "result" in message and "error" in message:
        raise JsonRpcError(INVALID_REQUEST, 'Invalid Request: a response has "result" or "error", not both')


def request_id(message: Any) -> Id | None:
    """The id to answer a broken message with: its own if readable, else None (JSON null)."""
    readable = isinstance(message, dict) and _valid_id(message.get("id"), response=False)
    return message["id"] if readable and lone_surrogate(message["id"]) is None else None


@dataclass
class Dispatcher:
    """A table from method name to handler; `handle` turns one message into its answer.

    A handler takes the request's `params` (an object, `{}` when absent) plus
    whatever extra arguments `handle` was given, and returns the `result`, or
    raises `JsonRpcError`. It may be a plain function or a coroutine function.
    `guard`, when given, sees every known request and notification first and
    may refuse it by raising `JsonRpcError` (the MCP server refuses requests
    before `initialize` this way). Two protocol eras can share handlers and
    differ in their table and guard: build one `Dispatcher` per era.
    """

    handlers: Mapping[str, Handler]
    guard: Guard | None = None

    async def handle(self, message: Message, *context: Any) -> Message | None:
        """The response to a request, or None for a notification or a response."""
        if is_response(message):
            return None
        try:
            result = await self.call(message, *context)
        except JsonRpcError as error:
            return error_response(message["id"], error) if is_request(message) else None
        return result_response(message["id"], result) if is_request(message) else None

    async def call(self, message: Message, *context: Any) -> Any:
        """Run the handler of `message` and return its result (errors are raised)."""
        handler = self.handlers.get(message["method"])
        if handler is None:
            raise JsonRpcError(METHOD_NOT_FOUND, f"Method not found: {message['method']}")
        if self.guard:
            self.guard(message)
        try:
            result = handler(message.get("params") or {}, *context)
            return await result if inspect.isawaitable(result) else result
        except JsonRpcError:
            raise
        except Exception as e:  # a handler's bug is reported to the peer, not raised into the loop
            raise JsonRpcError(INTERNAL_ERROR, f"Internal error: {type(e).__name__}: {e}") from e
