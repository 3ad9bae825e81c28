"""JSON-RPC 2.0 (lesson 07): messages, error objects, ids, and the dispatcher table."""

import asyncio

import pytest

from wirelab import jsonrpc
from wirelab.jsonrpc import Dispatcher, JsonRpcError, notification, request

pytestmark = pytest.mark.timeout(10)


def adder() -> Dispatcher:
    def fail(params):
        raise RuntimeError("disk on fire")

    def needs_positive(params):
        if params.get("n", 0) <= 0:
            raise JsonRpcError(jsonrpc.INVALID_PARAMS, "Invalid params: n must be positive")
        return params["n"]

    async def slow_echo(params):
        await asyncio.sleep(0)
        return params

    return Dispatcher(
        {"add": lambda p: p["a"] + p["b"], "fail": fail, "positive": needs_positive, "echo": slow_echo}
    )


def test_a_request_gets_a_response_with_the_same_id():
    response = asyncio.run(adder().handle(request(7, "add", {"a": 1, "b": 2})))
    assert response == {"jsonrpc": "2.0", "id": 7, "result": 3}


@pytest.mark.parametrize("id", [0, "0", "abc", -1, 2**40])
def test_string_and_number_ids_including_zero_are_echoed_exactly(id):
    response = asyncio.run(adder().handle(request(id, "add", {"a": 1, "b": 1})))
    assert response["id"] == id and type(response["id"]) is type(id)


def test_a_notification_is_never_answered_even_when_it_fails():
    assert asyncio.run(adder().handle(notification("add", {"a": 1, "b": 2}))) is None
    assert asyncio.run(adder().handle(notification("fail"))) is None
    assert asyncio.run(adder().handle(notification("no-such-method"))) is None


def test_an_unknown_method_is_answered_with_method_not_found():
    response = asyncio.run(adder().handle(request(1, "sub")))
    assert response["error"]["code"] == jsonrpc.METHOD_NOT_FOUND
    assert "sub" in response["error"]["message"]


def test_a_handler_can_refuse_with_invalid_params():
    response = asyncio.run(adder().handle(request(1, "positive", {"n": -1})))
    assert response["error"] == {"code": -32602, "message": "Invalid params: n must be positive"}


def test_a_handler_that_crashes_is_reported_as_an_internal_error():
    response = asyncio.run(adder().handle(request(1, "fail")))
    assert response["error"]["code"] == jsonrpc.INTERNAL_ERROR
    assert "RuntimeError: disk on fire" in response["error"]["message"]


def test_coroutine_handlers_are_awaited():
    assert asyncio.run(adder().handle(request(1, "echo", {"x": 1})))["result"] == {"x": 1}


def test_a_response_given_to_the_dispatcher_gets_no_answer():
    assert asyncio.run(adder().handle(jsonrpc.result_response(1, "ok"))) is None


def test_absent_params_reach_the_handler_as_an_empty_object():
    rpc = Dispatcher({"show": lambda params: params})
    assert asyncio.run(rpc.handle(request(1, "show")))["result"] == {}


def test_a_guard_can_refuse_a_known_method_but_not_mask_an_unknown_one():
    def closed(message):
        raise JsonRpcError(jsonrpc.INVALID_REQUEST, "closed")

    rpc = Dispatcher({"add": lambda p: 0}, guard=closed)
    assert asyncio.run(rpc.handle(request(1, "add")))["error"]["code"] == jsonrpc.INVALID_REQUEST
    assert asyncio.run(rpc.handle(request(2, "other")))["error"]["code"] == jsonrpc.METHOD_NOT_FOUND


def test_extra_arguments_to_handle_reach_the_handler():
    rpc = Dispatcher({"who": lambda params, caller: caller})
    assert asyncio.run(rpc.handle(request(1, "who"), "alice"))["result"] == "alice"


def test_a_valid_message_is_received_without_an_error():
    message, error = jsonrpc.receive('{"jsonrpc": "2.0", "id": 0, "method": "ping"}')
    assert message == {"jsonrpc": "2.0", "id": 0, "method": "ping"} and error is None


def test_text_that_is_not_json_is_a_parse_error_with_id_null():
    message, error = jsonrpc.receive('{"jsonrpc": "2.0", "id": 1, "method": ')
    assert message is None
    assert error["id"] is None and error["error"]["code"] == jsonrpc.PARSE_ERROR
    assert "Parse error" in error["error"]["message"]


def test_bytes_that_are_not_utf8_are_a_parse_error_that_says_so():
    _, error = jsonrpc.receive(b'{"jsonrpc": "2.0", "id": 1, "method": "p\xff"}')
    assert error["error"]["code"] == jsonrpc.PARSE_ERROR
    assert "UTF-8" in error["error"]["message"] and "0xff" in error["error"]["message"]


