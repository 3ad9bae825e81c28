"""Strict mode: which schemas it accepts, and arguments that always fit them.

    >>> strict_problem({"type": "object", "properties": {"city": {"type": "string"}}})[-15:]
    "Missing 'city'."
    >>> conform({"city": 3}, {"type": "object", "properties": {"city": {"type": "string"}},
    ...                       "required": ["city"], "additionalProperties": False})
    {'city': '3'}

A real provider keeps a strict call inside its schema by constrained decoding: the sampler may only emit
tokens the schema allows. The offline model gets the same guarantee after the fact: `conform` keeps
every value that already fits and replaces the rest with the nearest value that does (a number read from
text, an enum's value in another case, `null` where the type allows it, else the type's simplest value).
So strict mode fixes the *shape* and the *syntax*; it cannot fix the *meaning* (an order id that does
not exist still fits `"type": "string"`).

`strict_problem` applies OpenAI's rules for strict schemas, in its wording: the root is an object; every
object lists all its properties in `required` and sets `additionalProperties: false`; only the keywords
in `KEYWORDS`; at most `MAX_DEPTH` levels of nesting. Left out: the limits on total properties and on
the length of names and enum values.
"""

from __future__ import annotations

import functools
import json
import re
import re._constants as sre
import re._parser
from typing import Any

from wirelab.offline_model.budget import spend
from wirelab.offline_model.wire.tool_schemas import first_problem, ref_problem, resolve

MAX_DEPTH = 10
KEYWORDS = frozenset(
    {
        "type", "properties", "required", "additionalProperties", "items", "enum", "const",
        "anyOf", "description", "title", "$defs", "definitions", "$ref", "$schema", "default",
        "pattern", "format", "multipleOf", "maximum", "exclusiveMaximum", "minimum",
        "exclusiveMinimum", "minItems", "maxItems",
    }
)  # fmt: skip
FORMATS = {
    "date-time": "2026-01-01T00:00:00Z", "time": "00:00:00Z", "date": "2026-01-01", "duration": "P1D",
    "email": "someone@example.com", "hostname": "example.com", "ipv4": "192.0.2.1", "ipv6": "2001:db8::1",
    "uuid": "00000000-0000-4000-8000-000000000000",
}  # fmt: skip


def strict_problem(schema: Any) -> str | None:
    """Why strict mode refuses `schema` (OpenAI's wording), or None when it accepts it."""
    if not isinstance(schema, dict) or schema.get("type") != "object":
        kind = schema.get("type") if isinstance(schema, dict) else None
        return f"schema must be a JSON Schema of 'type: \"object\"', got 'type: \"{kind}\"'."
    return _problem(schema, (), 1)


def answer_schema_problem(schema: Any, strict: bool) -> str | None:
    """Why a `response_format` schema is refused: its root is no object schema, it is no JSON Schema by
    jsonschema's own metaschema check (of the draft `conform` validates with), a `$ref` of it leads
    nowhere, or, when `strict`, strict mode does not accept it."""
    if not (isinstance(schema, dict) and schema.get("type") == "object"):
        return strict_problem(schema) if strict else "schema must be an object."
    try:
        problem = _answer_problem_in(json.dumps(schema))
    except (TypeError, ValueError):
        return "schema must be JSON."
    return problem or (strict_problem(schema) if strict else None)


@functools.lru_cache(maxsize=256)
def _answer_problem_in(text: str) -> str | None:
    """The first metaschema or `$ref` problem of an answer schema (as JSON text, so it can be cached)."""
    schema = json.loads(text)
    return first_problem(schema, "schema", _validator()) or ref_problem(schema)


