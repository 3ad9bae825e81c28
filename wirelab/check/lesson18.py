"""Checks for lab 18: a polling client for tasks, and which extensions two sides share.

`poll_task(client, task, on_input, *, timeout, sleep, clock)` is driven by a scripted server
on a fake clock: `sleep` moves the clock, `clock` reads it, so the checks are exact and take
no real time. Each script is a list of `(until, state)`: the task `tasks/get` answers while
the clock is below `until`, in 2026-07-28's shapes (`pollIntervalMs`, an inlined `result`,
`inputRequests`). The checks catch the usual mistakes by name: a hot loop, a fixed interval
instead of `pollIntervalMs`, `input_required` taken for an end, no bound on the wait, and a
cancel sent to a task that has already ended.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from wirelab.check import CheckFailed, exercise, expect, passed
from wirelab.edition import say

TERMINAL = ("completed", "failed", "cancelled")
QUESTION = {"method": "elicitation/create", "params": {"mode": "form", "message": "Overwrite?"}}
RESULT = {"content": [{"type": "text", "text": "Report ready"}]}
MAX_POLLS = 500


def _task(status: str, interval_ms: int | None = None, **fields: Any) -> dict[str, Any]:
    task = {"taskId": "t-1", "status": status, "createdAt": "2026-07-28T00:00:00Z", "ttlMs": 600_000}
    return task | ({"pollIntervalMs": interval_ms} if interval_ms else {}) | fields


class ScriptedServer:
    """A client whose `request` answers from a script, on a fake clock the learner's sleep moves."""

    def __init__(self, script: list[tuple[float, dict[str, Any]]]) -> None:
        self.script, self.now = script, 0.0
        self.calls: list[tuple[str, float, dict[str, Any]]] = []
        self.slept: list[tuple[float, float]] = []  # (seconds asked, interval the last answer suggested)
        self.suggested: float | None = None
        self.updates: list[dict[str, Any]] = []

    def state(self) -> dict[str, Any]:
        return next((state for until, state in self.script if self.now < until), self.script[-1][1])

    async def sleep(self, seconds: float) -> None:
        self.slept.append((seconds, self.suggested))  # type: ignore[arg-type]
        self.now += max(seconds, 0)

    def clock(self) -> float:
        return self.now

    async def request(
        self, method: str, params: dict[str, Any] | None = None, **options: Any
    ) -> dict[str, Any]:
        params = params or {}
        previous = [t for m, t, _ in self.calls if m == "tasks/get"]
        self.calls.append((method, self.now, params))
        if method == "tasks/get":
            expect(
                previous[-2:].count(self.now) < 2,  # a second look before a cancel is fine, a third is a loop
                say(
                    "poll_task polled tasks/get again and again at the same moment: a hot loop. "
                    "await sleep(pollIntervalMs / 1000) between polls (the sleep you are given)",
                    "poll_task 在同一时刻一次又一次地发 tasks/get：这是热循环（hot loop）。"
                    "两次轮询之间要 await sleep(pollIntervalMs / 1000)（用传进来的 sleep）",
                ),
            )
            expect(
                len(previous) < MAX_POLLS,
                say(
                    f"poll_task polled {MAX_POLLS} times: does it ever stop at the deadline?",
                    f"poll_task 已经轮询了 {MAX_POLLS} 次：到了截止时间它会停下吗？",
                ),
            )
            state = self.state()
            self.suggested = state.get("pollIntervalMs", 1000) / 1000
            return state
        if method == "tasks/update":
            self.updates.append(params)
            return {}
        if method == "tasks/cancel":
            expect(
                self.state()["status"] not in TERMINAL,
                say(
                    f"poll_task cancelled a task that had already ended ({self.state()['status']}): "
                    "check the latest status before tasks/cancel, and return its result instead",
                    f"poll_task 取消了一个已经结束的任务（{self.state()['status']}）："
                    "发 tasks/cancel 之前先看最新状态，已经结束就返回它的结果",
                ),
            )
            self.script = [(float("inf"), _task("cancelled", statusMessage="cancelled by request"))]
            return {}
        raise CheckFailed(
            say(
                f"poll_task sent {method}: a 2026-07-28 client uses tasks/get, tasks/update, tasks/cancel",
                f"poll_task 发送了 {method}："
                "2026-07-28 的客户端用的是 tasks/get、tasks/update 和 tasks/cancel",
            )
        )


