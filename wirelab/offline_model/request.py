"""The offline model's types: what a request is made of, and the error a bad one raises.

    Request(model="wirelab-offline", messages=(Message("user", "Hi"),), tools=(), ...)

`Call`, `Message`, `Tool` and `Request` are the plain, frozen data every
pipeline stage reads; `validation.read_request` builds them from a JSON body
and raises `RequestError`, which `server.py` turns into an OpenAI-style error.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

MODEL_ID = "wirelab-offline"


class RequestError(Exception):
    """An invalid request: becomes an OpenAI-style error body with this HTTP status."""

    def __init__(self, status: int, message: str, param: str | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.param, self.code = status, message, param, code

    def body(self) -> dict[str, Any]:
        """The JSON body the API sends back."""
        kind = "invalid_request_error"
        return {"error": {"message": self.message, "type": kind, "param": self.param, "code": self.code}}


def invalid(param: str | None, message: str, code: str | None = None) -> RequestError:
    """A 400 error about `param`."""
    return RequestError(400, message, param, code or ("invalid_value" if param else None))


@dataclass(frozen=True)
class Call:
    """One tool call: `arguments` is the JSON *text*, exactly as it travels."""

    id: str
    name: str
    arguments: str

    def parsed(self) -> dict[str, Any] | None:
        """The arguments as a JSON object, or None when they are not one."""
        return json_object(self.arguments)


def json_object(text: str) -> dict[str, Any] | None:
    """`text` read as a JSON object, or None when it is not one (not JSON, or another value)."""
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def compact(arguments: dict[str, Any]) -> str:
    """Arguments as compact JSON text, keys in the given order."""
    return json.dumps(arguments, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class Message:
    """One message, its content flattened to text."""

    role: str
    text: str
    tool_calls: tuple[Call, ...] = ()
    tool_call_id: str | None = None


@dataclass(frozen=True, eq=False)
class Tool:
    """One function tool as the model sees it (equal only to itself, so it can key a cache)."""

    name: str
    description: str
    parameters: dict[str, Any]


@dataclass(frozen=True)
class Request:
    """A valid request. `tool_choice` is "auto", "none", "required" or a tool name."""

    model: str
    fault: str | None
    messages: tuple[Message, ...]
    tools: tuple[Tool, ...]
    tool_choice: str
    forced: bool
    parallel_tool_calls: bool
    include_usage: bool
    max_tokens: int | None
