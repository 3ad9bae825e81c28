"""Is a tool's `parameters` a usable JSON Schema? The checks the real API makes, and a few more.

    >>> schema_problem({"type": "object", "properties": {"n": {"type": "banana"}}}) is not None
    True
    >>> schema_problem({"type": "object", "properties": {"n": {"$ref": "#/$defs/missing"}}})
    "the $ref '#/$defs/missing' does not resolve to a schema in this document."

A schema must be of type object, valid against JSON Schema's metaschema (draft 7,
compiled once by `fastjsonschema`), nested at most `MAX_SCHEMA_DEPTH` levels, with
every `$ref` local and resolvable and none that only points back to itself. Every
walk here is iterative, so a schema nested 50,000 levels is refused, not a crash.

The metaschema comes from `jsonschema_specifications`, the package `jsonschema` itself takes
its metaschemas from (`Draft7Validator.META_SCHEMA` is the same document): importing it costs
a few milliseconds, while importing `jsonschema` builds its format checkers (a second and more,
on every fresh process that loads the model).
"""

from __future__ import annotations

import functools
import json
from typing import Any

import fastjsonschema
from jsonschema_specifications import REGISTRY

MAX_SCHEMA_DEPTH = 64
DRAFT_7 = "http://json-schema.org/draft-07/schema#"


def schema_problem(parameters: Any) -> str | None:
    """Why `parameters` is not a usable object schema, or None when it is."""
    if not isinstance(parameters, dict) or parameters.get("type", "object") != "object":
        return "parameters must be a JSON Schema of type 'object'."
    if _depth(parameters) > MAX_SCHEMA_DEPTH:
        return f"the schema is nested more than {MAX_SCHEMA_DEPTH} levels deep."
    try:
        text = json.dumps(parameters, sort_keys=True)
    except (TypeError, ValueError):
        return "parameters must be JSON."
    return _problem_in(text)


@functools.lru_cache(maxsize=1024)
def _problem_in(text: str) -> str | None:
    """The first metaschema or `$ref` problem of a schema (given as JSON text, so it can be cached)."""
    schema = json.loads(text)
    try:
        _metaschema_check()(schema)
    except fastjsonschema.JsonSchemaException as error:
        return f"{error.message[:200].replace('data', 'parameters', 1)}."
    return _ref_problem(schema)


@functools.lru_cache(maxsize=1)
def _metaschema_check() -> Any:
    """JSON Schema's own metaschema (draft 7, as `jsonschema` ships it), compiled once."""
    return fastjsonschema.compile(dict(REGISTRY.contents(DRAFT_7)), use_default=False)


def warm_up() -> None:
    """Compile the metaschema check now (a tenth of a second), not on the first request."""
    _metaschema_check()


def _depth(value: Any) -> int:
    """How deeply `value` nests dicts and lists, measured without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth > MAX_SCHEMA_DEPTH:
            break
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return deepest


def _ref_problem(schema: dict[str, Any]) -> str | None:
    """A `$ref` that is not local, points nowhere, or only leads to other `$ref`s in a circle."""
    stack: list[Any] = [schema]
    while stack:
        item = stack.pop()
        if isinstance(item, list | dict):
            stack.extend(item.values() if isinstance(item, dict) else item)
        try:
            resolve(item, schema)
        except LookupError as error:
            return str(error)
    return None


def resolve(schema: Any, root: Any) -> Any:
    """What `schema` stands for: itself, or the schema its chain of local `$ref`s ('#/$defs/x') ends
    at; a `LookupError` says why for a `$ref` that points nowhere or a chain that goes in a circle."""
    seen: set[str] = set()
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str):
        ref = schema["$ref"]
        if ref in seen:
            raise LookupError(f"the $ref {ref!r} refers to itself without ever describing a value.")
        seen.add(ref)
        schema = pointer(root, ref)
        if schema is None:
            raise LookupError(f"the $ref {ref!r} does not resolve to a schema in this document.")
    return schema


def pointer(schema: Any, ref: str) -> Any:
    """The schema a local JSON pointer ('#', '#/$defs/x', '#/anyOf/0') names, or None."""
    if ref != "#" and not ref.startswith("#/"):
        return None
    target: Any = schema
    for part in ref[2:].split("/") if ref != "#" else []:
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(target, dict) and part in target:
            target = target[part]
        elif isinstance(target, list) and part.isdigit() and int(part) < len(target):
            target = target[int(part)]
        else:
            return None
    return target if isinstance(target, dict | bool) else None
