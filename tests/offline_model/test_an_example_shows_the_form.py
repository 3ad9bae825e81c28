"""A description's example ("e.g. USD", "如 USD") shows the form a value takes, not which value:
where the request writes a value of the parameter's own kind, that value fills the parameter its
place says ("500 dollars to yen": the dollars are converted from), even when it is the example of
the other parameter. A code parameter described as a currency's takes currencies. Before, "把500美元
换成日元" converted from JPY to USD, and "Convert 500 dollars to yen" gave only `to_code: "USD"`.
The tools and requests are invented for this test."""

from __future__ import annotations

import json

import pytest

from tests.offline_model.conftest import tool
from wirelab.offline_model import complete
from wirelab.offline_model.slots import slot_of

HUANSUAN = tool(
    "huobi_huansuan",
    "货币换算。",
    {
        "jine": {"type": "number", "description": "金额"},
        "yuan_huobi": {"type": "string", "description": "原货币代码，如 CNY"},
        "mubiao_huobi": {"type": "string", "description": "目标货币代码，如 USD"},
    },
    ("jine", "yuan_huobi", "mubiao_huobi"),
)
EXCHANGE = tool(
    "swap_money",
    "Currency conversion.",
    {
        "amount": {"type": "number", "description": "Amount"},
        "from_code": {"type": "string", "description": "Source currency code, e.g. CNY"},
        "to_code": {"type": "string", "description": "Target currency code, e.g. USD"},
    },
    ("amount", "from_code", "to_code"),
)


def _arguments(text: str, offered: dict) -> dict:
    body = {"model": "wirelab-offline", "messages": [{"role": "user", "content": text}], "tools": [offered]}
    calls = complete(body)["choices"][0]["message"]["tool_calls"]
    assert calls, f"no call for {text!r}"
    return json.loads(calls[0]["function"]["arguments"])


@pytest.mark.parametrize(
    ("text", "offered", "expected"),
    [
        ("把500美元换成日元", HUANSUAN, {"jine": 500, "yuan_huobi": "USD", "mubiao_huobi": "JPY"}),
        ("Convert 500 dollars to yen", EXCHANGE, {"amount": 500, "from_code": "USD", "to_code": "JPY"}),
        ("Convert 80 yuan to dollars", EXCHANGE, {"amount": 80, "from_code": "CNY", "to_code": "USD"}),
    ],
)
def test_the_value_written_fills_the_parameter_its_place_says(text, offered, expected):
    assert _arguments(text, offered) == expected


def test_a_code_described_as_a_currency_is_a_currency():
    target = slot_of("to_code", {"type": "string", "description": "Target currency code"}, True)
    assert target.kind == "currency"
    assert slot_of("promo_code", {"type": "string", "description": "Discount code"}, True).kind == "code"