@pytest.mark.parametrize(
    "text, says",
    [
        ('[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]', "batches"),
        ("[]", "batches"),
        ('"ping"', "JSON object"),
        ('{"jsonrpc": "1.0", "id": 1, "method": "ping"}', '"2.0"'),
        ('{"id": 1, "method": "ping"}', '"2.0"'),
        ('{"jsonrpc": "2.0", "id": 1, "method": 42}', '"method"'),
        ('{"jsonrpc": "2.0", "id": 1, "method": "add", "params": [1, 2]}', '"params"'),
        ('{"jsonrpc": "2.0", "id": null, "method": "ping"}', '"id"'),
        ('{"jsonrpc": "2.0", "id": true, "method": "ping"}', '"id"'),
        ('{"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}', '"id"'),
        ('{"jsonrpc": "2.0", "id": 1}', '"method"'),
    ],
)
def test_json_that_is_not_one_message_is_an_invalid_request_that_says_why(text, says):
    message, error = jsonrpc.receive(text)
    assert message is None and error["error"]["code"] == jsonrpc.INVALID_REQUEST
    assert says in error["error"]["message"]


def test_an_invalid_request_is_answered_with_its_id_when_the_id_is_readable():
    _, error = jsonrpc.receive('{"jsonrpc": "1.0", "id": 5, "method": "ping"}')
    assert error["id"] == 5


def test_an_error_response_with_id_null_is_a_valid_message():
    message, error = jsonrpc.receive(
        '{"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error"}}'
    )
    assert error is None and jsonrpc.is_response(message)


def test_a_json_rpc_error_round_trips_through_its_error_object():
    error = JsonRpcError(-32002, "Resource not found", {"uri": "x://y"})
    again = JsonRpcError.from_object(error.as_object())
    assert (again.code, again.message, again.data) == (-32002, "Resource not found", {"uri": "x://y"})


def test_messages_are_told_apart_by_their_members():
    assert jsonrpc.is_request(request(0, "ping"))
    assert jsonrpc.is_notification(notification("notifications/initialized"))
    assert jsonrpc.is_response(jsonrpc.result_response(0, {}))
    assert not jsonrpc.is_request(notification("x"))


# --- red-team findings (issue 14): one well-formed answer for every input ---


@pytest.mark.parametrize(
    "text",
    [
        '{"jsonrpc": "1.0", "jsonrpc": "2.0", "id": 1, "method": "ping"}',
        '{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"a": 1, "a": 2}}',
    ],
)
def test_a_key_given_twice_is_a_parse_error_that_names_it(text):
    message, error = jsonrpc.receive(text)
    assert message is None
    assert error["error"]["code"] == jsonrpc.PARSE_ERROR
    assert "appears twice" in error["error"]["message"]


@pytest.mark.parametrize(
    "text, id",
    [
        ('{"jsonrpc": "2.0", "id": "\\ud800", "method": "ping"}', None),
        ('{"jsonrpc": "2.0", "id": 4, "method": "\\udfff"}', 4),
        ('{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "\\ud800"}}', 5),
        ('{"jsonrpc": "2.0", "id": 6, "method": "x", "params": {"\\udc00key": 1}}', 6),
    ],
)
def test_a_lone_surrogate_gets_an_error_that_can_be_encoded(text, id):
    message, error = jsonrpc.receive(text)
    assert message is None
    assert error["id"] == id and error["error"]["code"] == jsonrpc.INVALID_REQUEST
    assert "lone surrogate" in error["error"]["message"]
    error["error"]["message"].encode("utf-8")  # the answer itself is sendable


def test_a_surrogate_pair_is_a_character_and_is_accepted():
    message, error = jsonrpc.receive('{"jsonrpc": "2.0", "id": 1, "method": "\\ud83d\\ude00"}')
    assert error is None and message["method"] == "\U0001f600"


def test_a_response_without_an_id_is_an_invalid_request():
    message, error = jsonrpc.receive('{"jsonrpc": "2.0", "result": {}}')
    assert message is None
    assert error["error"]["code"] == jsonrpc.INVALID_REQUEST and '"id"' in error["error"]["message"]
    assert not jsonrpc.is_response({"jsonrpc": "2.0", "result": {}})


def test_a_response_with_both_result_and_error_is_invalid():
    _, error = jsonrpc.receive('{"jsonrpc": "2.0", "id": 1, "result": 1, "error": {"code": 1}}')
    assert "not both" in error["error"]["message"]


def test_encode_falls_back_to_ascii_escapes_for_text_utf8_cannot_carry():
    assert jsonrpc.encode({"text": "é"}) == '{"text":"é"}'.encode()
    assert jsonrpc.encode({"text": "\ud800"}) == b'{"text":"\\ud800"}'
