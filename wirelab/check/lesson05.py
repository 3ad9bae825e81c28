"""Checks for lab 05: schema problems as structured errors, a semantic check, backoff delays."""

from __future__ import annotations

from typing import Any, Literal

from wirelab.check import CheckFailed, attempt, exercise, expect, passed
from wirelab.errors import ToolError, error_of
from wirelab.tools import function_schema

ORDERS = {"ord_1001": "2 books", "ord_1002": "a desk lamp"}


def schedule_delivery(order_id: str, date: str, speed: Literal["standard", "express"] = "standard") -> dict:
    """Schedule the delivery of an order on a date.

    Args:
        order_id: The order id, e.g. "ord_1001".
        date: Delivery date, YYYY-MM-DD.
        speed: Delivery speed.
    """
    return {"order_id": order_id, "date": date, "speed": speed}


SCHEMA = function_schema(schedule_delivery)


def _error(got: Any, case: str) -> dict[str, Any]:
    expect(
        isinstance(got, str),
        f"for {case} to_tool_error returned {got!r}: return ToolError(...).content(), a JSON string",
    )
    error = error_of(got)
    expect(
        error is not None,
        f"for {case} the result {got!r} is not a structured error: "
        'it must look like {"error": {"code": ..., "message": ...}}',
    )
    return error


@exercise
def check_to_tool_error(to_tool_error: Any) -> None:
    valid = {"order_id": "ord_1001", "date": "2026-12-10"}
    expect(attempt(to_tool_error, valid, SCHEMA) is None, "valid arguments must give None: nothing to report")
    missing = _error(attempt(to_tool_error, {"date": "2026-12-10"}, SCHEMA), "a missing order_id")
    expect(
        missing.get("code") == "invalid_arguments",
        f"the code was {missing.get('code')!r}: use 'invalid_arguments'",
    )
    expect(
        missing.get("field") == "order_id",
        f"for a missing order_id the field was "
        f"{missing.get('field')!r}: for a 'required' error the field is the missing name, "
        "which is not in error.path (the path points at the object)",
    )
    expect(bool(missing.get("suggestion")), "give a suggestion: the model reads it to fix the call")
    no_date = _error(attempt(to_tool_error, {"order_id": "ord_1001"}, SCHEMA), "a missing date")
    expect(
        no_date.get("field") == "date",
        f"for arguments with order_id but no date the field was {no_date.get('field')!r}: name the "
        "required property that is missing from error.instance, not the first one the schema "
        "lists in error.validator_value",
    )
    enum = _error(attempt(to_tool_error, {**valid, "speed": "Express"}, SCHEMA), "speed='Express'")
    expect(
        enum.get("field") == "speed" and enum.get("allowed") == ["standard", "express"],
        f"for speed='Express' the error was {enum}: name the field 'speed' and list "
        "allowed=['standard', 'express'] (error.validator_value for an 'enum' error)",
    )
    passed("schema problems come back as errors with a field, allowed values and a suggestion")


@exercise
def check_order_exists(order_exists: Any) -> None:
    expect(
        attempt(order_exists, {"order_id": "ord_1001"}) is None,
        "order_exists must accept an order that exists (ord_1001) and return None",
    )
    try:
        order_exists({"order_id": "ord_1003"})
    except ToolError as e:
        error = e.as_dict()["error"]
    except NotImplementedError as e:
        raise CheckFailed(f"order_exists is not written yet. Hint: {e}") from None
    except Exception as e:
        raise CheckFailed(f"order_exists raised {type(e).__name__}: raise a ToolError instead") from None
    else:
        raise CheckFailed("order_exists accepted ord_1003, which is not in ORDERS: raise ToolError")
    expect(
        error.get("code") == "not_found" and error.get("field") == "order_id",
        f"the error was {error}: use code 'not_found' and field='order_id'",
    )
    suggestion = str(error.get("suggestion", ""))
    expect(bool(suggestion), "add a suggestion that tells the model how to find the right id")
    expect(
        not any(order in suggestion for order in ORDERS),
        f"the suggestion {suggestion!r} names another order: the model would act on someone "
        "else's order. Say how to find the right id (ask the user, list their orders) instead",
    )
    passed("an unknown order is a not_found error whose suggestion guesses no other id")


@exercise
def check_backoff_delays(backoff_delays: Any) -> None:
    ceilings = attempt(backoff_delays, 5, 0.5, 3.0, lambda: 1.0)
    expect(
        isinstance(ceilings, list) and len(ceilings) == 4,
        f"backoff_delays(5, ...) returned {ceilings!r}: 5 attempts have 4 waits between them",
    )
    expect(
        ceilings == [0.5, 1.0, 2.0, 3.0],
        f"with random() = 1.0 the waits were {ceilings}: "
        "each is min(cap_s, base_s * 2**n), so [0.5, 1.0, 2.0, 3.0]",
    )
    draws = iter([0.5, 0.25, 0.0, 1.0])
    jittered = attempt(backoff_delays, 5, 0.5, 3.0, lambda: next(draws))
    expect(
        jittered == [0.25, 0.25, 0.0, 3.0],
        f"with random() = 0.5, 0.25, 0.0, 1.0 the waits "
        f"were {jittered}: full jitter multiplies each ceiling by a fresh random()",
    )
    expect(attempt(backoff_delays, 1, 0.5, 3.0, lambda: 1.0) == [], "one attempt means no wait")
    passed("backoff doubles up to the cap, and full jitter draws each wait below its ceiling")
