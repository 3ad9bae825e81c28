"""Parallel executors: call order kept, timeouts and failures contained, writes serial and once."""

import asyncio
import json
import threading
import time

import pytest

from wirelab.errors import ToolError
from wirelab.parallel import (
    AsyncioExecutor,
    IdempotencyStore,
    ThreadExecutor,
    idempotency_key,
    phases,
    writes,
)
from wirelab.tools import ToolRegistry, tool

BARRIER_WAIT_S = 5


def call(name, arguments=None, call_id=None):
    arguments = arguments or {}
    return {
        "id": call_id or f"call_{name}",
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)},
    }


def together(n):
    """A tool that returns only when `n` callers are inside it at once: proof of concurrency."""
    barrier = threading.Barrier(n, timeout=BARRIER_WAIT_S)

    def meet(city: str) -> str:
        """Wait for the others."""
        barrier.wait()
        return city

    return meet


def test_reads_run_at_the_same_time_and_results_keep_the_call_order():
    tools = ToolRegistry([together(3)])
    calls = [call("meet", {"city": c}, f"call_{c}") for c in ("Oslo", "Rome", "Lima")]
    assert ThreadExecutor(max_parallel=3)(calls, tools) == ["Oslo", "Rome", "Lima"]


def test_results_keep_the_call_order_even_when_later_calls_finish_first():
    first_may_finish = threading.Event()

    def slow(n: int) -> int:
        """Finishes last."""
        first_may_finish.wait(BARRIER_WAIT_S)
        return n

    def fast(n: int) -> int:
        """Finishes first and lets `slow` go."""
        first_may_finish.set()
        return n

    results = ThreadExecutor()([call("slow", {"n": 1}), call("fast", {"n": 2})], ToolRegistry([slow, fast]))
    assert results == ["1", "2"]


def test_a_call_past_its_timeout_gets_a_timeout_error_and_the_others_still_succeed():
    never = threading.Event()

    def hang() -> str:
        """Never answers in time."""
        never.wait(BARRIER_WAIT_S)
        return "late"

    def quick() -> str:
        """Answers at once."""
        return "ok"

    results = ThreadExecutor(timeout_s=0.05)([call("hang"), call("quick")], ToolRegistry([hang, quick]))
    never.set()
    assert json.loads(results[0])["error"]["code"] == "timeout"
    assert results[1] == "ok"


def test_one_failing_call_does_not_sink_the_batch():
    def boom() -> str:
        """Fails."""
        raise RuntimeError("disk full")

    def fine() -> str:
        """Works."""
        return "fine"

    results = ThreadExecutor()([call("boom"), call("fine")], ToolRegistry([boom, fine]))
    assert json.loads(results[0])["error"] == {"code": "tool_failed", "message": "RuntimeError: disk full"}
    assert results[1] == "fine"


def test_no_more_than_max_parallel_calls_run_at_once():
    inside, most, lock = 0, 0, threading.Lock()
    two_in = threading.Barrier(2, timeout=BARRIER_WAIT_S)

    def count(n: int) -> int:
        """Records how many run together."""
        nonlocal inside, most
        with lock:
            inside += 1
            most = max(most, inside)
        two_in.wait()
        with lock:
            inside -= 1
        return n

    ThreadExecutor(max_parallel=2)([call("count", {"n": i}) for i in range(4)], ToolRegistry([count]))
    assert most == 2


def test_writes_form_phases_of_their_own_and_reads_between_them_share_one():
    @writes
    def save(n: int) -> int:
        """Writes."""
        return n

    def read(n: int) -> int:
        """Reads."""
        return n

    tools = ToolRegistry([save, read])
    names = ["read", "read", "save", "save", "read"]
    assert phases([call(n, {"n": 1}) for n in names], tools) == [[0, 1], [2], [3], [4]]


def test_writes_never_overlap_even_in_one_batch():
    inside, overlapped, lock = 0, False, threading.Lock()

    @writes
    def book(room: str) -> str:
        """Books a room."""
        nonlocal inside, overlapped
        with lock:
            inside += 1
        time.sleep(0.02)  # room for a second write to come in, were writes run in parallel
        with lock:
            overlapped = overlapped or inside > 1
            inside -= 1
        return room

    calls = [call("book", {"room": r}, f"call_{r}") for r in "ABCD"]
    assert ThreadExecutor(max_parallel=4)(calls, ToolRegistry([book])) == list("ABCD")
    assert not overlapped


def test_an_idempotency_key_names_the_tool_and_arguments_not_the_call_id():
    a = call("pay", {"amount": 5, "to": "ann"}, "call_1")
    b = {**call("pay", {}, "call_2"), "function": {"name": "pay", "arguments": '{"to": "ann", "amount": 5}'}}
    assert idempotency_key(a) == idempotency_key(b)
    assert idempotency_key(a) != idempotency_key(call("pay", {"amount": 6, "to": "ann"}))


def test_a_repeated_write_runs_once_and_returns_the_first_result():
    done = []

    @writes
    def pay(amount: int) -> str:
        """Pays."""
        done.append(amount)
        return f"paid {amount}, receipt {len(done)}"

    executor, tools = ThreadExecutor(), ToolRegistry([pay])
    first = executor([call("pay", {"amount": 5}, "call_1")], tools)
    again = executor([call("pay", {"amount": 5}, "call_2")], tools)
    assert done == [5] and first == again == ["paid 5, receipt 1"]


