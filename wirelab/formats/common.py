"""What every format's adapter shares: a call, a result, and running the calls.

    >>> from wirelab.tools import ToolRegistry
    >>> def add(a: int, b: int) -> int:
    ...     '''Add two numbers.'''
    ...     return a + b
    >>> calls = [ToolCall("c1", "add", {"a": 2, "b": 3}), ToolCall("c2", "nope", {})]
    >>> [(r.call_id, r.content, r.is_error) for r in execute(calls, ToolRegistry([add]))]
    [('c1', '5', False), ('c2', 'unknown tool: nope', True)]

A `ToolCall` is what any format's reply asks for, its arguments already an
object; a `ToolResult` answers one call by its id and says whether it is an
error. Each adapter writes these in its own format.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from wirelab.tools import ToolRegistry


@dataclass(frozen=True)
class ToolCall:
    """One call: `id` pairs its result (Gemini's calls have none: the adapter numbers them)."""

    id: str
    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class ToolResult:
    """The result of the call with id `call_id`: its text, and whether it is an error."""

    call_id: str
    name: str
    content: str
    is_error: bool = False


def run_one(call: ToolCall, registry: ToolRegistry) -> ToolResult:
    """Run one call; an unknown tool or an exception is an error result, never a crash."""
    tool = registry.get(call.name)
    if tool is None:
        return ToolResult(call.id, call.name, f"unknown tool: {call.name}", True)
    try:
        value = tool(**call.arguments)
    except Exception as error:  # a tool's failure is a result the model reads
        return ToolResult(call.id, call.name, f"{type(error).__name__}: {error}", True)
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return ToolResult(call.id, call.name, text)


def execute(calls: list[ToolCall], registry: ToolRegistry) -> list[ToolResult]:
    """Run independent calls at the same time; the results come back in call order here, but a
    format pairs each one by its id, never by its position."""
    if not calls:
        return []
    with ThreadPoolExecutor(max_workers=min(8, len(calls))) as pool:
        return list(pool.map(lambda call: run_one(call, registry), calls))


def specs(registry: ToolRegistry) -> list[dict[str, Any]]:
    """Each tool as {name, description, parameters}: what every format's tool list is made from."""
    return [{"name": t.name, "description": t.description, "parameters": t.parameters} for t in registry]
