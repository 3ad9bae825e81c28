"""Read tool results: a value to report, or an error to correct or to report.

    >>> read_result('{"city": "Paris", "temp_c": 18}').error is None
    True
    >>> read_result('{"error": {"code": "bad_unit", "message": "unit must be lower case",'
    ...             ' "field": "unit", "suggestion": "use celsius or fahrenheit"}}').error["field"]
    'unit'
    >>> read_result('{"detail": [{"loc": ["body", "unit"], "msg": "Input should be C or F"}]}').error
    {'loc': ['body', 'unit'], 'msg': 'Input should be C or F', 'message': 'Input should be C or F'}

An error is a JSON object in one of the common shapes: an `error` member (an object or a
string; `错误` too: the keys are in data/tool_errors.txt) or a list of `errors`, `"isError": true`
(MCP's, whose text is read for the same fields), a problem report with an HTTP `status` of 400
or more (RFC 9457), or a lone `detail` (FastAPI's); or a text that opens with "Error:" (错误：).
An exception's text ("KeyError: …") is a value unless a format's flag marks it. The fields are
gathered into one flat dict (from the first of a list of errors), the words (`message`, `msg`,
`说明`…) into `message`, for `correction.correct` to find a fix in; anything else is a value.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from wirelab.offline_model.lexicon import DATA, lexicon_words, sections

PROSE_ERROR = re.compile(r"\s*(?:error|错误|失败)\s*[:：]", re.I)  # not "KeyError: …": an exception is data
KEYS = sections(DATA / "tool_errors.txt")  # MARKS: "error", "错误"; MESSAGE_KEYS: "message", "说明"
MARKS, MESSAGE_KEYS = (tuple(lexicon_words(name, KEYS)) for name in ("error_keys", "message_keys"))
ERROR_KEYS = (*MARKS, "detail")  # where the common shapes keep an error's fields


@dataclass(frozen=True)
class ToolResult:
    """A parsed `role: tool` content: `value` (JSON or text) and, for an error, its fields."""

    value: Any
    error: dict[str, Any] | None = None


def read_result(text: str) -> ToolResult:
    """Parse one tool result (see the module docstring)."""
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return ToolResult(text, {"message": text, "suggestion": text} if PROSE_ERROR.match(text) else None)
    if not isinstance(value, dict):
        return ToolResult(value)
    if value.get("isError") is True:
        text = text_parts(value)
        return ToolResult(value, read_result(text).error or {"message": text, "suggestion": text})
    status = value.get("status")
    if (
        any(value.get(key) not in (None, False, "", [], {}) for key in MARKS)
        or (isinstance(status, int) and not isinstance(status, bool) and status >= 400)
        or set(value) == {"detail"}
    ):
        return ToolResult(value, _error_fields(value))
    return ToolResult(value)


def _error_fields(value: dict[str, Any]) -> dict[str, Any]:
    """The error's fields in one dict: the outer object's, then those of the object (or of the
    first in a list) under an error key; `message` gathers the words, else the error's text."""
    inner = [value.get(key) for key in ERROR_KEYS]
    parts = [value] + [part[0] if isinstance(part, list) and part else part for part in inner]
    parts = [part for part in parts if isinstance(part, dict)]
    fields = {k: v for part in parts for k, v in part.items() if k not in ERROR_KEYS}
    said = [part.get(key) for part in parts for key in MESSAGE_KEYS]
    said = list(dict.fromkeys(text for text in said if isinstance(text, str) and text.strip()))
    code = [value[key] for key in MARKS if isinstance(value.get(key), str)]
    said = said or code[:1]  # {"error": "upstream timeout"}
    return {**fields, "message": "; ".join(said)} if said else fields


def text_parts(value: dict[str, Any]) -> str:
    """The text of an MCP result's `content` parts (its `message` without them)."""
    parts = value.get("content")
    if isinstance(parts, list):
        return "\n".join(p.get("text", "") for p in parts if isinstance(p, dict))
    return str(value.get("message", ""))
