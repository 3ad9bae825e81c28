"""How many calls one message makes, on tools and requests invented here: a written list is one
call per item even where binding first read another value or the words before each item come
again; days joined by 和 are one intent; 顺便 starts another task; and a piece that only gives
the neighbouring intent's values is part of that intent, not a call of the tool its words name."""

from __future__ import annotations

import pytest

from tests.offline_model.conftest import model_tool
from wirelab.offline_model.calls import bind_all
from wirelab.offline_model.intents import pieces
from wirelab.offline_model.request import Tool
from wirelab.offline_model.selection import plan
from wirelab.offline_model.sharing import bind_plan


def _one(name: str, description: str, parameter: str, about: str) -> Tool:
    return model_tool(name, description, {parameter: {"type": "string", "description": about}}, (parameter,))


CLEANING = _one("dry_cleaning_price", "Price of dry-cleaning one garment.", "garment", "Kind of garment.")
BULB = _one("bulb_depth", "Planting depth for a flower bulb.", "bulb", "Kind of bulb.")
KNIFE = _one("knife_sharpening", "Price to sharpen a kitchen knife.", "knife", "Kind of knife.")
CREW = _one("team_roster", "Current roster of a rowing club crew.", "crew", "Crew name.")
NOTE = _one("pin_note", "Pin a note to the team board.", "note", "Text of the note.")
HORSE = model_tool(
    "horse_care",
    "Quote a horse care service.",
    {
        "breed": {"type": "string", "description": "Horse breed."},
        "service": {
            "type": "string",
            "enum": ["shoeing", "clipping", "dental"],
            "description": "Which service.",
        },
    },
    ("breed", "service"),
)
UV = model_tool(
    "uv_index",
    "紫外线指数预报。",
    {
        "city": {"type": "string", "description": "城市。"},
        "date": {"type": "string", "description": "日期，YYYY-MM-DD。"},
    },
    ("city", "date"),
)
TIP = model_tool(
    "tip_amount",
    "Work out a restaurant tip from the bill.",
    {"bill": {"type": "number", "description": "Bill total."}, "percent": {"type": "number"}},
    ("bill",),
)
BOAT = model_tool(
    "hire_boat",
    "Hire a rowing boat on a lake for some hours.",
    {
        "lake": {"type": "string", "description": "Lake name."},
        "hours": {"type": "integer", "description": "How many hours."},
    },
    ("lake", "hours"),
)
CAFE = _one("cafe_hours", "Opening hours of a lakeside cafe.", "cafe", "Cafe name.")


@pytest.mark.parametrize(
    ("tool", "text", "values"),
    [
        (
            BULB,
            "How deep should I plant tulips, daffodils, crocuses and irises?",
            ["tulips", "daffodils", "crocuses", "irises"],
        ),
        (
            CLEANING,
            "Any idea how much the cleaners charge for sweaters, coats and scarves?",
            ["sweaters", "coats", "scarves"],
        ),
        (CREW, "Rosters in Henley for the Blues and for the Tabs?", ["Blues", "Tabs"]),
        (KNIFE, "Sharpen prices for a Santoku and for a Nakiri", ["Santoku", "Nakiri"]),
        (KNIFE, "What does sharpening cost with a cleaver and with a paring knife?", ["cleaver", "paring"]),
    ],
)
def test_a_written_list_is_one_call_per_item(tool: Tool, text: str, values: list[str]) -> None:
    name = next(iter(tool.parameters["properties"]))
    assert [call[name] for call in bind_all(tool, text)] == values


def test_a_list_a_parameter_claims_from_outside_is_not_the_other_lists_parameter() -> None:
    calls = bind_all(HORSE, "Quote a shoeing and a clipping for a cob and a pony respectively.")
    assert calls == [{"breed": "cob", "service": "shoeing"}, {"breed": "pony", "service": "clipping"}]


def test_a_list_inside_free_text_stays_one_value() -> None:
    assert len(bind_all(NOTE, "Pin a note: printer jammed, toner low and paper out.")) == 1


def test_days_joined_by_and_in_chinese_are_one_intent_with_a_call_for_each() -> None:
    items = bind_plan(plan("明天和后天杭州的紫外线指数", (UV,)))
    assert [(item.arguments or {}).get("date") for item in items] == ["明天", "后天"]


def test_by_the_way_in_chinese_starts_another_task() -> None:
    text = "查一下厦门明天的紫外线指数，顺便算算300块的账单给多少小费。"
    assert [p.joiner for p in pieces(text)] == ["", "then"]
    assert [item.tool.name for item in bind_plan(plan(text, (UV, TIP)))] == ["uv_index", "tip_amount"]


@pytest.mark.parametrize(
    ("text", "lakes"),
    [
        ("Hire a boat on Windermere for 2 hours and on Coniston for 3 hours.", ["Windermere", "Coniston"]),
        ("For a 3 hour row, hire a boat on Windermere.", ["Windermere"]),
    ],
)
def test_a_piece_that_only_gives_the_next_intents_values_is_part_of_it(text: str, lakes: list[str]) -> None:
    items = bind_plan(plan(text, (BOAT, CAFE)))
    assert [(item.tool.name, (item.arguments or {}).get("lake")) for item in items] == [
        ("hire_boat", lake) for lake in lakes
    ]


def test_a_piece_that_asks_for_the_other_tool_is_still_its_own_intent() -> None:
    items = bind_plan(
        plan("Hire a boat on Windermere for 2 hours and the opening hours of the Jetty Cafe.", (BOAT, CAFE))
    )
    assert [item.tool.name for item in items] == ["hire_boat", "cafe_hours"]


