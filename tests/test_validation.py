"""Argument validation: schema problems and semantic problems become errors a model can act on."""

import datetime as dt
import json
from typing import Literal

import jsonschema
import pytest

from wirelab.errors import ToolError
from wirelab.tools import ToolRegistry, function_schema
from wirelab.validation import (
    check_call,
    must_exist,
    schema_problems,
    validate_arguments,
    validating,
    within,
)

ORDERS = {"ord_1001", "ord_1002"}


def ship(
    order_id: str,
    speed: Literal["standard", "express"] = "standard",
    copies: int = 1,
    date: str | None = None,
) -> str:
    """Ship an order.

    Args:
        order_id: The order, e.g. "ord_1001".
        speed: Delivery speed.
        copies: How many.
        date: Day to ship, YYYY-MM-DD.
    """
    return f"shipped {order_id}"


SCHEMA = function_schema(ship)
TOOLS = ToolRegistry([ship])


def call(arguments):
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"id": "call_1", "type": "function", "function": {"name": "ship", "arguments": raw}}


def error_of(arguments, schema=SCHEMA):
    with pytest.raises(ToolError) as caught:
        validate_arguments(arguments, schema)
    return caught.value.as_dict()["error"]


def test_valid_arguments_pass_silently():
    assert validate_arguments({"order_id": "ord_1001", "speed": "express"}, SCHEMA) is None


def test_a_missing_required_field_is_named_with_how_to_fix_it():
    error = error_of({"speed": "express"})
    assert (error["code"], error["field"]) == ("invalid_arguments", "order_id")
    assert error["suggestion"] == "Add the required field 'order_id'."


def test_a_value_outside_the_enum_lists_what_is_allowed():
    error = error_of({"order_id": "ord_1", "speed": "overnight"})
    assert error["allowed"] == ["standard", "express"]
    assert error["suggestion"] == "Use one of: 'standard', 'express'."


def test_a_wrong_case_enum_value_is_told_the_exact_spelling():
    assert (
        error_of({"order_id": "ord_1", "speed": "EXPRESS"})["suggestion"]
        == "Use 'express': values are case-sensitive."
    )


def test_a_wrong_type_says_the_expected_type():
    error = error_of({"order_id": "ord_1", "copies": "two"})
    assert (error["field"], error["expected"]) == ("copies", "integer")


def test_an_unknown_parameter_is_named_and_the_real_ones_listed():
    error = error_of({"order_id": "ord_1", "colour": "red"})
    assert error["field"] == "colour"
    assert error["suggestion"] == "Remove 'colour'; the parameters are: order_id, speed, copies, date."


def test_every_problem_is_listed_when_there_are_several():
    error = error_of({"speed": "fast", "copies": "x"})
    assert {p["field"] for p in error["problems"]} == {"order_id", "speed", "copies"}
    assert error["message"].endswith("(and 2 more problems)")


def test_nested_fields_are_named_by_their_path():
    schema = {
        "type": "object",
        "properties": {
            "items": {
                "type": "array",
                "items": {"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"]},
            }
        },
    }
    assert schema_problems({"items": [{"sku": "a"}, {}]}, schema)[0]["field"] == "items.1.sku"


def test_string_formats_such_as_dates_are_checked():
    schema = {"type": "object", "properties": {"day": {"type": "string", "format": "date"}}}
    assert schema_problems({"day": "2026-02-30"}, schema)[0]["field"] == "day"
    assert schema_problems({"day": "2026-02-28"}, schema) == []


def test_arguments_that_are_not_an_object_are_an_error_not_a_crash():
    assert error_of(["ord_1"])["expected"] == "object"


def test_an_invalid_schema_is_the_developers_bug_and_raises():
    with pytest.raises(jsonschema.SchemaError):
        validate_arguments({}, {"type": "objekt"})


def test_an_id_that_does_not_exist_is_a_semantic_error_with_a_did_you_mean():
    with pytest.raises(ToolError) as caught:
        must_exist("order_id", ORDERS, "order")({"order_id": "ord_1003"})
    error = caught.value.as_dict()["error"]
    assert (error["code"], error["field"]) == ("not_found", "order_id")
    assert error["suggestion"].startswith("Did you mean 'ord_100")


def test_must_exist_reads_a_changing_collection_each_time():
    live = set()
    check = must_exist("order_id", lambda: live)
    live.add("ord_9")
    assert check({"order_id": "ord_9"}) is None


def test_a_date_out_of_range_is_a_semantic_error_naming_the_range():
    check = within("date", dt.date(2026, 1, 1), dt.date(2026, 12, 31))
    assert check({"date": "2026-06-01"}) is None
    with pytest.raises(ToolError) as caught:
        check({"date": "2027-01-01"})
    assert caught.value.as_dict()["error"]["allowed"] == {"min": "2026-01-01", "max": "2026-12-31"}


def test_a_range_check_on_a_date_that_is_not_iso_says_how_to_write_it():
    with pytest.raises(ToolError) as caught:
        within("date", dt.date(2026, 1, 1), dt.date(2026, 12, 31))({"date": "June 1st"})
    assert caught.value.suggestion == "Write dates as YYYY-MM-DD."


def test_check_call_runs_syntax_before_semantics():
    seen = []
    with pytest.raises(ToolError) as caught:
        check_call(call({"speed": "express"}), TOOLS.get("ship"), [seen.append])
    assert caught.value.code == "invalid_arguments" and seen == []


def test_a_validating_runner_never_runs_the_tool_on_bad_arguments():
    ran = []
    run = validating({"ship": [must_exist("order_id", ORDERS)]}, run=lambda c, tools: ran.append(c) or "ran")
    assert json.loads(run(call({"order_id": "nope"}), TOOLS))["error"]["code"] == "not_found"
    assert json.loads(run(call('{"order_id": '), TOOLS))["error"]["code"] == "invalid_json"
    assert ran == []
    assert run(call({"order_id": "ord_1001"}), TOOLS) == "ran"


def test_a_validating_runner_leaves_unknown_tools_to_the_loop():
    unknown = {"id": "c", "type": "function", "function": {"name": "fly", "arguments": "{}"}}
    assert json.loads(validating()(unknown, TOOLS))["error"]["code"] == "unknown_tool"
