"""Solution to the parallel-calls drill (see starter.py for the rules)."""

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any


async def run_parallel(
    tool_calls: list[dict[str, Any]],
    functions: dict[str, Callable[..., Awaitable[Any]]],
    timeout: float = 1.0,
    max_concurrency: int = 4,
) -> list[dict[str, Any]]:
    limit = asyncio.Semaphore(max_concurrency)

    async def one(call: dict[str, Any]) -> dict[str, Any]:
        async with limit:
            result = await _execute(call["function"], functions, timeout)
        return {"role": "tool", "tool_call_id": call["id"], "content": json.dumps(result)}

    return list(await asyncio.gather(*(one(call) for call in tool_calls)))


async def _execute(function: dict[str, Any], functions: dict, timeout: float) -> Any:
    name = function["name"]
    if name not in functions:
        return {"error": "unknown_tool", "message": f"no tool {name!r}"}
    try:
        arguments = json.loads(function.get("arguments") or "{}")
    except json.JSONDecodeError as exc:
        return {"error": "invalid_json", "message": str(exc)}
    try:
        return await asyncio.wait_for(functions[name](**arguments), timeout)
    except TimeoutError:
        return {"error": "timeout", "message": f"{name} took longer than {timeout} s"}
    except Exception as exc:  # a failing tool is reported, its siblings carry on
        return {"error": "exception", "message": f"{type(exc).__name__}: {exc}"}
