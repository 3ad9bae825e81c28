"""POST /v1/messages, driven by the real `anthropic` SDK with `base_url` pointed at the offline model."""

import anthropic
import pytest

TOOL = {
    "name": "get_weather",
    "description": "Current weather for a city.",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}
ASK = [{"role": "user", "content": "What is the weather in Paris and in Tokyo?"}]


@pytest.fixture(scope="module")
def claude(server):
    return anthropic.Anthropic(base_url=server.base_url.removesuffix("/v1"), api_key="offline", max_retries=0)


def _create(claude, messages, **extra):
    return claude.messages.create(
        model="wirelab-offline", max_tokens=400, messages=messages, tools=[TOOL], **extra
    )


def _results(message, **extra):
    return [
        {"type": "tool_result", "tool_use_id": block.id, "content": f"{block.input['city']}: 18 C", **extra}
        for block in message.content
        if block.type == "tool_use"
    ]


def test_parallel_tool_use_blocks_with_stop_reason_tool_use(claude):
    message = _create(claude, ASK)
    assert message.stop_reason == "tool_use"
    assert [(b.type, b.input) for b in message.content] == [
        ("tool_use", {"city": "Paris"}),
        ("tool_use", {"city": "Tokyo"}),
    ]
    assert all(block.id.startswith("toolu_") for block in message.content)


def test_tool_results_in_the_next_user_message_get_an_answer(claude):
    message = _create(claude, ASK)
    done = _create(
        claude,
        [
            *ASK,
            {"role": "assistant", "content": message.content},
            {"role": "user", "content": _results(message)},
        ],
    )
    assert done.stop_reason == "end_turn" and "Tokyo: 18 C" in done.content[0].text


def test_is_error_reaches_the_model_as_an_error(claude):
    message = _create(claude, ASK)
    history = [*ASK, {"role": "assistant", "content": message.content}]
    failed = _create(claude, [*history, {"role": "user", "content": _results(message, is_error=True)}])
    plain = _create(claude, [*history, {"role": "user", "content": _results(message)}])
    assert "failed" in failed.content[0].text and "failed" not in plain.content[0].text


def test_each_result_in_its_own_user_message_is_refused(claude):
    message = _create(claude, ASK)
    first, second = _results(message)
    with pytest.raises(
        anthropic.BadRequestError, match="without `tool_result` blocks immediately after"
    ) as error:
        apart = [{"role": "user", "content": [first]}, {"role": "user", "content": [second]}]
        _create(claude, [*ASK, {"role": "assistant", "content": message.content}, *apart])
    assert (
        error.value.body["type"] == "error" and error.value.body["error"]["type"] == "invalid_request_error"
    )


def test_text_before_the_results_and_a_lost_id_are_refused(claude):
    message = _create(claude, ASK)
    history = [*ASK, {"role": "assistant", "content": message.content}]
    with pytest.raises(anthropic.BadRequestError, match="must come first"):
        _create(
            claude,
            [*history, {"role": "user", "content": [{"type": "text", "text": "here"}, *_results(message)]}],
        )
    lost = [{**result, "tool_use_id": "toolu_lost"} for result in _results(message)]
    with pytest.raises(anthropic.BadRequestError, match="unexpected `tool_use_id`"):
        _create(claude, [*history, {"role": "user", "content": lost}])


@pytest.mark.parametrize(
    ("choice", "first"),
    [
        ({"type": "none"}, "text"),
        ({"type": "any"}, "tool_use"),
        ({"type": "tool", "name": "get_weather"}, "tool_use"),
    ],
)
def test_tool_choice_none_any_and_tool(claude, choice, first):
    message = _create(claude, [{"role": "user", "content": "Hello there"}], tool_choice=choice)
    assert message.content[0].type == first


def test_disable_parallel_tool_use_makes_one_call(claude):
    message = _create(claude, ASK, tool_choice={"type": "auto", "disable_parallel_tool_use": True})
    assert [block.type for block in message.content] == ["tool_use"]


def test_streaming_sends_input_json_deltas_and_a_message_delta(claude):
    with claude.messages.stream(
        model="wirelab-offline", max_tokens=400, messages=ASK, tools=[TOOL]
    ) as stream:
        kinds = [event.type for event in stream]
        final = stream.get_final_message()
    assert kinds[0] == "message_start" and kinds[-1] == "message_stop" and "message_delta" in kinds
    assert kinds.count("content_block_start") == 2 and kinds.count("content_block_stop") == 2
    assert [block.input for block in final.content] == [{"city": "Paris"}, {"city": "Tokyo"}]
    assert final.stop_reason == "tool_use"


def test_bad_input_gets_anthropics_error_shape(claude):
    with pytest.raises(anthropic.BadRequestError) as error:
        claude.messages.create(
            model="wirelab-offline", max_tokens=10, messages=[{"role": "robot", "content": "x"}]
        )
    assert error.value.body == {
        "type": "error",
        "error": {
            "type": "invalid_request_error",
            "message": "messages.0.role: Input should be 'user' or 'assistant'",
        },
    }
    with pytest.raises(anthropic.NotFoundError):
        claude.messages.create(model="claude-of-nowhere", max_tokens=10, messages=ASK)
