"""Lists of words, not only of names or numbers, make one call each (invented tools and requests)."""

from __future__ import annotations

from tests.offline_model.conftest import model_tool
from wirelab.offline_model.calls import bind_all

WAX = model_tool(
    "ski_wax",
    "Recommend a ski wax for a kind of snow.",
    {"snow": {"type": "string", "description": "kind of snow"}},
    ("snow",),
)
TEA = model_tool(
    "tea_price",
    "Price of a tea per 100 g.",
    {"tea": {"type": "string", "description": "name of the tea"}},
    ("tea",),
)
SPA = model_tool(
    "book_spa",
    "Book a room at the spa.",
    {
        "room": {"type": "string", "enum": ["sauna", "steam", "pool"]},
        "time": {"type": "string", "description": "start time, HH:MM"},
    },
    ("room", "time"),
)
FOOD = model_tool(
    "find_food",
    "Find restaurants by cuisine in a city.",
    {"cuisine": {"type": "string", "enum": ["Thai", "Greek", "Italian"]}, "city": {"type": "string"}},
    ("cuisine", "city"),
)
SANDWICH = model_tool(
    "order_sandwich",
    "Order a sandwich.",
    {"filling": {"type": "string", "description": "what goes in it"}},
    ("filling",),
)
TILES = model_tool(
    "floor_tiles",
    "Count the tiles a floor needs.",
    {
        "width": {"type": "number", "description": "width of the floor"},
        "length": {"type": "number", "description": "length of the floor"},
        "unit": {"type": "string", "enum": ["m", "ft"]},
    },
    ("width", "length"),
)


def test_lowercase_words_written_as_a_list_make_one_call_each():
    assert bind_all(WAX, "Which wax for powder, crud or slush?") == [
        {"snow": "powder"},
        {"snow": "crud"},
        {"snow": "slush"},
    ]
    assert [call["tea"] for call in bind_all(TEA, "How much do sencha, gyokuro and matcha cost?")] == [
        "sencha",
        "gyokuro",
        "matcha",
    ]


def test_a_chinese_list_of_a_name_and_words_makes_one_call_each():
    assert [call["tea"] for call in bind_all(TEA, "龙井、碧螺春和大红袍多少钱")] == [
        "龙井",
        "碧螺春",
        "大红袍",
    ]


def test_options_listed_together_go_in_step_with_the_times_after_respectively():
    assert bind_all(SPA, "Book the sauna and the steam room at 18:00 and 19:30 respectively.") == [
        {"room": "sauna", "time": "18:00"},
        {"room": "steam", "time": "19:30"},
    ]


def test_options_listed_together_are_one_call_each_not_twice():
    assert bind_all(FOOD, "Thai and Greek food in Lyon") == [
        {"cuisine": "Thai", "city": "Lyon"},
        {"cuisine": "Greek", "city": "Lyon"},
    ]


def test_two_bare_words_joined_by_and_stay_one_call():
    assert len(bind_all(SANDWICH, "Order a sandwich with tuna and sweetcorn.")) == 1


def test_a_second_set_written_with_its_own_units_is_a_second_call():
    assert bind_all(TILES, "Tiles for a floor 10 ft by 12 ft and another 4 m by 3 m") == [
        {"width": 10, "length": 12, "unit": "ft"},
        {"width": 4, "length": 3, "unit": "m"},
    ]
    assert len(bind_all(TILES, "How many tiles for a kitchen 9 ft by 11 ft and a hall 2 m by 5 m?")) == 2


OVEN = model_tool(
    "oven_preheat_time",
    "How long an oven model takes to preheat.",
    {"model": {"type": "string"}, "scale": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
    ("model",),
)


def test_options_named_like_units_are_a_list_when_no_number_comes_before_them():
    text = "Preheat times for the Bosk and the Vantor in celsius and fahrenheit respectively"
    assert bind_all(OVEN, text) == [
        {"model": "Bosk", "scale": "celsius"},
        {"model": "Vantor", "scale": "fahrenheit"},
    ]
