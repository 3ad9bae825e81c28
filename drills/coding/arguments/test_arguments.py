"""Checks for the argument-validation drill, run against the learner's file (see conftest.py)."""

import pytest

SCHEMA = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "days": {"type": "integer", "default": 1},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
        "lat": {"type": "number"},
        "hourly": {"type": "boolean"},
    },
    "required": ["city"],
    "additionalProperties": False,
}


def test_valid_arguments_come_back_with_defaults_filled_in(drill):
    assert drill.parse_arguments('{"city": "Oslo", "unit": "celsius"}', SCHEMA) == {
        "city": "Oslo",
        "unit": "celsius",
        "days": 1,
    }


def test_a_given_value_wins_over_the_default(drill):
    assert drill.parse_arguments('{"city": "Oslo", "days": 3}', SCHEMA)["days"] == 3


def test_an_empty_string_means_no_arguments(drill):
    assert drill.parse_arguments("", {"type": "object", "properties": {}}) == {}


def test_ints_are_numbers_but_not_the_other_way_round(drill):
    assert drill.parse_arguments('{"city": "Oslo", "lat": 59}', SCHEMA)["lat"] == 59
    assert drill.parse_arguments('{"city": "Oslo", "lat": 59.9}', SCHEMA)["lat"] == 59.9


@pytest.mark.parametrize(
    ("raw", "code", "field"),
    [
        ('{"city": "Oslo",', "invalid_json", None),
        ('["Oslo"]', "not_an_object", None),
        ('"Oslo"', "not_an_object", None),
        ('{"city": "Oslo", "country": "NO"}', "unknown_field", "country"),
        ('{"unit": "celsius"}', "missing_field", "city"),
        ('{"city": 42}', "wrong_type", "city"),
        ('{"city": "Oslo", "days": "3"}', "wrong_type", "days"),
        ('{"city": "Oslo", "days": 2.5}', "wrong_type", "days"),
        ('{"city": "Oslo", "days": true}', "wrong_type", "days"),
        ('{"city": "Oslo", "lat": false}', "wrong_type", "lat"),
        ('{"city": "Oslo", "hourly": "yes"}', "wrong_type", "hourly"),
        ('{"city": "Oslo", "unit": "Celsius"}', "not_in_enum", "unit"),
    ],
)
def test_bad_arguments_raise_a_clear_error_naming_the_field(drill, raw, code, field):
    with pytest.raises(drill.ArgumentError) as caught:
        drill.parse_arguments(raw, SCHEMA)
    assert (caught.value.code, caught.value.field) == (code, field)
    assert caught.value.message, "the model needs a message to correct itself"
    if field:
        assert field in caught.value.message


def test_an_enum_error_lists_the_allowed_values(drill):
    with pytest.raises(drill.ArgumentError) as caught:
        drill.parse_arguments('{"city": "Oslo", "unit": "kelvin"}', SCHEMA)
    assert "celsius" in caught.value.message and "fahrenheit" in caught.value.message


def test_the_error_result_is_structured_for_the_model(drill):
    with pytest.raises(drill.ArgumentError) as caught:
        drill.parse_arguments("{}", SCHEMA)
    assert caught.value.to_result()["error"]["code"] == "missing_field"


def test_extra_fields_pass_when_the_schema_allows_them(drill):
    schema = {**SCHEMA, "additionalProperties": True}
    assert drill.parse_arguments('{"city": "Oslo", "x": 1}', schema)["x"] == 1
