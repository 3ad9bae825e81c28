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
from wirelab.edition import say
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
        say(
            f"execute_call returned {type(got).__name__}: a tool message's "
            "content is a string, so return json.dumps(result)",
            f"execute_call 返回的是 {type(got).__name__}：tool 消息的 content 是字符串，"
            "所以要返回 json.dumps(result)",
        ),
    )
    expect(
        json.loads(got) == get_weather("Oslo"),
        say(
            f"execute_call returned {got!r}: "
            "run functions[call['function']['name']] with the parsed arguments",
            f"execute_call 返回了 {got!r}：应当用解析后的参数运行 functions[call['function']['name']]",
        ),
    )
    for call, functions, why in [
        (
            _call("get_news", "{}"),
            FUNCTIONS,
            say("a call to a tool that does not exist", "调用不存在的工具时"),
        ),
        (
            _call("get_weather", '{"city": "Oslo"'),
            FUNCTIONS,
            say("arguments that are not JSON", "参数不是 JSON 时"),
        ),
        (
            _call("get_weather", '{"town": "Oslo"}'),
            FUNCTIONS,
            say("an argument the function does not take", "传入函数不接受的参数时"),
        ),
        (
            _call("get_weather", '{"city": "Oslo"}'),
            {"get_weather": _broken},
            say("a tool that raises", "工具抛出异常时"),
        ),
    ]:
        try:
            got = execute_call(call, functions)
        except NotImplementedError as e:
            raise CheckFailed(
                say(f"execute_call is not written yet. Hint: {e}", f"execute_call 还没有写。提示：{e}")
            ) from None
        except Exception as e:
            raise CheckFailed(
                say(
                    f"for {why}, execute_call raised {type(e).__name__}: {e}. Return a JSON error such as "
                    '{"error": "..."} instead: the model can read it and recover, the loop goes on',
                    f"{why}，execute_call 抛出了 {type(e).__name__}：{e}。应当改为返回 JSON 错误，例如 "
                    '{"error": "..."}：模型能读懂它并自行纠正，循环也能继续',
                )
            ) from None
        error = json.loads(got).get("error") if isinstance(got, str) and got.startswith("{") else None
        expect(
            isinstance(error, str) and error,
            say(
                f'for {why}, execute_call returned {got!r}: return json.dumps({{"error": "..."}}) '
                "with a message that says what went wrong",
                f'{why}，execute_call 返回了 {got!r}：应当返回 json.dumps({{"error": "..."}})，'
                "错误信息要说清楚哪里出了问题",
            ),
        )
    passed(
        say(
            "execute_call runs known tools and reports every failure as a JSON error the model can read",
            "execute_call 能运行已知工具，并把每种失败都报告为模型读得懂的 JSON 错误",
        )
    )


def _broken(city: str) -> dict:
    raise ConnectionError("weather service unreachable")


class _CountedClient:
    """A client that counts its requests, notes their model and stream flag, and stops a loop past `limit`."""

    def __init__(self, llm: Any, limit: int) -> None:
        self._llm, self._limit, self.requests, self.streamed, self.models = llm, limit, 0, [], []
        self.chat = self.completions = self

    def create(self, **request: Any) -> Any:
        self.requests += 1
        self.streamed.append(bool(request.get("stream")))
        self.models.append(request.get("model"))
        _check_pairing(request.get("messages") or [])
        expect(
            self.requests <= self._limit,
            say(
                f"run_streaming_loop(..., max_steps={self._limit}) made more "
                f"than {self._limit} requests: count them and stop at max_steps",
                f"run_streaming_loop(..., max_steps={self._limit}) 发出了超过 {self._limit} 个请求："
                "请计数，到 max_steps 就停下",
            ),
        )
        return self._llm.chat.completions.create(**request)


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
            say(
                f"a tool result answers {answer!r} before the assistant message that asked for it: append "
                "the assistant message (with its tool_calls) first, then one tool message per call",
                f"回答 {answer!r} 的工具结果出现在发起这个调用的 assistant 消息之前：应当先追加 assistant "
                "消息（带上它的 tool_calls），再为每个调用追加一条 tool 消息",
            ),
        )
        answered.append(answer)
    _expect_each_answered(asked, answered)


