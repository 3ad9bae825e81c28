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


PAGER = tool(
    "send_text",
    "Send a text message to a phone.",
    {"number": {"type": "string", "description": "Phone number"}, "message": {"type": "string"}},
    ("number", "message"),
)


def _paged(text: str) -> dict:
    body = {"model": "wirelab-offline", "messages": [{"role": "user", "content": text}], "tools": [PAGER]}
    return json.loads(complete(body)["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"])


@pytest.mark.parametrize(
    ("text", "number", "message"),
    [
        ("Text 303 555 0182 saying the boiler is fixed", "303 555 0182", "the boiler is fixed"),
        ("给139-8765-4321发短信说修好了", "139-8765-4321", "修好了"),
        ("给13987654321发短信说我到了", "13987654321", "我到了"),
        ("给13987654321发短信：水管修好了", "13987654321", "水管修好了"),
    ],
)
def test_a_number_written_in_groups_is_one_number_and_what_is_said_is_kept(text, number, message):
    """A national number in groups (3-3-4, 3-4-4) is one number; what a message says after 说 or a
    colon is kept, even when its words are all small ones (我到了)."""
    assert _paged(text) == {"number": number, "message": message}