def test_a_failed_write_is_not_remembered_so_it_can_be_tried_again():
    attempts = []

    @writes
    def pay(amount: int) -> str:
        """Fails the first time."""
        attempts.append(amount)
        if len(attempts) == 1:
            raise ToolError("declined", "card declined")
        return "paid"

    executor, tools = ThreadExecutor(), ToolRegistry([pay])
    executor([call("pay", {"amount": 5})], tools)
    assert executor([call("pay", {"amount": 5})], tools) == ["paid"]
    assert len(attempts) == 2


def test_a_write_still_running_is_reported_in_progress_instead_of_started_twice():
    store = IdempotencyStore()
    assert store.claim("k") is None
    assert json.loads(store.claim("k"))["error"]["code"] == "in_progress"
    store.finish("k", "done")
    assert store.claim("k") == "done"


def test_the_asyncio_executor_awaits_async_tools_concurrently_in_call_order():
    arrived = []

    async def meet(city: str) -> str:
        """Waits until all three are in."""
        arrived.append(city)
        while len(arrived) < 3:
            await asyncio.sleep(0.001)
        return city

    calls = [call("meet", {"city": c}, f"call_{c}") for c in ("Oslo", "Rome", "Lima")]
    assert AsyncioExecutor()(calls, ToolRegistry([meet])) == ["Oslo", "Rome", "Lima"]


def test_the_asyncio_executor_runs_plain_functions_in_threads_concurrently():
    calls = [call("meet", {"city": c}, f"call_{c}") for c in ("Oslo", "Rome")]
    assert AsyncioExecutor()(calls, ToolRegistry([together(2)])) == ["Oslo", "Rome"]


def test_the_asyncio_executor_cancels_an_async_call_past_its_timeout():
    async def hang() -> str:
        """Never answers."""
        await asyncio.sleep(BARRIER_WAIT_S)
        return "late"

    async def quick() -> str:
        """Answers."""
        return "ok"

    results = AsyncioExecutor(timeout_s=0.05)([call("hang"), call("quick")], ToolRegistry([hang, quick]))
    assert json.loads(results[0])["error"]["code"] == "timeout" and results[1] == "ok"


def test_the_asyncio_executor_reports_bad_arguments_and_crashes_of_async_tools_as_errors():
    async def crash(n: int) -> str:
        """Crashes."""
        raise ValueError("bad n")

    results = AsyncioExecutor()(
        [call("crash", {"n": 1}), call("crash", {"m": 1}), call("missing")], ToolRegistry([crash])
    )
    assert [json.loads(r)["error"]["code"] for r in results] == [
        "tool_failed",
        "invalid_arguments",
        "unknown_tool",
    ]


def test_the_asyncio_executor_also_works_inside_a_running_event_loop():
    def echo(text: str) -> str:
        """Echo."""
        return text

    async def main():
        return AsyncioExecutor()([call("echo", {"text": "hi"})], ToolRegistry([echo]))

    assert asyncio.run(main()) == ["hi"]


@pytest.mark.parametrize("make", [ThreadExecutor, AsyncioExecutor])
@pytest.mark.parametrize("options", [{"max_parallel": 0}, {"timeout_s": 0}, {"timeout_s": -1}])
def test_nonsense_limits_are_refused(make, options):
    with pytest.raises(ValueError):
        make(**options)


def test_a_call_runs_in_one_abandonable_thread_that_later_turns_reuse():
    def where(city: str) -> str:
        """Name the thread that runs the call."""
        thread = threading.current_thread()
        return f"{thread.name} {thread.daemon} {thread.ident}"

    tools = ToolRegistry([tool(where)])
    call = [{"id": "c", "type": "function", "function": {"name": "where", "arguments": '{"city": "x"}'}}]
    first = ThreadExecutor()(call, tools)[0]
    assert first.startswith("wirelab-tool-call True ")  # a daemon: a hung call never blocks exit
    assert ThreadExecutor()(call, tools)[0] == first  # kept: a turn starts no thread when one is idle
    assert ThreadExecutor(timeout_s=5)(call, tools)[0] == first  # a timeout adds no second thread


def test_a_thread_left_running_by_a_timed_out_call_is_not_handed_the_next_call():
    release, hung_in = threading.Event(), []

    def hang() -> str:
        """Holds its thread until released."""
        hung_in.append(str(threading.current_thread().ident))
        release.wait(BARRIER_WAIT_S)
        return "late"

    def where() -> str:
        """The thread that runs it."""
        return str(threading.current_thread().ident)

    tools = ToolRegistry([hang, where])
    executor = ThreadExecutor(timeout_s=1)
    try:
        assert json.loads(executor([call("hang")], tools)[0])["error"]["code"] == "timeout"
        ran_in = executor([call("where")], tools)[0]
        assert ran_in.isdigit(), ran_in  # it ran, and did not time out queued behind the hung call
        assert ran_in not in hung_in
    finally:
        release.set()


def test_a_runner_that_raises_stops_the_turn_with_its_exception():
    def run(call, tools):
        if call["id"] == "call_bad":
            raise KeyError("runner bug")
        return "ok"

    executor = ThreadExecutor(run=run)
    with pytest.raises(KeyError, match="runner bug"):
        executor([call("a", call_id="call_ok"), call("b", call_id="call_bad")], ToolRegistry([]))
