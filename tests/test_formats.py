"""Lesson 17's loop runs through every format's adapter against the offline model: the real
`openai` client (Chat Completions, Responses), the real `anthropic` SDK, and Gemini's REST shape."""

import json

import pytest

from wirelab.formats import ChatCompletions, Gemini, Messages, Responses, ToolCall, ToolResult, run
from wirelab.tools import ToolRegistry

READINGS = {"Paris": {"temp_c": 18, "sky": "cloudy"}, "Tokyo": {"temp_c": 24, "sky": "clear"}}


def get_weather(city: str) -> dict:
    """Current weather for a city.

    Args:
        city: City name, e.g. "Paris".
    """
    return {"city": city, **READINGS[city]}


REGISTRY = ToolRegistry([get_weather])
ADAPTERS = [ChatCompletions, Responses, Messages, Gemini]


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
@pytest.mark.parametrize("adapter", ADAPTERS, ids=lambda a: a.name)
def test_the_loop_runs_parallel_calls_and_an_error_result_in_every_format(adapter, stream):
    made = run(adapter(), "What is the weather in Paris and in Reykjavik?", REGISTRY, stream=stream)
    assert [call.arguments for call in made.calls] == [{"city": "Paris"}, {"city": "Reykjavik"}]
    assert [result.is_error for result in made.results] == [False, True]
    assert made.steps == 2
    assert "18" in made.answer and "failed" in made.answer and "Reykjavik" in made.answer


def test_an_unmarked_error_is_read_as_a_value_so_the_flag_matters():
    class Unflagged(Messages):
        def add_results(self, history, calls, results):
            blocks = [
                {"type": "tool_result", "tool_use_id": r.call_id, "content": r.content} for r in results
            ]
            history.append({"role": "user", "content": blocks})

    made = run(Unflagged(), "What is the weather in Paris and in Reykjavik?", REGISTRY)
    assert "failed" not in made.answer


def test_responses_keeps_reasoning_items_in_the_history():
    made = run(Responses(), "What is the weather in Paris and in Tokyo?", REGISTRY)
    kinds = [item["type"] for item in made.history if "type" in item]
    assert kinds[:3] == ["reasoning", "function_call", "function_call"]


def test_gemini_answers_each_call_under_its_name_in_call_order():
    history: list = []
    calls = [ToolCall("0:a", "a", {}), ToolCall("1:b", "b", {})]
    results = [ToolResult("1:b", "b", '{"x": 2}'), ToolResult("0:a", "a", "boom", True)]
    Gemini(client=object(), base_url="http://unused").add_results(history, calls, results)
    parts = [part["functionResponse"] for part in history[0]["parts"]]
    assert parts == [{"name": "a", "response": {"error": "boom"}}, {"name": "b", "response": {"x": 2}}]


def test_chat_marks_an_error_inside_the_content():
    history: list = []
    ChatCompletions(client=object(), model="m").add_results(
        history, [], [ToolResult("c1", "f", "boom", True)]
    )
    assert history == [{"role": "tool", "tool_call_id": "c1", "content": json.dumps({"error": "boom"})}]


def test_the_wire_inspector_summarizes_each_formats_reply_by_its_calls():
    from wirelab.formats.clients import anthropic_client, http_client
    from wirelab.llm import client
    from wirelab.widgets.static import summarize

    adapters = [Responses(client()), Messages(anthropic_client()), Gemini(http_client())]
    for adapter in adapters:
        seen = []
        wire = adapter.client.wire
        unsubscribe = wire.subscribe(seen.append)
        adapter.send(adapter.start("What is the weather in Paris?"), adapter.tools(REGISTRY))
        unsubscribe()
        replies = [message for message in seen if message.sender == "server"]
        assert [summarize(message.payload) for message in replies] == [
            {"Responses": "function_call get_weather", "Messages": "tool_use get_weather"}.get(
                adapter.name, "functionCall get_weather"
            )
        ], adapter.name
