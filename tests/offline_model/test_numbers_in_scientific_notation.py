"""A number in scientific notation ("1.6e-19", "3e8", "6.02 x 10^23") is one number, not a code
nor two numbers, so a number parameter takes it. On tools invented here."""

from __future__ import annotations

import pytest

from wirelab.offline_model.binding import bind
from wirelab.offline_model.request import Tool


def _tool(name: str, description: str, **numbers: str) -> Tool:
    props = {key: {"type": "number", "description": text} for key, text in numbers.items()}
    return Tool(name, description, {"type": "object", "properties": props, "required": list(props)})


FIELD = _tool("field_strength", "Field of a point charge.", charge="Coulombs", distance="Metres")
WAVE = _tool("wavelength", "Wavelength of a wave.", speed="Speed in m/s", frequency="Frequency in Hz")
MOLES = _tool("moles_of", "Moles in a count of particles.", particles="How many particles")


@pytest.mark.parametrize(
    ("tool", "request_text", "expected"),
    [
        (FIELD, "field of a charge of 3.2e-9 C at a distance of 0.5 m", {"charge": 3.2e-9, "distance": 0.5}),
        (WAVE, "wavelength at speed 3e8 and frequency 5e14", {"speed": 3e8, "frequency": 5e14}),
        (MOLES, "how many moles are 1.2 x 10^24 particles", {"particles": 1.2e24}),
    ],
)
def test_a_number_in_scientific_notation_is_one_number(tool: Tool, request_text: str, expected: dict) -> None:
    assert bind(tool, request_text, guess=False) == expected
