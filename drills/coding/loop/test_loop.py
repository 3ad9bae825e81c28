"""Checks for the tool-call loop drill, run against the learner's file (see conftest.py)."""

import json
from itertools import count

import pytest

ADD = {
    "type": "function",
    "function": {
        "name": "add",
        "description": "Add two integers.",
        "parameters": {
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "required": ["a", "b"],
        },
    },
}


def call(call_id, name, arguments):
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def completion(content=None, calls=None):
    message = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = calls
    reason = "tool_calls" if calls else "stop"
    return {"choices": [{"index": 0, "finish_reason": reason, "message": message}]}


class ScriptedModel:
    """A fake model: returns the scripted completions in turn and records what it was sent."""

    def __init__(self, *replies):
        self.replies = list(replies)
        self.seen = []

    def __call__(self, messages, tools, **_):
        self.seen.append([dict(m) for m in messages])
        return self.replies.pop(0)


def add(a, b):
    return a + b


def test_a_text_answer_ends_the_loop_after_one_model_call(drill):
    model = ScriptedModel(completion("Hello."))
    answer, transcript = drill.run_loop(model, [{"role": "user", "content": "hi"}], [ADD], {"add": add})
    assert answer == "Hello."
    assert len(model.seen) == 1
    assert transcript == [{"role": "user", "content": "hi"}]


def test_a_tool_result_goes_back_with_the_id_of_its_call(drill):
    model = ScriptedModel(completion(calls=[call("call_7", "add", '{"a": 2, "b": 3}')]), completion("5"))
    answer, transcript = drill.run_loop(model, [{"role": "user", "content": "2+3?"}], [ADD], {"add": add})
    assert answer == "5"
    assert transcript[1]["tool_calls"][0]["id"] == "call_7", "append the assistant message first"
    assert transcript[2] == {"role": "tool", "tool_call_id": "call_7", "content": "5"}
    assert model.seen[1] == transcript, "the second model call must see the tool result"


def test_every_call_of_a_turn_is_answered_in_call_order(drill):
    calls = [call("a", "add", '{"a": 1, "b": 1}'), call("b", "add", '{"a": 2, "b": 2}')]
    model = ScriptedModel(completion(calls=calls), completion("done"))
    _, transcript = drill.run_loop(model, [], [ADD], {"add": add})
    assert [m["tool_call_id"] for m in transcript if m["role"] == "tool"] == ["a", "b"]
    assert [json.loads(m["content"]) for m in transcript if m["role"] == "tool"] == [2, 4]


@pytest.mark.parametrize(
    "bad_call",
    [call("x", "multiply", '{"a": 1}'), call("x", "add", '{"a": 1, "b":'), call("x", "add", '{"a": 1}')],
    ids=["unknown tool", "arguments not JSON", "function raises"],
)
def test_a_failing_call_becomes_an_error_result_and_the_loop_goes_on(drill, bad_call):
    model = ScriptedModel(completion(calls=[bad_call]), completion("sorry"))
    answer, transcript = drill.run_loop(model, [], [ADD], {"add": add})
    assert answer == "sorry"
    result = json.loads(transcript[-1]["content"])
    assert isinstance(result, dict) and result.get("error"), "report {'error': '...'}"


def test_a_model_that_never_answers_hits_the_step_limit(drill):
    ids = count()
    model = ScriptedModel(
        *[completion(calls=[call(f"c{next(ids)}", "add", '{"a": 0, "b": 0}')]) for _ in range(10)]
    )
    with pytest.raises(drill.StepLimitError):
        drill.run_loop(model, [], [ADD], {"add": add}, max_steps=3)
    assert len(model.seen) == 3


def test_the_callers_message_list_is_left_untouched(drill):
    history = [{"role": "user", "content": "2+3?"}]
    model = ScriptedModel(completion(calls=[call("c", "add", '{"a": 2, "b": 3}')]), completion("5"))
    drill.run_loop(model, history, [ADD], {"add": add})
    assert history == [{"role": "user", "content": "2+3?"}]
