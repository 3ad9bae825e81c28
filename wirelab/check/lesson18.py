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
                "poll_task polled tasks/get again and again at the same moment: a hot loop. "
                "await sleep(pollIntervalMs / 1000) between polls (the sleep you are given)",
            )
            expect(
                len(previous) < MAX_POLLS,
                f"poll_task polled {MAX_POLLS} times: does it ever stop at the deadline?",
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
                f"poll_task cancelled a task that had already ended ({self.state()['status']}): "
                "check the latest status before tasks/cancel, and return its result instead",
            )
            self.script = [(float("inf"), _task("cancelled", statusMessage="cancelled by request"))]
            return {}
        raise CheckFailed(
            f"poll_task sent {method}: a 2026-07-28 client uses tasks/get, tasks/update, tasks/cancel"
        )


def _drive(
    poll_task: Callable[..., Any], server: ScriptedServer, first: dict[str, Any], timeout: float
) -> Any:
    """Run the learner's coroutine on a fresh loop (in a thread: Jupyter's loop is running)."""
    asked: list[dict[str, Any]] = []

    async def on_input(request: dict[str, Any]) -> dict[str, Any]:
        asked.append(request)
        return {"action": "accept", "content": {"overwrite": True}}

    expect(
        inspect.iscoroutinefunction(poll_task), "poll_task must be async def: it awaits requests and sleeps"
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
            raise CheckFailed(f"poll_task is not written yet. Hint: {e}") from None
        except TimeoutError as e:
            outcome = e
        except Exception as e:
            outcome = e
    server.asked = asked  # type: ignore[attr-defined]
    return outcome


def _check_intervals(server: ScriptedServer) -> None:
    for seconds, suggested in server.slept:
        expect(
            suggested is not None and abs(seconds - suggested) < 1e-6,
            f"poll_task slept {seconds} s where the last answer suggested pollIntervalMs = "
            f"{suggested and suggested * 1000:g}: read pollIntervalMs from each answer (it changes)",
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
        "poll_task never slept and polled: sleep pollIntervalMs, then tasks/get, until the task ends",
    )
    _check_intervals(server)
    expect(
        outcome == RESULT or server.state()["status"] != "input_required",
        f"poll_task ended ({outcome!r}) when the task was input_required: that is no end. Answer "
        "inputRequests with tasks/update (inputResponses keyed like inputRequests) and keep polling",
    )
    expect(
        outcome == RESULT,
        f"poll_task gave {outcome!r} at t={server.now:g} s on a task that completes at t=9 s: "
        "return task['result'] once the status is completed",
    )
    expect(
        len(server.updates) == 1 and server.updates[0].get("inputResponses", {}).keys() == {"q1"},
        f"poll_task sent {len(server.updates)} tasks/update: answer each key of inputRequests once "
        "(the same request shows in every poll until answered), as inputResponses={key: answer}",
    )
    expect(
        server.updates[0]["inputResponses"]["q1"] == {"action": "accept", "content": {"overwrite": True}},
        "tasks/update must carry what on_input(request) returned for that key",
    )
    passed("poll_task follows pollIntervalMs, answers input_required once, and returns the result")


@exercise
def check_poll_task_gives_up(poll_task: Callable[..., Any]) -> None:
    """A task that never ends: cancel it and raise at the deadline; one that ends there: no cancel."""
    endless = ScriptedServer([(float("inf"), _task("working", 1000))])
    outcome = _drive(poll_task, endless, _task("working", 1000), timeout=5)
    cancels = [t for m, t, _ in endless.calls if m == "tasks/cancel"]
    expect(bool(cancels), "poll_task never sent tasks/cancel: at the deadline, cancel the task, then raise")
    expect(
        cancels[0] <= 5.0,
        f"poll_task cancelled at t={cancels[0]:g} s, after the 5 s it was given: "
        "do not start a sleep that ends past the deadline",
    )
    expect(
        isinstance(outcome, TimeoutError),
        f"poll_task ended with {outcome!r} after the deadline: raise TimeoutError once it has cancelled",
    )
    _check_intervals(endless)
    late = ScriptedServer(
        [(5.5, _task("working", 2000)), (float("inf"), _task("completed", 2000, result=RESULT))]
    )
    outcome = _drive(poll_task, late, _task("working", 2000), timeout=5)
    expect(
        isinstance(outcome, TimeoutError) or outcome == RESULT,
        f"poll_task gave {outcome!r} for a task still working at its 5 s deadline: "
        "cancel it, then raise TimeoutError",
    )
    failed = ScriptedServer(
        [(float("inf"), _task("failed", 1000, error={"code": -32603, "message": "disk full"}))]
    )
    outcome = _drive(poll_task, failed, _task("working", 1000), timeout=5)
    expect(
        isinstance(outcome, RuntimeError) and "disk full" in str(outcome),
        f"poll_task gave {outcome!r} for a failed task: raise RuntimeError with the error's message",
    )
    passed("poll_task cancels an endless task at its deadline, and never cancels one that has ended")


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
            raise CheckFailed(f"shared_extensions is not written yet. Hint: {e}") from None
        except (KeyError, AttributeError, TypeError) as e:
            raise CheckFailed(
                f"shared_extensions raised {type(e).__name__}: {e}: a side that declares no "
                '"extensions" shares none (use .get("extensions", {}))'
            ) from None
        expect(
            set(got) == expected,
            f"shared_extensions({mine}, {theirs}) gave {got!r}, expected {expected}: an extension is on "
            "only when both sides declare it; one side's unknown extension is ignored",
        )
    passed("shared_extensions keeps what both sides declare and ignores what only one knows")
