"""Checks for lab 02: one call executed safely, a streamed message joined, the loop streaming.

The lesson's loop asks without streaming and its `accumulate` joins only the calls of the
model's own stream; the lab joins a whole message (text and calls) from streams as
providers send them, then runs the loop on streamed responses.
"""

from __future__ import annotations

import json
from typing import Any

from wirelab.check import CheckFailed, attempt, exercise, expect, passed
from wirelab.check.lesson01 import TOOLS
from wirelab.llm import model_name
from wirelab.loop import accumulate_stream, run_tool_loop
from wirelab.tools import Tool, ToolRegistry

ASK = "What is the weather in Paris and the time in Tokyo?"
QUESTION = [{"role": "user", "content": ASK}]


def get_weather(city: str) -> dict:
    return {"city": city, "temperature_c": 18, "sky": "cloudy"}


def get_time(city: str) -> dict:
    return {"city": city, "local_time": "14:05"}


FUNCTIONS = {"get_weather": get_weather, "get_time": get_time}
REGISTRY = ToolRegistry(
    [
        Tool(
            t["function"]["name"],
            t["function"]["description"],
            t["function"]["parameters"],
            FUNCTIONS[t["function"]["name"]],
        )
        for t in TOOLS
    ]
)


def _call(name: str, arguments: str, call_id: str = "call_1") -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


@exercise
def check_execute_call(execute_call: Any) -> None:
    got = attempt(execute_call, _call("get_weather", '{"city": "Oslo"}'), FUNCTIONS)
    expect(
        isinstance(got, str),
        f"execute_call returned {type(got).__name__}: a tool message's "
        "content is a string, so return json.dumps(result)",
    )
    expect(
        json.loads(got) == get_weather("Oslo"),
        f"execute_call returned {got!r}: run functions[call['function']['name']] with the parsed arguments",
    )
    for call, functions, why in [
        (_call("get_news", "{}"), FUNCTIONS, "a call to a tool that does not exist"),
        (_call("get_weather", '{"city": "Oslo"'), FUNCTIONS, "arguments that are not JSON"),
        (_call("get_weather", '{"town": "Oslo"}'), FUNCTIONS, "an argument the function does not take"),
        (_call("get_weather", '{"city": "Oslo"}'), {"get_weather": _broken}, "a tool that raises"),
    ]:
        try:
            got = execute_call(call, functions)
        except NotImplementedError as e:
            raise CheckFailed(f"execute_call is not written yet. Hint: {e}") from None
        except Exception as e:
            raise CheckFailed(
                f"for {why}, execute_call raised {type(e).__name__}: {e}. Return a JSON error such as "
                '{"error": "..."} instead: the model can read it and recover, the loop goes on'
            ) from None
        error = json.loads(got).get("error") if isinstance(got, str) and got.startswith("{") else None
        expect(
            isinstance(error, str) and error,
            f'for {why}, execute_call returned {got!r}: return json.dumps({{"error": "..."}}) '
            "with a message that says what went wrong",
        )
    passed("execute_call runs known tools and reports every failure as a JSON error the model can read")


def _broken(city: str) -> dict:
    raise ConnectionError("weather service unreachable")


class _ForcedModel:
    """A client that counts its requests, sends them to `model`, and stops a loop past `limit`."""

    def __init__(self, llm: Any, model: str, limit: int) -> None:
        self._llm, self._model, self._limit, self.requests, self.streamed = llm, model, limit, 0, []
        self.chat = self.completions = self

    def create(self, **request: Any) -> Any:
        self.requests += 1
        self.streamed.append(bool(request.get("stream")))
        _check_pairing(request.get("messages") or [])
        expect(
            self.requests <= self._limit,
            f"run_streaming_loop(..., max_steps={self._limit}) made more "
            f"than {self._limit} requests: count them and stop at max_steps",
        )
        return self._llm.chat.completions.create(**{**request, "model": self._model})


