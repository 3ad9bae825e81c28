"""Sets written alike are a call each: the same unit in any language, the same word around
each value, a noun after each thing, and two things paired "respectively" (invented tools)."""

from __future__ import annotations

from tests.offline_model.conftest import model_tool
from wirelab.offline_model.calls import bind_all

JUICE = model_tool(
    "order_juice",
    "Order fresh juice for the café.",
    {"flavor": {"type": "string", "description": "which juice"}, "liters": {"type": "integer"}},
    ("flavor", "liters"),
)
FEED = model_tool(
    "schedule_feeding",
    "Feed an animal every few hours.",
    {"animal": {"type": "string"}, "every_hours": {"type": "integer", "description": "interval in hours"}},
    ("animal", "every_hours"),
)
LIGHT = model_tool(
    "dim_light",
    "Dim a light.",
    {"light": {"type": "string", "description": "which light"}, "level": {"type": "integer"}},
    ("light", "level"),
)


def test_a_chinese_unit_the_parameter_names_starts_a_set_of_its_own() -> None:
    calls = bind_all(FEED, "每4小时喂一次兔子，每8小时喂一次乌龟。")
    assert [call["every_hours"] for call in calls] == [4, 8]
    calls = bind_all(JUICE, "订2升芒果汁和6升橙汁。")
    assert [call["liters"] for call in calls] == [2, 6]


def test_numbers_written_with_the_same_word_after_them_are_sets() -> None:
    calls = bind_all(JUICE, "We need 6 litres of mango, 4 of guava and 2 of lime juice.")
    assert [call["liters"] for call in calls] == [6, 4, 2]


def test_things_said_with_the_same_noun_after_each_are_a_list() -> None:
    calls = bind_all(LIGHT, "Dim the desk light and the sofa light to 25%.")
    assert [(call["light"], call["level"]) for call in calls] == [("desk", 25), ("sofa", 25)]
    calls = bind_all(LIGHT, "把餐厅灯和阳台灯调到40%。")
    assert [(call["light"], call["level"]) for call in calls] == [("餐厅", 40), ("阳台", 40)]


def test_two_things_paired_respectively_go_in_step() -> None:
    calls = bind_all(LIGHT, "Dim the study and nursery lights to 20% and 45% respectively.")
    assert [(call["light"], call["level"]) for call in calls] == [("study", 20), ("nursery", 45)]
    calls = bind_all(LIGHT, "把卧室灯和厨房灯分别调到30%和70%。")
    assert [(call["light"], call["level"]) for call in calls] == [("卧室", 30), ("厨房", 70)]


def test_two_things_joined_by_and_with_no_such_mark_stay_one() -> None:
    assert len(bind_all(JUICE, "Order 5 litres of apple and rhubarb juice.")) == 1


def test_the_chinese_list_comma_parts_two_sets() -> None:
    calls = bind_all(FEED, "每6小时喂一次仓鼠、每12小时喂一次鹦鹉。")
    assert [call["every_hours"] for call in calls] == [6, 12]


HEATING = model_tool(
    "set_heating",
    "Set the heating of a room.",
    {"room": {"type": "string"}, "temperature": {"type": "integer"}},
    ("room", "temperature"),
)


def test_numbers_each_followed_by_the_same_word_are_a_list() -> None:
    calls = bind_all(HEATING, "Set the den and the porch to 17 degrees and 21 degrees respectively.")
    assert [(call["room"], call["temperature"]) for call in calls] == [("den", 17), ("porch", 21)]
    calls = bind_all(HEATING, "把书房和阁楼分别调到18度和24度。")
    assert [(call["room"], call["temperature"]) for call in calls] == [("书房", 18), ("阁楼", 24)]
    calls = bind_all(
        HEATING, "Set the den, the porch and the attic to 17 degrees, 21 degrees and 19 degrees respectively."
    )
    assert [call["temperature"] for call in calls] == [17, 21, 19]


def test_a_number_that_begins_a_set_as_the_one_before_did_is_no_list_item() -> None:
    calls = bind_all(HEATING, "Set the den to 17 degrees and the porch to 21 degrees.")
    assert [(call["room"], call["temperature"]) for call in calls] == [("den", 17), ("porch", 21)]
