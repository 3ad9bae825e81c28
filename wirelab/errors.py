"""Structured tool errors: the error is a result the model can read.

A tool that fails returns a small JSON object instead of crashing the loop:

    >>> error = ToolError("unknown_city", "No city named 'Pariss'.", suggestion="Did you mean 'Paris'?")
    >>> print(error.content())
    {"error": {"code": "unknown_city", "message": "No city named 'Pariss'.",
               "suggestion": "Did you mean 'Paris'?"}}

`code` is for programs, `message` says what went wrong, `suggestion` says how
to fix the call; extra fields (`field`, `allowed`, …) help a model correct
itself. `error_of` reads such a result back, which is how the guardrails of
lesson 05 tell a failed call from a good one. `PermissionDenied` is the one
error that should stop a run rather than go back to the model, and
`RunStopped` is how an executor stops it (`wirelab.guardrails` decides when;
this module only names them).
"""

from __future__ import annotations

import json
from typing import Any


class ToolError(Exception):
    """An error a tool reports back to the model as its result."""

    def __init__(self, code: str, message: str, *, suggestion: str | None = None, **details: Any) -> None:
        super().__init__(message)
        self.code, self.message, self.suggestion, self.details = code, message, suggestion, details

    def as_dict(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.suggestion:
            error["suggestion"] = self.suggestion
        return {"error": {**error, **self.details}}

    def content(self) -> str:
        """The text that goes into the `role: tool` message."""
        return json.dumps(self.as_dict(), ensure_ascii=False)


class PermissionDenied(ToolError):
    """The caller may not do this at all: no change of arguments will help.

    `PermissionDenied("You may not delete invoices.").content()`
    -> '{"error": {"code": "permission_denied", "message": "You may not delete invoices."}}'
    """

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__("permission_denied", message, **details)


class RunStopped(Exception):
    """The run must end now, not go on: raised by an executor (see `wirelab.guardrails.Guard`).

    `code` says why: a stop code such as "permission_denied", "correction_cap" or
    "budget"; `call` is the tool call that triggered it, when there is one.
    """

    def __init__(self, code: str, message: str, call: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code, self.call = code, call


def error_of(content: str) -> dict[str, Any] | None:
    """The `error` object of a tool result, or None when the result is not an error.

    `error_of('{"error": {"code": "x", "message": "m"}}')` -> `{"code": "x", "message": "m"}`;
    `error_of('{"temp": 18}')` -> None; `error_of('plain text')` -> None.
    """
    try:
        parsed = json.loads(content)
    except (json.JSONDecodeError, TypeError):
        return None
    error = parsed.get("error") if isinstance(parsed, dict) else None
    return error if isinstance(error, dict) and "code" in error else None
