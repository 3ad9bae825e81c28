"""A bare hour next to a day or a part of it ("at 7 tomorrow", "tonight at 8", "at 3 this
afternoon") is a clock time: a parameter that asks for a time takes it (07:00, 20:00, 15:00).
Before, the model asked for the time it had been told. A number that is not next to a day, or
that counts something, stays what it was. The tools and requests are invented for this test."""

from __future__ import annotations

import json

import pytest

from tests.offline_model.conftest import tool
from wirelab.offline_model import complete

ALARM = tool(
    "ring_alarm",
    "Set an alarm clock.",
    {"clock": {"type": "string", "description": "Alarm time, HH:MM"}},
    ("clock",),
)
PICKUP = tool(
    "send_shuttle",
    "Send the airport shuttle to pick someone up.",
    {
        "rider": {"type": "string", "description": "Who to pick up"},
        "at_time": {"type": "string", "description": "Pickup time, 24-hour HH:MM"},
        "seats": {"type": "integer", "description": "Seats needed"},
    },
    ("rider", "at_time"),
)


def _call(text: str, offered: dict) -> dict | str:
    body = {"model": "wirelab-offline", "messages": [{"role": "user", "content": text}], "tools": [offered]}
    message = complete(body)["choices"][0]["message"]
    calls = message.get("tool_calls")
    return json.loads(calls[0]["function"]["arguments"]) if calls else message["content"]


@pytest.mark.parametrize(
    ("text", "offered", "key", "expected"),
    [
        ("Ring me at 7 tomorrow", ALARM, "clock", "07:00"),
        ("Alarm on Saturday at 9", ALARM, "clock", "09:00"),
        ("Send the shuttle for Ines Moreau tonight at 8", PICKUP, "at_time", "20:00"),
        ("Shuttle for Ines Moreau at 4 this afternoon", PICKUP, "at_time", "16:00"),
    ],
)
def test_an_hour_next_to_a_day_is_a_clock_time(text, offered, key, expected):
    found = _call(text, offered)
    assert isinstance(found, dict) and found[key] == expected, found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Send the shuttle for Ines Moreau at 17:45 tomorrow with 3 seats", {"at_time": "17:45", "seats": 3}),
        ("Send the shuttle for 3 people to gate 7 tomorrow at 6pm", {"at_time": "18:00"}),
    ],
)
def test_a_written_clock_time_and_other_numbers_stay_as_they_were(text, expected):
    found = _call(text, PICKUP)
    assert isinstance(found, dict) and {key: found.get(key) for key in expected} == expected, found
