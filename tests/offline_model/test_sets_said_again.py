"""A second number written like the first for one parameter is a second call (invented tools)."""

from __future__ import annotations

from tests.offline_model.conftest import model_tool
from wirelab.offline_model.calls import bind_all

KILN = model_tool(
    "glass_kiln",
    "Plan a glass fusing firing.",
    {
        "glass": {"type": "string", "enum": ["float", "bullseye"]},
        "top_temp_c": {"type": "integer", "description": "Top temperature in degrees Celsius."},
    },
    ("glass", "top_temp_c"),
)


def test_a_number_said_again_for_a_filled_parameter_starts_a_second_call():
    assert bind_all(KILN, "Plan bullseye firings to 780 and to 815 degrees.") == [
        {"glass": "bullseye", "top_temp_c": 780},
        {"glass": "bullseye", "top_temp_c": 815},
    ]


def test_a_number_of_another_parameter_is_no_second_call():
    assert bind_all(KILN, "Fuse float glass to 800 degrees for 10 minutes") == [
        {"glass": "float", "top_temp_c": 800}
    ]
