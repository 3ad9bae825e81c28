"""Invalid requests get the real API's errors, naming the offending parameter."""

from __future__ import annotations

import httpx2
import openai
import pytest

from tests.offline_model.conftest import WEATHER
from wirelab.offline_model import FAULTS, MODEL_ID, RequestError, complete
from wirelab.offline_model.wire.server import MAX_BODY_BYTES

USER = {"role": "user", "content": "Weather in Paris"}
CALL = {
    "id": "call_1",
    "type": "function",
    "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
}
ASKED = {"role": "assistant", "content": None, "tool_calls": [CALL]}


def rejected(client, **request) -> dict:
    """The error body of a request the client must refuse with BadRequestError."""
    request = {"model": MODEL_ID, "messages": [USER], **request}
    with pytest.raises(openai.BadRequestError) as caught:
        client.chat.completions.create(**request)
    assert caught.value.body["type"] == "invalid_request_error"
    return caught.value.body


@pytest.mark.parametrize(
    ("request_fields", "param"),
    [
        ({"messages": []}, "messages"),
        ({"messages": "hello"}, "messages"),
        ({"messages": [{"role": "robot", "content": "hi"}]}, "messages[0].role"),
        ({"messages": [{"role": "user", "content": 42}]}, "messages[0].content"),
        ({"messages": [{"role": "user", "content": [{"type": "image_url"}]}]}, "messages[0].content[0]"),
        ({"messages": [USER, ASKED, {"role": "tool", "content": "sunny"}]}, "messages[2].tool_call_id"),
        (
            {"messages": [USER, ASKED, {"role": "tool", "tool_call_id": "call_9", "content": "x"}]},
            "messages[2].tool_call_id",
        ),
        (
            {"messages": [USER, {"role": "tool", "tool_call_id": "call_1", "content": "x"}]},
            "messages[1].tool_call_id",
        ),
        ({"messages": [USER, ASKED]}, "messages[1].tool_calls"),
        (
            {
                "messages": [
                    USER,
                    {
                        **ASKED,
                        "tool_calls": [
                            {**CALL, "function": {"name": "get_weather", "arguments": {"city": "Paris"}}}
                        ],
                    },
                ]
            },
            "messages[1].tool_calls[0].function.arguments",
        ),
        ({"tools": [{"type": "retrieval"}]}, "tools[0].type"),
        ({"tools": [{"type": "function", "function": {"name": "get weather!"}}]}, "tools[0].function.name"),
        (
            {"tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "array"}}}]},
            "tools[0].function.parameters",
        ),
        ({"tools": [WEATHER, WEATHER]}, "tools[1].function.name"),
        (
            {"tools": [WEATHER], "tool_choice": {"type": "function", "function": {"name": "nope"}}},
            "tool_choice.function.name",
        ),
        ({"tools": [WEATHER], "tool_choice": "always"}, "tool_choice"),
        ({"tool_choice": "auto"}, "tool_choice"),
        ({"parallel_tool_calls": False}, "parallel_tool_calls"),
        ({"temperature": 2.5}, "temperature"),
        ({"top_p": -1}, "top_p"),
        ({"n": 2}, "n"),
        ({"max_tokens": 0}, "max_tokens"),
        ({"stream_options": {"include_usage": True}}, "stream_options"),
        ({"model": f"{MODEL_ID}/no_such_fault"}, "model"),
        ({"extra_body": {"fault": "no_such_fault"}}, "fault"),
    ],
)
def test_an_invalid_request_raises_bad_request_naming_the_param(client, request_fields, param):
    assert rejected(client, **request_fields)["param"] == param


def test_a_missing_messages_parameter_is_named(client):
    with pytest.raises(openai.BadRequestError) as caught:
        client.post("/chat/completions", body={"model": MODEL_ID}, cast_to=object)
    assert caught.value.body["param"] == "messages"
    assert caught.value.body["code"] == "missing_required_parameter"


def test_an_unknown_fault_lists_the_valid_ones(client):
    message = rejected(client, model=f"{MODEL_ID}/no_such_fault")["message"]
    assert all(fault in message for fault in FAULTS)


def test_n_other_than_one_says_why(client):
    assert "exactly one choice" in rejected(client, n=3)["message"]


def test_arguments_that_are_not_a_string_are_explained(client):
    bad = {**ASKED, "tool_calls": [{**CALL, "function": {"name": "f", "arguments": {}}}]}
    assert "json.dumps" in rejected(client, messages=[USER, bad])["message"]


def test_an_unknown_model_raises_not_found(client):
    with pytest.raises(openai.NotFoundError) as caught:
        client.chat.completions.create(model="gpt-4o", messages=[USER])
    assert (caught.value.body["code"], caught.value.body["param"]) == ("model_not_found", "model")


def test_a_body_that_is_not_json_is_refused(server):
    response = httpx2.post(
        f"{server.base_url}/chat/completions",
        content=b"{not json",
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 400
    assert "could not parse the JSON body" in response.json()["error"]["message"]


def test_a_body_that_is_not_an_object_is_refused(server):
    response = httpx2.post(f"{server.base_url}/chat/completions", json=[1, 2])
    assert response.status_code == 400 and response.json()["error"]["param"] is None


def test_a_body_over_the_size_limit_is_refused_with_413(client):
    huge = {"role": "user", "content": "x" * (MAX_BODY_BYTES + 1)}
    with pytest.raises(openai.APIStatusError) as caught:
        client.chat.completions.create(model=MODEL_ID, messages=[huge])
    assert caught.value.status_code == 413
    assert caught.value.body["code"] == "request_too_large"


def test_a_bad_streamed_request_fails_before_any_chunk(client):
    with pytest.raises(openai.BadRequestError):
        client.chat.completions.create(model=MODEL_ID, messages=[], stream=True)


def test_an_unknown_route_answers_in_the_api_error_shape(server):
    response = httpx2.get(f"{server.base_url}/embeddings")
    assert response.status_code == 404 and "error" in response.json()


def test_complete_raises_request_error_with_status_and_param():
    with pytest.raises(RequestError) as caught:
        complete({"model": MODEL_ID, "messages": [USER], "temperature": "hot"})
    assert (caught.value.status, caught.value.param) == (400, "temperature")
