"""Run the tool calls of one turn concurrently, safely.

A model may ask for several calls in one response ("weather in Paris and in
Rome"). They are independent, so a host can run them at the same time; the
loop still needs one result per call, in the order of the calls, so that each
`role: tool` message pairs with its `tool_call_id`. This module adds what makes
concurrency safe:

- order kept: results come back in call order, whatever finishes first;
- per-call timeout: a call that takes too long gets a `timeout` error result;
- partial failure: one failing call becomes one error result, the rest succeed;
- a cap on parallelism (`max_parallel`), for rate-limited services;
- reads in parallel, writes serial: tools marked `@writes` run one at a time,
  in call order, each as its own phase (see `phases`);
- idempotency keys: a write repeated with the same arguments (the model
  retrying after a timeout) returns the first result instead of acting twice.

    executor = ThreadExecutor(max_parallel=4, timeout_s=2.0)
    run_tool_loop(client, messages, tools, model=model_name(), execute=executor)

`ThreadExecutor` runs each call in a thread; `AsyncioExecutor` awaits `async
def` tools on an event loop (and puts plain functions in threads). The threads
are daemons kept for later calls, so a turn starts none once they exist. A
timed-out call cannot be killed, only abandoned: its thread runs on in the
background.
Left out: cancelling work in flight, persistence of idempotency keys.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import hashlib
import inspect
import json
import os
import queue
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from wirelab.errors import ToolError, error_of
from wirelab.loop import Message, execute_tool_call, parse_arguments
from wirelab.tools import Tool, ToolRegistry

F = TypeVar("F", bound=Callable[..., Any])
CallRunner = Callable[[Message, ToolRegistry], str]


def writes(fn: F) -> F:
    """Mark a tool function as one with side effects: it runs alone, never alongside others."""
    fn.writes = True  # type: ignore[attr-defined]
    return fn


def is_write(tool: Tool | None) -> bool:
    """True for a tool whose function is marked `@writes`."""
    return tool is not None and getattr(tool.function, "writes", False)


def phases(calls: Sequence[Message], tools: ToolRegistry) -> list[list[int]]:
    """Group call indexes into phases that run one after another.

    Consecutive reads share a phase (they run together); each write is a
    phase of its own. Reads R, writes W: [R, R, W, R] -> [[0, 1], [2], [3]].
    """
    groups: list[list[int]] = []
    after_write = True
    for index, call in enumerate(calls):
        write = is_write(tools.get(call["function"]["name"]))
        if write or after_write:
            groups.append([index])
        else:
            groups[-1].append(index)
        after_write = write
    return groups


def idempotency_key(call: Message) -> str:
    """A key naming the *effect* of a call: its tool and arguments, not its call id.

    Two calls with the same tool and the same arguments (in any key order) get
    the same key, so a repeated write is recognised.
    """
    try:
        arguments: Any = parse_arguments(call)
    except ToolError:
        arguments = call["function"].get("arguments")
    text = json.dumps([call["function"]["name"], arguments], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class IdempotencyStore:
    """Results of writes that succeeded, by idempotency key; safe to share between threads."""

    def __init__(self) -> None:
        self._done: dict[str, str] = {}
        self._running: set[str] = set()
        self._lock = threading.Lock()

    def claim(self, key: str) -> str | None:
        """None if the caller should run the write now; otherwise the result to return instead."""
        with self._lock:
            if key in self._done:
                return self._done[key]
            if key in self._running:
                return ToolError(
                    "in_progress",
                    "the same write is still running",
                    suggestion="Wait for its result; do not send it again.",
                ).content()
            self._running.add(key)
            return None

    def finish(self, key: str, content: str) -> None:
        """Record the result; a failed write is forgotten so that it may be tried again."""
        with self._lock:
            self._running.discard(key)
            if error_of(content) is None:
                self._done[key] = content

    def __contains__(self, key: str) -> bool:
        return key in self._done


def once(run: CallRunner, store: IdempotencyStore) -> CallRunner:
    """A call runner that runs each distinct write at most once (reads pass through)."""

    def runner(call: Message, tools: ToolRegistry) -> str:
        if not is_write(tools.get(call["function"]["name"])):
            return run(call, tools)
        key = idempotency_key(call)
        earlier = store.claim(key)
        if earlier is not None:
            return earlier
        content = run(call, tools)
        store.finish(key, content)
        return content

    return runner


def timeout_error(call: Message, timeout_s: float) -> str:
    """The result of a call abandoned after `timeout_s`: a `timeout` error the model can report."""
    return ToolError(
        "timeout",
        f"{call['function']['name']} did not answer within {timeout_s:g} s",
        suggestion="Try again later, or ask for less at once.",
        retryable=True,
    ).content()


class _Workers:
    """Daemon threads that run calls and are kept for the next ones.

    A call gets an idle thread, or a new one when none is idle, so a call never
    waits behind another (limits are the executors' business, and an abandoned
    call keeps only its own thread). Starting threads is what a pool per turn
    cost: one start waits for the new thread to run, and 16 of them delayed the
    last call by 3–90 ms on two loaded cores (benchmarks/parallel_speedup.py).
    They are daemons, so a hung call never blocks exit; one idle for `idle_s`
    ends.
    """

    def __init__(self, idle_s: float = 60.0) -> None:
        self.idle_s = idle_s
        self._idle: list[queue.SimpleQueue[Any]] = []  # each idle thread's inbox, last used on top
        self._lock = threading.Lock()

    def submit(self, fn: Callable[[], str]) -> concurrent.futures.Future[str]:
        future: concurrent.futures.Future[str] = concurrent.futures.Future()
        with self._lock:
            inbox = self._idle.pop() if self._idle else None
        if inbox is None:
            inbox = queue.SimpleQueue()
            threading.Thread(target=self._work, args=(inbox,), daemon=True, name="wirelab-tool-call").start()
        inbox.put((fn, future))
        return future

    def _work(self, inbox: queue.SimpleQueue[Any]) -> None:
        while True:
            try:
                fn, future = inbox.get(timeout=self.idle_s)
            except queue.Empty:
                with self._lock:
                    if any(idle is inbox for idle in self._idle):
                        self._idle.remove(inbox)
                        return
                continue  # handed a call just as the wait ran out: it is on its way
            if not future.set_running_or_notify_cancel():  # cancelled before it started
                with self._lock:
                    self._idle.append(inbox)
                continue
            try:
                outcome, failed = fn(), False
            except BaseException as e:  # handed to whoever waits on the future
                outcome, failed = e, True
            with self._lock:  # idle before the result is out: the caller's next call finds this thread
                self._idle.append(inbox)
            if failed:
                future.set_exception(outcome)
            else:
                future.set_result(outcome)
            del fn, future, outcome

    def forget_all(self) -> None:
        """In a forked child: the parent's threads are not there."""
        self._idle, self._lock = [], threading.Lock()


