"""A request that opens with an amount after its currency sign ("£40 in USD", "€15 to yen",
"¥300 in dollars") keeps the sign: the source currency is bound from it. Before, the first
frame was cut past every mark that is not a letter or a digit, the sign included ($ alone was
kept), and the call lost its source currency. The tool and requests are invented for this test."""

from __future__ import annotations

import json

import pytest

from tests.offline_model.conftest import tool
from wirelab.offline_model import complete

CHANGE = tool(
    "change_money",
    "Change an amount of money from one currency to another.",
    {
        "sum": {"type": "number", "description": "Amount of money"},
        "source": {"type": "string", "description": "Currency code to change from"},
        "target": {"type": "string", "description": "Currency code to change to"},
    },
    ("sum", "source", "target"),
)


def _arguments(text: str) -> dict | str:
    body = {"model": "wirelab-offline", "messages": [{"role": "user", "content": text}], "tools": [CHANGE]}
    message = complete(body)["choices"][0]["message"]
    calls = message.get("tool_calls")
    return json.loads(calls[0]["function"]["arguments"]) if calls else message["content"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("£40 in USD", {"sum": 40, "source": "GBP", "target": "USD"}),
        ("€15 to JPY please", {"sum": 15, "source": "EUR", "target": "JPY"}),
        ("$25 in CAD", {"sum": 25, "source": "USD", "target": "CAD"}),
    ],
)
def test_an_amount_that_opens_a_request_keeps_its_currency(text, expected):
    assert _arguments(text) == expected
