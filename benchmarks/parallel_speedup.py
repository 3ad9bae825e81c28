"""Lesson 04's parallel executors against serial execution, for N = 1…16 tool calls.

Each tool call does real I/O: an HTTP GET to a local server that answers after
`--delay-ms` (a stand-in for a weather API). The server runs in its own process,
as a remote API would: in this process its threads would compete with the
client's for the GIL and be counted as the executor's overhead. For every N this
times one turn of N calls run by `execute_sequentially` (the loop's default),
`ThreadExecutor` (sync tool, threads) and `AsyncioExecutor` (an `async def` tool
on the event loop), the three interleaved, `--repeats` times; each speedup over
serial is taken repeat by repeat and shown as median [interquartile range], next
to the ideal N× and the efficiency (median speedup / N). No pass/fail. The
section it writes into results.md is stamped with the date and the commit.

    .venv/bin/python benchmarks/parallel_speedup.py [--delay-ms 50] [--repeats 5] [--no-write]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import json
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from wirelab.loop import execute_sequentially
from wirelab.parallel import AsyncioExecutor, ThreadExecutor
from wirelab.tools import Tool, ToolRegistry, tool

MAX_CALLS = 16
TITLE = "Parallel tool calls: lesson 04's executors vs serial"


class SlowHandler(BaseHTTPRequestHandler):
    """Answers every GET after the server's delay, like a remote API would."""

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


def weather_tools(base: str) -> tuple[Tool, Tool]:
    """The same read-only tool twice: a blocking one (for threads) and an `async def` one."""

    def weather(city: str) -> str:
        """Current weather for a city (one HTTP GET)."""
        with urllib.request.urlopen(f"{base}/weather/{city}", timeout=30) as response:
            return response.read().decode()

    async def weather_async(city: str) -> str:
        """Current weather for a city (one HTTP GET on the event loop)."""
        host, port = base.removeprefix("http://").split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(f"GET /weather/{city} HTTP/1.0\r\nHost: {host}\r\n\r\n".encode())
        answer = await reader.read()
        writer.close()
        return answer.split(b"\r\n\r\n", 1)[1].decode()

    return tool(weather), tool(weather_async, name="weather")


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


def timed(execute: Callable, n: int, tools: ToolRegistry) -> float:
    """Seconds for `execute` to run one turn of n calls (and check every result came back)."""
    started = time.perf_counter()
    results = execute(calls(n), tools)
    seconds = time.perf_counter() - started
    assert len(results) == n and all('"path"' in r for r in results), results
    return seconds


def spread(values: list[float], digits: int = 1) -> str:
    """Median with the interquartile range: `11.9x [11.2–12.4]`."""
    if len(values) < 2:
        return f"{values[0]:.{digits}f}x"
    q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return f"{median:.{digits}f}x [{q1:.{digits}f}–{q3:.{digits}f}]"


def table(delay_ms: float, repeats: int) -> str:
    with slow_api(delay_ms / 1000) as base:
        blocking, awaiting = weather_tools(base)
        sync_tools, async_tools = ToolRegistry([blocking]), ToolRegistry([awaiting])
        threads, tasks = ThreadExecutor(max_parallel=MAX_CALLS), AsyncioExecutor(max_parallel=MAX_CALLS)
        timed(threads, MAX_CALLS, sync_tools)  # warm-up: first connections, imports
        lines = [
            f"Each call is an HTTP GET to a server in another process, answered after {delay_ms:g} ms; "
            f"{repeats} interleaved repeats; `max_parallel={MAX_CALLS}`; times are medians, speedups "
            "median [interquartile range] of the repeat-by-repeat ratios.\n",
            "| N | serial ms | threads ms | asyncio ms | threads speedup | asyncio speedup | ideal | "
            "threads efficiency |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for n in range(1, MAX_CALLS + 1):
            runs = [
                (
                    timed(execute_sequentially, n, sync_tools),
                    timed(threads, n, sync_tools),
                    timed(tasks, n, async_tools),
                )
                for _ in range(repeats)
            ]
            serial, threaded, awaited = (statistics.median(column) for column in zip(*runs, strict=True))
            by_threads = [s / t for s, t, _ in runs]
            by_tasks = [s / a for s, _, a in runs]
            lines.append(
                f"| {n} | {serial * 1e3:.0f} | {threaded * 1e3:.0f} | {awaited * 1e3:.0f} | "
                f"{spread(by_threads)} | {spread(by_tasks)} | {n}x | "
                f"{statistics.median(by_threads) / n:.0%} |"
            )
    return "\n".join(lines)


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
