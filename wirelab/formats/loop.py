"""The six-step loop, written once for every format.

    run(Responses(), "Weather in Paris and in Tokyo?", registry)   # LoopRun(answer='…', steps=2, …)

define the tools -> send the history -> decide (read the calls) -> execute
them -> append the reply and the results (each paired with its call by id) ->
answer when the model makes no call. `max_steps` bounds the requests. What
each format writes differently is inside the adapter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wirelab.formats.common import ToolCall, ToolResult, execute
from wirelab.tools import ToolRegistry


@dataclass
class LoopRun:
    """How a run ended: the answer, the requests made, every call and result, the history."""

    answer: str | None
    steps: int
    calls: list[ToolCall] = field(default_factory=list)
    results: list[ToolResult] = field(default_factory=list)
    history: list[Any] = field(default_factory=list)


def run(
    adapter: Any, question: str, registry: ToolRegistry, max_steps: int = 6, stream: bool = False
) -> LoopRun:
    """Answer `question` with the tools of `registry`, through `adapter`'s wire format."""
    tools = adapter.tools(registry)  # 1 define
    history = adapter.start(question)
    made = LoopRun(None, 0, history=history)
    for step in range(1, max_steps + 1):
        reply = adapter.send(history, tools, stream=stream)  # 2 send
        calls = adapter.calls(reply)  # 3 decide
        adapter.add_reply(history, reply)
        made.steps = step
        if not calls:
            made.answer = adapter.text(reply)  # 6 answer
            return made
        results = execute(calls, registry)  # 4 execute
        adapter.add_results(history, calls, results)  # 5 append, paired by id
        made.calls += calls
        made.results += results
    return made
