"""POST /v1/responses, driven by the real `openai` client's `responses.create`."""

import json

import openai
import pytest

TOOL = {
    "type": "function",
    "name": "get_weather",
    "description": "Current weather for a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}
ASK = "What is the weather in Paris and in Tokyo?"


def _outputs(response, results):
    return [
        {
            "type": "function_call_output",
            "call_id": item.call_id,
            "output": results[json.loads(item.arguments)["city"]],
        }
        for item in response.output
        if item.type == "function_call"
    ]


def test_independent_requests_come_back_as_parallel_function_call_items(client):
    response = client.responses.create(model="wirelab-offline", input=ASK, tools=[TOOL])
    calls = [item for item in response.output if item.type == "function_call"]
    assert [json.loads(c.arguments) for c in calls] == [{"city": "Paris"}, {"city": "Tokyo"}]
    assert all(c.call_id.startswith("call_") and c.id.startswith("fc_") for c in calls)
    assert response.status == "completed"


def test_parallel_tool_calls_false_makes_one_call(client):
    response = client.responses.create(
        model="wirelab-offline", input=ASK, tools=[TOOL], parallel_tool_calls=False
    )
    assert [item.type for item in response.output] == ["function_call"]


def test_previous_response_id_continues_with_function_call_outputs(client):
    first = client.responses.create(model="wirelab-offline", input=ASK, tools=[TOOL])
    results = {"Paris": '{"temp_c": 18}', "Tokyo": '{"temp_c": 24}'}
    second = client.responses.create(
        model="wirelab-offline", previous_response_id=first.id, input=_outputs(first, results), tools=[TOOL]
    )
    assert "18" in second.output_text and "24" in second.output_text


def test_explicit_input_items_work_without_a_stored_response(client):
    first = client.responses.create(model="wirelab-offline", input=ASK, tools=[TOOL], store=False)
    items = [{"role": "user", "content": ASK}, *[item.model_dump(exclude_none=True) for item in first.output]]
    results = {"Paris": '{"temp_c": 18}', "Tokyo": '{"temp_c": 24}'}
    second = client.responses.create(
        model="wirelab-offline", input=items + _outputs(first, results), tools=[TOOL]
    )
    assert "18" in second.output_text
    with pytest.raises(openai.BadRequestError, match="not found"):
        client.responses.create(model="wirelab-offline", previous_response_id=first.id, input="and?")


def test_a_lost_call_id_and_a_missing_output_are_refused_in_the_apis_words(client):
    first = client.responses.create(model="wirelab-offline", input=ASK, tools=[TOOL])
    with pytest.raises(openai.BadRequestError, match="No tool call found for function call output") as lost:
        client.responses.create(
            model="wirelab-offline",
            previous_response_id=first.id,
            input=[{"type": "function_call_output", "call_id": "call_lost", "output": "18"}],
        )
    assert lost.value.body["type"] == "invalid_request_error"
    one = _outputs(first, {"Paris": "18", "Tokyo": "24"})[:1]
    with pytest.raises(openai.BadRequestError, match="No tool output found for function call call_"):
        client.responses.create(model="wirelab-offline", previous_response_id=first.id, input=one)


def test_reasoning_items_must_be_passed_back_with_their_calls(client):
    first = client.responses.create(
        model="wirelab-offline", input=ASK, tools=[TOOL], reasoning={"effort": "low"}, store=False
    )
    assert first.output[0].type == "reasoning"
    results = {"Paris": "18", "Tokyo": "24"}
    calls = [item.model_dump(exclude_none=True) for item in first.output if item.type == "function_call"]
    with pytest.raises(openai.BadRequestError, match="without its required 'reasoning' item"):
        client.responses.create(
            model="wirelab-offline",
            input=[{"role": "user", "content": ASK}, *calls, *_outputs(first, results)],
            tools=[TOOL],
        )
    every = [item.model_dump(exclude_none=True) for item in first.output]
    ok = client.responses.create(
        model="wirelab-offline",
        input=[{"role": "user", "content": ASK}, *every, *_outputs(first, results)],
        tools=[TOOL],
    )
    assert "24" in ok.output_text


def test_tool_choice_forces_a_function_or_none(client):
    forced = client.responses.create(
        model="wirelab-offline",
        input="hello",
        tools=[TOOL],
        tool_choice={"type": "function", "name": "get_weather"},
    )
    assert forced.output[0].type == "function_call"
    none = client.responses.create(model="wirelab-offline", input=ASK, tools=[TOOL], tool_choice="none")
    assert [item.type for item in none.output] == ["message"]


def test_streaming_follows_the_real_event_sequence(client):
    with client.responses.stream(model="wirelab-offline", input=ASK, tools=[TOOL]) as stream:
        kinds = [event.type for event in stream]
        final = stream.get_final_response()
    assert kinds[:2] == ["response.created", "response.in_progress"] and kinds[-1] == "response.completed"
    assert (
        kinds.count("response.output_item.added") == 2 == kinds.count("response.function_call_arguments.done")
    )
    assert kinds.count("response.function_call_arguments.delta") > 2
    assert [json.loads(item.arguments)["city"] for item in final.output] == ["Paris", "Tokyo"]


def test_bad_input_gets_openais_error_shape(client):
    with pytest.raises(openai.BadRequestError) as error:
        client.responses.create(model="wirelab-offline", input=[{"type": "web_search_call"}])
    assert set(error.value.body) == {"message", "type", "param", "code"}
    with pytest.raises(openai.BadRequestError) as schema:
        client.responses.create(
            model="wirelab-offline", input="hi", tools=[{**TOOL, "parameters": {"type": "banana"}}]
        )
    assert schema.value.body["param"] == "tools[0].parameters"