def _expect_each_answered(asked: list[str], answered: list[str]) -> None:
    twice = [i for i in dict.fromkeys(answered) if answered.count(i) > 1]
    missing = [i for i in asked if i not in answered]
    if twice and missing:
        raise CheckFailed(
            say(
                f"two results answer {twice[0]!r}; {missing[0]!r} got none: give each tool message "
                "the tool_call_id of its own call (call['id'] of the call it ran)",
                f"有两条结果都回答 {twice[0]!r}，而 {missing[0]!r} 没有结果：每条 tool 消息的 "
                "tool_call_id 应当是它所执行的那个调用的 call['id']",
            )
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
        raise CheckFailed(
            say(
                f"accumulate_message is not written yet. Hint: {e}", f"accumulate_message 还没有写。提示：{e}"
            )
        ) from None
    except Exception as e:
        raise CheckFailed(
            say(
                f"accumulate_message raised {type(e).__name__}: {e}; {why}",
                f"accumulate_message 抛出了 {type(e).__name__}：{e}；{why}",
            )
        ) from None


def _guards() -> str:
    return say(
        "after its first fragment a call's function.name (or a first fragment's arguments) "
        'is None: add `or ""`',
        '调用的第一个片段之后，function.name（以及第一个片段的 arguments）可能是 None：加上 `or ""`',
    )


def _compare(got: Any, want: dict[str, Any], stream: str) -> None:
    """Name the first way `got` differs from the package's message for the same chunks."""
    expect(
        isinstance(got, dict),
        say(
            f"for {stream} accumulate_message returned {got!r}: return a message dict",
            f"对于{stream}，accumulate_message 返回了 {got!r}：应当返回一个消息 dict",
        ),
    )
    calls = [c.get("id") for c in got.get("tool_calls") or [] if isinstance(c, dict)]
    expect(
        not want.get("tool_calls") or calls == [c["id"] for c in want["tool_calls"]],
        say(
            f"for {stream} the calls' ids were {calls}: later fragments carry id None, so keep the id "
            "of the first fragment (part.id or call['id'])",
            f"对于{stream}，调用的 id 是 {calls}：后续片段的 id 是 None，所以要保留第一个片段的 id"
            "（part.id or call['id']）",
        ),
    )
    expect(
        not (want["content"] is None and got.get("content") == ""),
        say(
            f"for {stream} accumulate_message gave content '' where no text came: a message without "
            "text has content None, not an empty string (join the text, then None if it is empty)",
            f"对于{stream}，没有文本时 accumulate_message 给出了 content ''：没有文本的消息，content "
            "是 None 而不是空字符串（先拼接文本，为空时改成 None）",
        ),
    )
    expect(
        "tool_calls" in want or got.get("tool_calls", "absent") == "absent",
        say(
            f'for {stream} accumulate_message gave "tool_calls": {got.get("tool_calls")!r} although no '
            'call came: leave the "tool_calls" key out of a message without calls',
            f'对于{stream}，没有任何调用，accumulate_message 却给出了 "tool_calls": '
            f'{got.get("tool_calls")!r}：没有调用的消息不要带 "tool_calls" 键',
        ),
    )
    expect(
        got.get("content") == want["content"] and ("tool_calls" in got) == ("tool_calls" in want),
        say(
            f"for {stream} accumulate_message gave content {got.get('content')!r} and tool_calls "
            f"{got.get('tool_calls', 'absent')!r}: content is the joined text or None when there is "
            'none, and "tool_calls" is there only when there are calls',
            f"对于{stream}，accumulate_message 给出的 content 是 {got.get('content')!r}，tool_calls 是 "
            f"{got.get('tool_calls', 'absent')!r}：content 是拼接起来的文本，没有文本时为 None；"
            '只有存在调用时才有 "tool_calls"',
        ),
    )
    expect(
        got == want,
        say(
            f"for {stream} accumulate_message gave {got}, expected {want}: key the calls by part.index, "
            'concatenate the argument fragments, and shape each as {"id", "type": "function", '
            '"function": {"name", "arguments"}}',
            f"对于{stream}，accumulate_message 给出了 {got}，应为 {want}：按 part.index 归并调用，"
            '拼接参数片段，每个调用的形状是 {"id", "type": "function", "function": {"name", "arguments"}}',
        ),
    )


@exercise
def check_accumulate_message(accumulate_message: Any, llm: Any) -> None:
    chunks = list(
        llm.chat.completions.create(model=model_name(), messages=QUESTION, tools=TOOLS, stream=True)
    )
    guards = _guards()
    model_stream = say("the model's stream", "模型的流式响应")
    _compare(_joined(accumulate_message, chunks, guards), accumulate_stream(chunks), model_stream)
    text = list(llm.chat.completions.create(model=model_name(), messages=QUESTION, stream=True))
    text_only = say("a text-only stream", "只有文本的流式响应")
    _compare(_joined(accumulate_message, text, guards), accumulate_stream(text), text_only)
    stream = PROVIDER_STREAM
    got = _joined(accumulate_message, stream, guards)
    interleaved = say(
        "a stream of two interleaved calls after some text", "先有文本、再有两个交错调用的流式响应"
    )
    _compare(got, accumulate_stream(stream), interleaved)
    _joined(
        accumulate_message,
        [*stream, USAGE_CHUNK],
        say(
            "the last chunk of a stream may have no choices (it carries the usage): skip it",
            "流的最后一个块可能没有 choices（它携带的是 usage）：跳过它",
        ),
    )
    passed(
        say(
            "accumulate_message joins text and interleaved call fragments, None pieces and all",
            "accumulate_message 能拼接文本和交错的调用片段，None 片段也处理得当",
        )
    )


@exercise
def check_run_streaming_loop(run_streaming_loop: Any, llm: Any) -> None:
    reference = run_tool_loop(llm, QUESTION, REGISTRY, model=model_name())
    question = [{"role": "user", "content": ASK}]
    counted = _CountedClient(llm, limit=10)
    got = attempt(run_streaming_loop, counted, question, TOOLS, FUNCTIONS, model=model_name())
    expect(
        isinstance(got, tuple) and len(got) == 2,
        say(
            "run_streaming_loop must return (answer, messages)",
            "run_streaming_loop 必须返回 (answer, messages)",
        ),
    )
    expect(
        all(counted.streamed),
        say(
            f"the requests' stream flags were {counted.streamed}: ask with stream=True and join the "
            "chunks with accumulate_message",
            f"各请求的 stream 标志是 {counted.streamed}："
            "请用 stream=True 发请求，再用 accumulate_message 拼接各个块",
        ),
    )
    answer, messages = got
    roles = [m["role"] if isinstance(m, dict) else m.role for m in messages]
    expect(
        roles == ["user", "assistant", "tool", "tool", "assistant"],
        say(
            f"the messages' roles were {roles}: append the assistant message, then one tool "
            "message per call, then ask again",
            f"消息的角色依次是 {roles}：先追加 assistant 消息，再为每个调用追加一条 tool 消息，然后再次请求",
        ),
    )
    calls = messages[1].get("tool_calls", []) if isinstance(messages[1], dict) else []
    ids = [m.get("tool_call_id") for m in messages[2:4]]
    asked = [c.get("id") for c in calls]
    expect(
        ids == asked and all(ids),
        say(
            f"the tool messages answer ids {ids}, the assistant asked {asked}: "
            "give each tool message the tool_call_id of its call",
            f"tool 消息回答的 id 是 {ids}，assistant 请求的是 {asked}："
            "每条 tool 消息都要带上对应调用的 tool_call_id",
        ),
    )
    expect(
        answer == reference.answer,
        say(
            f"the answer was {answer!r}, expected {reference.answer!r}",
            f"回答是 {answer!r}，应为 {reference.answer!r}",
        ),
    )
    expect(
        len(question) == 1,
        say(
            "run_streaming_loop changed the caller's list: copy it with list(messages)",
            "run_streaming_loop 修改了调用方的列表：请先用 list(messages) 复制一份",
        ),
    )
    endless, faulty = _CountedClient(llm, limit=3), f"{model_name()}/endless_calls"
    ask = [{"role": "user", "content": ASK}]
    stopped = attempt(run_streaming_loop, endless, ask, TOOLS, FUNCTIONS, model=faulty, max_steps=3)
    sent = sorted({str(m) for m in endless.models})
    expect(
        sent == [faulty],
        say(
            f"run_streaming_loop was given model={faulty!r} and its requests named {sent}: "
            "send each request to the model the caller gave (model=model)",
            f"run_streaming_loop 收到的是 model={faulty!r}，它的请求用的却是 {sent}："
            "每个请求都要发给调用方指定的模型（model=model）",
        ),
    )
    expect(
        stopped[0] is None and endless.requests == 3,
        say(
            f"with a model that never stops calling tools, run_streaming_loop made {endless.requests} "
            f"requests and returned {stopped[0]!r}: make at most max_steps requests, then return "
            "(None, messages)",
            f"面对一个不停调用工具的模型，run_streaming_loop 发出了 {endless.requests} 个请求并返回了 "
            f"{stopped[0]!r}：最多发出 max_steps 个请求，然后返回 (None, messages)",
        ),
    )
    passed(
        say(
            "run_streaming_loop streams each step, pairs each result with its call, stops at max_steps",
            "run_streaming_loop 每一步都用流式请求，每个结果都配对到它的调用，并在 max_steps 处停下",
        )
    )
