"""Checks composed into one executor: refused calls answered in place, the rest run together, in order."""

import json

from wirelab.errors import ToolError, error_of
from wirelab.security.executor import guarded
from wirelab.tools import ToolRegistry


def echo(text: str) -> str:
    """Echo a text."""
    return text


TOOLS = ToolRegistry([echo])


def call(text, call_id):
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": "echo", "arguments": json.dumps({"text": text})},
    }


def no_secrets(call, tools):
    if "secret" in call["function"]["arguments"]:
        raise ToolError("secret_blocked", "no secrets")


def no_shouting(call, tools):
    if "LOUD" in call["function"]["arguments"]:
        raise ToolError("denied", "no shouting")


def test_refused_calls_get_their_error_in_place_and_the_others_run_in_order():
    batches = []

    def inner(calls, tools):
        batches.append([c["id"] for c in calls])
        return [f"ran {c['id']}" for c in calls]

    results = guarded(no_secrets, inner=inner)([call("a", "1"), call("secret", "2"), call("b", "3")], TOOLS)
    assert batches == [["1", "3"]]
    assert (results[0], error_of(results[1])["code"], results[2]) == ("ran 1", "secret_blocked", "ran 3")


def test_the_first_check_that_refuses_gives_the_error():
    result = guarded(no_shouting, no_secrets)([call("LOUD secret", "1")], TOOLS)[0]
    assert error_of(result)["code"] == "denied"


def test_with_every_call_refused_the_inner_executor_is_not_called():
    def inner(calls, tools):
        raise AssertionError("must not run")

    result = guarded(no_secrets, inner=inner)([call("secret", "1")], TOOLS)[0]
    assert error_of(result)["code"] == "secret_blocked"


def test_with_no_checks_every_call_runs():
    assert guarded()([call("hi", "1")], TOOLS) == ["hi"]
