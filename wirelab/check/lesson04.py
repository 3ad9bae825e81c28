"""Checks for lab 04: calls run together in call order, per-call timeouts, idempotency keys."""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
import textwrap
import threading
import time
import types
from typing import Any

from wirelab.check import CheckFailed, attempt, exercise, expect, passed
from wirelab.errors import error_of
from wirelab.tools import ToolRegistry

WAIT_S = 3.0
TIMEOUT_S = 0.5
SLACK_S = 1.5  # generous: a loaded machine may start threads late, but not 2.5 s late


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
    started = time.monotonic()
    try:
        got = attempt(run_with_timeouts, calls, tools, TIMEOUT_S)
    finally:
        took = time.monotonic() - started
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
    expect(
        took < TIMEOUT_S + SLACK_S,
        f"run_with_timeouts returned after {took:.1f} s with timeout_s={TIMEOUT_S}: it waited for the "
        "hung call. Leaving a `with ThreadPoolExecutor()` block waits for every thread: create the "
        "pool yourself and call pool.shutdown(wait=False)",
    )
    passed(
        f"a call past its timeout gets a timeout error after {took:.1f} s (timeout_s={TIMEOUT_S}) "
        "and the others still succeed"
    )


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
    _expect_the_same_key_in_another_interpreter(key, a, k)
    passed("the key names the effect: same tool and arguments, same key, whatever the call id")


def _expect_the_same_key_in_another_interpreter(key: Any, a_call: dict[str, Any], k: str) -> None:
    """The key must survive a restart: compute it again in two fresh interpreters, two hash seeds."""
    source = _portable_source(key)
    if source is None:
        return
    program = f"{source}\nimport json, sys\nprint(json.dumps({key.__name__}(json.loads(sys.argv[1]))))"
    keys = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-c", program, json.dumps(a_call)],
            env=env,
            capture_output=True,
            text=True,
            timeout=30,
        )
        if done.returncode != 0:
            return  # the function needs more of the notebook than its module imports: not judged here
        keys.append(json.loads(done.stdout))
    expect(
        keys[0] == keys[1] == k,
        f"the same call got the key {k!r} here, but {keys[0]!r} and {keys[1]!r} in two fresh "
        "interpreters: hash() of a str changes every time Python starts (PYTHONHASHSEED), so a "
        "retry after a restart would book twice. Use the JSON text itself, or hashlib.sha256",
    )


def _portable_source(fn: Any) -> str | None:
    """`fn`'s source with imports of the modules it names, or None if that cannot be had."""
    try:
        source = textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError):
        return None
    modules = [
        f"import {value.__name__} as {name}"
        for name in fn.__code__.co_names
        if isinstance(value := fn.__globals__.get(name), types.ModuleType)
    ]
    return "\n".join([*modules, source])
