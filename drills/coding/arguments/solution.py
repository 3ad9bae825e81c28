"""Solution to the argument-validation drill (see starter.py for the rules)."""

import json
from typing import Any


class ArgumentError(ValueError):
    """Arguments the tool cannot run with; `to_result()` is what goes back to the model."""

    def __init__(self, code: str, field: str | None, message: str) -> None:
        super().__init__(message)
        self.code, self.field, self.message = code, field, message

    def to_result(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "field": self.field, "message": self.message}}


TYPE_CHECKS = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
}


def parse_arguments(raw: str, schema: dict[str, Any]) -> dict[str, Any]:
    arguments = _decode(raw)
    properties = schema.get("properties", {})
    if schema.get("additionalProperties", True) is False:
        for name in arguments:
            if name not in properties:
                raise ArgumentError(
                    "unknown_field", name, f"unknown field {name!r}; allowed: {sorted(properties)}"
                )
    for name in schema.get("required", []):
        if name not in arguments:
            raise ArgumentError("missing_field", name, f"required field {name!r} is missing")
    for name, spec in properties.items():
        if name in arguments:
            _check_value(name, arguments[name], spec)
    defaults = {n: s["default"] for n, s in properties.items() if "default" in s}
    return {**defaults, **arguments}


def _decode(raw: str) -> dict[str, Any]:
    if not raw.strip():
        return {}
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ArgumentError("invalid_json", None, f"arguments are not valid JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise ArgumentError(
            "not_an_object", None, f"arguments must be a JSON object, got {type(value).__name__}"
        )
    return value


def _check_value(name: str, value: Any, spec: dict[str, Any]) -> None:
    expected = spec.get("type")
    if expected in TYPE_CHECKS and not TYPE_CHECKS[expected](value):
        raise ArgumentError("wrong_type", name, f"field {name!r} must be {expected}, got {value!r}")
    if "enum" in spec and value not in spec["enum"]:
        raise ArgumentError(
            "not_in_enum", name, f"field {name!r} must be one of {spec['enum']}, got {value!r}"
        )