def _drive(
    poll_task: Callable[..., Any], server: ScriptedServer, first: dict[str, Any], timeout: float
) -> Any:
    """Run the learner's coroutine on a fresh loop (in a thread: Jupyter's loop is running)."""

    async def on_input(request: dict[str, Any]) -> dict[str, Any]:
        return {"action": "accept", "content": {"overwrite": True}}

    expect(
        inspect.iscoroutinefunction(poll_task),
        say(
            "poll_task must be async def: it awaits requests and sleeps",
            "poll_task 必须是 async def：它要 await 请求和等待",
        ),
    )
    server.suggested = first.get("pollIntervalMs", 1000) / 1000

    async def run() -> Any:
        return await poll_task(
            server, first, on_input, timeout=timeout, sleep=server.sleep, clock=server.clock
        )

    with ThreadPoolExecutor(1) as thread:
        try:
            outcome = thread.submit(asyncio.run, asyncio.wait_for(run(), 10)).result(20)
        except CheckFailed:
            raise
        except NotImplementedError as e:
            raise CheckFailed(
                say(f"poll_task is not written yet. Hint: {e}", f"poll_task 还没写。提示：{e}")
            ) from None
        except Exception as e:  # TimeoutError and RuntimeError included: the checks judge them
            outcome = e
    return outcome


def _check_intervals(server: ScriptedServer) -> None:
    for seconds, suggested in server.slept:
        expect(
            suggested is not None and abs(seconds - suggested) < 1e-6,
            say(
                f"poll_task slept {seconds} s where the last answer suggested pollIntervalMs = "
                f"{suggested and suggested * 1000:g}: read pollIntervalMs from each answer (it changes)",
                f"poll_task 等了 {seconds} 秒，而最近一次答复建议的 pollIntervalMs 是 "
                f"{suggested and suggested * 1000:g}：每次都从答复里读取 pollIntervalMs（它会变）",
            ),
        )


@exercise
def check_poll_task(poll_task: Callable[..., Any]) -> None:
    """A task that slows its polling down, asks a question, then completes."""
    script = [
        (1.0, _task("working", 200, statusMessage="step 1")),
        (4.0, _task("working", 1500, statusMessage="step 2")),
        (6.0, _task("input_required", 500, inputRequests={"q1": QUESTION})),
        (9.0, _task("working", 1000)),
        (float("inf"), _task("completed", 1000, result=RESULT)),
    ]
    server = ScriptedServer(script)
    outcome = _drive(poll_task, server, script[0][1], timeout=60)
    gets = [t for m, t, _ in server.calls if m == "tasks/get"]
    expect(
        bool(gets) and bool(server.slept),
        say(
            "poll_task never slept and polled: sleep pollIntervalMs, then tasks/get, until the task ends",
            "poll_task 从没等待和轮询过：先等 pollIntervalMs，再发 tasks/get，直到任务结束",
        ),
    )
    _check_intervals(server)
    expect(
        outcome == RESULT or server.state()["status"] != "input_required",
        say(
            f"poll_task ended ({outcome!r}) when the task was input_required: that is no end. Answer "
            "inputRequests with tasks/update (inputResponses keyed like inputRequests) and keep polling",
            f"任务处于 input_required 时 poll_task 就结束了（{outcome!r}）：这不是结束。"
            "用 tasks/update 回答 inputRequests（inputResponses 的键与 inputRequests 相同），然后继续轮询",
        ),
    )
    expect(
        outcome == RESULT,
        say(
            f"poll_task gave {outcome!r} at t={server.now:g} s on a task that completes at t=9 s: "
            "return task['result'] once the status is completed",
            f"任务在 t=9 秒完成，poll_task 却在 t={server.now:g} 秒给出了 {outcome!r}："
            "状态变成 completed 后返回 task['result']",
        ),
    )
    expect(
        len(server.updates) == 1 and server.updates[0].get("inputResponses", {}).keys() == {"q1"},
        say(
            f"poll_task sent {len(server.updates)} tasks/update: answer each key of inputRequests once "
            "(the same request shows in every poll until answered), as inputResponses={key: answer}",
            f"poll_task 发了 {len(server.updates)} 次 tasks/update：inputRequests 的每个键只回答一次"
            "（同一个请求在回答之前每次轮询都会出现），写成 inputResponses={key: answer}",
        ),
    )
    expect(
        server.updates[0]["inputResponses"]["q1"] == {"action": "accept", "content": {"overwrite": True}},
        say(
            "tasks/update must carry what on_input(request) returned for that key",
            "tasks/update 里要带上 on_input(request) 对这个键返回的内容",
        ),
    )
    passed(
        say(
            "poll_task follows pollIntervalMs, answers input_required once, and returns the result",
            "poll_task 按 pollIntervalMs 轮询，对 input_required 只回答一次，并返回结果",
        )
    )


