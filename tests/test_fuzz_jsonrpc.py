"""Property-based fuzzing of the JSON-RPC parser and dispatcher (lesson 07), with hypothesis.

Whatever arrives (arbitrary bytes, any JSON value, deep nesting, huge numbers, wrong
types), `jsonrpc.receive` returns either a message or the error response to send, never
raises, and every response it or the dispatcher makes is strict JSON (no NaN, no
Infinity) that a peer can parse. Each property runs a bounded number of examples.
"""

import asyncio
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import strict_loads
from wirelab import jsonrpc
from wirelab.jsonrpc import Dispatcher, JsonRpcError

pytestmark = pytest.mark.timeout(60)

BOUNDED = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=20)
    | st.floats(allow_nan=False, allow_infinity=False)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
ids = st.integers() | st.text(max_size=10) | st.none() | st.booleans() | st.floats(allow_nan=False)
envelopes = st.fixed_dictionaries(
    {},
    optional={
        "jsonrpc": st.sampled_from(["2.0", "1.0", 2.0]) | json_values,
        "id": ids,
        "method": st.sampled_from(["ping", "add", "fail", ""]) | json_values,
        "params": json_values,
        "result": json_values,
        "error": json_values,
    },
)


def strict_json(value) -> str:
    """`value` as standard JSON; raises ValueError for NaN or Infinity, which JSON lacks."""
    return json.dumps(value, allow_nan=False)


def assert_error_response(response: dict, expected_id=None) -> None:
    jsonrpc.validate(strict_loads(strict_json(response)))
    assert set(response) == {"jsonrpc", "id", "error"}
    assert isinstance(response["error"]["code"], int) and response["error"]["message"]
    assert response["id"] == expected_id


def assert_received(data: str | bytes) -> None:
    """The property every input must satisfy: one message, or one sendable error."""
    message, error = jsonrpc.receive(data)
    assert (message is None) != (error is None)
    if error is not None:
        assert error["error"]["code"] in (jsonrpc.PARSE_ERROR, jsonrpc.INVALID_REQUEST)
        readable_id = jsonrpc.request_id(strict_loads(data)) if error["error"]["code"] != -32700 else None
        assert_error_response(error, readable_id)
    else:
        strict_json(message)  # whatever was accepted can be echoed back as JSON
        assert message["jsonrpc"] == "2.0"


@BOUNDED
@given(st.binary(max_size=200))
def test_arbitrary_bytes_are_a_message_or_an_error_never_an_exception(data):
    assert_received(data)


@BOUNDED
@given(json_values)
def test_any_json_value_is_a_message_or_an_error(value):
    assert_received(json.dumps(value))


@BOUNDED
@given(envelopes)
def test_envelopes_with_wrong_types_are_refused_with_their_id_when_readable(envelope):
    assert_received(json.dumps(envelope))


@BOUNDED
@given(st.integers(min_value=1, max_value=200_000), st.sampled_from("[{"))
def test_deep_nesting_is_a_parse_or_request_error_not_a_crash(depth, opener):
    closer = {"[": "]", "{": "}"}[opener]
    inner = '"k":1' if opener == "{" else "1"
    text = (opener + ('"k":' if opener == "{" else "")) * (depth - 1) + opener + inner + closer * depth
    assert_received(text)


@pytest.mark.parametrize("depth", [100_000, 1_000_000])
def test_a_very_deep_array_gets_a_parse_error_that_says_why(depth):
    message, error = jsonrpc.receive("[" * depth + "]" * depth)
    assert message is None and error["error"]["code"] == jsonrpc.PARSE_ERROR
    assert "deep" in error["error"]["message"]


@pytest.mark.parametrize("number", ["1" * 5000, "-" + "9" * 10_000])
def test_an_integer_too_long_to_convert_gets_a_parse_error(number):
    message, error = jsonrpc.receive(f'{{"jsonrpc": "2.0", "id": {number}, "method": "ping"}}')
    assert message is None and error["error"]["code"] == jsonrpc.PARSE_ERROR
    assert "digits" in error["error"]["message"]


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400", "-1e999"])
def test_a_number_json_cannot_carry_back_gets_a_parse_error(number):
    """Python's json reads NaN and 1e400 (as inf); echoing such an id would write invalid JSON."""
    message, error = jsonrpc.receive(f'{{"jsonrpc": "2.0", "id": {number}, "method": "ping"}}')
    assert message is None and error["error"]["code"] == jsonrpc.PARSE_ERROR
    assert number.lstrip("-") in error["error"]["message"]