BAKE = model_tool(
    "bake_plan",
    "Plan an oven bake for a bread.",
    {
        "bread": {"type": "string", "enum": ["sourdough", "rye", "spelt"], "description": "Kind of bread."},
        "oven_c": {"type": "integer", "description": "Oven temperature in degrees Celsius."},
    },
    ("bread", "oven_c"),
)


def test_the_word_after_a_number_is_no_item_of_a_list() -> None:
    calls = bind_all(
        BAKE, "Bake plans for sourdough at 240 degrees, rye at 220 degrees and spelt at 210 degrees."
    )
    assert calls == [
        {"bread": "sourdough", "oven_c": 240},
        {"bread": "rye", "oven_c": 220},
        {"bread": "spelt", "oven_c": 210},
    ]


DAY = {"type": "string", "format": "date", "description": "Day, YYYY-MM-DD."}
SUNRISE = model_tool(
    "sunrise_time",
    "Sunrise time for a place on a day.",
    {"place": {"type": "string", "description": "Town or landmark."}, "date": DAY},
    ("place", "date"),
)
DELAYS = model_tool(
    "airport_delays",
    "Flight delays at an airport on a day.",
    {"airport": {"type": "string", "description": "Airport."}, "date": DAY},
    ("airport", "date"),
)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Sunrise at Stonehenge on 21 June and at Heathrow on 22 June.", ["sunrise_time", "sunrise_time"]),
        (
            "Sunrise at Stonehenge on 21 June and flight delays at Heathrow on 22 June.",
            ["sunrise_time", "airport_delays"],
        ),
    ],
)
def test_a_piece_that_names_no_tool_gives_the_intent_before_its_values(text: str, names: list[str]) -> None:
    assert [item.tool.name for item in bind_plan(plan(text, (SUNRISE, DELAYS)))] == names


LAWN = model_tool(
    "lawn_seed",
    "Grass seed for a lawn.",
    {
        "width": {"type": "number", "description": "Width of the lawn."},
        "length": {"type": "number", "description": "Length of the lawn."},
        "unit": {"type": "string", "enum": ["m", "ft"], "description": "Unit of width and length."},
    },
    ("width", "length"),
)
TRENCH = model_tool(
    "trench_soil",
    "Soil dug out of a trench.",
    {
        "length_m": {"type": "number", "description": "Length in metres."},
        "width_m": {"type": "number", "description": "Width in metres."},
        "depth_m": {"type": "number", "description": "Depth in metres."},
    },
    ("length_m", "width_m", "depth_m"),
)


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        (
            "Seed for a lawn 6 m by 4 m, and how much soil from a trench 12 m long, 0.5 m wide and 1 m deep?",
            [("lawn_seed", 6), ("trench_soil", 12)],
        ),
        (
            "Soil from a trench 12 m long, 0.5 m wide and 1 m deep, and another 6 m x 1 m x 1.5 m.",
            [("trench_soil", 12), ("trench_soil", 6)],
        ),
    ],
)
def test_measurements_name_no_tool_by_their_unit(text: str, calls: list[tuple[str, float]]) -> None:
    items = bind_plan(plan(text, (LAWN, TRENCH)))
    assert [(item.tool.name, next(iter((item.arguments or {}).values()))) for item in items] == calls


KILN = model_tool(
    "kiln_cool",
    "Time a kiln takes to cool.",
    {
        "from_c": {"type": "number", "description": "Starting temperature in degrees Celsius."},
        "minutes_open": {"type": "number", "description": "Minutes the lid stays open."},
    },
    ("from_c", "minutes_open"),
)
DRIFT = model_tool(
    "boat_drift",
    "How far a boat drifts.",
    {
        "current_kmh": {"type": "number", "description": "Current speed in km/h."},
        "hours": {"type": "number", "description": "Hours adrift."},
    },
    ("current_kmh", "hours"),
)


@pytest.mark.parametrize(
    ("tool", "text", "calls"),
    [
        (
            KILN,
            "Cooling from 900, 1000 and 1100 °C with the lid open 15 minutes.",
            [(900, 15), (1000, 15), (1100, 15)],
        ),
        (DRIFT, "Drift for currents of 2, 3 and 5 km/h over 4 hours.", [(2, 4), (3, 4), (5, 4)]),
        (DRIFT, "Drift at 3 km/h for 2, 4 and 6 hours.", [(3, 2), (3, 4), (3, 6)]),  # as before
    ],
)
def test_the_unit_after_a_list_of_numbers_is_each_numbers(tool: Tool, text: str, calls: list[tuple]) -> None:
    first, second = tool.parameters["properties"]
    assert [(call[first], call[second]) for call in bind_all(tool, text)] == calls


SHOWS = _one(
    "exhibition_dates", "Opening and closing dates of a gallery's exhibitions.", "gallery", "Gallery name."
)
BIKE = model_tool(
    "bike_hire",
    "Hire a bicycle for someone on a day.",
    {"rider": {"type": "string", "description": "Who rides."}, "date": DAY},
    ("rider", "date"),
)


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        (
            "帮Tom在2026-07-02租一辆自行车，再查一下Tate美术馆的展览日期。",
            [("bike_hire", "Tom"), ("exhibition_dates", "Tate")],
        ),
        ("Exhibition dates at the Tate?", [("exhibition_dates", "Tate")]),  # the tool's own words name it
    ],
)
def test_a_day_written_names_no_tool_by_the_word_date(text: str, calls: list[tuple[str, str]]) -> None:
    items = bind_plan(plan(text, (SHOWS, BIKE)))
    assert [(item.tool.name, next(iter((item.arguments or {}).values()))) for item in items] == calls
