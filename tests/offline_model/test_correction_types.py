"""Correction converts a value of the wrong type when a tool's error names the type it expected,
in a key (`{"field": ..., "expected": "integer"}`) or in its text (lesson 05, "errors are
results"): "count must be of type integer" does not make "of type integer" the argument.
Invented tool and wording; a real list after the same cue still corrects to an allowed value."""

from __future__ import annotations

import pytest

from wirelab.offline_model.correction import correct
from wirelab.offline_model.request import Call, Tool

KILN = Tool(
    "fire_kiln",
    "Start a firing in the pottery kiln.",
    {
        "type": "object",
        "properties": {
            "studio": {"type": "string", "description": "Pottery studio name."},
            "count": {"type": "integer", "description": "How many pots go in."},
            "amount": {"type": "number", "description": "Glaze to use, in litres."},
            "vented": {"type": "boolean", "description": "Open the vent while firing."},
            "mode": {"type": "string", "description": "How the pots are fetched afterwards."},
        },
        "required": ["studio"],
    },
)
REQUEST = "Fire the kiln at Clay Corner"


def _sent(field: str, value: str) -> Call:
    return Call("", "fire_kiln", f'{{"studio":"Clay Corner","{field}":{value}}}')


@pytest.mark.parametrize(
    "field, sent, error, fixed",
    [
        ("count", '"6"', {"field": "count", "expected": "integer"}, 6),
        ("amount", '"12.5"', {"field": "amount", "expected": "number"}, 12.5),
        ("vented", '"yes"', {"field": "vented", "expected": "boolean"}, True),
        ("vented", '"no"', {"field": "vented", "expected": "boolean"}, False),
        ("mode", "77", {"field": "mode", "expected": "string"}, "77"),
        (
            "count",
            '"6"',
            {
                "error": "invalid_type",
                "field": "count",
                "expected": "integer",
                "message": "count must be of type integer",
            },
            6,
        ),
        ("count", '"6"', {"message": "count must be of type integer"}, 6),
        ("count", '"6"', {"message": "count must be an integer"}, 6),
        ("count", '"6"', {"message": "'6' is not of type 'integer'"}, 6),
        ("count", '"6"', {"field": "count", "message": "Input should be a valid integer"}, 6),
        ("count", '"6"', {"message": "count should be a whole number"}, 6),
        ("amount", '"1.5"', {"message": "amount should be a number"}, 1.5),
        ("amount", '"1.5"', {"field": "amount", "message": "expected float, got str"}, 1.5),
        ("vented", '"yes"', {"message": "vented must be a boolean"}, True),
        ("mode", "3", {"field": "mode", "message": "must be of type string"}, "3"),
        ("count", '"6"', {"message": "count 必须是整数"}, 6),
    ],
)
def test_a_type_named_in_the_error_converts_the_value(field, sent, error, fixed):
    corrected = correct(_sent(field, sent), error, KILN, REQUEST)
    assert corrected is not None
    assert corrected.parsed() == {"studio": "Clay Corner", field: fixed}
    assert type(corrected.parsed()[field]) is type(fixed)


def test_a_value_that_cannot_be_converted_sends_nothing_again():
    error = {"field": "count", "expected": "integer"}
    assert correct(_sent("count", '"a few"'), error, KILN, REQUEST) is None


def test_a_type_is_never_written_as_the_value():
    error = {"message": "count must be of type integer"}
    corrected = correct(_sent("count", '"a few"'), error, KILN, REQUEST)
    assert corrected is None or "type" not in str(corrected.parsed().get("count"))


@pytest.mark.parametrize(
    "error",
    [
        {"message": "mode must be one of walk, bike"},
        {"field": "mode", "message": "mode should be walk or bike"},
    ],
)
def test_a_real_list_after_the_same_cue_still_gives_an_allowed_value(error):
    corrected = correct(_sent("mode", '"Bike"'), error, KILN, REQUEST)
    assert corrected is not None
    assert corrected.parsed()["mode"] == "bike"
