"""A request's CPU budget: the model's work stops, with a clear refusal, once one request has
used its CPU seconds or its client has gone.

    budget = Budget(cpu_seconds=3.0)
    reply = budget.run(complete, body)   # in the worker thread; stages call `spend()`
    budget.cancel()                      # from the server, when the client disconnects

    reply = await in_budget(request, complete, body)   # a route: both, with the app's budget

Every stage is linear in the message (`normalize.MAX_TEXT` caps it), so the budget bounds what
a missed case or a slow machine could cost. `spend()` is a no-op outside `Budget.run`, so a
notebook calling `complete` directly is never cut short. The budget reads the thread's CPU clock
(`time.thread_time`): waiting for a core on a busy machine is not charged. A thread cannot be
stopped from outside, so work stops only at the next `spend()`; the stages call it often.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, TypeVar

from wirelab.offline_model.request import RequestError

if TYPE_CHECKING:
    from starlette.requests import Request as HTTPRequest

CPU_SECONDS = 3.0  # a normal request takes milliseconds; the worst 4,000 characters, under one second
CLOCK_EVERY = 64  # `spend()` calls between two reads of the CPU clock
DISCONNECT_POLL_S = 0.05  # how often a request's worker is checked for a client that has gone
T = TypeVar("T")


class Budget:
    """The CPU seconds one request may use, and whether its client has gone."""

    def __init__(self, cpu_seconds: float = CPU_SECONDS) -> None:
        self.cpu_seconds = cpu_seconds
        self.stopped: str | None = None  # "cpu" or "client_gone" once `spend()` refused
        self._gone = threading.Event()
        self._started = 0.0
        self._calls = 0

    def run(self, work: Callable[..., T], *args: object) -> T:
        """`work(*args)` in this thread, with this budget active."""
        token = _ACTIVE.set(self)
        self._started = time.thread_time()
        try:
            return work(*args)
        finally:
            _ACTIVE.reset(token)

    def cancel(self) -> None:
        """The client has gone: the next `spend()` stops the work (safe from any thread)."""
        self._gone.set()

    def check(self) -> None:
        """Raise `RequestError` if the client has gone or the CPU budget is used up."""
        if self._gone.is_set():
            self.stopped = "client_gone"
            raise RequestError(
                499, "The client closed the connection; the work stopped.", None, "client_gone"
            )
        self._calls += 1
        if self._calls % CLOCK_EVERY == 0 and time.thread_time() - self._started > self.cpu_seconds:
            self.stopped = "cpu"
            raise RequestError(
                400,
                f"The offline model stopped reading this request after {self.cpu_seconds:g} s of CPU, "
                "its limit for one request. Send a shorter or simpler message.",
                "messages",
                "request_too_complex",
            )


_ACTIVE: ContextVar[Budget | None] = ContextVar("offline_model_budget", default=None)


def spend() -> None:
    """A stage's unit of work: raise `RequestError` if the active budget is spent or cancelled."""
    if (budget := _ACTIVE.get()) is not None:
        budget.check()


async def in_budget(request: HTTPRequest, work: Callable[..., T], *args: Any) -> T:
    """`work(*args)` in a worker thread within the app's CPU budget for one request
    (`app.state.cpu_seconds`; a 400 `request_too_complex` past it), stopped as soon as the
    client disconnects, since nobody would read the answer. `app.state.stopped` counts both."""
    # imported here, by the served path only: the stages import this module for `spend()`, and a
    # process that calls `complete()` without serving need not load asyncio and starlette
    import asyncio

    from starlette.concurrency import run_in_threadpool

    budget = Budget(request.app.state.cpu_seconds)
    task = asyncio.ensure_future(run_in_threadpool(budget.run, work, *args))
    try:
        while not (await asyncio.wait({task}, timeout=DISCONNECT_POLL_S))[0]:
            if await request.is_disconnected():
                budget.cancel()
        return task.result()
    finally:
        budget.cancel()  # if this handler was cancelled itself, its worker stops too
        if budget.stopped:
            request.app.state.stopped[budget.stopped] += 1
