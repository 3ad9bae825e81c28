"""The tool-call loop of lesson 02, in six steps.

1. define   the tools the model may call (name, description, JSON Schema);
2. send     the messages and the tools to the model;
3. decide   the model answers in text, or asks for tool calls;
4. execute  each call: *your* code runs the function, never the model;
5. append   the assistant message, then one `role: tool` message per call,
            paired to it by `tool_call_id`, and go back to 2;
6. answer   when the model replies in text.

`run_tool_loop` is the reference version lessons after 02 reuse. A max-steps
guard stops a model that never stops calling tools. Streaming is supported:
tool-call arguments arrive in fragments and `accumulate_stream` joins them.
How the calls of one turn are executed is a parameter (`execute`), so lesson
04 can swap the sequential executor for a parallel one.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from wirelab.errors import ToolError
from wirelab.tools import ToolRegistry

Step = Literal["define", "send", "decide", "execute", "append", "answer"]
Message = dict[str, Any]
Executor = Callable[[Sequence[Message], ToolRegistry], list[str]]


@dataclass(frozen=True)
class LoopEvent:
    """One step of the loop, as it happens, for observers such as the loop stepper."""

    step: Step
    turn: int
    detail: dict[str, Any]
    messages: tuple[Message, ...]


@dataclass
class LoopResult:
    """What the loop ended with. `stop_reason` is "answer" or "max_steps"."""

    answer: str | None
    messages: list[Message]
    turns: int
    stop_reason: Literal["answer", "max_steps"]
    tool_calls: list[Message] = field(default_factory=list)


def parse_arguments(call: Message) -> dict[str, Any]:
    """The arguments of a tool call: a JSON *string* on the wire, an object here."""
    raw = call["function"].get("arguments") or "{}"
    try:
        arguments = json.loads(raw)
    except json.JSONDecodeError as e:
        raise ToolError(
            "invalid_json",
            f"arguments are not valid JSON ({e.msg} at char {e.pos})",
            suggestion="Send the arguments as one JSON object.",
        ) from e
    except (ValueError, RecursionError) as e:  # a 5,000-digit number, nesting too deep to read
        raise ToolError(
            "invalid_json",
            f"arguments cannot be read: {type(e).__name__}: {e}",
            suggestion="Send the arguments as one JSON object.",
        ) from e
    if not isinstance(arguments, dict):
        raise ToolError(
            "invalid_arguments",
            "arguments must be a JSON object",
            suggestion="Send the arguments as one JSON object.",
        )
    return arguments


def execute_tool_call(call: Message, tools: ToolRegistry) -> str:
    """Run one tool call and return the content of its `role: tool` message.

    Failures come back as structured errors (see `wirelab.errors`), never as
    exceptions: an unknown tool, arguments that are not JSON, wrong parameter
    names, or the tool raising.
    """
    name = call["function"]["name"]
    try:
        tool = tools.get(name)
        if tool is None:
            raise ToolError(
                "unknown_tool",
                f"there is no tool named {name!r}",
                suggestion=f"Use one of: {', '.join(tools.names)}.",
            )
        return _as_content(_invoke(tool, parse_arguments(call)))
    except ToolError as e:
        return e.content()


def _invoke(tool: Any, arguments: dict[str, Any]) -> Any:
    try:
        inspect.signature(tool.function).bind(**arguments)
    except TypeError as e:
        raise ToolError(
            "invalid_arguments", str(e), suggestion=f"Parameters: {', '.join(tool.parameters['properties'])}."
        ) from e
    try:
        return tool(**arguments)
    except ToolError:
        raise
    except Exception as e:  # a tool's bug is reported to the model, not raised into the loop
        raise ToolError("tool_failed", f"{type(e).__name__}: {e}") from e


def _as_content(result: Any) -> str:
    return result if isinstance(result, str) else json.dumps(result, ensure_ascii=False, default=str)


def execute_sequentially(calls: Sequence[Message], tools: ToolRegistry) -> list[str]:
    """Run the calls one after another; results in call order."""
    return [execute_tool_call(call, tools) for call in calls]


def tool_message(call: Message, content: str) -> Message:
    """The `role: tool` message answering `call`, paired to it by id."""
    return {"role": "tool", "tool_call_id": call["id"], "content": content}


def accumulate_stream(chunks: Iterable[Any]) -> Message:
    """Join streamed deltas into one assistant message.

    Text arrives in pieces; each tool call arrives as a first delta with its
    `index`, `id` and name, then fragments of its arguments keyed by `index`.
    """
    content: list[str] = []
    calls: dict[int, Message] = {}
    for chunk in chunks:
        for choice in chunk.choices:
            delta = choice.delta
            content.append(delta.content or "")
            for part in delta.tool_calls or []:
                call = calls.setdefault(
                    part.index, {"id": "", "type": "function", "function": {"name": "", "arguments": ""}}
                )
                call["id"] = part.id or call["id"]
                if part.function:
                    call["function"]["name"] += part.function.name or ""
                    call["function"]["arguments"] += part.function.arguments or ""
    message: Message = {"role": "assistant", "content": "".join(content) or None}
    if calls:
        message["tool_calls"] = [calls[i] for i in sorted(calls)]
    return message


def assistant_message(client: Any, stream: bool, **request: Any) -> Message:
    """Send one request and return the assistant message as a plain dict."""
    if stream:
        return accumulate_stream(client.chat.completions.create(stream=True, **request))
    message = client.chat.completions.create(**request).choices[0].message
    return message.model_dump(exclude_none=True, exclude={"refusal", "annotations", "audio"})


def run_tool_loop(
    client: Any,
    messages: Sequence[Message],
    tools: ToolRegistry,
    *,
    model: str,
    max_steps: int = 8,
    stream: bool = False,
    execute: Executor = execute_sequentially,
    on_event: Callable[[LoopEvent], None] | None = None,
    **create_args: Any,
) -> LoopResult:
    """Run the six-step loop until the model answers or `max_steps` requests were made.

    The caller names the model, as in `client.chat.completions.create(model=...)`: the loop
    works with any provider's client and knows no configuration (`wirelab.llm.model_name()`
    gives the course's). `messages` is not modified: the conversation so far comes back in
    the result.
    """
    history, made = list(messages), []

    def emit(step: Step, turn: int, **detail: Any) -> None:
        if on_event:
            on_event(LoopEvent(step, turn, detail, tuple(history)))

    emit("define", 0, tools=tools.names)
    for turn in range(1, max_steps + 1):
        emit("send", turn, messages=len(history))
        reply = assistant_message(
            client, stream, model=model, messages=history, tools=tools.specs(), **create_args
        )
        calls = reply.get("tool_calls") or []
        emit("decide", turn, tool_calls=[c["function"]["name"] for c in calls], content=reply.get("content"))
        history.append(reply)
        if not calls:
            emit("answer", turn, content=reply.get("content"))
            return LoopResult(reply.get("content"), history, turn, "answer", made)
        results = execute(calls, tools)
        for call, content in zip(calls, results, strict=True):
            emit(
                "execute",
                turn,
                name=call["function"]["name"],
                arguments=call["function"]["arguments"],
                result=content,
            )
            history.append(tool_message(call, content))
            emit("append", turn, tool_call_id=call["id"])
        made.extend(calls)
    return LoopResult(None, history, max_steps, "max_steps", made)
