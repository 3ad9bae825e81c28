"""A value said once holds for the intent beside it, optional parameters too (invented tools)."""

from __future__ import annotations

from tests.offline_model.conftest import model_tool
from wirelab.offline_model.selection import plan
from wirelab.offline_model.sharing import bind_plan

DAY = {"type": "string", "description": "day, YYYY-MM-DD; today if left out"}
UV = model_tool(
    "uv_index",
    "Ultraviolet index forecast for a city.",
    {"city": {"type": "string", "description": "the city"}, "date": DAY},
    ("city",),
)
POLLEN = model_tool(
    "pollen_count",
    "Pollen count forecast for a city.",
    {"city": {"type": "string", "description": "the city"}, "date": DAY},
    ("city",),
)
STAMPS = model_tool(
    "stamp_price",
    "Price of a postage stamp for a letter to a country.",
    {"country": {"type": "string", "description": "destination country"}},
    ("country",),
)


def calls(text: str, tools: tuple) -> list[tuple[str, dict]]:
    return [(item.tool.name, item.arguments) for item in bind_plan(plan(text, tools))]


def test_a_day_said_once_holds_for_the_optional_day_of_the_intent_beside_it():
    assert calls("The UV index on 2026-07-04 and the pollen count in Madrid", (UV, POLLEN, STAMPS)) == [
        ("uv_index", {"city": "Madrid", "date": "2026-07-04"}),
        ("pollen_count", {"city": "Madrid", "date": "2026-07-04"}),
    ]


def test_a_tool_without_that_parameter_takes_nothing_from_beside_it():
    assert calls("The UV index in Madrid on 2026-07-04 and a stamp price for Peru", (UV, POLLEN, STAMPS)) == [
        ("uv_index", {"city": "Madrid", "date": "2026-07-04"}),
        ("stamp_price", {"country": "Peru"}),
    ]