def _problem(schema: Any, context: tuple[str, ...], depth: int) -> str | None:
    if not isinstance(schema, dict):
        return None
    if depth > MAX_DEPTH:
        return f"{depth} levels of nesting exceeds limit of {MAX_DEPTH}."
    unknown = next((key for key in schema if key not in KEYWORDS), None)
    if unknown is not None:
        return f"In context={context}, '{unknown}' is not permitted."
    if schema.get("format") not in (None, *FORMATS):
        return f"In context={context}, format '{schema['format']}' is not supported."
    kind = schema.get("type")
    if kind == "object" or (isinstance(kind, list) and "object" in kind):
        required = schema.get("required", [])
        missing = [name for name in schema.get("properties", {}) if name not in (required or [])]
        if missing or not isinstance(required, list):
            return (
                f"In context={context}, 'required' is required to be supplied and to be an array "
                f"including every key in properties. Missing '{missing[0] if missing else ''}'."
            )
        if schema.get("additionalProperties") is not False:
            return f"In context={context}, 'additionalProperties' is required to be supplied and to be false."
    shape = _shape_problem(schema)
    if shape:
        return f"In context={context}, {shape}"
    children = [(("properties", name), child, 1) for name, child in (schema.get("properties") or {}).items()]
    children += [(("items",), schema["items"], 1)] if isinstance(schema.get("items"), dict) else []
    children += [(("anyOf", str(k)), option, 0) for k, option in enumerate(schema.get("anyOf") or [])]
    children += [
        ((key, name), child, 0)
        for key in ("$defs", "definitions")
        for name, child in (schema.get(key) or {}).items()
    ]
    for key, child, deeper in children:
        problem = _problem(child, (*context, *key), depth + deeper)
        if problem:
            return problem
    return None


def _shape_problem(schema: dict[str, Any]) -> str | None:
    """A keyword strict mode reads in a shape it cannot use: an empty enum, an array of `items`, `$defs`
    that are no object (JSON Schema's draft 7 allows the first two, and says nothing of `$defs`)."""
    if schema.get("enum") == []:
        return "'enum' is required to list at least one value."
    if not isinstance(schema.get("items", {}), dict):
        return "'items' is required to be an object schema."
    defs = next((key for key in ("$defs", "definitions") if not isinstance(schema.get(key) or {}, dict)), "")
    return f"'{defs}' is required to be an object of schemas." if defs else None


def conform(value: Any, schema: dict[str, Any], root: dict[str, Any] | None = None, depth: int = 0) -> Any:
    """`value` changed as little as needed to validate against a strict `schema`."""
    spend()  # a `minItems` may ask for more items than a reply can hold: the request's budget stops it
    root = root if root is not None else schema
    schema = _resolved(schema, root)
    if _fits(value, schema, root):
        return value
    if depth > 2 * MAX_DEPTH:
        return None
    for option in schema.get("anyOf") or []:
        candidate = conform(value, option, root, depth + 1)
        if _fits(candidate, option, root):
            return candidate
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return _nearest_choice(value, schema["enum"])
    kinds = schema.get("type") if isinstance(schema.get("type"), list) else [schema.get("type")]
    if value is None and "null" in kinds or not schema.get("type"):
        return None
    for kind in [k for k in kinds if k != "null"] + (["null"] if "null" in kinds else []):
        candidate = _as_kind(value, kind, schema, root, depth)
        if _fits(candidate, schema, root):
            return candidate
    return None


