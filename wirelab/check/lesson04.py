"""Checks for lab 04: calls run together in call order, per-call timeouts, idempotency keys."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from wirelab.check import CheckFailed, attempt, exercise, expect, passed
from wirelab.errors import error_of
from wirelab.tools import ToolRegistry

WAIT_S = 3.0


def get_weather(city: str) -> dict:
    """Current weather for a city (a slow service: 0.2 s).

    Args:
        city: City name.
    """
    time.sleep(0.2)
    return {"city": city, "temp_c": 18}


TOOLS = ToolRegistry([get_weather])


def call(name: str, call_id: str, **arguments: Any) -> dict[str, Any]:
    """A tool call as it appears in an assistant message, arguments as a JSON string."""
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}


def _meeting_tools(n: int) -> ToolRegistry:
    barrier, last_may_go = threading.Barrier(n, timeout=WAIT_S), threading.Event()

    def meet(city: str) -> str:
        """Returns only when all calls are running at once; the first call finishes last."""
        index = barrier.wait()
        if city == "first":
            last_may_go.wait(WAIT_S)
        elif index == 0:
            last_may_go.set()
        return city

    return ToolRegistry([meet])


@exercise
def check_run_parallel(run_parallel: Any) -> None:
    names = ["first", "second", "third"]
    calls = [call("meet", f"call_{n}", city=n) for n in names]
    got = attempt(run_parallel, calls, _meeting_tools(3))
    expect(
        isinstance(got, list) and len(got) == 3,
        f"run_parallel returned {got!r}: return a list with one result string per call",
    )
    expect(
        not any(error_of(r) for r in got),
        f"the calls did not all run at the same time ({got[0][:80]}…): submit every call to "
        "the pool before waiting for any result",
    )
    expect(
        got == names,
        f"run_parallel returned {got}: results must be in call order {names}, "
        "not the order they finished in; pool.map keeps the order",
    )
    passed("run_parallel runs the calls together and keeps the call order")


@exercise
def check_timeouts(run_with_timeouts: Any) -> None:
    never = threading.Event()

    def hang(city: str) -> str:
        """Never answers in time."""
        never.wait(WAIT_S)
        return "late"

    tools = ToolRegistry([hang, get_weather])
    calls = [call("hang", "call_1", city="Rome"), call("get_weather", "call_2", city="Oslo")]
    try:
        got = attempt(run_with_timeouts, calls, tools, 0.5)
    finally:
        never.set()
    expect(isinstance(got, list) and len(got) == 2, f"expected two results, got {got!r}")
    error = error_of(got[0])
    expect(
        error is not None and error.get("code") == "timeout",
        f"the hanging call's result was {got[0]!r}: after timeout_s return "
        '{"error": {"code": "timeout", "message": ...}} for it (ToolError("timeout", ...).content())',
    )
    expect(
        json.loads(got[1]) == {"city": "Oslo", "temp_c": 18},
        f"the call that answered in time got {got[1]!r}: one timeout must not sink the batch",
    )
    passed("a call past its timeout gets a timeout error and the others still succeed")


@exercise
def check_idempotency_key(key: Any) -> None:
    a = call("book_room", "call_1", hotel="Roma Inn", night="2026-05-01")
    retry = {
        "id": "call_7",
        "type": "function",
        "function": {"name": "book_room", "arguments": '{"night": "2026-05-01", "hotel": "Roma Inn"}'},
    }
    other_night = call("book_room", "call_1", hotel="Roma Inn", night="2026-05-02")
    other_tool = call("cancel_room", "call_1", hotel="Roma Inn", night="2026-05-01")
    k = attempt(key, a)
    expect(isinstance(k, str) and k, f"the key was {k!r}: return a non-empty string")
    if attempt(key, retry) != k:
        raise CheckFailed(
            "a retry with a new call id and the arguments in another order got another "
            "key: build it from the tool name and the *parsed* arguments, "
            "json.dumps(..., sort_keys=True), not from the id or the raw string"
        )
    expect(attempt(key, other_night) != k, "two different nights got the same key: include the arguments")
    expect(attempt(key, other_tool) != k, "two different tools got the same key: include the tool name")
    passed("the key names the effect: same tool and arguments, same key, whatever the call id")