def _check_pairing(messages: list[Any]) -> None:
    """Name the first tool result that answers no call of the assistant message just before it.

    A result sent before its assistant message and one id reused for every result both get
    the same 400 from a provider; the learner needs to know which of the two it is.
    """
    asked: list[str] = []
    answered: list[str] = []
    for message in [m if isinstance(m, dict) else m.model_dump() for m in messages]:
        if message.get("role") != "tool":
            _expect_each_answered(asked, answered)
            asked, answered = [c.get("id") for c in message.get("tool_calls") or []], []
            continue
        answer = message.get("tool_call_id")
        expect(
            answer in asked,
            f"a tool result answers {answer!r} before the assistant message that asked for it: append "
            "the assistant message (with its tool_calls) first, then one tool message per call",
        )
        answered.append(answer)
    _expect_each_answered(asked, answered)


def _expect_each_answered(asked: list[str], answered: list[str]) -> None:
    twice = [i for i in dict.fromkeys(answered) if answered.count(i) > 1]
    missing = [i for i in asked if i not in answered]
    if twice and missing:
        raise CheckFailed(
            f"two results answer {twice[0]!r}; {missing[0]!r} got none: give each tool message "
            "the tool_call_id of its own call (call['id'] of the call it ran)"
        )


def _chunk(delta: dict[str, Any] | None, finish: str | None = None) -> Any:
    from openai.types.chat import ChatCompletionChunk

    choices = [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}]
    return ChatCompletionChunk.model_validate(
        {"id": "chunk", "object": "chat.completion.chunk", "created": 0, "model": "m", "choices": choices}
    )


def _part(index: int, **fields: Any) -> dict[str, Any]:
    return {"tool_calls": [{"index": index, **fields}]}


# Streams as providers send them: a name only in the first fragment (None after), a call whose
# first fragment has no arguments, two calls interleaved, text first, a last chunk with no choices.
PROVIDER_STREAM = [
    _chunk({"role": "assistant", "content": "Let me "}),
    _chunk({"content": "check."}),
    _chunk(_part(0, id="call_a", type="function", function={"name": "get_weather", "arguments": ""})),
    _chunk(_part(1, id="call_b", type="function", function={"name": "get_time"})),
    _chunk(_part(0, function={"arguments": '{"city": '})),
    _chunk(_part(1, function={"arguments": '{"city": "Tokyo"}'})),
    _chunk(_part(0, function={"arguments": '"Paris"}'})),
    _chunk({}, finish="tool_calls"),
]
USAGE_CHUNK = _chunk(None)


def _joined(accumulate_message: Any, chunks: list[Any], why: str) -> Any:
    try:
        return accumulate_message(chunks)
    except NotImplementedError as e:
        raise CheckFailed(f"accumulate_message is not written yet. Hint: {e}") from None
    except Exception as e:
        raise CheckFailed(f"accumulate_message raised {type(e).__name__}: {e}; {why}") from None


GUARDS = (
    "after its first fragment a call's function.name (or a first fragment's arguments) is None: add `or \"\"`"
)


def _compare(got: Any, want: dict[str, Any], stream: str) -> None:
    """Name the first way `got` differs from the package's message for the same chunks."""
    expect(isinstance(got, dict), f"for {stream} accumulate_message returned {got!r}: return a message dict")
    calls = [c.get("id") for c in got.get("tool_calls") or [] if isinstance(c, dict)]
    expect(
        not want.get("tool_calls") or calls == [c["id"] for c in want["tool_calls"]],
        f"for {stream} the calls' ids were {calls}: later fragments carry id None, so keep the id "
        "of the first fragment (part.id or call['id'])",
    )
    expect(
        not (want["content"] is None and got.get("content") == ""),
        f"for {stream} accumulate_message gave content '' where no text came: a message without "
        "text has content None, not an empty string (join the text, then None if it is empty)",
    )
    expect(
        "tool_calls" in want or got.get("tool_calls", "absent") == "absent",
        f'for {stream} accumulate_message gave "tool_calls": {got.get("tool_calls")!r} although no '
        'call came: leave the "tool_calls" key out of a message without calls',
    )
    expect(
        got.get("content") == want["content"] and ("tool_calls" in got) == ("tool_calls" in want),
        f"for {stream} accumulate_message gave content {got.get('content')!r} and tool_calls "
        f"{got.get('tool_calls', 'absent')!r}: content is the joined text or None when there is "
        'none, and "tool_calls" is there only when there are calls',
    )
    expect(
        got == want,
        f"for {stream} accumulate_message gave {got}, expected {want}: key the calls by part.index, "
        'concatenate the argument fragments, and shape each as {"id", "type": "function", '
        '"function": {"name", "arguments"}}',
    )


