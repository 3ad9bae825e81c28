"""One shape for a tool description, whichever way it arrived.

A host meets tool descriptions in three shapes: a `wirelab.tools.Tool`, an
entry of a Chat Completions `tools` list, and a tool from an MCP `tools/list`
result. The defences compare and scan descriptions, so they first bring each
to one plain dict:

    >>> described({"name": "add", "description": "Add two numbers.",
    ...            "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}})
    {'name': 'add', 'description': 'Add two numbers.',
     'parameters': {'type': 'object'}, 'annotations': {'readOnlyHint': True}}

MCP's `inputSchema` becomes `parameters`; MCP's other fields (`title`,
`annotations`, `outputSchema`) are kept, since changing them changes what the
user and the model are told. Anything else is refused with a clear error.
"""

from __future__ import annotations

from collections.abc import Mapping
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
    shape = {
        "name": spec["name"],
        "description": spec.get("description") or "",
        "parameters": spec.get("parameters", spec.get("inputSchema", {})),
    }
    return shape | {key: spec[key] for key in KEPT_MCP_FIELDS if key in spec}


def parameter_texts(parameters: Mapping[str, Any], prefix: str = "parameters") -> list[tuple[str, str]]:
    """Every description inside a JSON Schema, with where it sits: [(where, text)].

    `{"properties": {"note": {"description": "x"}}}` -> `[("parameters.note", "x")]`
    """
    found = []
    for name, prop in (parameters.get("properties") or {}).items():
        if isinstance(prop, Mapping):
            where = f"{prefix}.{name}"
            if isinstance(prop.get("description"), str):
                found.append((where, prop["description"]))
            found += parameter_texts(prop, where)
            if isinstance(prop.get("items"), Mapping):
                found += parameter_texts(prop["items"], f"{where}[]")
    return found
