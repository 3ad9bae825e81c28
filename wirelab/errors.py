"""Structured tool errors: the error is a result the model can read.

A tool that fails returns a small JSON object instead of crashing the loop:

    ToolError("unknown_city", "No city named 'Pariss'.", suggestion="Did you mean 'Paris'?").content()
    # -> '{"error": {"code": "unknown_city", "message": "No city named \\'Pariss\\'.",
    #                "suggestion": "Did you mean \\'Paris\\'?"}}'

`code` is for programs, `message` says what went wrong, `suggestion` says how
to fix the call; extra fields (`field`, `allowed`, …) help a model correct
itself. Lesson 05 builds on this.
"""

from __future__ import annotations

import json
from typing import Any


class ToolError(Exception):
    """An error a tool reports back to the model as its result."""

    def __init__(self, code: str, message: str, *, suggestion: str | None = None,
                 **details: Any) -> None:
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
