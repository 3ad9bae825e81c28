"""A parameter's schema behind a local `$ref` is read with JSON pointer's escapes (`~1` is '/',
`~0` is '~') and list indices, the one pointer walk `tool_schemas.pointer` does for every stage."""

from __future__ import annotations

from wirelab.offline_model.request import Tool
from wirelab.offline_model.slots import slots_of

GLAZE = {"type": "string", "enum": ["celadon", "tenmoku", "shino"], "description": "Glaze to fire."}
KILN = Tool(
    "fire_kiln",
    "Fire a batch of pots in the kiln.",
    {
        "type": "object",
        "properties": {
            "glaze": {"$ref": "#/$defs/glaze~1stoneware"},
            "cone": {"$ref": "#/$defs/cones/1"},
        },
        "required": ["glaze"],
        "$defs": {
            "glaze/stoneware": GLAZE,
            "cones": [{"type": "integer"}, {"type": "integer", "description": "Pyrometric cone."}],
        },
    },
)


def test_an_escaped_ref_and_a_list_index_name_their_schemas():
    slots = {slot.name: slot for slot in slots_of(KILN.parameters, KILN.parameters)}
    assert slots["glaze"].kind == "enum"
    assert slots["glaze"].schema["enum"] == GLAZE["enum"]
    assert slots["cone"].kind == "integer"
