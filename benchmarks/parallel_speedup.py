"""Lesson 04's parallel executors against serial execution, for N = 1…16 tool calls, and where the time goes.

Each tool call does real I/O: an HTTP GET to a local server that answers after
`--delay-ms` (a stand-in for a weather API). The server runs in its own process,
as a remote API would: in this process its threads would compete with the
client's for the GIL and be counted as the executor's overhead. For every N this
times one turn of N calls run by `execute_sequentially` (the loop's default),
`ThreadExecutor` (sync tool, threads) and `AsyncioExecutor` (an `async def` tool
on the event loop), interleaved, `--repeats` times; each speedup over serial is
taken repeat by repeat and shown as median [interquartile range], next to the
ideal N× and the efficiency (median speedup / N). No pass/fail.

To tell the executors' own cost from the cost of the I/O, the same run times two
more tools, each against its own serial baseline: one that only waits the delay
(`time.sleep` / `asyncio.sleep`: no network, so the gap to N× is the executor's),
and one whose GET goes over a kept HTTP/1.1 connection from a pool (no TCP
connect, no new server thread per call). Timestamps taken inside the tools show
when the last of the N calls starts (the executor's dispatch), and the thread
CPU time of one GET (`time.thread_time`, in the serial runs), which threads
sharing the GIL cannot overlap.

Where the time goes, at N=16 on two shared cores (run of 2026-12-04): with
sleeps alone threads reach 15.3× (96%) and asyncio 15.5×: the executors cost
about 2.6 ms a turn, and the last call starts 1.8 ms in. Part of the earlier
gap was the executor: `ThreadExecutor` started a pool per turn (and, with a
timeout, a second thread per call), and those thread starts, one after
another, delayed the last call by 4–12 ms on an idle machine and up to 90 ms on
a loaded one; it now keeps its threads (sleeps: 55 -> 52 ms a turn). The rest
is the I/O, about 6 ms a turn: a GET on a new connection costs the client
0.7 ms of CPU under the GIL (0.44 ms on a kept one), plus a TCP connect and a
new thread in the server per call, on the same two cores. A kept connection
gives 14.9×, a new one 14.2× (asyncio 14.4×). A server that answers in two
writes needs TCP_NODELAY, or a kept connection waits 40 ms per call for a
delayed ACK.

The section it writes into results.md is stamped with the date and the commit.

    .venv/bin/python benchmarks/parallel_speedup.py [--delay-ms 50] [--repeats 5] [--no-write]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from wirelab.loop import execute_sequentially
from wirelab.parallel import AsyncioExecutor, ThreadExecutor
from wirelab.tools import Tool, ToolRegistry, tool

MAX_CALLS = 16
TITLE = "Parallel tool calls: lesson 04's executors vs serial"


class SlowHandler(BaseHTTPRequestHandler):
    """Answers every GET after the server's delay, like a remote API would.

    HTTP/1.1, so a client may keep its connection; urllib (which sends
    `Connection: close`) and the HTTP/1.0 asyncio client get a new one per call.
    No Nagle: the headers and the body go out as two writes, and on a kept
    connection Nagle held the body back until the client's delayed ACK, 40 ms.
    """

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
        time.sleep(self.server.delay_s)  # type: ignore[attr-defined]
        body = json.dumps({"path": self.path}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: one line per request would swamp the output."""


class SlowApi(ThreadingHTTPServer):
    """A thread per request, and a listen backlog above 16: the default 5 drops connections
    (the client then waits a second for its retransmitted SYN)."""

    request_queue_size = 64
    daemon_threads = True


@contextlib.contextmanager
def slow_api(delay_s: float) -> Iterator[str]:
    """A local HTTP server answering after `delay_s`, in its own process; yields its base URL."""
    process = subprocess.Popen(
        [sys.executable, __file__, "serve", str(delay_s)], stdout=subprocess.PIPE, text=True
    )
    try:
        port = int(process.stdout.readline())  # the server prints its port once it listens
        with socket.create_connection(("127.0.0.1", port), 5):
            pass
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(10)
        process.stdout.close()


def serve(delay_s: float) -> None:
    server = SlowApi(("127.0.0.1", 0), SlowHandler)
    server.delay_s = delay_s  # type: ignore[attr-defined]
    print(server.server_address[1], flush=True)
    server.serve_forever()


STARTS: list[float] = []  # perf_counter() as each call enters its tool
CPU_S: list[float] = []  # thread CPU seconds of each blocking call


def marked(fn: Callable[[str], str]) -> Callable[[str], str]:
    """`fn` with its start time and thread CPU time recorded (list.append is thread-safe)."""

    def run(city: str) -> str:
        STARTS.append(time.perf_counter())
        cpu = time.thread_time()
        try:
            return fn(city)
        finally:
            CPU_S.append(time.thread_time() - cpu)

    return run