@exercise
def check_poll_task_gives_up(poll_task: Callable[..., Any]) -> None:
    """A task that never ends: cancel it and raise at the deadline; one that ends there: no cancel."""
    endless = ScriptedServer([(float("inf"), _task("working", 1000))])
    outcome = _drive(poll_task, endless, _task("working", 1000), timeout=5)
    cancels = [t for m, t, _ in endless.calls if m == "tasks/cancel"]
    expect(
        bool(cancels),
        say(
            "poll_task never sent tasks/cancel: at the deadline, cancel the task, then raise",
            "poll_task 从没发过 tasks/cancel：到了截止时间要先取消任务，再抛出异常",
        ),
    )
    expect(
        cancels[0] <= 5.0,
        say(
            f"poll_task cancelled at t={cancels[0]:g} s, after the 5 s it was given: "
            "do not start a sleep that ends past the deadline",
            f"poll_task 在 t={cancels[0]:g} 秒才取消，超过了给它的 5 秒："
            "不要开始一次会在截止时间之后才结束的等待",
        ),
    )
    expect(
        isinstance(outcome, TimeoutError),
        say(
            f"poll_task ended with {outcome!r} after the deadline: raise TimeoutError once it has cancelled",
            f"截止时间过后 poll_task 以 {outcome!r} 结束：取消之后要抛出 TimeoutError",
        ),
    )
    _check_intervals(endless)
    late = ScriptedServer(
        [(5.5, _task("working", 2000)), (float("inf"), _task("completed", 2000, result=RESULT))]
    )
    outcome = _drive(poll_task, late, _task("working", 2000), timeout=5)
    expect(
        isinstance(outcome, TimeoutError) or outcome == RESULT,
        say(
            f"poll_task gave {outcome!r} for a task still working at its 5 s deadline: "
            "cancel it, then raise TimeoutError",
            f"任务到 5 秒截止时仍在运行，poll_task 却给出了 {outcome!r}：先取消它，再抛出 TimeoutError",
        ),
    )
    failed = ScriptedServer(
        [(float("inf"), _task("failed", 1000, error={"code": -32603, "message": "disk full"}))]
    )
    outcome = _drive(poll_task, failed, _task("working", 1000), timeout=5)
    expect(
        isinstance(outcome, RuntimeError) and "disk full" in str(outcome),
        say(
            f"poll_task gave {outcome!r} for a failed task: raise RuntimeError with the error's message",
            f"任务失败时 poll_task 给出了 {outcome!r}：抛出带着错误消息的 RuntimeError",
        ),
    )
    passed(
        say(
            "poll_task cancels an endless task at its deadline, and never cancels one that has ended",
            "poll_task 在截止时间取消没完没了的任务，从不取消已经结束的任务",
        )
    )


@exercise
def check_shared_extensions(shared_extensions: Callable[..., Any]) -> None:
    ui = "io.modelcontextprotocol/ui"
    tasks = "io.modelcontextprotocol/tasks"
    client = {"elicitation": {}, "extensions": {ui: {"mimeTypes": ["text/html;profile=mcp-app"]}, tasks: {}}}
    server = {"tools": {}, "extensions": {tasks: {}, "com.example/confetti": {}}}
    cases = [
        ((client, server), {tasks}),
        ((client, {"tools": {}}), set()),
        (({}, server), set()),
        (({"extensions": {ui: {}}}, {"extensions": {ui: {}}}), {ui}),
    ]
    for (mine, theirs), expected in cases:
        try:
            got = shared_extensions(mine, theirs)
        except NotImplementedError as e:
            raise CheckFailed(
                say(
                    f"shared_extensions is not written yet. Hint: {e}", f"shared_extensions 还没写。提示：{e}"
                )
            ) from None
        except (KeyError, AttributeError, TypeError) as e:
            raise CheckFailed(
                say(
                    f"shared_extensions raised {type(e).__name__}: {e}: a side that declares no "
                    '"extensions" shares none (use .get("extensions", {}))',
                    f"shared_extensions 抛出了 {type(e).__name__}: {e}："
                    '没有声明 "extensions" 的一方不共享任何扩展（用 .get("extensions", {})）',
                )
            ) from None
        expect(
            set(got) == expected,
            say(
                f"shared_extensions({mine}, {theirs}) gave {got!r}, expected {expected}: an extension is on "
                "only when both sides declare it; one side's unknown extension is ignored",
                f"shared_extensions({mine}, {theirs}) 给出了 {got!r}，应为 {expected}："
                "双方都声明了扩展才算启用；只有一方认识的扩展被忽略",
            ),
        )
    passed(
        say(
            "shared_extensions keeps what both sides declare and ignores what only one knows",
            "shared_extensions 保留双方都声明的扩展，忽略只有一方认识的",
        )
    )
