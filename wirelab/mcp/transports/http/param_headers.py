"""`x-mcp-header` (2026-07-28, Streamable HTTP): tool parameters a client mirrors into headers.

A tool's `inputSchema` may mark a parameter with `"x-mcp-header": "Region"`; a client then
sends that argument's value as `Mcp-Param-Region` on each `tools/call` of the tool:

>>> schema = {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}}
>>> param_headers(header_params(schema), {"region": "us-west1", "query": "SELECT 1"})
{'Mcp-Param-Region': 'us-west1'}

The client MUST leave out of `tools/list` a tool whose annotations break the rules (an empty
or non-token name, a duplicate name ignoring case, a parameter that is not a string, integer
or boolean, one reachable other than through `properties`): `header_params` raises
`InvalidToolHeaders` saying which rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from wirelab.mcp.stateless import encode_header_value

ANNOTATION = "x-mcp-header"
HEADER_PREFIX = "Mcp-Param-"
PRIMITIVE_TYPES = frozenset({"string", "integer", "boolean"})
MAX_SAFE_INTEGER = 2**53 - 1
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")  # RFC 9110 tchar


class InvalidToolHeaders(ValueError):
    """A tool's `x-mcp-header` annotations break the 2026-07-28 rules."""


Path = tuple[str, ...]


def _annotations(node: Any, path: Path | None) -> Iterator[tuple[Any, Path | None, Any]]:
    """(header name, property path or None if not statically reachable, the schema) per annotation."""
    if isinstance(node, list):
        for item in node:
            yield from _annotations(item, None)
        return
    if not isinstance(node, dict):
        return
    if ANNOTATION in node:
        yield node[ANNOTATION], path, node
    for key, value in node.items():
        if key == "properties" and isinstance(value, dict) and path is not None:
            for name, schema in value.items():
                yield from _annotations(schema, (*path, name))
        elif key != ANNOTATION:
            yield from _annotations(value, None)


def _check(name: Any, path: Path | None, schema: dict[str, Any]) -> None:
    if not isinstance(name, str) or not name:
        raise InvalidToolHeaders(f"{ANNOTATION} must be a non-empty string, not {name!r}")
    if not _TOKEN.fullmatch(name):
        raise InvalidToolHeaders(f"{ANNOTATION} {name!r} is not an HTTP header-name token")
    if path is None:
        raise InvalidToolHeaders(f"{ANNOTATION} {name!r} is not reachable through properties alone")
    if schema.get("type") not in PRIMITIVE_TYPES:
        raise InvalidToolHeaders(
            f"{ANNOTATION} {name!r} marks a parameter of type {schema.get('type')!r}, "
            "not string, integer or boolean"
        )


def header_params(input_schema: Mapping[str, Any]) -> dict[str, Path]:
    """Header name -> argument path for each `x-mcp-header` of a tool; raises `InvalidToolHeaders`."""
    found: dict[str, Path] = {}
    for name, path, schema in _annotations(dict(input_schema), ()):
        _check(name, path, schema)
        if name.lower() in {seen.lower() for seen in found}:
            raise InvalidToolHeaders(f"{ANNOTATION} {name!r} is used twice (names ignore case)")
        found[name] = path  # type: ignore[assignment]  # _check made sure it is a path
    return found


def _text(value: Any) -> str | None:
    """The header text of an argument value: booleans lowercase, integers in decimal."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and abs(value) <= MAX_SAFE_INTEGER:
        return str(value)
    return value if isinstance(value, str) else None


def param_headers(params: Mapping[str, Path], arguments: Mapping[str, Any]) -> dict[str, str]:
    """The `Mcp-Param-*` headers of one call: a missing or null argument sends none."""
    headers = {}
    for name, path in params.items():
        value: Any = arguments
        for key in path:
            value = value.get(key) if isinstance(value, Mapping) else None
        text = _text(value)
        if text is not None:
            headers[HEADER_PREFIX + name] = encode_header_value(text)
    return headers
