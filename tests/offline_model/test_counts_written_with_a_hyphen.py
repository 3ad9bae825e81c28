"""A number hyphened to the word it counts or measures ("a 52-card deck", "a 35-degree slope") is
that number for a number parameter, and stays whole for a string one (a code such as "7731-beta").
On tools invented here."""

from __future__ import annotations

import pytest

from wirelab.offline_model.binding import bind
from wirelab.offline_model.request import Tool


def _tool(name: str, description: str, key: str, kind: str, text: str) -> Tool:
    schema = {"type": "object", "properties": {key: {"type": kind, "description": text}}, "required": [key]}
    return Tool(name, description, schema)


DIE = _tool("roll_die", "Roll one die.", "sides", "integer", "How many faces the die has")
PANEL = _tool("tilt_panel", "Tilt a solar panel.", "angle", "integer", "Tilt in degrees")
TABLE = _tool("seat_guests", "Seat guests at a table.", "seats", "integer", "Seats at the table")
BUILD = _tool("build_logs", "Console output of a CI build.", "build_id", "string", "The build's id")


@pytest.mark.parametrize(
    ("tool", "request_text", "expected"),
    [
        (DIE, "roll a 20-sided die for me", {"sides": 20}),
        (PANEL, "set the panel to a 35-degree slope", {"angle": 35}),
        (TABLE, "we need a 12-seat table tonight", {"seats": 12}),
        (BUILD, "show the output of build 7731-beta", {"build_id": "7731-beta"}),
    ],
)
def test_a_number_hyphened_to_its_word_is_that_number(tool: Tool, request_text: str, expected: dict) -> None:
    assert bind(tool, request_text, guess=False) == expected
