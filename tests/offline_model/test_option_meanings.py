"""An option is named by a word that means it, in either language (data/lexicon.txt's
option_words), and an option after a negation is not taken."""

from __future__ import annotations

from typing import Any

import pytest

from wirelab.offline_model.binding import bind
from wirelab.offline_model.request import Tool


def tool(name: str, option: str, schema: dict[str, Any]) -> Tool:
    properties = {"item": {"type": "string", "description": "What it is about."}, option: schema}
    return Tool(name, "Do it.", {"type": "object", "properties": properties, "required": ["item"]})


LEVEL = tool("raise_case", "level", {"type": "string", "enum": ["low", "medium", "high"]})
ORDER = tool("list_goods", "order", {"type": "string", "enum": ["asc", "desc"]})
EVERY = tool("add_chore", "频率", {"type": "string", "enum": ["每天", "每周", "每月"]})
SPEED = tool("post_box", "speed", {"type": "string", "enum": ["standard", "overnight"]})
RANK = tool(
    "find_gyms", "rank", {"type": "string", "description": "Order of results: price, rating or distance."}
)
SEAT = tool("buy_ticket", "座位", {"type": "string", "enum": ["二等座", "一等座"]})
RUSH = tool("send_box", "加急", {"type": "boolean", "description": "是否加急"})
MODE = tool("plan_route", "mode", {"type": "string", "enum": ["driving", "walking", "cycling", "transit"]})
LOUD = tool("run_backup", "verbose", {"type": "boolean"})
HIDDEN = tool("list_folder", "show_hidden", {"type": "boolean", "description": "List hidden files too."})


@pytest.mark.parametrize(
    ("chosen", "text", "value"),
    [
        (LEVEL, "Raise a case about the frozen checkout, it's critical", "high"),
        (LEVEL, "给结账卡住的问题提个单，不急", "low"),
        (ORDER, "按价格降序列出商品", "desc"),
        (EVERY, "Add a chore to take out the bins every week", "每周"),
        (RANK, "Find gyms in Leeds, the nearest ones first", "distance"),
        (RUSH, "这个箱子寄到东街5号，加急", True),
        (SEAT, "买一张到苏州的一等座", "一等座"),  # as written, where the segmenter splits it
        (MODE, "从码头骑车去植物园要多久", "cycling"),  # Chinese words for English options
        (MODE, "Get me from the quay to the botanic garden on foot", "walking"),
        (MODE, "从码头坐地铁去植物园", "transit"),
        (MODE, "从码头开车去植物园", "driving"),
        (LOUD, "今晚备份照片库，用详细模式", True),
        (HIDDEN, "把下载文件夹列出来，隐藏的也要", True),
    ],
)
def test_an_option_is_named_by_a_word_that_means_it(chosen: Tool, text: str, value: Any) -> None:
    name = next(n for n in chosen.parameters["properties"] if n != "item")
    assert bind(chosen, text).get(name) == value


@pytest.mark.parametrize(
    "text", ["Post the box to 2 Mill Lane, not overnight", "箱子寄到磨坊路2号，不要次日达"]
)
def test_an_option_after_a_negation_is_not_taken(text: str) -> None:
    assert bind(SPEED, text).get("speed") != "overnight"


SWITCH = tool("flip_fan", "power", {"type": "string", "enum": ["on", "off"]})


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Switch on the fan in the back office", "on"),  # "office" is no abbreviation of `off`
        ("把储藏室的风扇打开", "on"),
        ("储藏室的风扇关掉吧", "off"),
    ],
)
def test_an_option_the_lexicon_words_is_no_abbreviation(text: str, value: str) -> None:
    assert bind(SWITCH, text).get("power") == value


THERMO = tool("log_reading", "unit", {"type": "string", "enum": ["celsius", "fahrenheit"]})


@pytest.mark.parametrize(
    ("chosen", "text", "value"),
    [
        (THERMO, "Log the greenhouse reading in °F", "fahrenheit"),  # a unit's symbol, as written
        (THERMO, "Log the cellar reading, °C please", "celsius"),
        (ORDER, "List the goods from smallest to largest", "asc"),
        (ORDER, "List the goods, high to low", "desc"),
    ],
)
def test_an_option_is_named_by_its_symbol_or_a_phrase(chosen: Tool, text: str, value: Any) -> None:
    name = next(n for n in chosen.parameters["properties"] if n != "item")
    assert bind(chosen, text, guess=False).get(name) == value


SNACK = Tool(
    "order_snack",
    "Order a snack at the kiosk.",
    {
        "type": "object",
        "properties": {
            "snack": {"type": "string", "description": "What to eat"},
            "size": {"type": "string", "enum": ["small", "regular", "large"]},
        },
        "required": ["snack", "size"],
    },
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Get me a large pretzel", {"snack": "pretzel", "size": "large"}),
        ("I would like a regular bagel, please", {"snack": "bagel", "size": "regular"}),
        ("Order a large one", {"size": "large"}),  # "one" names no snack: the model asks
        ("Order me two small ones", {"size": "small"}),
        ("Get me a small cheese one", {"snack": "cheese", "size": "small"}),  # "one" stands for the snack
        ("Order a snack", {}),  # nothing stated: the model asks
    ],
)
def test_the_thing_an_option_describes_is_a_value_too(text: str, expected: dict) -> None:
    assert bind(SNACK, text, guess=False) == expected
