"""Read tool results: a value to report, or an error to correct or to report.

    >>> read_result('{"city": "Paris", "temp_c": 18, "sky": "cloudy"}').summary()
    'Paris, 18, cloudy'
    >>> read_result('{"error": {"code": "bad_unit", "message": "unit must be lower case",'
    ...             ' "field": "unit", "suggestion": "use celsius or fahrenheit"}}').correctable
    True

An error is a JSON object with an `error` member (an object or a string) or
with `"isError": true` (MCP's shape). It is *correctable* when it says how to
fix the call: a `suggestion`, at the top level or inside `error`, or `isError`.
`correct()` then applies the fix the error's fields describe. Results that are
not JSON are plain text. Left out: reading prose errors ("Error: …" text) as
errors, which is why structured errors are worth returning.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from typing import Any

from wirelab.offline_model.arguments import fill_arguments, fill_property, quotes
from wirelab.offline_model.faults import compact
from wirelab.offline_model.validation import Call, Tool

SUMMARY_LIMIT = 300
FIELD_KEYS = ("field", "param", "parameter", "property", "argument", "path")
ALLOWED_KEYS = ("allowed", "allowed_values", "expected", "valid", "options", "choices")
JSON_TYPES = {"integer": int, "number": float, "string": str, "boolean": bool}


@dataclass(frozen=True)
class ToolResult:
    """A parsed `role: tool` content: `value` (JSON or text) and, for an error, its fields."""

    value: Any
    error: dict[str, Any] | None = None
    correctable: bool = False

    def summary(self) -> str:
        """The result's values, compactly, at most `SUMMARY_LIMIT` characters."""
        return _shorten(", ".join(_scalars(_payload(self.value))))

    def message(self) -> str:
        """What the error says went wrong."""
        error = self.error or {}
        return _shorten(str(error.get("message") or error.get("code") or compact(error)))


def read_result(text: str) -> ToolResult:
    """Parse one tool result (see the module docstring)."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return ToolResult(text)
    if not isinstance(value, dict):
        return ToolResult(value)
    if value.get("isError") is True:
        text = _text_parts(value)
        fields = read_result(text).error or {"message": text, "suggestion": text}
        return ToolResult(value, fields, True)
    if value.get("error") not in (None, False, ""):
        fields = _error_fields(value)
        return ToolResult(value, fields, "suggestion" in fields)
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


def _scalars(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in _scalars(v)]
    if isinstance(value, list):
        return [s for v in value for s in _scalars(v)]
    return [] if value is None else [json.dumps(value) if isinstance(value, bool) else str(value)]


def _shorten(text: str) -> str:
    return text if len(text) <= SUMMARY_LIMIT else text[: SUMMARY_LIMIT - 1] + "…"


def correct(call: Call, error: dict[str, Any], tool: Tool, request: str) -> Call | None:
    """The failed `call` with the error's fix applied, or None when nothing would change.

    Malformed arguments are written again from the text, a wrong tool name
    becomes the intended tool's, the `field` named (or quoted) in the error
    gets the `allowed`/quoted value closest to what was sent, and required
    properties that are missing are filled from the text again.
    """
    fresh = fill_arguments(tool, request)
    arguments = _parsed(call.arguments)
    fixed = dict(fresh if arguments is None else arguments)
    field = _field(error, tool)
    allowed = _allowed(error)
    if field and allowed:
        fixed[field] = _closest(fixed.get(field), allowed)
    elif field and isinstance(error.get("expected"), str) and error["expected"] in JSON_TYPES:
        fixed[field] = _coerce(fixed.get(field), error["expected"])
    elif field and field not in fixed:
        fixed[field] = fill_property(tool, request, field)
    for name in tool.parameters.get("required", []):
        if name not in fixed and name in fresh:
            fixed[name] = fresh[name]
    order = list(tool.parameters.get("properties", {})) + list(fixed)
    corrected = Call("", tool.name, compact({k: fixed[k] for k in dict.fromkeys(order) if k in fixed}))
    return None if (corrected.name, corrected.arguments) == (call.name, call.arguments) else corrected


def _parsed(arguments: str) -> dict[str, Any] | None:
    try:
        value = json.loads(arguments)
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def _field(error: dict[str, Any], tool: Tool) -> str | None:
    """The property the error is about: named in a field key, else quoted or written in its text."""
    properties = tool.parameters.get("properties", {})
    for key in FIELD_KEYS:
        value = error.get(key)
        if isinstance(value, str):
            name = re.split(r"[./\[\]$]+", value.strip("$./"))[-1] or value
            if name in properties:
                return name
    text = f"{error.get('message', '')} {error.get('suggestion', '')}"
    named = [q for q in quotes(text) if q in properties]
    named += [p for p in properties if re.search(rf"\b{re.escape(p)}\b", text)]
    return named[0] if named else None


def _allowed(error: dict[str, Any]) -> list[Any]:
    """Allowed values: a list in an allowed-like key, else the values quoted in the suggestion."""
    for key in ALLOWED_KEYS:
        value = error.get(key)
        if isinstance(value, list) and value:
            return value
        if isinstance(value, str) and key != "expected" and value:
            return [v for v in re.split(r"\s*(?:,|\bor\b|\|)\s*", value) if v]
    return quotes(str(error.get("suggestion", "")))


def _closest(sent: Any, allowed: list[Any]) -> Any:
    """The allowed value equal to `sent` ignoring case, else the most similar, else the first."""
    text = str(sent).lower()
    by_lower = {str(option).lower(): option for option in allowed}
    if text in by_lower:
        return by_lower[text]
    close = difflib.get_close_matches(text, list(by_lower), n=1, cutoff=0.0)
    return by_lower[close[0]] if close else allowed[0]


def _coerce(value: Any, expected: str) -> Any:
    try:
        if expected == "boolean":
            return str(value).lower() in ("true", "1", "yes")
        return JSON_TYPES[expected](value)
    except (TypeError, ValueError):
        return value
