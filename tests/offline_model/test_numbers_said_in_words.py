"""A number parameter the request fills in words no numeral writes: "twice", an article before a unit
of what it measures ("for a fortnight", "an hour"), and a word for an end of the range its description
states ("all the way up", 调到最低), a quarter of an hour (三刻钟) and 俩 (two). A request with none of
them is still asked. On tools invented here."""

from __future__ import annotations

import pytest

from tests.offline_model.conftest import model_tool
from wirelab.offline_model.binding import bind
from wirelab.offline_model.request import Tool


def _tool(name: str, description: str, key: str, kind: str, text: str) -> Tool:
    return model_tool(name, description, {key: {"type": kind, "description": text}}, (key,))


KNOCK = _tool("knock_door", "Knock on the door.", "knocks", "integer", "How many knocks")
STAY = _tool("book_cabin", "Book a cabin.", "stay_days", "integer", "Length of the stay in days")
BAKE = _tool("bake_timer", "Set the oven timer.", "duration_min", "integer", "Baking time in minutes")
FAN = _tool("fan_speed", "Set the ceiling fan.", "speed", "integer", "Speed setting, 1 to 6")
GLOW = _tool("screen_glow", "Set screen brightness.", "brightness", "number", "Between 0.1 and 1.0")


@pytest.mark.parametrize(
    ("tool", "request_text", "expected"),
    [
        (KNOCK, "knock twice", {"knocks": 2}),
        (STAY, "book the lakeside cabin for a week", {"stay_days": 7}),
        (BAKE, "bake it for an hour", {"duration_min": 60}),
        (FAN, "put the fan on maximum", {"speed": 6}),
        (FAN, "风扇调到最小", {"speed": 1}),
        (GLOW, "screen brightness to the lowest", {"brightness": 0.1}),
        (BAKE, "烤箱定三刻钟", {"duration_min": 45}),
        (KNOCK, "敲俩下", {"knocks": 2}),
    ],
)
def test_a_number_said_in_words_fills_its_parameter(tool: Tool, request_text: str, expected: dict) -> None:
    assert bind(tool, request_text, guess=False) == expected


@pytest.mark.parametrize(("tool", "request_text"), [(FAN, "change the fan speed"), (STAY, "book a cabin")])
def test_a_request_with_no_such_word_gives_nothing(tool: Tool, request_text: str) -> None:
    assert bind(tool, request_text, guess=False) == {}


def test_half_of_a_scale_word_is_half_of_it() -> None:
    eggs = _tool("buy_eggs", "Buy eggs.", "count", "integer", "How many eggs")
    assert bind(eggs, "buy half a dozen eggs", guess=False) == {"count": 6}
    assert bind(eggs, "buy a dozen and a half eggs", guess=False) == {"count": 18}
