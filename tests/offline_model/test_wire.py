"""The offline model speaks the Chat Completions wire format the real `openai` client parses."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys

import httpx2
import openai
import pytest

from tests.offline_model.conftest import WEATHER
from wirelab.offline_model import FAULTS, MODEL_ID, complete, create_app, serve, shared_server
from wirelab.offline_model.wire.wire_format import CREATED, FRAGMENT

CURRENCY = {
    "type": "function",
    "function": {
        "name": "convert_currency",
        "description": "Convert an amount of money between currencies.",
        "parameters": {
            "type": "object",
            "properties": {
                "amount": {"type": "number"},
                "source": {"type": "string"},
                "target": {"type": "string"},
            },
            "required": ["amount", "source", "target"],
        },
    },
}
TWO_CALLS = {
    "model": MODEL_ID,
    "tools": [WEATHER, CURRENCY],
    "messages": [{"role": "user", "content": "What's the weather in Paris and convert 20 EUR to USD"}],
}
HELLO = {"model": MODEL_ID, "messages": [{"role": "user", "content": "Hello there"}]}


def accumulate(chunks) -> dict:
    """Join streamed deltas the way a client must: text in order, calls by index."""
    content, calls = "", {}
    for chunk in chunks:
        for choice in chunk.choices:
            content += choice.delta.content or ""
            for part in choice.delta.tool_calls or []:
                call = calls.setdefault(part.index, {"id": None, "name": "", "arguments": ""})
                call["id"] = call["id"] or part.id
                call["name"] += part.function.name or ""
                call["arguments"] += part.function.arguments or ""
    return {"content": content, "calls": [calls[i] for i in sorted(calls)]}


def test_a_text_reply_parses_as_a_chat_completion(client):
    reply = client.chat.completions.create(**HELLO)
    assert reply.object == "chat.completion" and reply.id.startswith("chatcmpl-")
    assert reply.model == MODEL_ID and reply.created == CREATED
    choice = reply.choices[0]
    assert choice.finish_reason == "stop" and choice.message.role == "assistant"
    assert "not an LLM" in choice.message.content and choice.message.tool_calls is None


def test_tool_calls_carry_ids_and_arguments_as_json_text(client):
    reply = client.chat.completions.create(**TWO_CALLS)
    calls = reply.choices[0].message.tool_calls
    assert reply.choices[0].finish_reason == "tool_calls"
    assert [c.function.name for c in calls] == ["get_weather", "convert_currency"]
    assert all(c.id.startswith("call_") and c.type == "function" for c in calls)
    assert isinstance(calls[0].function.arguments, str)
    assert json.loads(calls[1].function.arguments) == {"amount": 20, "source": "EUR", "target": "USD"}


def test_usage_counts_prompt_and_completion_tokens(client):
    usage = client.chat.completions.create(**TWO_CALLS).usage
    assert usage.prompt_tokens > 0 and usage.completion_tokens > 0
    assert usage.total_tokens == usage.prompt_tokens + usage.completion_tokens


def test_a_streamed_reply_accumulates_to_the_same_tool_calls(client):
    whole = client.chat.completions.create(**TWO_CALLS).choices[0].message
    streamed = accumulate(client.chat.completions.create(**TWO_CALLS, stream=True))
    assert streamed["calls"] == [
        {"id": c.id, "name": c.function.name, "arguments": c.function.arguments} for c in whole.tool_calls
    ]


def test_a_streamed_text_reply_accumulates_to_the_same_text(client):
    whole = client.chat.completions.create(**HELLO).choices[0].message.content
    chunks = list(client.chat.completions.create(**HELLO, stream=True))
    assert accumulate(chunks)["content"] == whole and len(chunks) > 5


def test_a_stream_opens_with_the_role_and_ends_with_the_finish_reason(client):
    chunks = list(client.chat.completions.create(**TWO_CALLS, stream=True))
    assert all(c.object == "chat.completion.chunk" for c in chunks)
    assert chunks[0].choices[0].delta.role == "assistant"
    assert chunks[-1].choices[0].finish_reason == "tool_calls"
    assert [c.choices[0].finish_reason for c in chunks[:-1]] == [None] * (len(chunks) - 1)


def test_each_streamed_call_opens_with_its_name_then_sends_arguments_in_fragments(client):
    chunks = list(client.chat.completions.create(**TWO_CALLS, stream=True))
    parts = [p for c in chunks for p in c.choices[0].delta.tool_calls or []]
    first = parts[0]
    assert (first.index, first.type, first.function.name, first.function.arguments) == (
        0,
        "function",
        "get_weather",
        "",
    )
    fragments = [p for p in parts if p.id is None]
    assert len(fragments) > 2 and all(p.function.name is None for p in fragments)
    assert all(len(p.function.arguments) <= FRAGMENT for p in fragments)


def test_include_usage_adds_a_last_chunk_with_usage_and_no_choices(client):
    chunks = list(
        client.chat.completions.create(**TWO_CALLS, stream=True, stream_options={"include_usage": True})
    )
    assert chunks[-1].choices == [] and chunks[-1].usage.total_tokens > 0
    assert all(c.usage is None for c in chunks[:-1])


def test_the_event_stream_ends_with_done(client):
    with client.chat.completions.with_streaming_response.create(**HELLO, stream=True) as raw:
        lines = [line for line in raw.iter_lines() if line]
    assert lines[-1] == "data: [DONE]" and all(line.startswith("data: ") for line in lines)


def test_max_tokens_cuts_the_text_and_reports_length(client):
    full = client.chat.completions.create(**HELLO).choices[0]
    cut = client.chat.completions.create(**HELLO, max_tokens=5).choices[0]
    assert cut.finish_reason == "length" and full.message.content.startswith(cut.message.content)
    assert len(cut.message.content) < len(full.message.content)


def test_max_tokens_cuts_tool_call_arguments_mid_json(client):
    cut = client.chat.completions.create(**TWO_CALLS, max_completion_tokens=4).choices[0]
    assert cut.finish_reason == "length"
    with pytest.raises(json.JSONDecodeError):
        json.loads(cut.message.tool_calls[-1].function.arguments)


def test_the_same_request_gets_byte_identical_responses(client):
    first = client.chat.completions.with_raw_response.create(**TWO_CALLS).http_response.content
    second = client.chat.completions.with_raw_response.create(**TWO_CALLS).http_response.content
    assert first == second


def test_complete_is_the_pure_function_behind_the_endpoint(client):
    over_http = client.chat.completions.create(**TWO_CALLS).model_dump(exclude_unset=True)
    assert complete(TWO_CALLS) == over_http == complete(json.loads(json.dumps(TWO_CALLS)))


def test_a_different_request_gets_different_ids():
    other = {**TWO_CALLS, "messages": [{"role": "user", "content": "Weather in Rome?"}]}
    assert complete(other)["id"] != complete(TWO_CALLS)["id"]


def test_the_models_endpoint_lists_the_model_and_one_id_per_fault(client):
    ids = [model.id for model in client.models.list()]
    assert ids == [MODEL_ID, *(f"{MODEL_ID}/{fault}" for fault in FAULTS)]
    assert client.models.retrieve(f"{MODEL_ID}/unknown_tool").id == f"{MODEL_ID}/unknown_tool"


def test_retrieving_an_unknown_model_raises_not_found(client):
    with pytest.raises(openai.NotFoundError) as caught:
        client.models.retrieve("gpt-nothing")
    assert caught.value.body["code"] == "model_not_found"


def test_the_shared_server_is_one_per_process():
    assert shared_server() is shared_server()
    assert shared_server().base_url.startswith("http://127.0.0.1:")


def test_a_stopped_server_refuses_connections():
    server = serve()
    quick = openai.OpenAI(base_url=server.base_url, api_key="offline", max_retries=0, timeout=5)
    server.stop()
    with pytest.raises(openai.APIConnectionError):
        quick.chat.completions.create(**HELLO)


def test_the_async_client_talks_to_the_app_in_process():
    async def ask() -> tuple[list[str], dict]:
        http = httpx2.AsyncClient(
            transport=httpx2.ASGITransport(app=create_app()), base_url="http://offline/v1"
        )
        async with openai.AsyncOpenAI(
            http_client=http, base_url="http://offline/v1", api_key="offline"
        ) as aclient:
            whole = await aclient.chat.completions.create(**TWO_CALLS)
            streamed = [c async for c in await aclient.chat.completions.create(**TWO_CALLS, stream=True)]
        return [c.function.name for c in whole.choices[0].message.tool_calls], accumulate(streamed)

    names, streamed = asyncio.run(ask())
    assert names == [c["name"] for c in streamed["calls"]] == ["get_weather", "convert_currency"]


def test_python_dash_m_serves_the_model_in_the_foreground():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "wirelab.offline_model", "--port", str(port)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert f"http://127.0.0.1:{port}/v1" in process.stdout.readline()
        quick = openai.OpenAI(base_url=f"http://127.0.0.1:{port}/v1", api_key="offline", max_retries=8)
        assert quick.models.retrieve(MODEL_ID).id == MODEL_ID
    finally:
        process.terminate()
        process.wait(timeout=10)
        process.stdout.close()  # else the pipe is closed by the collector, with a ResourceWarning
