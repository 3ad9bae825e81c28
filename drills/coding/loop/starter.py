"""Drill: write the tool-call loop (20 minutes).

Implement `run_loop`. The model is any callable `model(messages=..., tools=...)` that returns
an OpenAI-shaped chat completion, for example::

    {"choices": [{"finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": None,
        "tool_calls": [{"id": "call_1", "type": "function",
                        "function": {"name": "add", "arguments": '{"a": 2, "b": 3}'}}]}}]}

Rules the checks hold you to:
1. Call the model with the history; if its message has no tool calls, return
   `(message["content"], transcript)`.
2. Otherwise append the assistant message as it came, then one tool message per call, in call
   order: `{"role": "tool", "tool_call_id": <id>, "content": json.dumps(result)}`.
3. Errors are results, not crashes: unknown tool, arguments that are not JSON, or a function
   that raises -> content `json.dumps({"error": "<what went wrong>"})`, and the loop goes on.
4. Raise `StepLimitError` when the model has been called `max_steps` times without answering.
5. Do not modify the caller's `messages` list; the transcript is a new list.

Check it: python -m wirelab.interview check loop
"""

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
    raise NotImplementedError("write the loop")
