"""Stage 6a, keep context: read the conversation, and carry a follow-up on from the last call.

    >>> from wirelab.offline_model import complete
    >>> convert = {"type": "function", "function": {"name": "convert", "description": "Convert money.",
    ...     "parameters": {"type": "object", "properties": {"amount": {"type": "number"},
    ...     "from_currency": {"type": "string"}, "to_currency": {"type": "string"}}}}}
    >>> sent = '{"amount":100,"from_currency":"USD","to_currency":"EUR"}'
    >>> called = {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function",
    ...     "function": {"name": "convert", "arguments": sent}}]}
    >>> talk = [{"role": "user", "content": "Convert 100 USD to EUR"}, called,
    ...     {"role": "tool", "tool_call_id": "c1", "content": '{"result": 92.1}'},
    ...     {"role": "user", "content": "And what about 50 GBP?"}]
    >>> reply = complete({"model": "wirelab-offline", "messages": talk, "tools": [convert]})
    >>> reply["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"]  # only what changed
    '{"amount":50,"from_currency":"GBP","to_currency":"EUR"}'

The model keeps no state between requests: everything is read off the
messages. `conversation` returns the last user message and the tool calls made
since (with their results); `follow_up` finds the last call made before that
message and, when the new message names a value for one of its tool's
parameters but selects no tool itself, plans that tool again with the old
arguments as the base.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from wirelab.offline_model.binding import bind_marked
from wirelab.offline_model.request import Call, Message, Tool
from wirelab.offline_model.results import ToolResult, read_result

Attempt = tuple[Call, ToolResult]


@dataclass(frozen=True)
class Conversation:
    """The last user message, the turns of tool calls since, and the calls made before it."""

    text: str
    turns: list[list[Attempt]]
    earlier: list[Call] = field(default_factory=list)


def conversation(messages: tuple[Message, ...]) -> Conversation:
    """Read the messages (see the module docstring)."""
    start = max((i for i, m in enumerate(messages) if m.role == "user"), default=-1)
    text = messages[start].text if start >= 0 else ""
    turns = [
        [(call, _results_after(messages, i).get(call.id, ToolResult(""))) for call in messages[i].tool_calls]
        for i in range(start + 1, len(messages))
        if messages[i].tool_calls
    ]
    earlier = [call for message in messages[: max(start, 0)] for call in message.tool_calls]
    return Conversation(text, turns, earlier)


def _results_after(messages: tuple[Message, ...], index: int) -> dict[str, ToolResult]:
    """The results that answer the calls of message `index`, by call id."""
    results = {}
    for message in messages[index + 1 :]:
        if message.role != "tool":
            break
        results[message.tool_call_id] = read_result(message.text)
    return results


def follow_up(talk: Conversation, tools: tuple[Tool, ...]) -> tuple[Tool, dict[str, Any]] | None:
    """The tool of the last earlier call and its arguments, when the new message continues it."""
    if not talk.earlier:
        return None
    last = talk.earlier[-1]
    tool = next((t for t in tools if t.name == last.name), None)
    if tool is None or not bind_marked(tool, talk.text):
        return None
    try:
        base = json.loads(last.arguments)
    except (json.JSONDecodeError, RecursionError):
        return None
    return (tool, base) if isinstance(base, dict) else None