def weather_tools(base: str) -> tuple[Tool, Tool]:
    """The same read-only tool twice: a blocking one (for threads) and an `async def` one."""

    @marked
    def get(city: str) -> str:
        with urllib.request.urlopen(f"{base}/weather/{city}", timeout=30) as response:
            return response.read().decode()

    def weather(city: str) -> str:
        """Current weather for a city (one HTTP GET)."""
        return get(city)

    async def weather_async(city: str) -> str:
        """Current weather for a city (one HTTP GET on the event loop)."""
        STARTS.append(time.perf_counter())
        host, port = base.removeprefix("http://").split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(f"GET /weather/{city} HTTP/1.0\r\nHost: {host}\r\n\r\n".encode())
        answer = await reader.read()
        writer.close()
        return answer.split(b"\r\n\r\n", 1)[1].decode()

    return tool(weather), tool(weather_async, name="weather")


def sleep_tools(delay_s: float) -> tuple[Tool, Tool]:
    """The tool without the network: it only waits as long as the server would."""

    @marked
    def wait(city: str) -> str:
        time.sleep(delay_s)
        return json.dumps({"path": f"/weather/{city}"})

    def weather(city: str) -> str:
        """Waits, as a remote API would."""
        return wait(city)

    async def weather_async(city: str) -> str:
        """Waits on the event loop."""
        STARTS.append(time.perf_counter())
        await asyncio.sleep(delay_s)
        return json.dumps({"path": f"/weather/{city}"})

    return tool(weather), tool(weather_async, name="weather")


class Connections:
    """Kept HTTP/1.1 connections to the server, one per call in flight, reused by later calls."""

    def __init__(self, base: str) -> None:
        self.host, port = base.removeprefix("http://").split(":")
        self.port, self._free, self._lock = int(port), [], threading.Lock()

    def get(self, path: str) -> str:
        with self._lock:
            connection = self._free.pop() if self._free else None
        connection = connection or http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            connection.request("GET", path)
            body = connection.getresponse().read().decode()
        except BaseException:
            connection.close()
            raise
        with self._lock:
            self._free.append(connection)
        return body

    def close(self) -> None:
        for connection in self._free:
            connection.close()


def kept_tool(connections: Connections) -> Tool:
    @marked
    def get(city: str) -> str:
        return connections.get(f"/weather/{city}")

    def weather(city: str) -> str:
        """Current weather for a city (one HTTP GET on a kept connection)."""
        return get(city)

    return tool(weather)


def calls(n: int) -> list[dict]:
    """N tool calls as a model sends them in one assistant message."""
    return [
        {
            "id": f"call_{i}",
            "type": "function",
            "function": {"name": "weather", "arguments": json.dumps({"city": f"city{i}"})},
        }
        for i in range(n)
    ]


@dataclass
class Run:
    seconds: float
    last_start_s: float  # from the turn's start to the last call's start
    cpu_s: list[float]  # thread CPU time of each blocking call


def timed(execute: Callable, n: int, tools: ToolRegistry) -> Run:
    """One turn of n calls run by `execute` (checking every result came back)."""
    STARTS.clear()
    CPU_S.clear()
    started = time.perf_counter()
    results = execute(calls(n), tools)
    seconds = time.perf_counter() - started
    assert len(results) == n and all('"path"' in r for r in results), results
    return Run(seconds, max(STARTS) - started, list(CPU_S))


def spread(values: list[float], digits: int = 1) -> str:
    """Median with the interquartile range: `11.9x [11.2–12.4]`."""
    if len(values) < 2:
        return f"{values[0]:.{digits}f}x"
    q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return f"{median:.{digits}f}x [{q1:.{digits}f}–{q3:.{digits}f}]"


# The tools, each timed serially and by the executors: a new connection per GET, a wait, a kept connection.
WORKS = ("http", "sleep", "kept")


def table(delay_ms: float, repeats: int) -> str:
    with slow_api(delay_ms / 1000) as base:
        connections = Connections(base)
        blocking, awaiting = weather_tools(base)
        sleeping, sleeping_async = sleep_tools(delay_ms / 1000)
        registry = {
            "http": (ToolRegistry([blocking]), ToolRegistry([awaiting])),
            "sleep": (ToolRegistry([sleeping]), ToolRegistry([sleeping_async])),
            "kept": (ToolRegistry([kept_tool(connections)]), None),
        }
        threads, tasks = ThreadExecutor(max_parallel=MAX_CALLS), AsyncioExecutor(max_parallel=MAX_CALLS)
        for work in WORKS:  # warm-up: first connections, imports, the executors' threads
            timed(threads, MAX_CALLS, registry[work][0])
        rows = []
        for n in range(1, MAX_CALLS + 1):
            runs: list[dict[str, Run]] = []
            for _ in range(repeats):
                run: dict[str, Run] = {}
                for work in WORKS:
                    sync_tools, async_tools = registry[work]
                    run[f"{work} serial"] = timed(execute_sequentially, n, sync_tools)
                    run[f"{work} threads"] = timed(threads, n, sync_tools)
                    if async_tools is not None:
                        run[f"{work} asyncio"] = timed(tasks, n, async_tools)
                runs.append(run)
            rows.append(runs)
        connections.close()
    return report(rows, delay_ms, repeats)


