"""The results a server sends, and the checks on results a client sends back.

A tool's return value becomes a `CallToolResult` (`tool_result`, or
`error_result` for a failure the model can read); a resource's text or bytes
become its `contents`; a prompt's rendering becomes its `messages`. What the
client answers to a server-to-client request (sampling, roots, elicitation)
is checked here before a tool sees it.
"""

from __future__ import annotations

import base64
import dataclasses
import json
from typing import Any

from wirelab import jsonrpc
from wirelab.jsonrpc import JsonRpcError
from wirelab.mcp.primitives import ServerTool
from wirelab.mcp.protocol import (
    ELICIT_ACTIONS,
    InvalidClientResult,
    argument_problems,
    text_content,
    without_none,
)
from wirelab.tools import JSONSchema


def error_result(text: str) -> dict[str, Any]:
    """A tool result that reports a failure the model can read and correct."""
    return {"content": [text_content(text)], "isError": True}


def tool_result(tool: ServerTool, value: Any) -> dict[str, Any]:
    """A tool's return value as a `CallToolResult`; structured when it has an output schema."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = dataclasses.asdict(value)
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    if tool.output_schema is None:
        return {"content": [text_content(text)]}
    problems = argument_problems(tool.output_schema, value)
    if problems:  # a server bug: the spec says results MUST conform to the output schema
        raise JsonRpcError(
            jsonrpc.INTERNAL_ERROR,
            f"Internal error: {tool.name} returned a value that breaks its outputSchema: {problems}",
        )
    return {"content": [text_content(text)], "structuredContent": value}


def resource_contents(uri: str, mime_type: str | None, content: str | bytes) -> dict[str, Any]:
    """Text contents, or base64 `blob` contents for bytes."""
    if isinstance(content, bytes):
        return without_none(uri=uri, mimeType=mime_type, blob=base64.b64encode(content).decode())
    return without_none(uri=uri, mimeType=mime_type, text=content)


def prompt_messages(rendered: Any) -> list[dict[str, Any]]:
    """A prompt's messages: a string is one user message; `(role, text)` pairs become messages."""
    if isinstance(rendered, str):
        rendered = [("user", rendered)]
    return [{"role": role, "content": text_content(text)} for role, text in rendered]


def sampling_messages(messages: str | list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sampling messages: a string is one user message, e.g.
    `"Hi"` -> `[{"role": "user", "content": {"type": "text", "text": "Hi"}}]`."""
    return [{"role": "user", "content": text_content(messages)}] if isinstance(messages, str) else messages


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
