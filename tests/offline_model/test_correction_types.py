"""Correction converts a value of the wrong type when a tool's error says which type it expected
(`{"field": ..., "expected": "integer"}`), on a tool invented here."""

from __future__ import annotations

import pytest

from wirelab.offline_model.correction import correct
from wirelab.offline_model.request import Call, Tool

LANES = Tool(
    "reserve_lanes",
    "Reserve bowling lanes.",
    {
        "type": "object",
        "properties": {
            "alley": {"type": "string", "description": "Bowling alley name."},
            "lanes": {"type": "integer", "description": "How many lanes."},
            "fee": {"type": "number", "description": "Fee per lane in euros."},
            "bumpers": {"type": "boolean", "description": "Put up the gutter bumpers."},
            "league_code": {"type": "string", "description": "Code of the league."},
        },
        "required": ["alley"],
    },
)
REQUEST = "Reserve lanes at Strike Zone"


def _sent(field: str, value: str) -> Call:
    return Call("", "reserve_lanes", f'{{"alley":"Strike Zone","{field}":{value}}}')


@pytest.mark.parametrize(
    "field, sent, expected, fixed",
    [
        ("lanes", '"4"', "integer", 4),
        ("fee", '"12.5"', "number", 12.5),
        ("bumpers", '"yes"', "boolean", True),
        ("bumpers", '"no"', "boolean", False),
        ("league_code", "77", "string", "77"),
    ],
)
def test_a_value_of_the_wrong_type_is_converted(field, sent, expected, fixed):
    corrected = correct(_sent(field, sent), {"field": field, "expected": expected}, LANES, REQUEST)
    assert corrected is not None
    assert corrected.parsed() == {"alley": "Strike Zone", field: fixed}
    assert type(corrected.parsed()[field]) is type(fixed)


def test_a_value_that_cannot_be_converted_sends_nothing_again():
    error = {"field": "lanes", "expected": "integer"}
    assert correct(_sent("lanes", '"a few"'), error, LANES, REQUEST) is None