def _resolved(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    """`schema`, or what its local `$ref` ('#/$defs/x') points at; {} (anything) where that is
    nothing (a `response_format` schema is not checked for its `$ref`s)."""
    try:
        target = resolve(schema, root)
    except LookupError:
        return {}
    return target if isinstance(target, dict) else {}


@functools.cache
def _validator() -> Any:
    """`jsonschema.Draft202012Validator`, imported on first use: importing jsonschema builds its
    format checkers (a second and more), which only the strict path needs, so a process that
    loads the model does not wait for it (`OfflineServer.start` warms it up in a thread)."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator


def warm_up() -> None:
    """Import jsonschema now, not on the first strict request."""
    _validator()


def _fits(value: Any, schema: dict[str, Any], root: dict[str, Any]) -> bool:
    definitions = {"$defs": root.get("$defs", {}), "definitions": root.get("definitions", {})}
    return _validator()({**schema, **definitions}).is_valid(value)


def _nearest_choice(value: Any, choices: list[Any]) -> Any:
    """The choice equal to `value` but for case and spaces, else the first choice (None if none)."""
    words = str(value).strip().casefold()
    first = choices[0] if choices else None  # an empty enum admits no value
    return next((choice for choice in choices if str(choice).strip().casefold() == words), first)


def _as_kind(value: Any, kind: str, schema: dict[str, Any], root: dict[str, Any], depth: int) -> Any:
    if kind == "object":
        given = value if isinstance(value, dict) else {}
        return {
            name: conform(given.get(name), child, root, depth + 1)
            for name, child in (schema.get("properties") or {}).items()
        }
    if kind == "array":
        return _array(value, schema, root, depth)
    if kind in ("number", "integer"):
        return _number(value, kind, schema)
    if kind == "string":
        return _string(value, schema)
    if kind == "boolean":
        return value if isinstance(value, bool) else str(value).strip().lower() in ("true", "yes", "1")
    return None  # "null", or a type strict mode does not know


def _array(value: Any, schema: dict[str, Any], root: dict[str, Any], depth: int) -> list[Any]:
    items = value if isinstance(value, list) else ([] if value is None else [value])
    items = items[: schema.get("maxItems", len(items))]
    item_schema = schema.get("items") if isinstance(schema.get("items"), dict) else {}
    items = [conform(item, item_schema, root, depth + 1) for item in items]
    while len(items) < schema.get("minItems", 0):
        items.append(conform(None, item_schema, root, depth + 1))
    return items


def _number(value: Any, kind: str, schema: dict[str, Any]) -> int | float:
    """A number read from `value` (or 0), then moved into the schema's range and step."""
    found = re.search(r"-?\d+(?:\.\d+)?", str(value)) if not isinstance(value, bool) else None
    number = float(found.group()) if found else 0.0
    step = schema.get("multipleOf", 1 if kind == "integer" else None)
    lows = (schema.get("minimum"), _above(schema, "exclusiveMinimum", step))
    highs = (schema.get("maximum"), _above(schema, "exclusiveMaximum", step, -1))
    low = max((bound for bound in lows if bound is not None), default=None)
    high = min((bound for bound in highs if bound is not None), default=None)
    number = min(max(number, low if low is not None else number), high if high is not None else number)
    if step:
        number = _on_step(number, step, low, high)
    return int(number) if kind == "integer" else number


def _above(schema: dict[str, Any], key: str, step: float | None, sign: int = 1) -> float | None:
    """An exclusive bound as an inclusive one: one step (or a small amount) inside it."""
    return None if schema.get(key) is None else schema[key] + sign * (step or 1e-6)


def _on_step(number: float, step: float, low: float | None, high: float | None) -> float:
    """The multiple of `step` nearest `number` that stays within [low, high] (if there is one)."""
    near = round(number / step)
    for k in (near, near + 1, near - 1):
        candidate = k * step
        if (low is None or candidate >= low) and (high is None or candidate <= high):
            return candidate
    return near * step


def _string(value: Any, schema: dict[str, Any]) -> str:
    if schema.get("format") in FORMATS:
        return FORMATS[schema["format"]]
    text = value if isinstance(value, str) else ("" if value is None else json.dumps(value))
    if "pattern" in schema and not re.search(schema["pattern"], text):
        return example_of(schema["pattern"])
    return text


def example_of(pattern: str) -> str:
    """A short string that `pattern` matches: '^[A-Z]{2}-\\d+$' -> 'AA-0'."""
    return "".join(_example(token) for token in re._parser.parse(pattern))  # the standard library's reading


def _example(token: tuple[Any, Any]) -> str:
    op, arg = token
    if op is sre.LITERAL:
        return chr(arg)
    if op is sre.NOT_LITERAL:
        return "a" if arg != ord("a") else "b"
    if op is sre.ANY:
        return "a"
    if op is sre.IN:
        return _in_example(arg)
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", None)):
        low, _high, body = arg
        return "".join(_example(t) for t in body) * low
    if op is sre.SUBPATTERN:
        return "".join(_example(t) for t in arg[-1])
    if op is sre.BRANCH:
        return "".join(_example(t) for t in arg[1][0])
    return _CATEGORY.get(str(arg), "a") if op is sre.CATEGORY else ""  # anchors, lookarounds: no characters


_CATEGORY = {"CATEGORY_DIGIT": "0", "CATEGORY_WORD": "a", "CATEGORY_SPACE": " ", "CATEGORY_NOT_DIGIT": "a"}


def _in_example(items: list[tuple[Any, Any]]) -> str:
    if items and items[0][0] is sre.NEGATE:
        excluded = "".join(chr(arg) for op, arg in items[1:] if op is sre.LITERAL)
        return next(ch for ch in "a0_ -" if ch not in excluded)
    op, arg = items[0]
    if op is sre.LITERAL:
        return chr(arg)
    return chr(arg[0]) if op is sre.RANGE else _CATEGORY.get(str(arg), "a")
