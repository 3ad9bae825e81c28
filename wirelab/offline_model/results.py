"""Read tool results: a value to report, or an error to correct or to report.

    >>> read_result('{"city": "Paris", "temp_c": 18, "sky": "cloudy"}').facts()
    [('city', 'Paris'), ('temp_c', '18'), ('sky', 'cloudy')]
    >>> read_result('{"error": {"code": "bad_unit", "message": "unit must be lower case",'
    ...             ' "field": "unit", "suggestion": "use celsius or fahrenheit"}}').error["field"]
    'unit'
    >>> read_result('{"detail": [{"loc": ["body", "unit"], "msg": "Input should be C or F"}]}').error
    {'loc': ['body', 'unit'], 'msg': 'Input should be C or F', 'message': 'Input should be C or F'}

An error is a JSON object in one of the common shapes: an `error` member (an
object or a string) or a list of `errors`, `"isError": true` (MCP's shape, whose
text is read for the same fields), a problem report with an HTTP `status` of 400
or more (RFC 9457), or a lone `detail` (FastAPI's, a text or a list); or a text
that opens with "Error:" (错误：), read as MCP's text is (an exception's text,
"KeyError: …", is a value unless a format's flag marks it). Its fields are gathered
into one flat dict (the first of a list of errors), its words (`title`, `message`,
`msg`, `detail`) into `message`. `correction.correct` sends a corrected call when an
error points at a fix (a field, allowed values, a suggestion, a format); otherwise
the failure is reported. Other text is a plain result: structured errors are still
worth returning, since a text names no field and lists no values as plainly.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from wirelab.offline_model.faults import compact

SUMMARY_LIMIT = 300
LIST_CUE = re.compile(
    r"\b(?:one of|allowed(?: values)?|valid(?: values)?|supported(?: values)?|options|choices|permitted"
    r"|(?:must|should) be)\b"
    r"|允许的值|可选值|只能是|必须是",
    re.I,
)
ALLOWED_KEYS = (
    "allowed",
    "allowed_values",
    "expected",
    "valid",
    "valid_values",
    "options",
    "choices",
    "enum",
)
PROSE_ERROR = re.compile(r"\s*(?:error|错误|失败)\s*[:：]", re.I)  # not "KeyError: …": an exception is data
ERROR_KEYS = ("error", "errors", "detail")  # where the common shapes keep an error's fields
MESSAGE_KEYS = ("title", "message", "msg", "detail")  # …and its words


@dataclass(frozen=True)
class ToolResult:
    """A parsed `role: tool` content: `value` (JSON or text) and, for an error, its fields."""

    value: Any
    error: dict[str, Any] | None = None

    def facts(self) -> list[tuple[str, str]]:
        """(field in words, value) pairs of the result; the field is '' for a bare value."""
        return _facts(_payload(self.value), "")

    def message(self) -> str:
        """What the error says went wrong."""
        error = self.error or {}
        return shorten(str(error.get("message") or error.get("code") or compact(error)))


def read_result(text: str) -> ToolResult:
    """Parse one tool result (see the module docstring)."""
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return ToolResult(text, {"message": text, "suggestion": text} if PROSE_ERROR.match(text) else None)
    if not isinstance(value, dict):
        return ToolResult(value)
    if value.get("isError") is True:
        text = _text_parts(value)
        fields = read_result(text).error or {"message": text, "suggestion": text}
        return ToolResult(value, fields)
    if _is_error(value):
        return ToolResult(value, _error_fields(value))
    return ToolResult(value)


def _is_error(value: dict[str, Any]) -> bool:
    """An `error`, a list of `errors`, an HTTP status of 400 or more, or a lone `detail`."""
    status = value.get("status")
    return (
        value.get("error") not in (None, False, "")
        or bool(value.get("errors"))
        or (isinstance(status, int) and not isinstance(status, bool) and status >= 400)
        or set(value) == {"detail"}
    )


def _error_fields(value: dict[str, Any]) -> dict[str, Any]:
    """The error's fields in one dict: the outer object's, then those of the object (or of the
    first in a list) under an error key; `message` gathers the words, else the error's text."""
    inner = [value.get(key) for key in ERROR_KEYS]
    parts = [value] + [part[0] if isinstance(part, list) and part else part for part in inner]
    parts = [part for part in parts if isinstance(part, dict)]
    fields = {k: v for part in parts for k, v in part.items() if k not in ERROR_KEYS}
    said = [part.get(key) for part in parts for key in MESSAGE_KEYS]
    said = list(dict.fromkeys(text for text in said if isinstance(text, str) and text.strip()))
    code = value.get("error")
    said = said or ([code] if isinstance(code, str) else [])  # {"error": "upstream timeout"}
    return {**fields, "message": "; ".join(said)} if said else fields


def _text_parts(value: dict[str, Any]) -> str:
    parts = value.get("content")
    if isinstance(parts, list):
        return "\n".join(p.get("text", "") for p in parts if isinstance(p, dict))
    return str(value.get("message", ""))


def _payload(value: Any) -> Any:
    """MCP results report their structured content, else their text."""
    if isinstance(value, dict) and isinstance(value.get("content"), list):
        return value.get("structuredContent") or _text_parts(value)
    return value


def _facts(value: Any, key: str, depth: int = 0) -> list[tuple[str, str]]:
    if depth > 8:
        return [(key, compact(value))]
    if isinstance(value, dict):
        return [f for k, v in value.items() for f in _facts(v, str(k), depth + 1)]  # temp_c as written
    if isinstance(value, list):
        return [f for v in value for f in _facts(v, key, depth + 1)]
    if value is None:
        return []
    return [(key, json.dumps(value) if isinstance(value, bool) else str(value))]


def shorten(text: str, limit: int = SUMMARY_LIMIT) -> str:
    """The text, cut to `limit` characters with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
