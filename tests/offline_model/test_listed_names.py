"""A written list of names fills a parameter that takes a list (issue 22, "a written list of
names may not fill an array"), in English and Chinese; tools and requests are invented."""

from __future__ import annotations

from wirelab.offline_model.binding import bind
from wirelab.offline_model.request import Tool

PARTY = Tool(
    "plan_dinner",
    "Plan a dinner party.",
    {
        "type": "object",
        "properties": {
            "day": {"type": "string"},
            "guests": {"type": "array", "items": {"type": "string"}, "description": "Who is invited."},
        },
        "required": ["day"],
    },
)


def test_a_written_list_of_names_fills_a_list_the_request_does_not_name() -> None:
    bound = bind(PARTY, "Plan a dinner party on Friday with Ingrid, Bruno and Keiko", guess=False)
    assert bound == {"day": "Friday", "guests": ["Ingrid", "Bruno", "Keiko"]}


def test_a_chinese_list_of_names_fills_it_too() -> None:
    assert bind(PARTY, "周五办晚宴，请王芳、李雷和韩梅梅", guess=False)["guests"] == [
        "王芳",
        "李雷",
        "韩梅梅",
    ]


def test_one_name_is_no_list() -> None:
    assert "guests" not in bind(PARTY, "Plan a dinner party on Friday with Ingrid", guess=False)