def speedups(runs: list[dict[str, Run]], column: str) -> list[float]:
    """Repeat by repeat: serial seconds of the same work / this column's seconds."""
    work = column.split()[0]
    return [run[f"{work} serial"].seconds / run[column].seconds for run in runs]


def median_ms(runs: list[dict[str, Run]], column: str, field: str = "seconds") -> float:
    return statistics.median(getattr(run[column], field) for run in runs) * 1e3


def report(rows: list[list[dict[str, Run]]], delay_ms: float, repeats: int) -> str:
    lines = [
        f"Each call is an HTTP GET to a server in another process, answered after {delay_ms:g} ms "
        f"(a new connection per call); {repeats} interleaved repeats; `max_parallel={MAX_CALLS}`; times "
        "are medians, speedups median [interquartile range] of the repeat-by-repeat ratios.\n",
        "| N | serial ms | threads ms | asyncio ms | threads speedup | asyncio speedup | ideal | "
        "threads efficiency |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for n, runs in enumerate(rows, 1):
        by_threads = speedups(runs, "http threads")
        lines.append(
            f"| {n} | {median_ms(runs, 'http serial'):.0f} | {median_ms(runs, 'http threads'):.0f} | "
            f"{median_ms(runs, 'http asyncio'):.0f} | {spread(by_threads)} | "
            f"{spread(speedups(runs, 'http asyncio'))} | {n}x | {statistics.median(by_threads) / n:.0%} |"
        )
    lines += [
        "",
        "Where the time goes, in the same run: each speedup is over serial execution of the same tool. "
        f"*sleep*: the tool only waits {delay_ms:g} ms, no network; *kept*: the GET goes over a kept "
        "HTTP/1.1 connection (no connect, no new server thread); *new*: the table above. *last start*: "
        "from the turn's start to the moment the last call enters its tool (median).\n",
        "| N | threads, sleep | asyncio, sleep | threads, kept | threads, new | asyncio, new | ideal | "
        "last start, threads sleep ms | last start, threads new ms |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for n, runs in enumerate(rows, 1):
        lines.append(
            f"| {n} | {spread(speedups(runs, 'sleep threads'))} | "
            f"{spread(speedups(runs, 'sleep asyncio'))} | "
            f"{spread(speedups(runs, 'kept threads'))} | {spread(speedups(runs, 'http threads'))} | "
            f"{spread(speedups(runs, 'http asyncio'))} | {n}x | "
            f"{median_ms(runs, 'sleep threads', 'last_start_s'):.1f} | "
            f"{median_ms(runs, 'http threads', 'last_start_s'):.1f} |"
        )
    return "\n".join(lines) + "\n\n" + where_the_time_goes(rows, delay_ms)


def where_the_time_goes(rows: list[list[dict[str, Run]]], delay_ms: float) -> str:
    """The paragraph under the tables, from this run's numbers at the largest N."""
    n, runs = len(rows), rows[-1]

    def at_n(column: str) -> str:
        median = statistics.median(speedups(runs, column))
        return f"{median:.1f}× ({median / n:.0%})"

    def cpu_ms(work: str) -> float:
        return statistics.median(s for run in rows_all for s in run[f"{work} serial"].cpu_s) * 1e3

    rows_all = [run for row in rows for run in row]
    overhead = median_ms(runs, "sleep threads") - delay_ms
    return (
        f"**Where the time goes.** With sleeps alone, threads reach {at_n('sleep threads')} at N={n} and "
        f"asyncio {at_n('sleep asyncio')}: a turn of {n} waits takes {overhead:.1f} ms more than one wait "
        f"with threads, and the last call starts {median_ms(runs, 'sleep threads', 'last_start_s'):.1f} ms "
        "into the turn. That is the executors' own cost. The rest is the I/O: on a kept connection "
        f"threads reach {at_n('kept threads')}, with a new connection per call {at_n('http threads')} "
        f"(asyncio {at_n('http asyncio')}). One GET costs the client {cpu_ms('http'):.2f} ms of thread CPU "
        f"on a new connection and {cpu_ms('kept'):.2f} ms on a kept one; under the GIL {n} calls cannot "
        "overlap that, and the TCP connects and the server's new thread per connection share the same "
        f"{os.cpu_count()} cores with the client's {n} threads."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay-ms", type=float, default=50.0)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-write", action="store_true", help="print only; leave results.md alone")
    args = parser.parse_args()
    started = time.perf_counter()
    text = table(args.delay_ms, args.repeats)
    print(text)
    if not args.no_write:
        from run_all import git_commit, machine_load, update_section

        stamp = f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, commit {git_commit()}"
        command = " ".join(["python benchmarks/parallel_speedup.py", *sys.argv[1:]])
        update_section(
            TITLE,
            f"## {TITLE}\n\n`{command}`, {time.perf_counter() - started:.0f} s; {stamp}; "
            f"{machine_load()}.\n\n{text}\n",
        )


if __name__ == "__main__":
    if sys.argv[1:2] == ["serve"]:
        serve(float(sys.argv[2]))
    else:
        main()
