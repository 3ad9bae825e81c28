"""Is a tool's `parameters` a usable JSON Schema? The checks the real API makes, and a few more.

    >>> schema_problem({"type": "object", "properties": {"n": {"type": "banana"}}}) is not None
    True
    >>> schema_problem({"type": "object", "properties": {"n": {"$ref": "#/$defs/missing"}}})
    "the $ref '#/$defs/missing' does not resolve to a schema in this document."

A schema must be of type object, valid against JSON Schema's metaschema (draft 7,
compiled once by `fastjsonschema`), nested at most `MAX_SCHEMA_DEPTH` levels, with
every `$ref` local and resolvable and none that only points back to itself. Every
walk here is iterative, so a schema nested 50,000 levels is refused, not a crash. Of
several problems, the one first in the document is named (`first_problem`), so a request
gets the same error in every process.

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
        text = json.dumps(parameters)
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
        from jsonschema import Draft7Validator  # only now: its import is slow (see above)

        first = first_problem(schema, "parameters", Draft7Validator)
        return first or f"{error.message[:200].replace('data', 'parameters', 1)}."
    return ref_problem(schema)


def first_problem(schema: Any, name: str, validator: Any) -> str | None:
    """Of the problems `validator` (a jsonschema class) finds in `schema` by its metaschema, the one
    that comes first in the document, or None: "parameters.properties.n.type: 'banana' is not valid
    under any of the given schemas." Both jsonschema and fastjsonschema visit an object's properties
    in the order of a set, which changes with PYTHONHASHSEED, so all are listed and the first taken."""
    checker = validator(validator.META_SCHEMA, format_checker=validator.FORMAT_CHECKER)
    indexes: dict[int, dict[Any, int]] = {}
    first = min(
        checker.iter_errors(schema),
        key=lambda error: (_position(schema, error.absolute_path, indexes), error.message),
        default=None,
    )
    return None if first is None else f"{name}{first.json_path[1:]}: {first.message[:200]}."


def _position(document: Any, path: Any, indexes: dict[int, dict[Any, int]]) -> tuple[int, ...]:
    """Where `path` lies in `document`: each key's index in its object (or its array), so that
    positions compare as the places do in the document's order. `indexes` keeps each object's."""
    place, node = [], document
    for key in path:
        if isinstance(node, dict) and id(node) not in indexes:
            indexes[id(node)] = {k: i for i, k in enumerate(node)}
        place.append(indexes[id(node)][key] if isinstance(node, dict) else key)
        node = node[key]
    return tuple(place)


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


def ref_problem(schema: dict[str, Any]) -> str | None:
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
