"""Lesson 04's parallel executors against serial execution, for N = 1…16 tool calls.

Each tool call does real I/O: an HTTP GET to a local server that answers after
`--delay-ms` (a stand-in for a weather API). For every N this times one turn of
N calls run by `execute_sequentially` (the loop's default), `ThreadExecutor`
(sync tool, threads) and `AsyncioExecutor` (an `async def` tool on the event
loop), takes the median of `--repeats`, and prints the speedup over serial
next to the ideal N× and the efficiency (speedup / N). No pass/fail.

    .venv/bin/python benchmarks/parallel_speedup.py [--delay-ms 50] [--repeats 3]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from wirelab.loop import execute_sequentially
from wirelab.parallel import AsyncioExecutor, ThreadExecutor
from wirelab.tools import Tool, ToolRegistry, tool

MAX_CALLS = 16


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
    """A local HTTP server answering after `delay_s`; yields its base URL."""
    server = SlowApi(("127.0.0.1", 0), SlowHandler)
    server.delay_s = delay_s  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


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


def timed(execute: Callable, n: int, tools: ToolRegistry, repeats: int) -> float:
    """Median seconds for `execute` to run one turn of n calls (and check every result came back)."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        results = execute(calls(n), tools)
        times.append(time.perf_counter() - started)
        assert len(results) == n and all('"path"' in r for r in results), results
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay-ms", type=float, default=50.0)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with slow_api(args.delay_ms / 1000) as base:
        blocking, awaiting = weather_tools(base)
        sync_tools, async_tools = ToolRegistry([blocking]), ToolRegistry([awaiting])
        threads, tasks = ThreadExecutor(max_parallel=MAX_CALLS), AsyncioExecutor(max_parallel=MAX_CALLS)
        print(
            f"Each call is an HTTP GET answered after {args.delay_ms:g} ms; median of "
            f"{args.repeats} turns; `max_parallel={MAX_CALLS}`.\n"
        )
        print(
            "| N | serial ms | threads ms | asyncio ms | threads speedup | asyncio speedup | ideal | "
            "threads efficiency |"
        )
        print("|---:|---:|---:|---:|---:|---:|---:|---:|")
        for n in range(1, MAX_CALLS + 1):
            serial = timed(execute_sequentially, n, sync_tools, args.repeats)
            threaded = timed(threads, n, sync_tools, args.repeats)
            awaited = timed(tasks, n, async_tools, args.repeats)
            print(
                f"| {n} | {serial * 1e3:.0f} | {threaded * 1e3:.0f} | {awaited * 1e3:.0f} | "
                f"{serial / threaded:.1f}x | {serial / awaited:.1f}x | {n}x | "
                f"{serial / threaded / n:.0%} |"
            )


if __name__ == "__main__":
    main()