_WORKERS = _Workers()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_WORKERS.forget_all)


def _in_daemon_thread(fn: Callable[[], str]) -> concurrent.futures.Future[str]:
    """Run `fn` in a daemon thread (a kept one when idle), so a call abandoned after its timeout
    never blocks exit."""
    return _WORKERS.submit(fn)


def _checked_limits(max_parallel: int, timeout_s: float | None) -> tuple[int, float | None]:
    """The executors' limits, refused with a clear message when they make no sense."""
    if max_parallel < 1:
        raise ValueError(f"max_parallel must be at least 1, not {max_parallel}")
    if timeout_s is not None and timeout_s <= 0:
        raise ValueError(f"timeout_s must be positive, not {timeout_s}")
    return max_parallel, timeout_s


class ThreadExecutor:
    """An `Executor` for `run_tool_loop` that runs the reads of a turn in threads.

    `run` executes one call (default: the loop's `execute_tool_call`; lesson 05
    passes a validating one). `store` keeps idempotency keys across turns: pass
    one store per conversation.
    """

    def __init__(
        self,
        max_parallel: int = 8,
        timeout_s: float | None = None,
        run: CallRunner = execute_tool_call,
        store: IdempotencyStore | None = None,
    ) -> None:
        self.max_parallel, self.timeout_s = _checked_limits(max_parallel, timeout_s)
        self.store = store or IdempotencyStore()
        self.run = once(run, self.store)

    def __call__(self, calls: Sequence[Message], tools: ToolRegistry) -> list[str]:
        results: list[str] = [""] * len(calls)
        for phase in phases(calls, tools):
            self._run_phase(phase, calls, tools, results)
        return results

    def _run_phase(
        self, phase: list[int], calls: Sequence[Message], tools: ToolRegistry, results: list[str]
    ) -> None:
        """Run one phase's calls, at most `max_parallel` at once, each in a kept daemon thread.

        A call's timeout runs from its start; at the timeout it is abandoned (its
        thread runs on) and its slot goes to the next call. A runner that raises
        stops the turn once the phase is over, with the first such call's exception.
        """
        waiting = list(reversed(phase))  # pop() takes them in call order
        running: dict[concurrent.futures.Future[str], tuple[int, float | None]] = {}
        failures: dict[int, BaseException] = {}
        while waiting or running:
            while waiting and len(running) < self.max_parallel:
                index = waiting.pop()
                deadline = None if self.timeout_s is None else time.monotonic() + self.timeout_s
                running[_in_daemon_thread(functools.partial(self.run, calls[index], tools))] = (
                    index,
                    deadline,
                )
            deadlines = [deadline for _, deadline in running.values() if deadline is not None]
            wait_s = max(0.0, min(deadlines) - time.monotonic()) if deadlines else None
            done, _ = concurrent.futures.wait(running, wait_s, concurrent.futures.FIRST_COMPLETED)
            now = time.monotonic()
            for future, (index, deadline) in list(running.items()):
                if future in done:
                    error = future.exception()
                    if error is None:
                        results[index] = future.result()
                    else:
                        failures[index] = error
                elif deadline is not None and now >= deadline:
                    results[index] = timeout_error(calls[index], self.timeout_s or 0)
                else:
                    continue
                del running[future]
        if failures:
            raise failures[min(failures)]


