"""Read tool results: a value to report, or an error to correct or to report.

    >>> read_result('{"city": "Paris", "temp_c": 18, "sky": "cloudy"}').facts()
    [('city', 'Paris'), ('temp_c', '18'), ('sky', 'cloudy')]
    >>> read_result('{"error": {"code": "bad_unit", "message": "unit must be lower case",'
    ...             ' "field": "unit", "suggestion": "use celsius or fahrenheit"}}').correctable
    True

An error is a JSON object with an `error` member (an object or a string) or
with `"isError": true` (MCP's shape, whose text is read for the same fields).
It is *correctable* when it says how to fix the call: a `suggestion`, a list
of allowed values, or (for MCP) any text at all. `correction.correct` then
applies the fix. Results that are not JSON are plain text. Left out: reading
prose errors ("Error: …" text) as errors, which is why structured errors are
worth returning.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from wirelab.offline_model.faults import compact

SUMMARY_LIMIT = 300
LIST_CUE = re.compile(
    r"\b(?:one of|allowed(?: values)?|valid(?: values)?|supported(?: values)?|options|choices)\b"
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


@dataclass(frozen=True)
class ToolResult:
    """A parsed `role: tool` content: `value` (JSON or text) and, for an error, its fields."""

    value: Any
    error: dict[str, Any] | None = None
    correctable: bool = False

    def summary(self) -> str:
        """The result's values, compactly, at most `SUMMARY_LIMIT` characters."""
        return _shorten(", ".join(value for _, value in self.facts()))

    def facts(self) -> list[tuple[str, str]]:
        """(field in words, value) pairs of the result; the field is '' for a bare value."""
        return _facts(_payload(self.value), "")

    def message(self) -> str:
        """What the error says went wrong."""
        error = self.error or {}
        return _shorten(str(error.get("message") or error.get("code") or compact(error)))


def read_result(text: str) -> ToolResult:
    """Parse one tool result (see the module docstring)."""
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return ToolResult(text)
    if not isinstance(value, dict):
        return ToolResult(value)
    if value.get("isError") is True:
        text = _text_parts(value)
        fields = read_result(text).error or {"message": text, "suggestion": text}
        return ToolResult(value, fields, True)
    if value.get("error") not in (None, False, ""):
        fields = _error_fields(value)
        fixable = (
            "suggestion" in fields
            or any(isinstance(fields.get(k), list) for k in ALLOWED_KEYS)
            or LIST_CUE.search(str(fields.get("message", ""))[:4000]) is not None
        )
        return ToolResult(value, fields, fixable)
    return ToolResult(value)


def _error_fields(value: dict[str, Any]) -> dict[str, Any]:
    error = value["error"]
    inner = error if isinstance(error, dict) else {"message": str(error)}
    return {**{k: v for k, v in value.items() if k != "error"}, **inner}


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


def _shorten(text: str) -> str:
    return text if len(text) <= SUMMARY_LIMIT else text[: SUMMARY_LIMIT - 1] + "…"
