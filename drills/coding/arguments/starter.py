"""Drill: parse and validate tool-call arguments (20 minutes).

Implement `parse_arguments(raw, schema)`. `raw` is the `function.arguments` string a model
wrote; `schema` is the tool's JSON Schema, limited to this subset::

    {"type": "object",
     "properties": {"city": {"type": "string"},
                    "days": {"type": "integer", "default": 1},
                    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
     "required": ["city"],
     "additionalProperties": False}

Return a new dict with defaults filled in for absent optional fields, or raise
`ArgumentError(code, field, message)` with one of these codes:

- "invalid_json"   raw is not JSON (field None). An empty or blank string means {}.
- "not_an_object"  the JSON is not an object (field None).
- "unknown_field"  a field not in properties while additionalProperties is false.
- "missing_field"  a required field is absent.
- "wrong_type"     "string", "integer" (a bool is not an integer), "number" (int or float,
                   not bool) or "boolean" does not match.
- "not_in_enum"    the value is not one of the enum; the message must list the allowed values.

The message is what the model reads to correct itself: name the field and what was expected.

Check it: python -m wirelab.interview check arguments
"""

from typing import Any


class ArgumentError(ValueError):
    """Arguments the tool cannot run with; `to_result()` is what goes back to the model."""

    def __init__(self, code: str, field: str | None, message: str) -> None:
        super().__init__(message)
        self.code, self.field, self.message = code, field, message

    def to_result(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "field": self.field, "message": self.message}}


def parse_arguments(raw: str, schema: dict[str, Any]) -> dict[str, Any]:
    raise NotImplementedError("parse and validate the arguments")
