"""Checks for lab 17: the loop written once, and the adapters for the Responses, Messages and
Gemini formats, run against the offline model.

Each check hands the learner's code results in an order other than the calls' (so a result
paired by position is caught) and an error result (so a dropped `is_error` is caught).
"""

from __future__ import annotations

import json
from typing import Any

import anthropic
import httpx2
import openai

from wirelab.check import CheckFailed, attempt, exercise, expect, passed
from wirelab.edition import say
from wirelab.formats import ChatCompletions, Gemini, Messages, Responses, ToolCall, ToolResult, execute
from wirelab.tools import ToolRegistry

WEATHER = {"Paris": {"temp_c": 18, "sky": "cloudy"}, "Tokyo": {"temp_c": 24, "sky": "clear"}}
QUESTION = "What is the weather in Paris and in Reykjavik?"


def get_weather(city: str) -> dict:
    """Current weather for a city.

    Args:
        city: City name, e.g. "Paris".
    """
    if city not in WEATHER:
        raise KeyError(f"no weather station in {city}")
    return {"city": city, **WEATHER[city]}


REGISTRY = ToolRegistry([get_weather])


def _first_turn(adapter: Any) -> tuple[list[Any], list[dict[str, Any]], Any]:
    tools = adapter.tools(REGISTRY)
    history = adapter.start(QUESTION)
    return history, tools, adapter.send(history, tools)


def _results(calls: list[ToolCall]) -> list[ToolResult]:
    """The calls' results in *reverse* order, as calls finishing at different times may come back."""
    return list(reversed(execute(calls, REGISTRY)))


def _loop_answer(run_loop: Any, adapter: Any) -> Any:
    """The learner's loop run with `adapter`; a request the API refuses is named as such."""

    def run_it() -> Any:
        try:
            return run_loop(adapter, QUESTION, REGISTRY)
        except (openai.APIStatusError, anthropic.APIStatusError, httpx2.HTTPStatusError) as error:
            raise CheckFailed(
                say(
                    f"with the {adapter.name} adapter the API refused a request ({error}): every request "
                    "must hold the reply that made the calls (add_reply) before their results (add_results)",
                    f"用 {adapter.name} 适配器时 API 拒绝了一个请求（400）：每个请求里，"
                    "带调用的回复（add_reply）必须排在这些调用的结果（add_results）之前",
                )
            ) from None

    run_it.__name__ = getattr(run_loop, "__name__", "run_loop")
    return attempt(run_it)


@exercise
def check_loop(run_loop: Any) -> None:
    for adapter in (ChatCompletions(), Responses(), Messages(), Gemini()):
        answer = _loop_answer(run_loop, adapter)
        expect(
            isinstance(answer, str),
            say(
                f"with the {adapter.name} adapter run_loop returned {answer!r}: return the model's "
                "final text, adapter.text(reply), once a reply has no calls",
                f"用 {adapter.name} 适配器时 run_loop 返回了 {answer!r}：当回复里没有调用时，"
                "返回模型最后的文字 adapter.text(reply)",
            ),
        )
        expect(
            "18" in answer and "Reykjavik" in answer,
            say(
                f"with the {adapter.name} adapter the answer {answer!r} does not report both results: "
                "run the calls, add the reply and then the results to the history, and send again",
                f"用 {adapter.name} 适配器时答案 {answer!r} 没有报告两个结果：执行调用，把回复和结果"
                "依次加入历史，再发送一次",
            ),
        )
    passed(say("run_loop answers in all four formats", "run_loop 在四种格式下都给出了答案"))


@exercise
def check_responses(adapter_class: Any) -> None:
    adapter = adapter_class()
    history, tools, reply = _first_turn(adapter)
    calls = attempt(adapter.calls, reply)
    items = [item for item in reply.output if item.type == "function_call"]
    expect(
        [call.id for call in calls] == [item.call_id for item in items],
        say(
            f"calls() gave the ids {[c.id for c in calls]}: a lost call_id. Use each function_call item's "
            f"call_id ({items[0].call_id!r}), not its id ({items[0].id!r}), which names the item",
            f"calls() 给出的 id 是 {[c.id for c in calls]}：丢了 call_id。要用每个 function_call 项的 "
            f"call_id（{items[0].call_id!r}），不是它的 id（{items[0].id!r}，那是这一项的名字）",
        ),
    )
    expect(
        [call.arguments for call in calls] == [json.loads(item.arguments) for item in items],
        say(
            "calls() must parse each item's arguments (a JSON string) into a dict",
            "calls() 要把每一项的 arguments（JSON 字符串）解析成 dict",
        ),
    )
    attempt(adapter.add_reply, history, reply)
    kinds = [item.get("type") for item in history if isinstance(item, dict)]
    expect(
        "reasoning" in kinds,
        say(
            "add_reply() did not pass the reasoning item back: add every output item of the reply "
            "(reasoning items too) to the history, or a reasoning model refuses the calls",
            "add_reply() 没有把 reasoning 项传回：要把回复的每个输出项（包括 reasoning 项）都加入历史，"
            "否则推理模型会拒绝这些调用",
        ),
    )
    results = _results(calls)
    before = len(history)
    attempt(adapter.add_results, history, calls, results)
    outputs = history[before:]
    _expect_paired(
        {o.get("call_id"): o.get("output") for o in outputs},
        {r.call_id: r.content for r in results},
        "call_id",
    )
    final = adapter.send(history, tools)
    expect(
        "failed" in final.output_text,
        say(
            'the error result did not reach the model as an error: put {"error": …} in its output',
            '错误结果没有以错误的形式到达模型：在 output 里写 {"error": …}',
        ),
    )
    passed(
        say(
            "the Responses adapter pairs by call_id and passes reasoning back",
            "Responses 适配器按 call_id 配对，并传回了 reasoning 项",
        )
    )


