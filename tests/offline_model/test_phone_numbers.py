"""A parameter for a phone number takes one written as digits alone (13800138000), as a code: its
name says phone, mobile or telephone (or 电话, 手机), or, for a `to`/`from`, its description does
(lexicon, [parameter_kinds])."""

from __future__ import annotations

import json

import pytest

from tests.offline_model.conftest import tool
from wirelab.offline_model import complete
from wirelab.offline_model.slots import slot_of


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("phone", "Phone number"),
        ("mobile", ""),
        ("tel", "Telephone"),
        ("phone_no", ""),
        ("to", "Recipient phone"),
    ],
)
def test_a_phone_parameter_is_a_code(name, description):
    assert slot_of(name, {"type": "string", "description": description}, True).kind == "code"


def test_a_number_in_digits_alone_fills_the_phone_parameter():
    texter = tool(
        "send_sms",
        "Send a text message to a phone number.",
        {"phone": {"type": "string", "description": "Phone number"}, "text": {"type": "string"}},
        ("phone", "text"),
    )
    body = {
        "model": "wirelab-offline",
        "messages": [{"role": "user", "content": "给13912345678发短信说到楼下了"}],
    }
    body |= {"tools": [texter], "tool_choice": {"type": "function", "function": {"name": "send_sms"}}}
    call = complete(body)["choices"][0]["message"]["tool_calls"][0]
    assert json.loads(call["function"]["arguments"])["phone"] == "13912345678"
