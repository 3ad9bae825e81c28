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
from wirelab.edition import say
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
        say(
            f"run_parallel returned {got!r}: return a list with one result string per call",
            f"run_parallel 返回了 {got!r}：应当返回一个列表，每个调用对应一个结果字符串",
        ),
    )
    expect(
        not any(error_of(r) for r in got),
        say(
            f"the calls did not all run at the same time ({got[0][:80]}…): submit every call to "
            "the pool before waiting for any result",
            f"这些调用没有同时运行（{got[0][:80]!r}…）：先把每个调用都提交给线程池，再等待任何结果",
        ),
    )
    expect(
        got == names,
        say(
            f"run_parallel returned {got}: results must be in call order {names}, "
            "not the order they finished in; pool.map keeps the order",
            f"run_parallel 返回了 {got}：结果必须按调用顺序 {names} 排列，"
            "而不是按完成的先后；pool.map 会保持顺序",
        ),
    )
    passed(
        say(
            "run_parallel runs the calls together and keeps the call order",
            "run_parallel 同时运行各个调用，并保持调用顺序",
        )
    )


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
    expect(
        isinstance(got, list) and len(got) == 2,
        say(f"expected two results, got {got!r}", f"应当有两个结果，实际得到 {got!r}"),
    )
    error = error_of(got[0])
    expect(
        error is not None and error.get("code") == "timeout",
        say(
            f"the hanging call's result was {got[0]!r}: after timeout_s return "
            '{"error": {"code": "timeout", "message": ...}} for it (ToolError("timeout", ...).content())',
            f"卡住的调用的结果是 {got[0]!r}：超过 timeout_s 后应当为它返回 "
            '{"error": {"code": "timeout", "message": ...}}（ToolError("timeout", ...).content()）',
        ),
    )
    expect(
        json.loads(got[1]) == {"city": "Oslo", "temp_c": 18},
        say(
            f"the call that answered in time got {got[1]!r}: one timeout must not sink the batch",
            f"按时返回的调用得到的是 {got[1]!r}：一个调用超时，不能拖垮整批调用",
        ),
    )
    expect(
        took < TIMEOUT_S + SLACK_S,
        say(
            f"run_with_timeouts returned after {took:.1f} s with timeout_s={TIMEOUT_S}: it waited for the "
            "hung call. Leaving a `with ThreadPoolExecutor()` block waits for every thread: create the "
            "pool yourself and call pool.shutdown(wait=False)",
            f"timeout_s={TIMEOUT_S} 时，run_with_timeouts 过了 {took:.1f} 秒才返回：它在等那个卡住的调用。"
            "离开 `with ThreadPoolExecutor()` 块时会等待所有线程结束：应当自己创建线程池，"
            "再调用 pool.shutdown(wait=False)",
        ),
    )
    passed(
        say(
            f"a call past its timeout gets a timeout error after {took:.1f} s (timeout_s={TIMEOUT_S}) "
            "and the others still succeed",
            f"超时的调用在 {took:.1f} 秒后得到 timeout 错误（timeout_s={TIMEOUT_S}），其他调用照样成功",
        )
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
    expect(
        isinstance(k, str) and k,
        say(f"the key was {k!r}: return a non-empty string", f"键是 {k!r}：应当返回非空字符串"),
    )
    if attempt(key, retry) != k:
        raise CheckFailed(
            say(
                "a retry with a new call id and the arguments in another order got another "
                "key: build it from the tool name and the *parsed* arguments, "
                "json.dumps(..., sort_keys=True), not from the id or the raw string",
                "重试时调用 id 换了、参数顺序也变了，得到的键就不一样了：键要由工具名和解析后的参数构成，"
                "用 json.dumps(..., sort_keys=True)，不要用 id 或原始字符串",
            )
        )
    expect(
        attempt(key, other_night) != k,
        say(
            "two different nights got the same key: include the arguments",
            "两个不同的晚上得到了同一个键：键里要包含参数",
        ),
    )
    expect(
        attempt(key, other_tool) != k,
        say(
            "two different tools got the same key: include the tool name",
            "两个不同的工具得到了同一个键：键里要包含工具名",
        ),
    )
    _expect_the_same_key_in_another_interpreter(key, a, k)
    passed(
        say(
            "the key names the effect: same tool and arguments, same key, whatever the call id",
            "键标识的是效果：工具和参数相同，键就相同，与调用 id 无关",
        )
    )


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
        say(
            f"the same call got the key {k!r} here, but {keys[0]!r} and {keys[1]!r} in two fresh "
            "interpreters: hash() of a str changes every time Python starts (PYTHONHASHSEED), so a "
            "retry after a restart would book twice. Use the JSON text itself, or hashlib.sha256",
            f"同一个调用在这里得到的键是 {k!r}，在两个新启动的解释器里却是 {keys[0]!r} 和 {keys[1]!r}："
            "字符串的 hash() 每次启动 Python 都会变（PYTHONHASHSEED），所以重启后的重试会重复预订。"
            "直接用 JSON 文本本身，或者用 hashlib.sha256",
        ),
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
