"""What both sides of MCP agree on: versions, constants, cursors and argument checks.

The server (`wirelab.mcp.server`, `wirelab.mcp.session`) and the client
(`wirelab.mcp.client`) import these from here, so neither imports the other
for a constant:

    >>> decode_cursor("tools", encode_cursor("tools", 50), 120)
    50
    >>> argument_problems({"required": ["a"]}, {})
    ["arguments: 'a' is a required property"]
"""

from __future__ import annotations

import base64
import binascii
import importlib
import json
import sys
import threading
from collections.abc import Callable
from typing import Any, Literal

from wirelab.jsonrpc import INVALID_PARAMS, JsonRpcError, Message
from wirelab.tools import JSONSchema

LATEST_PROTOCOL_VERSION = "2025-11-25"
# Only the revisions this server implements. 2025-03-26 requires accepting JSON-RPC batches
# and 2024-11-05 has no structuredContent or elicitation; a client asking for either gets
# 2025-11-25 and decides whether it can go on. 2025-06-18 differs from 2025-11-25 only in
# additions this server does not use.
SUPPORTED_PROTOCOL_VERSIONS = ("2025-06-18", "2025-11-25")
# Every revision of the initialize era. A version header naming one belongs to a session (the
# official conformance client sends 2025-03-26 inside a 2025-11-25 session), not to 2026-07-28.
HANDSHAKE_ERA_VERSIONS = ("2024-11-05", "2025-03-26", *SUPPORTED_PROTOCOL_VERSIONS)
RESOURCE_NOT_FOUND = -32002  # MCP's code up to 2025-11-25 (resources.mdx, "Error Handling")
CLIENT_REQUEST_TIMEOUT = 60.0  # seconds a server waits for the client (a user may be deciding)
ELICIT_ACTIONS = ("accept", "decline", "cancel")
LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")

Send = Callable[[Message], None]
LogLevel = Literal["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]


class MissingClientCapability(RuntimeError):
    """The server wanted to send a request the client did not declare it can answer."""


class InvalidClientResult(ValueError):
    """The client answered a server-to-client request with a result of the wrong shape."""


def invalid_params(message: str, **data: Any) -> JsonRpcError:
    """A -32602 error whose message tells the caller what to change."""
    return JsonRpcError(INVALID_PARAMS, f"Invalid params: {message}", data or None)


def without_none(**fields: Any) -> dict[str, Any]:
    """The fields that have a value: MCP leaves optional members out rather than sending null."""
    return {name: value for name, value in fields.items() if value is not None}


def text_content(text: str) -> dict[str, str]:
    return {"type": "text", "text": text}


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
        raise invalid_params(f"invalid cursor {cursor!r}: pass back a nextCursor this server sent")
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
        f"{'/'.join(map(str, e.absolute_path)) or 'arguments'}: {_shortened(e.message)}"
        for e in sorted(validator.iter_errors(arguments), key=lambda e: list(e.absolute_path))
    ]


def _shortened(message: str, limit: int = 300) -> str:
    """A validator's message cut to `limit` characters: it quotes the value, which may be huge."""
    return message if len(message) <= limit else f"{message[: limit // 2]} … {message[-limit // 2 :]}"


def request_meta(request: Message) -> dict[str, Any]:
    """The request's `_meta` object (where `progressToken` travels), `{}` when absent."""
    params = request.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    return meta if isinstance(meta, dict) else {}


def required_string(params: dict[str, Any], name: str) -> str:
    """`params[name]`, which must be a string; -32602 naming the member if it is not."""
    value = params.get(name)
    if not isinstance(value, str):
        raise invalid_params(f'"{name}" must be a string')
    return value


def optional_object(params: dict[str, Any], name: str) -> dict[str, Any]:
    """`params[name]`, an object, or `{}` when absent or null; -32602 for any other type."""
    value = params.get(name)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise invalid_params(f'"{name}" must be an object, not {_json_type(value)}')
    return value


def _json_type(value: Any) -> str:
    """The JSON name of a value's type: 'an array', 'a string', 'a number'…"""
    names = {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number"}
    return names.get(type(value), "an object")


def check_sampling_request(params: dict[str, Any]) -> None:
    """-32602 unless `sampling/createMessage` params have messages and a positive `maxTokens`."""
    messages, max_tokens = params.get("messages"), params.get("maxTokens")
    if not isinstance(messages, list) or not messages or not all(map(_is_sampling_message, messages)):
        raise invalid_params('"messages" must be a non-empty list of {role, content}')
    if not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or max_tokens < 1:
        raise invalid_params('"maxTokens" must be a positive integer')
    if params.get("tools") is not None:
        raise invalid_params('this client did not declare "sampling.tools"')


def check_elicitation_request(params: dict[str, Any]) -> None:
    """-32602 unless `elicitation/create` params are form mode with a message and a schema."""
    if params.get("mode", "form") != "form":
        raise invalid_params(f"elicitation mode {params.get('mode')!r} was not declared")
    if not isinstance(params.get("message"), str) or not isinstance(params.get("requestedSchema"), dict):
        raise invalid_params('form elicitation needs "message" and "requestedSchema"')


def _is_sampling_message(message: Any) -> bool:
    """A sampling message: role user or assistant, content a block or a list of blocks."""
    return (
        isinstance(message, dict)
        and message.get("role") in ("user", "assistant")
        and isinstance(message.get("content"), dict | list)
    )