def _expect_paired(sent: dict[Any, Any], wanted: dict[Any, str], key: str) -> None:
    """Each result sent under a call's id carries that call's result."""
    for call_id, content in wanted.items():
        got = sent.get(call_id)
        shown = got if isinstance(got, str) else json.dumps(got)
        expect(
            call_id in sent,
            say(
                f"no result was sent with {key} {call_id!r}: a lost id. Send each result under its call's id",
                f"没有带 {key} {call_id!r} 的结果：id 丢了。每个结果都要带上它那次调用的 id",
            ),
        )
        expect(
            content in shown or json.dumps(content)[1:-1] in shown,
            say(
                f"the result sent with {key} {call_id!r} is {shown!r}, the result of another call: a result "
                "paired by position. Results may come back in any order; pair each one by its call_id",
                f"带 {key} {call_id!r} 发送的结果是 {shown!r}，那是另一个调用的结果：按位置配对了。"
                "结果可能以任意顺序返回，要按 call_id 配对",
            ),
        )


def _results_added(adapter_class: Any) -> tuple[Any, list, list, list, list, list]:
    """A new adapter's first turn, its reply and calls, and the results handed to `add_results`:
    (adapter, history, tools, calls, results, the messages `add_results` added)."""
    adapter = adapter_class()
    history, tools, reply = _first_turn(adapter)
    adapter.add_reply(history, reply)
    calls = adapter.calls(reply)
    results = _results(calls)
    before = len(history)
    attempt(adapter.add_results, history, calls, results)
    return adapter, history, tools, calls, results, history[before:]


@exercise
def check_messages(adapter_class: Any) -> None:
    adapter, history, tools, calls, results, added = _results_added(adapter_class)
    expect(
        len(added) == 1,
        say(
            f"add_results() added {len(added)} messages: a tool_result sent as its own user message. "
            "Put every tool_result of one reply into ONE user message",
            f"add_results() 加了 {len(added)} 条消息：每个 tool_result 单独成了一条 user 消息。"
            "一次回复的所有 tool_result 要放进同一条 user 消息",
        ),
    )
    message = added[0]
    blocks = message.get("content") if isinstance(message, dict) else None
    expect(
        message.get("role") == "user" and isinstance(blocks, list),
        say(
            "the results go in a message with role 'user' and a list of blocks as content",
            "结果放在 role 为 'user'、content 为块列表的消息里",
        ),
    )
    expect(
        all(block.get("type") == "tool_result" for block in blocks[: len(results)]),
        say(
            "tool_result blocks come first in the user message, before any text",
            "tool_result 块要排在 user 消息的最前面，在任何文字之前",
        ),
    )
    sent = {b.get("tool_use_id"): b.get("content") for b in blocks}
    _expect_paired(sent, {r.call_id: r.content for r in results}, "tool_use_id")
    failed = next(r for r in results if r.is_error)
    block = next(b for b in blocks if b.get("tool_use_id") == failed.call_id)
    expect(
        block.get("is_error") is True,
        say(
            f"the tool_result for {failed.call_id!r} holds an error but is_error was dropped: set "
            '"is_error": True, or the model reads the error text as a value',
            f'{failed.call_id!r} 的 tool_result 是一个错误，但丢了 is_error：要设 "is_error": True，'
            "否则模型会把错误文字当成值",
        ),
    )
    final = adapter.send(history, tools)
    expect(
        "failed" in adapter.text(final),
        say("the model did not read the error as an error", "模型没有把错误读成错误"),
    )
    passed(
        say(
            "the Messages adapter sends every result in one user message, errors flagged",
            "Messages 适配器把所有结果放进一条 user 消息，并标出了错误",
        )
    )


@exercise
def check_gemini(adapter_class: Any) -> None:
    adapter, history, tools, calls, results, added = _results_added(adapter_class)
    expect(
        len(added) == 1 and added[0].get("role") == "user",
        say(
            "add_results() must add ONE turn with role 'user' holding every functionResponse part",
            "add_results() 要加一个 role 为 'user' 的回合，里面放所有 functionResponse 部分",
        ),
    )
    parts = [part.get("functionResponse", {}) for part in added[0].get("parts", [])]
    expect(
        [part.get("name") for part in parts] == [call.name for call in calls],
        say(
            "each functionResponse names its function, in the order of the calls",
            "每个 functionResponse 都要写上函数名，顺序与调用一致",
        ),
    )
    for call, part in zip(calls, parts, strict=True):
        result = next(r for r in results if r.call_id == call.id)
        response = part.get("response")
        expect(
            isinstance(response, dict),
            say(
                f"a functionResponse's response must be an object, not {response!r}",
                f"functionResponse 的 response 必须是对象，不能是 {response!r}",
            ),
        )
        expect(
            "error" in response if result.is_error else json.loads(result.content) == response,
            say(
                f"the response for call {call.id!r} is {response!r}: "
                + (
                    "an error result needs an 'error' member"
                    if result.is_error
                    else "it is another call's result, a result paired by position. Gemini pairs by name and "
                    "order, so write the responses in the order of the calls"
                ),
                f"调用 {call.id!r} 的 response 是 {response!r}："
                + (
                    "错误结果要有 'error' 成员"
                    if result.is_error
                    else "这是另一个调用的结果，按位置配对了。Gemini 按名称和顺序配对，"
                    "所以要按调用的顺序写 response"
                ),
            ),
        )
    passed(
        say(
            "the Gemini adapter answers each call by name, in order",
            "Gemini 适配器按名称、按顺序回答每个调用",
        )
    )
