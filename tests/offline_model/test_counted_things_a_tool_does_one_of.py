"""A count before the thing a tool does one of ("Draw one card", "Roll a die") asks for that many
calls, as "N times" does (`calls.asked`), and is no value for a parameter that counts something
else: "roll two dice" is two calls, never `sides: 2`. A parameter that counts the thing takes the
count ("throw 2 dice" for `number_of_dice`), a count that is a value of the request ("a
3-course dinner") and one for a tool with a bound ("find 5 recipes", `max_results`) stay one
call. Tools and requests invented here."""

import pytest

from tests.offline_model.conftest import calls_through, tool

CARD = tool("draw_card", "Draw one card from the deck.", {"deck": {"type": "string"}}, ())
DIE = tool(
    "roll_die",
    "Roll a die with the given number of sides.",
    {"sides": {"type": "integer", "description": "number of sides"}},
    ("sides",),
)
JOKE = tool("tell_joke", "Tell one joke.", {"subject": {"type": "string"}}, ())
DICE = tool(
    "roll_dice", "Roll dice and sum them.", {"number_of_dice": {"type": "integer"}}, ("number_of_dice",)
)
MENU = tool(
    "plan_menu",
    "Plan a menu for a party.",
    {"theme": {"type": "string"}, "courses": {"type": "integer", "description": "number of courses"}},
    ("theme",),
)
RECIPE = tool(
    "find_recipe",
    "Find a recipe for a dish.",
    {
        "dish": {"type": "string"},
        "max_results": {"type": "integer", "description": "Maximum number of results"},
    },
    ("dish",),
)


@pytest.mark.parametrize(
    ("text", "count", "arguments"),
    [
        ("Draw two cards", 2, {}),
        ("draw 3 cards from the green deck", 3, {"deck": "green"}),
        ("Roll 3 dice with 10 sides", 3, {"sides": 10}),
    ],
)
def test_a_count_of_the_thing_a_tool_does_one_of_is_a_count_ofcalls_through(client, text, count, arguments):
    tools = [CARD if "card" in text else DIE]
    assert calls_through(client, tools, text) == [(tools[0]["function"]["name"], arguments)] * count


def test_a_count_of_dice_is_no_count_of_sides(client):
    assert all(args.get("sides") != 2 for _, args in calls_through(client, [DIE], "roll two dice"))


def test_a_count_of_jokes_among_other_words(client):
    assert [name for name, _ in calls_through(client, [JOKE], "Could you tell me four jokes?")] == [
        "tell_joke"
    ] * 4


@pytest.mark.parametrize(
    ("tools", "text", "expected"),
    [
        ([DICE], "roll 2 dice", [("roll_dice", {"number_of_dice": 2})]),
        (
            [MENU],
            "plan a 3-course menu with a Greek theme",
            [("plan_menu", {"theme": "Greek", "courses": 3})],
        ),
        ([CARD], "draw a card", [("draw_card", {})]),
        ([RECIPE], "find 5 recipes for lasagne", [("find_recipe", {"dish": "lasagne"})]),
        ([DIE], "roll a die with 12 sides", [("roll_die", {"sides": 12})]),
    ],
)
def test_a_count_a_parameter_takes_or_a_single_thing_stays_one_call(client, tools, text, expected):
    assert calls_through(client, tools, text) == expected
