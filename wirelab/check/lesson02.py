"""Checks for lab 02: one call executed, the whole loop with its guard, streamed calls joined."""

from __future__ import annotations

import json
from typing import Any

from wirelab.check import attempt, expect, passed
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


def _call(name: str, arguments: str, call_id: str = "call_1") -> Any:
    from openai.types.chat import ChatCompletionMessageFunctionToolCall

    return ChatCompletionMessageFunctionToolCall.model_validate(
        {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
    )


def check_execute_call(execute_call: Any) -> None:
    got = attempt(execute_call, _call("get_weather", '{"city": "Oslo"}'), FUNCTIONS)
    expect(
        isinstance(got, str),
        f"execute_call returned {type(got).__name__}: a tool message's "
        "content is a string, so return json.dumps(result)",
    )
    expect(
        json.loads(got) == get_weather("Oslo"),
        f"execute_call returned {got!r}: run functions[call.function.name] with the parsed arguments",
    )
    unknown = attempt(execute_call, _call("get_news", "{}"), FUNCTIONS)
    expect(
        isinstance(unknown, str) and "error" in json.loads(unknown),
        "a call to a tool that does not exist must return a JSON error such as "
        '{"error": "unknown tool get_news"}, not raise: the model can read it and recover',
    )
    passed("execute_call runs known tools and reports unknown ones as a result")


class _ForcedModel:
    """A client whose requests all go to one model (here, a faulty one), up to a limit."""

    def __init__(self, llm: Any, model: str, limit: int) -> None:
        self._llm, self._model, self._limit, self.requests = llm, model, limit, 0
        self.chat = self.completions = self

    def create(self, **request: Any) -> Any:
        self.requests += 1
        expect(
            self.requests <= self._limit,
            f"run_loop(..., max_steps={self._limit}) made more "
            f"than {self._limit} requests: count them and stop at max_steps",
        )
        return self._llm.chat.completions.create(**{**request, "model": self._model})


def check_run_loop(run_loop: Any, llm: Any) -> None:
    reference = run_tool_loop(llm, QUESTION, REGISTRY)
    question = [{"role": "user", "content": ASK}]
    got = attempt(run_loop, llm, question, TOOLS, FUNCTIONS)
    expect(isinstance(got, tuple) and len(got) == 2, "run_loop must return (answer, messages)")
    answer, messages = got
    roles = [m["role"] if isinstance(m, dict) else m.role for m in messages]
    expect(
        roles == ["user", "assistant", "tool", "tool", "assistant"],
        f"the messages' roles were {roles}: append the assistant message, then one tool "
        "message per call, then ask again",
    )
    expect(answer == reference.answer, f"the answer was {answer!r}, expected {reference.answer!r}")
    expect(len(question) == 1, "run_loop changed the caller's list: copy it with list(messages) first")
    endless = _ForcedModel(llm, f"{model_name()}/endless_calls", limit=3)
    stopped = attempt(run_loop, endless, [{"role": "user", "content": ASK}], TOOLS, FUNCTIONS, max_steps=3)
    expect(
        stopped[0] is None and endless.requests == 3,
        f"with a model that never stops calling tools, run_loop made {endless.requests} requests "
        f"and returned {stopped[0]!r}: make at most max_steps requests, then return (None, messages)",
    )
    passed("run_loop answers, pairs each result with its call, and stops at max_steps")


def check_accumulate(accumulate: Any, llm: Any) -> None:
    chunks = list(
        llm.chat.completions.create(model=model_name(), messages=QUESTION, tools=TOOLS, stream=True)
    )
    want = [
        {"id": c["id"], "name": c["function"]["name"], "arguments": c["function"]["arguments"]}
        for c in accumulate_stream(chunks)["tool_calls"]
    ]
    got = attempt(accumulate, chunks)
    expect(
        got == want,
        f"accumulate gave {got}, expected {want}: key the calls by part.index and "
        "concatenate the argument fragments",
    )
    passed("accumulate joins streamed fragments into whole calls")
