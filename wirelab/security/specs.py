"""One shape for a tool description, whichever way it arrived.

A host meets tool descriptions in three shapes: a `wirelab.tools.Tool`, an
entry of a Chat Completions `tools` list, and a tool from an MCP `tools/list`
result. The defences compare and scan descriptions, so they first bring each
to one plain dict:

    >>> described({"name": "add", "description": "Add two numbers.",
    ...            "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}})
    {'name': 'add', 'description': 'Add two numbers.',
     'parameters': {'type': 'object'}, 'annotations': {'readOnlyHint': True}}

The schema kept is the one the model is shown: a Chat Completions entry's
`parameters`; an MCP tool's `inputSchema` (a host converts exactly that, see
`wirelab.mcp.host.openai_tool_spec`), even when the tool also carries a
`parameters` field the model never sees. MCP's other fields (`title`,
`annotations`, `outputSchema`) are kept, since changing them changes what the
user is told. Anything else is refused with a clear error.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from wirelab.tools import Tool

ToolSpec = Tool | Mapping[str, Any]
KEPT_MCP_FIELDS = ("title", "annotations", "outputSchema")


def described(spec: ToolSpec) -> dict[str, Any]:
    """The tool's name, description, parameters and MCP extras as one plain dict."""
    if isinstance(spec, Tool):
        return {"name": spec.name, "description": spec.description, "parameters": spec.parameters}
    if not isinstance(spec, Mapping):
        raise TypeError(f"a tool description must be a Tool or a dict, not {type(spec).__name__}")
    if spec.get("type") == "function" and isinstance(spec.get("function"), Mapping):
        spec = spec["function"]
    if not isinstance(spec.get("name"), str):
        raise ValueError(f"a tool description needs a string 'name'; got keys {sorted(spec)}")
    schema_field = "inputSchema" if "inputSchema" in spec else "parameters"
    shape = {
        "name": spec["name"],
        "description": spec.get("description") or "",
        "parameters": spec.get(schema_field) or {"type": "object", "properties": {}},
    }
    return shape | {key: spec[key] for key in KEPT_MCP_FIELDS if key in spec}


def schema_strings(schema: Any, path: str = "parameters") -> Iterator[tuple[str, str]]:
    """Every string in a JSON Schema with where it sits, keys (property names) included, as words.

    `{"properties": {"userName": {"enum": ["a"]}}}` ->
    `[("parameters.properties", "properties"), ("parameters.properties.userName", "user Name"),
      ("parameters.properties.userName.enum[0]", "a")]`
    """
    if isinstance(schema, str):
        yield path, schema
    elif isinstance(schema, Mapping):
        for key, value in schema.items():
            where = f"{path}.{key}"
            yield where, identifier_words(str(key))
            yield from schema_strings(value, where)
    elif isinstance(schema, list):
        for index, item in enumerate(schema):
            yield from schema_strings(item, f"{path}[{index}]")


def identifier_words(name: str) -> str:
    """An identifier as the words a model reads in it: 'ignore_prior_Rules' -> 'ignore prior Rules'."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name).replace("_", " ")
