"""`tools/call` round trips: our from-scratch MCP server against one built with the official SDK.

Both servers expose the same tool, `add(a, b)`, and run as subprocesses. For
each transport (stdio, Streamable HTTP in the 2025-11-25 era) and each client
(ours, the SDK's `ClientSession`) this measures, in the same run and
interleaved round by round so that a busy machine slows both alike:

- latency: one call at a time, p50 and p99 in milliseconds;
- throughput: calls per second with `--concurrency` calls in flight.

It prints a Markdown table per row and the ratios SDK / ours (above 1: ours is
faster). No pass/fail. The SDK's HTTP server runs with `json_response=True`, as
ours answers a plain call with JSON (the SDK's default is one SSE stream per POST).
The SDK's `add` returns `structuredContent` too (its default for an `int` return).
Both HTTP servers run under `uvicorn.run` with a host and a port, as the SDK's
`run_streamable_http_async` does, each in its own process.

    .venv/bin/python benchmarks/mcp_roundtrip.py [--calls 200] [--rounds 3]
    .venv/bin/python benchmarks/mcp_roundtrip.py serve ours|sdk stdio|http [PORT]  # one server
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field

SERVERS = ("ours", "sdk")
CLIENTS = ("ours", "sdk")
TRANSPORTS = ("stdio", "http")
WARMUP_CALLS = 20

Call = Callable[[int], Awaitable[object]]


# --- the two servers (run in their own process) ---


def serve_ours(transport: str, port: int) -> None:
    import uvicorn

    from wirelab.mcp.http import McpHttpApp
    from wirelab.mcp.server import Server
    from wirelab.mcp.stdio import run_stdio

    server = Server("wirelab-bench")

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    if transport == "stdio":
        run_stdio(server)
        return
    uvicorn.run(
        McpHttpApp(server).starlette, host="127.0.0.1", port=port, log_level="warning", lifespan="off"
    )


def serve_sdk(transport: str, port: int) -> None:
    from mcp.server import MCPServer

    server = MCPServer("sdk-bench", log_level="WARNING")

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    if transport == "stdio":
        server.run("stdio")
    else:
        asyncio.run(server.run_streamable_http_async(host="127.0.0.1", port=port, json_response=True))


def server_command(server: str, transport: str, port: int = 0) -> list[str]:
    return [sys.executable, __file__, "serve", server, transport, str(port)]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def http_server(server: str):
    """Start `server` on HTTP in a subprocess; yields its URL once it accepts connections."""
    port = free_port()
    process = subprocess.Popen(server_command(server, "http", port))
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                break
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError(f"the {server} HTTP server did not start")
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(10)


# --- the two clients ---


@contextlib.asynccontextmanager
async def our_client(transport: str, target: str | list[str]) -> AsyncIterator[Call]:
    from wirelab.mcp.client import Client
    from wirelab.mcp.http_client import connect_http
    from wirelab.mcp.stdio import StdioClientTransport

    if transport == "stdio":
        opened = Client(StdioClientTransport(target), timeout=60)
    else:
        opened = connect_http(target, timeout=60)
    async with opened as client:
        yield lambda i: client.call_tool("add", {"a": i, "b": 1})


@contextlib.asynccontextmanager
async def sdk_client(transport: str, target: str | list[str]) -> AsyncIterator[Call]:
    from mcp import ClientSession, StdioServerParameters, stdio_client
    from mcp.client.streamable_http import streamable_http_client

    if transport == "stdio":
        streams = stdio_client(StdioServerParameters(command=target[0], args=target[1:]))
    else:
        streams = streamable_http_client(target)
    async with streams as (read, write, *_), ClientSession(read, write) as session:
        await session.initialize()
        yield lambda i: session.call_tool("add", {"a": i, "b": 1})


# --- measuring ---


@dataclass
class Row:
    transport: str
    client: str
    server: str
    latencies: list[float] = field(default_factory=list)
    rates: list[float] = field(default_factory=list)

    def percentile(self, q: int) -> float:
        """The q-th percentile latency in ms, e.g. q=50 for the median."""
        return statistics.quantiles(self.latencies, n=100, method="inclusive")[q - 1] * 1e3

    @property
    def rate(self) -> float:
        return statistics.median(self.rates)


async def measure(call: Call, calls: int, concurrency: int) -> tuple[list[float], float]:
    """Latencies of `calls` calls one at a time, then calls per second with `concurrency` in flight."""
    for i in range(WARMUP_CALLS):
        await call(i)
    latencies = []
    for i in range(calls):
        started = time.perf_counter()
        await call(i)
        latencies.append(time.perf_counter() - started)
    limit = asyncio.Semaphore(concurrency)

    async def one(i: int) -> None:
        async with limit:
            await call(i)

    started = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(calls)))
    return latencies, calls / (time.perf_counter() - started)


async def measure_row(row: Row, target: str | list[str], calls: int, concurrency: int) -> None:
    client = our_client if row.client == "ours" else sdk_client
    async with client(row.transport, target) as call:
        latencies, rate = await measure(call, calls, concurrency)
    row.latencies += latencies
    row.rates.append(rate)


def run_round(rows: dict[tuple[str, str, str], Row], calls: int, concurrency: int, flip: bool) -> None:
    """One round: every row once; the two servers take turns going first."""
    servers = SERVERS[::-1] if flip else SERVERS
    for transport in TRANSPORTS:
        for server in servers:
            with contextlib.ExitStack() as stack:
                target = (
                    server_command(server, "stdio")
                    if transport == "stdio"
                    else stack.enter_context(http_server(server))
                )
                for client in CLIENTS:
                    print(f"  {transport} / {client} client / {server} server", file=sys.stderr)
                    asyncio.run(measure_row(rows[transport, client, server], target, calls, concurrency))


# --- reporting ---


def report(rows: dict[tuple[str, str, str], Row], calls: int, rounds: int, concurrency: int) -> None:
    print(
        f"`tools/call` of `add(a, b)`; {rounds} rounds of {calls} sequential calls (latency) and "
        f"{calls} calls with {concurrency} in flight (throughput) per row.\n"
    )
    print("| transport | client | server | p50 ms | p99 ms | calls/s |")
    print("|---|---|---|---:|---:|---:|")
    for row in rows.values():
        print(
            f"| {row.transport} | {row.client} | {row.server} | {row.percentile(50):.2f} | "
            f"{row.percentile(99):.2f} | {row.rate:,.0f} |"
        )
    print("\nRatios SDK server / our server (above 1: ours is faster; for calls/s, ours / SDK):\n")
    print("| transport | client | p50 | p99 | calls/s |")
    print("|---|---|---:|---:|---:|")
    for transport in TRANSPORTS:
        for client in CLIENTS:
            ours, sdk = rows[transport, client, "ours"], rows[transport, client, "sdk"]
            print(
                f"| {transport} | {client} | {sdk.percentile(50) / ours.percentile(50):.2f}x | "
                f"{sdk.percentile(99) / ours.percentile(99):.2f}x | {ours.rate / sdk.rate:.2f}x |"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200, help="calls per row and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args()
    rows = {(t, c, s): Row(t, c, s) for t in TRANSPORTS for c in CLIENTS for s in SERVERS}
    for number in range(args.rounds):
        print(f"round {number + 1} of {args.rounds}", file=sys.stderr)
        run_round(rows, args.calls, args.concurrency, flip=number % 2 == 1)
    report(rows, args.calls, args.rounds, args.concurrency)


if __name__ == "__main__":
    if sys.argv[1:2] == ["serve"]:
        _, _, which, transport, *port = sys.argv
        (serve_ours if which == "ours" else serve_sdk)(transport, int(port[0]) if port else 0)
    else:
        main()
