"""Checks for the parallel-calls drill, run against the learner's file (see conftest.py).

No check measures time: concurrency is proven by calls that can only finish together.
"""

import asyncio
import json


def call(call_id, name, **arguments):
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}


def run(drill, calls, functions, **options):
    """Run the learner's coroutine; one that waits forever fails after 5 s instead of hanging."""
    return asyncio.run(asyncio.wait_for(drill.run_parallel(calls, functions, **options), 5))


def contents(messages):
    return [json.loads(m["content"]) for m in messages]


async def echo(value, delay=0.0):
    await asyncio.sleep(delay)
    return value


def test_results_come_back_in_call_order_whatever_finishes_first(drill):
    calls = [
        call("a", "echo", value="A", delay=0.05),
        call("b", "echo", value="B", delay=0.02),
        call("c", "echo", value="C", delay=0.0),
    ]
    messages = run(drill, calls, {"echo": echo})
    assert [m["tool_call_id"] for m in messages] == ["a", "b", "c"]
    assert [m["role"] for m in messages] == ["tool"] * 3
    assert contents(messages) == ["A", "B", "C"]


def test_the_calls_are_in_flight_at_the_same_time(drill):
    arrived, everyone = [], asyncio.Event()

    async def meet(n):
        arrived.append(n)
        if len(arrived) == 3:
            everyone.set()
        await everyone.wait()  # sequential execution never gets past this
        return n

    messages = run(drill, [call(str(n), "meet", n=n) for n in range(3)], {"meet": meet}, timeout=2.0)
    assert contents(messages) == [0, 1, 2]


def test_no_more_than_max_concurrency_calls_run_at_once(drill):
    active, peak = [0], [0]

    async def work(n):
        active[0] += 1
        peak[0] = max(peak[0], active[0])
        await asyncio.sleep(0.01)
        active[0] -= 1
        return n

    messages = run(drill, [call(str(n), "work", n=n) for n in range(6)], {"work": work}, max_concurrency=2)
    assert contents(messages) == list(range(6))
    assert peak[0] == 2


def test_a_call_past_its_timeout_fails_alone(drill):
    async def hang():
        await asyncio.Event().wait()

    messages = run(
        drill,
        [call("a", "echo", value=1), call("b", "hang"), call("c", "echo", value=3)],
        {"echo": echo, "hang": hang},
        timeout=0.2,
    )
    results = contents(messages)
    assert results[0] == 1 and results[2] == 3
    assert results[1]["error"] == "timeout"


def test_an_exception_becomes_an_error_result_for_that_call_only(drill):
    async def boom():
        raise ValueError("backend said no")

    results = contents(
        run(drill, [call("a", "boom"), call("b", "echo", value=2)], {"boom": boom, "echo": echo})
    )
    assert results[0]["error"] == "exception" and "backend said no" in results[0]["message"]
    assert results[1] == 2


def test_bad_json_and_unknown_tools_are_reported_per_call(drill):
    broken = {"id": "x", "type": "function", "function": {"name": "echo", "arguments": "{"}}
    results = contents(run(drill, [broken, call("y", "nope"), call("z", "echo", value=0)], {"echo": echo}))
    assert [r["error"] for r in results[:2]] == ["invalid_json", "unknown_tool"]
    assert results[2] == 0


def test_no_calls_give_no_messages(drill):
    assert run(drill, [], {"echo": echo}) == []
