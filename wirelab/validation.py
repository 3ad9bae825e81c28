"""Check a tool call's arguments before running it, and say precisely what is wrong.

Two kinds of wrong, two layers:

- *syntax*: the arguments do not fit the tool's JSON Schema (a missing
  required field, a value outside an `enum`, a string where a number goes).
  `validate_arguments` finds these with `jsonschema`, without running anything.
- *semantics*: the arguments fit the schema but not the world (an order id
  that does not exist, a date out of range). Only code that knows the world
  can tell; `must_exist` and `within` build such checks, and any function
  `check(arguments)` that raises `ToolError` is one.

Every problem becomes a structured error the model can act on:

    validate_arguments({"unit": "Celsius"}, schema)
    # ToolError invalid_arguments: {"field": "city", "suggestion": "Add the required field 'city'.",
    #   "problems": [..., {"field": "unit", "allowed": ["celsius", "fahrenheit"],
    #                      "suggestion": "Use 'celsius': values are case-sensitive."}]}

`validating(...)` puts both layers in front of the loop's `execute_tool_call`.
An invalid *schema* is the developer's bug, not the model's: it raises
`jsonschema.SchemaError`. Left out: coercing near-misses ("3" -> 3) silently.
"""

from __future__ import annotations

import datetime as dt
import difflib
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError

from wirelab.errors import ToolError
from wirelab.loop import Message, execute_tool_call, parse_arguments
from wirelab.tools import Tool, ToolRegistry

SemanticCheck = Callable[[dict[str, Any]], None]
CallRunner = Callable[[Message, ToolRegistry], str]


def schema_problems(arguments: Any, schema: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every way `arguments` break `schema`, one dict each (field, message, suggestion, …)."""
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema, format_checker=FormatChecker())
    errors = sorted(validator.iter_errors(arguments), key=lambda e: list(map(str, e.absolute_path)))
    problems = [p for e in errors for p in _describe(e)]
    return [p for i, p in enumerate(problems) if p not in problems[:i]]


def validate_arguments(arguments: Any, schema: Mapping[str, Any]) -> None:
    """Raise `ToolError("invalid_arguments", ...)` unless `arguments` fit `schema`."""
    problems = schema_problems(arguments, schema)
    if not problems:
        return
    first, more = problems[0], len(problems) - 1
    message = first["message"] + (f" (and {more} more problem{'s' * (more > 1)})" if more else "")
    details = {k: v for k, v in first.items() if k not in ("message", "suggestion")}
    extra = {"problems": problems} if more else {}
    raise ToolError("invalid_arguments", message, suggestion=first["suggestion"], **details, **extra)


def _describe(error: ValidationError) -> list[dict[str, Any]]:
    path = ".".join(map(str, error.absolute_path))
    return _DESCRIBERS.get(error.validator, _other)(error, path)


def _required(error: ValidationError, path: str) -> list[dict[str, Any]]:
    missing = [name for name in error.validator_value if name not in error.instance]
    return [
        {
            "field": _join(path, name),
            "message": f"the required field {name!r} is missing",
            "suggestion": f"Add the required field {name!r}.",
        }
        for name in missing
    ]


def _unexpected(error: ValidationError, path: str) -> list[dict[str, Any]]:
    known = list(error.schema.get("properties", {}))
    return [
        {
            "field": _join(path, name),
            "message": f"there is no parameter {name!r}",
            "suggestion": f"Remove {name!r}; the parameters are: {', '.join(known)}.",
        }
        for name in error.instance
        if name not in known
    ]


def _not_allowed(error: ValidationError, path: str) -> list[dict[str, Any]]:
    return [
        {
            "field": path,
            "message": f"{error.instance!r} is not one of the allowed values",
            "allowed": list(error.validator_value),
            "suggestion": _enum_suggestion(error.instance, error.validator_value),
        }
    ]


def _wrong_type(error: ValidationError, path: str) -> list[dict[str, Any]]:
    expected = error.validator_value
    return [
        {
            "field": path,
            "message": f"{error.instance!r} is not of type {expected!r}",
            "expected": expected,
            "suggestion": f"Send {path or 'the arguments'} as a JSON {expected}.",
        }
    ]


def _other(error: ValidationError, path: str) -> list[dict[str, Any]]:
    rule = f"{error.validator} {error.validator_value!r}"
    return [
        {
            "field": path,
            "message": error.message,
            "suggestion": f"Fix {path or 'the arguments'}: it must satisfy {rule}.",
        }
    ]


_DESCRIBERS = {
    "required": _required,
    "additionalProperties": _unexpected,
    "enum": _not_allowed,
    "type": _wrong_type,
}


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _enum_suggestion(value: Any, allowed: Sequence[Any]) -> str:
    same = [a for a in allowed if isinstance(a, str) and str(value).lower() == a.lower()]
    if same:
        return f"Use {same[0]!r}: values are case-sensitive."
    return f"Use one of: {', '.join(map(repr, allowed))}."


def must_exist(
    field: str, known: Collection[Any] | Callable[[], Collection[Any]], kind: str = "record"
) -> SemanticCheck:
    """A check that `arguments[field]` names something that exists, with a did-you-mean."""

    def check(arguments: dict[str, Any]) -> None:
        value, existing = arguments.get(field), known() if callable(known) else known
        if value is None or value in existing:
            return
        close = difflib.get_close_matches(str(value), [str(k) for k in existing], n=1)
        hint = f"Did you mean {close[0]!r}?" if close else f"Use an existing {kind}."
        raise ToolError("not_found", f"there is no {kind} {value!r}", suggestion=hint, field=field)

    return check


def within(field: str, low: Any, high: Any) -> SemanticCheck:
    """A check that `low <= arguments[field] <= high`; ISO dates are compared as dates."""

    def check(arguments: dict[str, Any]) -> None:
        if field not in arguments:
            return
        value = _comparable(arguments[field], low)
        if not low <= value <= high:
            raise ToolError(
                "out_of_range",
                f"{field}={arguments[field]!r} is outside {low} … {high}",
                suggestion=f"Choose {field} between {low} and {high}.",
                field=field,
                allowed={"min": str(low), "max": str(high)},
            )

    return check


def _comparable(value: Any, like: Any) -> Any:
    if isinstance(like, dt.date) and isinstance(value, str):
        try:
            return dt.date.fromisoformat(value)
        except ValueError as e:
            raise ToolError(
                "invalid_arguments", f"{value!r} is not an ISO date", suggestion="Write dates as YYYY-MM-DD."
            ) from e
    return value


def check_call(call: Message, tool: Tool, checks: Iterable[SemanticCheck] = ()) -> dict[str, Any]:
    """The call's arguments after the syntax checks, then the semantic ones; raises `ToolError`."""
    arguments = parse_arguments(call)
    validate_arguments(arguments, tool.parameters)
    for check in checks:
        check(arguments)
    return arguments


def validating(
    semantic: Mapping[str, Iterable[SemanticCheck]] | None = None, run: CallRunner = execute_tool_call
) -> CallRunner:
    """A call runner that validates first and runs the tool only when the call is valid.

    `semantic` maps a tool name to its semantic checks. An unknown tool is
    left to `run`, which reports it with the list of tools that exist.
    """
    semantic = semantic or {}

    def runner(call: Message, tools: ToolRegistry) -> str:
        tool = tools.get(call["function"]["name"])
        if tool is not None:
            try:
                check_call(call, tool, semantic.get(tool.name, ()))
            except ToolError as e:
                return e.content()
        return run(call, tools)

    return runner
