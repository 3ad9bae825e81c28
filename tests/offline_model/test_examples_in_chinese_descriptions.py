"""A parameter's description in Chinese gives its examples after 如, 例如 or 比如, listed with 、
("口味，如 抹茶、乌龙"), as an English one does after "such as": a request that names one ("来杯抹茶")
calls the tool with it. Before, a Chinese description gave no examples, and such a request called
nothing. Tools and requests are invented."""

from __future__ import annotations

import json

import pytest

from tests.offline_model.conftest import tool
from wirelab.offline_model.slots import examples_of

TEA = tool(
    "order_tea",
    "下单一杯奶茶",
    {"flavor": {"type": "string", "description": "口味，如 抹茶、乌龙、茉莉"}},
    ("flavor",),
)
LAMP = tool("dim_lamp", "调暗台灯", {"level": {"type": "integer", "description": "亮度"}}, ("level",))


@pytest.mark.parametrize(
    ("description", "examples"),
    [
        ("口味，如 抹茶、乌龙、茉莉", ("抹茶", "乌龙", "茉莉")),
        ("城市，例如杭州、苏州等", ("杭州", "苏州")),
        ("模式，如：eco 或 boost。默认 eco", ("eco", "boost")),
        ("出发日期（比如 2031-04-02）", ("2031-04-02",)),
        ("如果为空则返回全部", ()),
    ],
)
def test_a_chinese_description_gives_its_examples(description: str, examples: tuple[str, ...]) -> None:
    assert examples_of(description) == examples


def test_a_request_naming_an_example_calls_its_tool(client) -> None:
    reply = client.chat.completions.create(
        model="wirelab-offline", messages=[{"role": "user", "content": "来杯抹茶"}], tools=[TEA, LAMP]
    )
    calls = [
        (c.function.name, json.loads(c.function.arguments)) for c in reply.choices[0].message.tool_calls or []
    ]
    assert calls == [("order_tea", {"flavor": "抹茶"})]