@BOUNDED
@given(
    st.integers(min_value=-(10**4000), max_value=10**4000) | st.floats(allow_nan=False, allow_infinity=False)
)
def test_large_but_representable_numbers_are_echoed_exactly(number):
    message, error = jsonrpc.receive(json.dumps({"jsonrpc": "2.0", "id": number, "method": "ping"}))
    assert error is None and message["id"] == number


def fuzz_dispatcher() -> Dispatcher:
    def fail(params):
        raise RuntimeError("tool bug")

    async def echo(params):
        await asyncio.sleep(0)
        return params

    def invalid(params):
        raise JsonRpcError(jsonrpc.INVALID_PARAMS, "Invalid params: nope", {"why": "fuzz"})

    return Dispatcher({"echo": echo, "fail": fail, "invalid": invalid})


@BOUNDED
@given(
    st.integers() | st.text(max_size=10),
    st.sampled_from(["echo", "fail", "invalid", "nope"]),
    st.dictionaries(st.text(max_size=8), json_values, max_size=4),
)
def test_every_request_the_dispatcher_sees_gets_one_response_with_its_id(id, method, params):
    message, error = jsonrpc.receive(json.dumps(jsonrpc.request(id, method, params)))
    assert error is None
    response = asyncio.run(fuzz_dispatcher().handle(message))
    jsonrpc.validate(strict_loads(strict_json(response)))
    assert response["id"] == id and ("result" in response) != ("error" in response)
    if method == "echo":
        assert response["result"] == params


@BOUNDED
@given(
    st.sampled_from(["echo", "fail", "invalid", "nope"]),
    st.dictionaries(st.text(max_size=8), json_values, max_size=4),
)
def test_a_notification_is_never_answered_whatever_it_carries(method, params):
    assert asyncio.run(fuzz_dispatcher().handle(jsonrpc.notification(method, params))) is None


# --- inputs the red-team run found (issue 14): lone surrogates and duplicate keys ---

surrogate_escapes = st.integers(0xD800, 0xDFFF).map(lambda code: f"\\u{code:04x}")
json_strings = st.lists(
    st.text(max_size=5).map(lambda t: json.dumps(t)[1:-1]) | surrogate_escapes, max_size=4
).map(lambda parts: '"' + "".join(parts) + '"')
members = st.sampled_from(['"jsonrpc"', '"id"', '"method"', '"params"', '"result"']) | json_strings
raw_values = json_strings | st.sampled_from(['"2.0"', "1", "null", "{}", '{"name": "\\ud800"}'])


@st.composite
def raw_objects(draw) -> str:
    """JSON text of an object whose keys may repeat and whose strings may hold lone surrogates."""
    pairs = draw(st.lists(st.tuples(members, raw_values), min_size=1, max_size=6))
    return "{" + ", ".join(f"{key}: {value}" for key, value in pairs) + "}"


@BOUNDED
@given(raw_objects())
def test_every_object_text_gets_a_message_or_an_error_that_utf8_can_carry(text):
    message, error = jsonrpc.receive(text)
    assert (message is None) != (error is None)
    if error is not None:
        strict_loads(jsonrpc.encode(error).decode("utf-8"))
    else:
        jsonrpc.encode(message).decode("utf-8")  # an accepted message can be echoed back
        assert jsonrpc.lone_surrogate(message) is None


@BOUNDED
@given(raw_objects())
def test_a_duplicate_key_is_never_silently_resolved(text):
    repeated = []

    def pairs(items):
        keys = [key for key, _ in items]
        repeated.extend(key for key in keys if keys.count(key) > 1)
        return dict(items)

    json.loads(text, object_pairs_hook=pairs)
    message, error = jsonrpc.receive(text)
    if repeated:
        assert message is None and error["error"]["code"] == jsonrpc.PARSE_ERROR