@exercise
def check_accumulate_message(accumulate_message: Any, llm: Any) -> None:
    chunks = list(
        llm.chat.completions.create(model=model_name(), messages=QUESTION, tools=TOOLS, stream=True)
    )
    _compare(_joined(accumulate_message, chunks, GUARDS), accumulate_stream(chunks), "the model's stream")
    text = list(llm.chat.completions.create(model=model_name(), messages=QUESTION, stream=True))
    _compare(_joined(accumulate_message, text, GUARDS), accumulate_stream(text), "a text-only stream")
    stream = PROVIDER_STREAM
    got = _joined(accumulate_message, stream, GUARDS)
    _compare(got, accumulate_stream(stream), "a stream of two interleaved calls after some text")
    _joined(
        accumulate_message,
        [*stream, USAGE_CHUNK],
        "the last chunk of a stream may have no choices (it carries the usage): skip it",
    )
    passed("accumulate_message joins text and interleaved call fragments, None pieces and all")


@exercise
def check_run_streaming_loop(run_streaming_loop: Any, llm: Any) -> None:
    reference = run_tool_loop(llm, QUESTION, REGISTRY)
    question = [{"role": "user", "content": ASK}]
    counted = _ForcedModel(llm, model_name(), limit=10)
    got = attempt(run_streaming_loop, counted, question, TOOLS, FUNCTIONS)
    expect(isinstance(got, tuple) and len(got) == 2, "run_streaming_loop must return (answer, messages)")
    expect(
        all(counted.streamed),
        f"the requests' stream flags were {counted.streamed}: ask with stream=True and join the "
        "chunks with accumulate_message",
    )
    answer, messages = got
    roles = [m["role"] if isinstance(m, dict) else m.role for m in messages]
    expect(
        roles == ["user", "assistant", "tool", "tool", "assistant"],
        f"the messages' roles were {roles}: append the assistant message, then one tool "
        "message per call, then ask again",
    )
    calls = messages[1].get("tool_calls", []) if isinstance(messages[1], dict) else []
    ids = [m.get("tool_call_id") for m in messages[2:4]]
    expect(
        ids == [c.get("id") for c in calls] and all(ids),
        f"the tool messages answer ids {ids}, the assistant asked {[c.get('id') for c in calls]}: "
        "give each tool message the tool_call_id of its call",
    )
    expect(answer == reference.answer, f"the answer was {answer!r}, expected {reference.answer!r}")
    expect(len(question) == 1, "run_streaming_loop changed the caller's list: copy it with list(messages)")
    endless = _ForcedModel(llm, f"{model_name()}/endless_calls", limit=3)
    stopped = attempt(
        run_streaming_loop, endless, [{"role": "user", "content": ASK}], TOOLS, FUNCTIONS, max_steps=3
    )
    expect(
        stopped[0] is None and endless.requests == 3,
        f"with a model that never stops calling tools, run_streaming_loop made {endless.requests} "
        f"requests and returned {stopped[0]!r}: make at most max_steps requests, then return "
        "(None, messages)",
    )
    passed("run_streaming_loop streams each step, pairs each result with its call, stops at max_steps")
