"""A string parameter whose description is only its options ("low, medium or high"), or lists them
in brackets ("Fan speed (low, medium or high)"), takes the one the request names, in English and
in Chinese (高档 is high). Before, such a parameter took nothing, and "turn the bedroom fan to high
and switch off the living room light" called only the light. Tools and requests are invented."""

from __future__ import annotations

import json

import pytest

from tests.offline_model.conftest import tool
from wirelab.offline_model import complete

HEATER = tool(
    "set_heater",
    "Set the heater's power level in a room.",
    {
        "room": {"type": "string", "description": "Room"},
        "level": {"type": "string", "description": "eco, normal or boost"},
    },
    ("room", "level"),
)
BLINDS = tool(
    "move_blinds",
    "Open or close the blinds in a room.",
    {
        "room": {"type": "string"},
        "position": {"type": "string", "description": "Where to (open, half or closed)"},
    },
    ("room", "position"),
)

FAN = tool(
    "set_fan",
    "Set a fan's speed.",
    {"room": {"type": "string"}, "speed": {"type": "string", "description": "Speed (low, medium or high)"}},
    ("room", "speed"),
)


def _calls(text: str) -> list[tuple[str, dict]]:
    body = {
        "model": "wirelab-offline",
        "messages": [{"role": "user", "content": text}],
        "tools": [HEATER, BLINDS] if text.isascii() else [FAN],
    }
    calls = complete(body)["choices"][0]["message"].get("tool_calls") or []
    return [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in calls]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Put the study heater on boost", [("set_heater", {"room": "study", "level": "boost"})]),
        ("把书房的风扇调到高档", [("set_fan", {"room": "书房", "speed": "high"})]),
        (
            "Set the nursery heater to eco and move the kitchen blinds to half",
            [
                ("set_heater", {"room": "nursery", "level": "eco"}),
                ("move_blinds", {"room": "kitchen", "position": "half"}),
            ],
        ),
    ],
)
def test_an_option_the_description_lists_is_taken(text, expected):
    assert _calls(text) == expected
