"""Drill: execute parallel tool calls, results in call order (25 minutes).

Implement the coroutine `run_parallel(tool_calls, functions, timeout, max_concurrency)`.
`tool_calls` is the `tool_calls` list of one assistant message; `functions` maps each tool name
to an *async* function taking the decoded arguments as keywords.

Rules the checks hold you to:
1. Run the calls concurrently, but never more than `max_concurrency` at once.
2. Each call runs under its own `timeout` (seconds); a slow call must not hold up the others.
3. Return one message per call, in the order of `tool_calls` (not the order they finish):
   `{"role": "tool", "tool_call_id": <id>, "content": json.dumps(result)}`.
4. A failure affects only its own call; its content is
   `json.dumps({"error": CODE, "message": "<details>"})` with CODE one of
   "timeout", "exception", "invalid_json", "unknown_tool".

Check it: python -m wirelab.interview check parallel
"""

from collections.abc import Awaitable, Callable
from typing import Any


async def run_parallel(
    tool_calls: list[dict[str, Any]],
    functions: dict[str, Callable[..., Awaitable[Any]]],
    timeout: float = 1.0,
    max_concurrency: int = 4,
) -> list[dict[str, Any]]:
    raise NotImplementedError("run the calls concurrently")
