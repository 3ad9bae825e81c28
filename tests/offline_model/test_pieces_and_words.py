"""Selection by words and by meaning, piece by piece (invented tools and requests)."""

from __future__ import annotations

from tests.offline_model.conftest import model_tool
from wirelab.offline_model.selection import asks_for_nothing, plan, score

TIMER = model_tool("start_timer", "Start a countdown timer.", {"seconds": {"type": "integer"}}, ("seconds",))
TRAFFIC = model_tool(
    "road_traffic",
    "Traffic conditions on a road.",
    {"road": {"type": "string", "description": "Road name, e.g. M25."}},
    ("road",),
)
CIRCLE = model_tool(
    "circle_area", "Calculate the area of a circle.", {"radius": {"type": "number"}}, ("radius",)
)
SQUARE = model_tool(
    "square_perimeter",
    "Calculate the perimeter of a square.",
    {"side": {"type": "number", "description": "Length of a side."}},
    ("side",),
)
PICKUP = model_tool(
    "courier_pickup",
    "Book a courier to collect a box from a sender.",
    {
        "sender": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "street": {"type": "string", "description": "Street address."},
                "phone": {"type": "string", "description": "Phone number (optional)."},
            },
            "required": ["name", "street"],
        },
        "boxes": {"type": "integer", "description": "Number of boxes."},
    },
    ("sender", "boxes"),
)
TEXTING = model_tool(
    "text_message",
    "Send a text message to a phone number.",
    {"phone_number": {"type": "string"}, "message": {"type": "string"}},
    ("phone_number", "message"),
)


def test_a_word_of_one_group_does_not_match_another_groups_word_by_its_start():
    # "time" and "timer" sit in different groups of the lexicon: a clock time names no timer
    assert score("The clock says 7:05 here.", TIMER).own == 0
    assert plan("The clock says 7:05 here.", (TIMER,)) == []


def test_what_a_thing_is_like_is_a_question_not_an_opinion():
    assert not asks_for_nothing("What's the traffic like on the M25 today?")
    assert [item.tool for item in plan("What's the traffic like on the M25 today?", (TRAFFIC,))] == [TRAFFIC]
    assert asks_for_nothing("I like the M25")


def test_an_intent_only_meaning_finds_is_an_item_of_its_own():
    items = plan("计算半径为2的圆的面积，以及边长为3的正方形的周长。", (CIRCLE, SQUARE))
    assert [item.tool for item in items] == [CIRCLE, SQUARE]
    assert "周长" in items[1].request and "周长" not in items[0].request


def test_a_piece_that_completes_the_item_before_is_not_another_intent():
    for text in (
        "Collect 2 boxes from Ivo at 4 Elm Street. His phone is +44 7700 900123.",
        "Collect 2 boxes from Ivo at 4 Elm Street; his phone is +44 7700 900123.",
    ):
        assert [item.tool for item in plan(text, (PICKUP, TEXTING))] == [PICKUP]


def test_an_opinion_in_the_past_is_an_opinion_and_one_in_a_question_asks():
    assert asks_for_nothing("We always enjoyed sailing on the lake.")
    assert not asks_for_nothing("I wonder how much a ferry ticket to Porto costs")


def test_an_opinion_the_chatter_probe_reads_as_a_request_still_asks():
    assert asks_for_nothing("I think jazz is wonderful")
    assert not asks_for_nothing("I think I need a taxi to Gatwick at 6am tomorrow")
    assert not asks_for_nothing("I feel like a pepperoni pizza delivered to 12 Elm Road")
