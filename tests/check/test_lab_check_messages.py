"""Lab checks name the mistake: each common wrong answer gets its own helpful message."""

import json

import pytest

from wirelab.check import CheckFailed
from wirelab.check.lesson00 import check_ask, check_token_usage
from wirelab.check.lesson01 import check_parse_tool_calls, check_weather_tool
from wirelab.check.lesson02 import check_accumulate, check_execute_call, check_run_loop
from wirelab.llm import client, model_name


@pytest.fixture(scope="module")
def llm():
    return client()


def fails_with(check, *args, match):
    with pytest.raises(CheckFailed, match=match):
        check(*args)


def test_returning_the_whole_response_instead_of_its_text_is_named(llm):
    def ask(llm, question):
        return llm.chat.completions.create(
            model=model_name(), messages=[{"role": "user", "content": question}]
        )

    fails_with(check_ask, ask, llm, match="return the reply's text")


def test_token_usage_in_the_wrong_order_is_caught(llm):
    fails_with(
        check_token_usage,
        lambda body: tuple(body["usage"][k] for k in ("completion_tokens", "prompt_tokens", "total_tokens")),
        llm,
        match="expected",
    )


def test_a_tool_spec_without_a_description_is_refused_before_the_model_sees_it(llm):
    spec = {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
    }
    fails_with(check_weather_tool, lambda: spec, llm, match="description")


def test_arguments_left_as_a_string_are_caught(llm):
    def parse(message):
        return [
            {"id": c.id, "name": c.function.name, "arguments": c.function.arguments}
            for c in message.tool_calls or []
        ]

    fails_with(check_parse_tool_calls, parse, llm, match="parsed to a dict")


def test_a_json_error_that_does_not_name_the_call_is_caught(llm):
    def parse(message):
        return [
            {"id": c.id, "name": c.function.name, "arguments": json.loads(c.function.arguments)}
            for c in message.tool_calls or []
        ]

    fails_with(check_parse_tool_calls, parse, llm, match="name the id")


def test_raising_on_an_unknown_tool_is_caught():
    def execute(call, functions):
        return json.dumps(functions[call.function.name](**json.loads(call.function.arguments)))

    fails_with(check_execute_call, execute, match="KeyError")


def loop(guard: bool, copy: bool):
    def run_loop(llm, messages, tools, functions, max_steps=5):
        messages = list(messages) if copy else messages
        step = 0
        while not guard or step < max_steps:
            step += 1
            message = (
                llm.chat.completions.create(model=model_name(), messages=messages, tools=tools)
                .choices[0]
                .message
            )
            messages.append(message.model_dump(exclude_none=True))
            if not message.tool_calls:
                return message.content, messages
            for call in message.tool_calls:
                result = functions[call.function.name](**json.loads(call.function.arguments))
                messages.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps(result)})
        return None, messages

    return run_loop


def test_a_loop_that_changes_the_callers_list_is_caught(llm):
    fails_with(check_run_loop, loop(guard=True, copy=False), llm, match="copy it")


def test_a_loop_without_a_guard_is_stopped_and_named_instead_of_hanging(llm):
    fails_with(check_run_loop, loop(guard=False, copy=True), llm, match="more than 3 requests")


def test_keeping_only_the_first_fragment_of_each_call_is_caught(llm):
    def accumulate(chunks):
        calls = {}
        for chunk in chunks:
            for part in chunk.choices[0].delta.tool_calls or []:
                calls.setdefault(
                    part.index,
                    {"id": part.id, "name": part.function.name, "arguments": part.function.arguments},
                )
        return list(calls.values())

    fails_with(check_accumulate, accumulate, llm, match="concatenate")
