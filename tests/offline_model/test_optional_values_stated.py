"""An optional parameter takes a value the request states for it, and only then: a number hyphened
to the word its parameter names ("a 3-bedroom flat"), a number before what its parameter counts with
words between ("the 10 newest unread messages"), the other of two words a description gives either
side of "or" with one of them the default ("metric or imperial"), a flag its description says in
other forms of its words ("Stop at the first failing stage": "stop at the first failure"), a count
of people for a parameter that counts people by another word ("for 3 people": `number_of_seats`), a
count with a measure word for a parameter that is a bare count (四个芒果: `quantity`).
On tools invented here."""

from __future__ import annotations

from typing import Any

import pytest

from wirelab.offline_model.binding import bind
from wirelab.offline_model.request import Tool


def _tool(name: str, required: str, optional: dict[str, Any]) -> Tool:
    properties = {required: {"type": "string", "description": f"The {required}."}} | optional
    return Tool(
        name,
        f"{name.replace('_', ' ').capitalize()}.",
        {"type": "object", "properties": properties, "required": [required]},
    )


FLATS = _tool("find_flats", "city", {"bedrooms": {"type": "integer", "description": "Number of bedrooms"}})
UNITS = {"type": "string", "description": "metric or imperial", "default": "metric"}
WEATHER = _tool("get_weather", "city", {"units": UNITS})
STRICT = {"type": "boolean", "description": "Stop at the first failing stage.", "default": False}
PIPELINE = _tool("run_pipeline", "pipeline", {"fail_fast": STRICT})
SEATS = {"type": "integer", "description": "Seats needed", "default": 1}
RIDE = _tool("hail_ride", "destination", {"number_of_seats": SEATS})
MEETING = _tool("book_room", "room", {"attendees": {"type": "integer", "description": "参会人数"}})
BASKET = _tool("fill_basket", "product", {"quantity": {"type": "integer", "description": "How many"}})
PANTRY = _tool("stock_pantry", "item", {"count": {"type": "integer", "description": "数量"}})
INBOX = _tool(
    "read_inbox", "folder", {"limit": {"type": "integer", "description": "Maximum number of messages"}}
)


@pytest.mark.parametrize(
    ("tool", "text", "expected"),
    [
        (FLATS, "find a 3-bedroom flat in Leeds", {"city": "Leeds", "bedrooms": 3}),
        (FLATS, "find a flat in Leeds", {"city": "Leeds"}),
        (INBOX, "show the 10 newest unread messages in my work folder", {"folder": "work", "limit": 10}),
        (INBOX, "show the newest messages in my work folder", {"folder": "work"}),
        (
            WEATHER,
            "what's the weather in Tromsø, in imperial please",
            {"city": "Tromsø", "units": "imperial"},
        ),
        (WEATHER, "what's the weather in Tromsø", {"city": "Tromsø"}),
        (
            PIPELINE,
            "run the nightly pipeline and stop at the first failure",
            {"pipeline": "nightly", "fail_fast": True},
        ),
        (PIPELINE, "run the nightly pipeline", {"pipeline": "nightly"}),
        (RIDE, "a ride to the harbour for 3 people", {"destination": "harbour", "number_of_seats": 3}),
        (RIDE, "a ride to the harbour", {"destination": "harbour"}),
        (MEETING, "订一下青松会议室，6个人", {"room": "青松会议室", "attendees": 6}),
        (BASKET, "放四个芒果", {"product": "芒果", "quantity": 4}),
        (BASKET, "放芒果", {"product": "芒果"}),
        (PANTRY, "补三袋面粉", {"item": "面粉", "count": 3}),
        (PANTRY, "补面粉", {"item": "面粉"}),
    ],
)
def test_an_optional_value_is_taken_when_stated(tool: Tool, text: str, expected: dict[str, Any]) -> None:
    assert bind(tool, text, guess=False) == expected
