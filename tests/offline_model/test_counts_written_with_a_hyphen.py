"""A number, in digits or words, hyphened to the word it counts or measures ("a 52-card deck", "a five-day
hike"), or written against its unit's capital ("a 9V battery"), is that number for a number parameter,
and stays whole for a string one (a code such as "7731-beta", a flat "4B"). On tools invented here."""

from __future__ import annotations

import pytest

from tests.offline_model.conftest import model_tool
from wirelab.offline_model.binding import bind
from wirelab.offline_model.request import Tool


def _tool(name: str, description: str, key: str, kind: str, text: str) -> Tool:
    return model_tool(name, description, {key: {"type": kind, "description": text}}, (key,))


DIE = _tool("roll_die", "Roll one die.", "sides", "integer", "How many faces the die has")
PANEL = _tool("tilt_panel", "Tilt a solar panel.", "angle", "integer", "Tilt in degrees")
TABLE = _tool("seat_guests", "Seat guests at a table.", "seats", "integer", "Seats at the table")
LAMP = _tool("pick_bulb", "Find a bulb for a lamp.", "watts", "integer", "Power of the bulb")
FLAT = _tool("flat_info", "Facts about a flat in the block.", "flat", "string", "The flat, as on its door")
BUILD = _tool("build_logs", "Console output of a CI build.", "build_id", "string", "The build's id")


@pytest.mark.parametrize(
    ("tool", "request_text", "expected"),
    [
        (DIE, "roll a 20-sided die for me", {"sides": 20}),
        (PANEL, "set the panel to a 35-degree slope", {"angle": 35}),
        (TABLE, "we need a 12-seat table tonight", {"seats": 12}),
        (LAMP, "a 60W bulb for the reading lamp", {"watts": 60}),
        (BUILD, "show the output of build 7731-beta", {"build_id": "7731-beta"}),
        (FLAT, "who lives in flat 4B?", {"flat": "4B"}),
    ],
)
def test_a_number_hyphened_to_its_word_is_that_number(tool: Tool, request_text: str, expected: dict) -> None:
    assert bind(tool, request_text, guess=False) == expected


HIKE = _tool("plan_hike", "Plan a hike in the hills.", "days", "integer", "How long the hike lasts, in days")
FERRY = model_tool(
    "book_ferry",
    "Book a ferry crossing.",
    {"port": {"type": "string"}, "travellers": {"type": "integer"}},
    ("port",),
)


@pytest.mark.parametrize(
    ("tool", "request_text", "expected"),
    [
        (DIE, "roll a twenty-sided die for me", {"sides": 20}),
        (HIKE, "plan a five-day hike", {"days": 5}),
        (HIKE, "plan a twenty-one-day hike", {"days": 21}),
        (HIKE, "plan a one-day hike", {"days": 1}),
        (TABLE, "we need a twelve-seat table tonight", {"seats": 12}),
        (FERRY, "book a one-way crossing to Calais", {"port": "Calais"}),
    ],
)
def test_a_number_word_hyphened_to_its_word_is_that_number(
    tool: Tool, request_text: str, expected: dict
) -> None:
    """As a digit's: "five-day" is 5 days. "One" counts nothing before a word that is no unit."""
    assert bind(tool, request_text, guess=False) == expected
