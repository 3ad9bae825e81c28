"""A lone tool is called when the request names its topic in the everyday words people use for it:
"how cold", 冷不冷, 多少度 or 下雪 ask about the weather. The words are the lexicon's
(`data/lexicon.txt`, `[synonyms]`). The tool and requests are invented here."""

from __future__ import annotations

import json

import pytest

from tests.offline_model.conftest import tool

TEXT = {"type": "string"}
FORECAST = tool(
    "local_forecast",
    "Today's forecast for a town.",
    {"town": {"type": "string", "description": "Town name, e.g. Leeds"}},
    ("town",),
)


def _calls(client, text: str, offered: dict) -> list[tuple[str, dict]]:
    reply = client.chat.completions.create(
        model="wirelab-offline", messages=[{"role": "user", "content": text}], tools=[offered]
    )
    calls = reply.choices[0].message.tool_calls or []
    return [(c.function.name, json.loads(c.function.arguments)) for c in calls]


@pytest.mark.parametrize(
    ("text", "town"),
    [
        ("How cold does it get in Leeds at night?", "Leeds"),
        ("杭州今天冷不冷", "杭州"),
        ("成都现在多少度", "成都"),
        ("哈尔滨明天下雪吗", "哈尔滨"),
    ],
)
def test_weather_said_in_everyday_words_calls_the_forecast(client, text: str, town: str) -> None:
    assert _calls(client, text, FORECAST) == [("local_forecast", {"town": town})]


def test_trivia_about_a_town_still_calls_nothing(client) -> None:
    assert _calls(client, "Who founded the city of York?", FORECAST) == []
