"""Days listed with "and" are one request with a call per day, in English as in Chinese (invented tool)."""

from __future__ import annotations

from tests.offline_model.conftest import model_tool
from wirelab.offline_model.selection import plan
from wirelab.offline_model.sharing import bind_plan

WIND = model_tool(
    "wind_speed",
    "Wind speed forecast for a town.",
    {"town": {"type": "string", "description": "the town"}, "date": {"type": "string"}},
    ("town",),
)


def calls(text: str) -> list[dict]:
    return [item.arguments or {} for item in bind_plan(plan(text, (WIND,)))]


def test_days_listed_with_and_are_a_call_each() -> None:
    assert calls("Wind speed in Galway today and tomorrow?") == [
        {"town": "Galway", "date": "today"},
        {"town": "Galway", "date": "tomorrow"},
    ]
