"""Solution to the tool-call loop drill (see starter.py for the rules)."""

import json
from collections.abc import Callable
from typing import Any


class StepLimitError(RuntimeError):
    """The model kept calling tools for max_steps turns."""


def run_loop(
    model: Callable[..., dict[str, Any]],
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
    functions: dict[str, Callable[..., Any]],
    max_steps: int = 8,
) -> tuple[str, list[dict[str, Any]]]:
    transcript = list(messages)
    for _ in range(max_steps):
        message = model(messages=transcript, tools=tools)["choices"][0]["message"]
        calls = message.get("tool_calls") or []
        if not calls:
            return message.get("content") or "", transcript
        transcript.append(message)
        transcript.extend(_tool_message(call, functions) for call in calls)
    raise StepLimitError(f"no answer after {max_steps} model calls")


def _tool_message(call: dict[str, Any], functions: dict[str, Callable[..., Any]]) -> dict:
    return {
        "role": "tool",
        "tool_call_id": call["id"],
        "content": json.dumps(_execute(call["function"], functions)),
    }


def _execute(function: dict[str, Any], functions: dict[str, Callable[..., Any]]) -> Any:
    name = function["name"]
    if name not in functions:
        return {"error": f"unknown tool {name!r}; available: {sorted(functions)}"}
    try:
        arguments = json.loads(function.get("arguments") or "{}")
    except json.JSONDecodeError as exc:
        return {"error": f"arguments are not valid JSON: {exc}"}
    try:
        return functions[name](**arguments)
    except Exception as exc:  # any failure of the tool is reported to the model
        return {"error": f"{type(exc).__name__}: {exc}"}
