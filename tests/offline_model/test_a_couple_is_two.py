""" "A couple of" is two, as "a dozen" is twelve: "a couple of kayaks" fills a count with 2.
Before, no number was read from it and the count was left out. The words that scale a number
("couple", "dozen", "hundred", …) are now a section of the lexicon. The tool and requests are
invented for this test."""

from __future__ import annotations

import json

import pytest

from tests.offline_model.conftest import tool
from wirelab.offline_model import complete

RENT = tool(
    "rent_boats",
    "Rent boats at the lake.",
    {
        "boat": {"type": "string", "description": "Kind of boat"},
        "count": {"type": "integer", "description": "Number of boats"},
    },
    ("boat",),
)


def _arguments(text: str) -> dict:
    body = {"model": "wirelab-offline", "messages": [{"role": "user", "content": text}], "tools": [RENT]}
    calls = complete(body)["choices"][0]["message"]["tool_calls"]
    return json.loads(calls[0]["function"]["arguments"])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Rent a couple of kayak boats", 2),
        ("Rent a dozen canoe boats", 12),
        ("Rent three hundred paddle boats", 300),
    ],
)
def test_a_count_scaled_by_a_word_fills_the_count(text, expected):
    assert _arguments(text).get("count") == expected
