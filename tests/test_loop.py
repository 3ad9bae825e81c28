"""The reference loop: execute calls, pair results by id, stop on an answer or at max_steps."""

import inspect
import json

from openai.types.chat import ChatCompletion, ChatCompletionChunk

from tests.test_import_graph import import_graph
from wirelab.errors import ToolError
from wirelab.loop import (
    accumulate_stream,
    execute_tool_call,
    parse_arguments,
    run_tool_loop,
)
from wirelab.tools import ToolRegistry


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def broken() -> str:
    """Always fails."""
    raise ZeroDivisionError("division by zero")


def refuse(city: str) -> str:
    """Reports a structured error."""
    raise ToolError("unknown_city", f"no city {city!r}", suggestion="Try 'Paris'.")


TOOLS = ToolRegistry([add, broken, refuse])


def call(name, arguments, call_id="call_1"):
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def completion(message, finish_reason):
    return ChatCompletion.model_validate(
        {
            "id": "chatcmpl-x",
            "object": "chat.completion",
            "created": 0,
            "model": "fake",
            "choices": [
                {"index": 0, "message": {"role": "assistant", **message}, "finish_reason": finish_reason}
            ],
        }
    )


class ScriptedClient:
    """Answers each request with the next scripted completion and records the requests."""

    def __init__(self, *replies):
        self.replies, self.requests = list(replies), []
        self.chat = self.completions = self

    def create(self, **request):
        self.requests.append(json.loads(json.dumps(request)))
        return self.replies.pop(0)


def test_arguments_arrive_as_a_json_string_and_are_parsed_to_a_dict():
    assert parse_arguments(call("add", '{"a": 1, "b": 2}')) == {"a": 1, "b": 2}


def test_each_kind_of_bad_call_becomes_a_structured_error_the_model_can_read():
    cases = {
        "unknown_tool": call("subtract", "{}"),
        "invalid_json": call("add", '{"a": 1,'),
        "invalid_arguments": call("add", '{"a": 1, "c": 2}'),
        "tool_failed": call("broken", "{}"),
        "unknown_city": call("refuse", '{"city": "Pariss"}'),
    }
    for code, bad in cases.items():
        error = json.loads(execute_tool_call(bad, TOOLS))["error"]
        assert error["code"] == code, (code, error)
        assert error["message"]


def test_an_unknown_tool_error_suggests_the_tools_that_exist():
    error = json.loads(execute_tool_call(call("subtract", "{}"), TOOLS))["error"]
    assert error["suggestion"] == "Use one of: add, broken, refuse."


def test_the_loop_appends_one_tool_message_per_call_paired_by_id_then_answers():
    client = ScriptedClient(
        completion(
            {
                "content": None,
                "tool_calls": [
                    call("add", '{"a": 2, "b": 3}', "call_a"),
                    call("add", '{"a": 1, "b": 1}', "call_b"),
                ],
            },
            "tool_calls",
        ),
        completion({"content": "5 and 2"}, "stop"),
    )
    result = run_tool_loop(client, [{"role": "user", "content": "add"}], TOOLS, model="fake")
    assert result.stop_reason == "answer" and result.answer == "5 and 2"
    tool_messages = [m for m in result.messages if m["role"] == "tool"]
    assert [(m["tool_call_id"], m["content"]) for m in tool_messages] == [("call_a", "5"), ("call_b", "2")]
    assert client.requests[1]["messages"][1]["tool_calls"][0]["id"] == "call_a"


def test_the_caller_names_the_model_and_the_loop_reads_no_configuration():
    """Any provider's client works: the model is a required argument, never the course's default."""
    model = inspect.signature(run_tool_loop).parameters["model"]
    assert model.kind is model.KEYWORD_ONLY and model.default is model.empty
    assert "wirelab.llm" not in import_graph()["wirelab.loop"]


def test_the_callers_message_list_is_not_modified():
    messages = [{"role": "user", "content": "hi"}]
    run_tool_loop(ScriptedClient(completion({"content": "hello"}, "stop")), messages, TOOLS, model="fake")
    assert messages == [{"role": "user", "content": "hi"}]


def test_the_max_steps_guard_stops_a_model_that_never_stops_calling_tools():
    looping = [
        completion({"tool_calls": [call("add", '{"a": 1, "b": 1}', f"call_{i}")]}, "tool_calls")
        for i in range(3)
    ]
    result = run_tool_loop(
        ScriptedClient(*looping), [{"role": "user", "content": "go"}], TOOLS, model="fake", max_steps=3
    )
    assert result.stop_reason == "max_steps" and result.answer is None
    assert result.turns == 3 and len(result.tool_calls) == 3


def test_every_step_is_reported_in_order_to_an_observer():
    client = ScriptedClient(
        completion({"tool_calls": [call("add", '{"a": 1, "b": 1}')]}, "tool_calls"),
        completion({"content": "2"}, "stop"),
    )
    steps = []
    run_tool_loop(
        client,
        [{"role": "user", "content": "go"}],
        TOOLS,
        model="fake",
        on_event=lambda e: steps.append(e.step),
    )
    assert steps == ["define", "send", "decide", "execute", "append", "send", "decide", "answer"]


def chunk(delta, finish_reason=None):
    return ChatCompletionChunk.model_validate(
        {
            "id": "chatcmpl-x",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": "fake",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
        }
    )


def test_streamed_tool_call_fragments_are_joined_by_index():
    chunks = [
        chunk({"role": "assistant"}),
        chunk(
            {
                "tool_calls": [
                    {
                        "index": 0,
                        "id": "call_a",
                        "type": "function",
                        "function": {"name": "add", "arguments": ""},
                    }
                ]
            }
        ),
        chunk(
            {
                "tool_calls": [
                    {
                        "index": 1,
                        "id": "call_b",
                        "type": "function",
                        "function": {"name": "add", "arguments": '{"a"'},
                    }
                ]
            }
        ),
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"a": 1, '}}]}),
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": '"b": 2}'}}]}),
        chunk({"tool_calls": [{"index": 1, "function": {"arguments": ': 3, "b": 4}'}}]}),
        chunk({}, "tool_calls"),
    ]
    message = accumulate_stream(chunks)
    assert message["content"] is None
    assert [(c["id"], json.loads(c["function"]["arguments"])) for c in message["tool_calls"]] == [
        ("call_a", {"a": 1, "b": 2}),
        ("call_b", {"a": 3, "b": 4}),
    ]


def test_streamed_text_is_joined_into_the_content():
    message = accumulate_stream([chunk({"content": "Hel"}), chunk({"content": "lo"}, "stop")])
    assert message["content"] == "Hello"
