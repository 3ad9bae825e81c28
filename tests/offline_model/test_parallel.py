"""Several calls from one message: intents, lists, frames and shared context (invented examples)."""

from __future__ import annotations

from wirelab.offline_model.intents import unwrap
from wirelab.offline_model.request import Tool
from wirelab.offline_model.selection import plan


def tool(name: str, description: str, properties: dict, required: tuple[str, ...] = ()) -> Tool:
    return Tool(name, description, {"type": "object", "properties": properties, "required": list(required)})


KETTLE = tool(
    "boil_water",
    "Boil water in the kettle to a temperature.",
    {"degrees": {"type": "integer", "description": "target temperature in Celsius"}},
    ("degrees",),
)
LAMP = tool(
    "switch_lamp",
    "Switch a lamp in a room on or off.",
    {"room": {"type": "string", "description": "the room the lamp is in"}},
    ("room",),
)


def test_a_message_pasted_in_quotes_is_read_as_the_message():
    assert unwrap('"Boil water to 80 degrees, then switch the lamp in the attic."') == (
        "Boil water to 80 degrees, then switch the lamp in the attic."
    )
    assert unwrap('"Attic" is the room') == '"Attic" is the room'
    items = plan('"Boil water to 80 degrees, then switch the lamp in the attic."', (KETTLE, LAMP))
    assert [item.tool for item in items] == [KETTLE, LAMP]
