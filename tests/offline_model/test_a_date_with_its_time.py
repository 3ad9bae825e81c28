"""A parameter that asks for a date and a time ("Date and time", 日期和时间, an example like
2026-05-01T09:30) takes the day and the clock time written with it as one ISO 8601 value, in
English and in Chinese (周五下午两点), and the time is no longer left over for the free text
beside it. Before, it took the day alone and a note read "2pm to call Bob". A `memo` holds
text, as a `note` does. The tools and requests are invented for this test."""

from __future__ import annotations

import json

import pytest

from tests.offline_model.conftest import tool
from wirelab.offline_model import complete

PLANNER = tool(
    "plan_visit",
    "Plan a visit to a client.",
    {
        "client": {"type": "string", "description": "Client to visit"},
        "when": {"type": "string", "description": "Date and time of the visit"},
    },
    ("client", "when"),
)
MEMO = tool(
    "save_memo",
    "保存一条备忘，到时提醒。",
    {
        "memo": {"type": "string", "description": "备忘内容"},
        "when": {"type": "string", "description": "提醒的日期和时间"},
    },
    ("memo", "when"),
)


def _arguments(text: str, offered: dict) -> dict:
    messages = [{"role": "system", "content": "Today is 2027-03-10."}, {"role": "user", "content": text}]
    body = {"model": "wirelab-offline", "messages": messages, "tools": [offered]}
    calls = complete(body)["choices"][0]["message"]["tool_calls"]
    return json.loads(calls[0]["function"]["arguments"])


@pytest.mark.parametrize(
    ("text", "offered", "expected"),
    [
        (
            "Plan a visit to Mara Lindqvist on Friday at 3:30pm",
            PLANNER,
            {"client": "Mara Lindqvist", "when": "2027-03-12T15:30:00"},
        ),
        (
            "Plan a visit to Mara Lindqvist tomorrow at 8am",
            PLANNER,
            {"client": "Mara Lindqvist", "when": "2027-03-11T08:00:00"},
        ),
        ("保存备忘：明天上午九点给物业打电话", MEMO, {"memo": "给物业打电话", "when": "2027-03-11T09:00:00"}),
    ],
)
def test_a_date_and_time_parameter_takes_the_time_written_with_the_day(text, offered, expected):
    assert _arguments(text, offered) == expected