async def execute_tool_call_async(call: Message, tools: ToolRegistry) -> str:
    """`execute_tool_call` for the event loop: `async def` tools are awaited, others run in a thread."""
    tool = tools.get(call["function"]["name"])
    if tool is None or not inspect.iscoroutinefunction(tool.function):
        return await asyncio.wrap_future(_in_daemon_thread(lambda: execute_tool_call(call, tools)))
    try:
        arguments = parse_arguments(call)
        inspect.signature(tool.function).bind(**arguments)
    except ToolError as e:
        return e.content()
    except TypeError as e:
        return ToolError("invalid_arguments", str(e)).content()
    return await _awaited(tool, arguments)


async def _awaited(tool: Tool, arguments: dict[str, Any]) -> str:
    try:
        result = await tool(**arguments)
    except ToolError as e:
        return e.content()
    except Exception as e:  # a tool's bug is reported to the model, as in the sequential loop
        return ToolError("tool_failed", f"{type(e).__name__}: {e}").content()
    return result if isinstance(result, str) else json.dumps(result, ensure_ascii=False, default=str)


class AsyncioExecutor:
    """An `Executor` that runs a turn's reads as concurrent tasks on an event loop.

    Awaitable directly (`await executor.run(calls, tools)`) or called like any
    executor; called from a thread that already runs a loop (a notebook), it
    runs its own loop in a helper thread. Unlike a thread, a timed-out `async`
    tool is cancelled, and a cancelled write may be tried again.
    """

    def __init__(
        self, max_parallel: int = 8, timeout_s: float | None = None, store: IdempotencyStore | None = None
    ) -> None:
        self.max_parallel, self.timeout_s = _checked_limits(max_parallel, timeout_s)
        self.store = store or IdempotencyStore()
        self._in_thread = once(execute_tool_call, self.store)

    def __call__(self, calls: Sequence[Message], tools: ToolRegistry) -> list[str]:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(self.run(calls, tools))
        return _in_daemon_thread(lambda: asyncio.run(self.run(calls, tools))).result()

    async def run(self, calls: Sequence[Message], tools: ToolRegistry) -> list[str]:
        limit, results = asyncio.Semaphore(self.max_parallel), [""] * len(calls)

        async def one(index: int) -> None:
            async with limit:
                results[index] = await self._timed(calls[index], tools)

        for phase in phases(calls, tools):
            await asyncio.gather(*(one(i) for i in phase))
        return results

    async def _timed(self, call: Message, tools: ToolRegistry) -> str:
        try:
            return await asyncio.wait_for(self._execute(call, tools), self.timeout_s)
        except TimeoutError:
            return timeout_error(call, self.timeout_s or 0)

    async def _execute(self, call: Message, tools: ToolRegistry) -> str:
        tool = tools.get(call["function"]["name"])
        if tool is None or not inspect.iscoroutinefunction(tool.function):
            return await asyncio.wrap_future(_in_daemon_thread(lambda: self._in_thread(call, tools)))
        if not is_write(tool):
            return await execute_tool_call_async(call, tools)
        key = idempotency_key(call)
        earlier = self.store.claim(key)
        if earlier is not None:
            return earlier
        content = ToolError("cancelled", "the write was cancelled before it finished").content()
        try:
            content = await execute_tool_call_async(call, tools)
        finally:
            self.store.finish(key, content)
        return content
