"""Chinese writes no spaces: a phone number, an address, a URL, a host, a path, a handle or a span of
years written right against Chinese characters is found whole and alone, as between spaces."""

from __future__ import annotations

import json

import pytest

from tests.offline_model.conftest import tool
from wirelab.offline_model import complete
from wirelab.offline_model.extraction import extract
from wirelab.offline_model.normalize import clean


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("请拨+44 20 7946 0958联系前台", "code", "+44 20 7946 0958"),
        ("把报告抄送给lena.ortiz@example.net就行", "email", "lena.ortiz@example.net"),
        ("先打开https://docs.example.org/setup再说", "url", "https://docs.example.org/setup"),
        ("检查一下status.example.io是否正常", "url", "status.example.io"),
        ("日志在/var/log/nginx/error.log里面", "code", "/var/log/nginx/error.log"),
        ("记得提醒@kofi.m回复", "code", "@kofi.m"),
        ("对比1998-2003年间的销量", "code", "1998-2003"),
    ],
)
def test_a_value_against_chinese_characters_is_found_whole_and_alone(text, kind, value):
    found = [(v.kind, v.text) for v in extract(clean(text))]
    assert (kind, value) in found, found


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Cc lena.ortiz@example.net on it", "lena.ortiz@example.net"),
        ("see https://x.org/a then", "https://x.org/a"),
    ],
)
def test_between_spaces_nothing_changes(text, value):
    assert value in [v.text for v in extract(clean(text))]


def test_a_call_to_a_named_tool_takes_the_path_and_the_number_whole():
    viewer = tool("open_log", "Open a log file by its path.", {"path": {"type": "string"}}, ("path",))
    texter = tool(
        "send_sms",
        "Send a text message to a phone number.",
        {"phone": {"type": "string", "description": "Phone number"}, "text": {"type": "string"}},
        ("phone", "text"),
    )

    def arguments(text: str, offered: dict) -> dict:  # the tool is named: this reads values, not selection
        body = {
            "model": "wirelab-offline",
            "messages": [{"role": "user", "content": text}],
            "tools": [offered],
        }
        body["tool_choice"] = {"type": "function", "function": {"name": offered["function"]["name"]}}
        calls = complete(body)["choices"][0]["message"]["tool_calls"]
        return json.loads(calls[0]["function"]["arguments"])

    assert arguments("打开/var/log/nginx/error.log看看", viewer) == {"path": "/var/log/nginx/error.log"}
    assert arguments("给+44 20 7946 0958发短信说门没锁", texter)["phone"] == "+44 20 7946 0958"
