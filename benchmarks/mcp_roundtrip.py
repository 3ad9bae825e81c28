"""`tools/call` round trips: our from-scratch MCP server against one built with the official SDK.

Both servers expose the same tool, `add(a, b)`, and run as subprocesses. For
each transport (stdio, Streamable HTTP in the 2025-11-25 era) and each client
(ours, the SDK's `ClientSession`) this measures, in the same run and
interleaved round by round so that a busy machine slows both alike:

- latency: one call at a time, p50 and p99 in milliseconds;
- throughput: calls per second with `--concurrency` calls in flight.

Every figure is the median over `--rounds` rounds (at least 5 for a spread worth
quoting) with the interquartile range [Q1–Q3] across rounds; each ratio SDK / ours
(above 1: ours is faster) is taken round by round, so a round the machine was busy
slows both sides of its ratio. No pass/fail. Same payload on both sides: the SDK's
`add` returns `structuredContent` `{"result": n}` with an `outputSchema` (its default
for an `int` return) and the SDK client validates it; ours declares the same
`outputSchema` and returns the same object. The SDK's HTTP server runs with
`json_response=True`, as ours answers a plain call with JSON (the SDK's default is
one SSE stream per POST). Both HTTP servers run under `uvicorn.run` with a host and
a port, as the SDK's `run_streamable_http_async` does, each in its own process.
The section it writes into results.md is stamped with the date and the commit.

    .venv/bin/python benchmarks/mcp_roundtrip.py [--calls 200] [--rounds 5] [--no-write]
    .venv/bin/python benchmarks/mcp_roundtrip.py serve ours|sdk stdio|http [PORT]  # one server
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field

from run_all import spread

SERVERS = ("ours", "sdk")
CLIENTS = ("ours", "sdk")
TRANSPORTS = ("stdio", "http")
WARMUP_CALLS = 20
TITLE = "MCP `tools/call` round trips: our server vs the SDK's"
# What the SDK declares for `def add(a: int, b: int) -> int`: the int wrapped as {"result": ...}.
ADD_OUTPUT = {
    "type": "object",
    "properties": {"result": {"title": "Result", "type": "integer"}},
    "required": ["result"],
    "title": "addOutput",
}

Call = Callable[[int], Awaitable[object]]


# --- the two servers (run in their own process) ---


def serve_ours(transport: str, port: int) -> None:
    import uvicorn

    from wirelab.mcp.server import Server
    from wirelab.mcp.transports.http.server import McpHttpApp
    from wirelab.mcp.transports.stdio import run_stdio

    server = Server("wirelab-bench")

    @server.tool(output_schema=ADD_OUTPUT)
    def add(a: int, b: int) -> dict[str, int]:
        """Add two integers."""
        return {"result": a + b}

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
    from wirelab.mcp.transports.http.client import connect_http
    from wirelab.mcp.transports.stdio import StdioClientTransport

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
    latencies: list[list[float]] = field(default_factory=list)  # one list per round
    rates: list[float] = field(default_factory=list)  # one per round

    def percentiles(self, q: int) -> list[float]:
        """The q-th percentile latency of each round in ms, e.g. q=50 for the median."""
        return [statistics.quantiles(r, n=100, method="inclusive")[q - 1] * 1e3 for r in self.latencies]


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
    row.latencies.append(latencies)
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


def report(rows: dict[tuple[str, str, str], Row], calls: int, rounds: int, concurrency: int) -> str:
    lines = [
        f"`tools/call` of `add(a, b)` (both servers return `structuredContent`); {rounds} interleaved "
        f"rounds, each with {calls} sequential calls (latency) and {calls} calls with {concurrency} in "
        "flight (throughput) per row. Median across rounds [interquartile range].\n",
        "| transport | client | server | p50 ms | p99 ms | calls/s |",
        "|---|---|---|---:|---:|---:|",
    ]
    for row in rows.values():
        lines.append(
            f"| {row.transport} | {row.client} | {row.server} | {spread(row.percentiles(50))} | "
            f"{spread(row.percentiles(99))} | {spread(row.rates, digits=0)} |"
        )
    lines += [
        "\nRatios SDK server / our server, round by round (above 1: ours is faster; for calls/s, "
        "ours / SDK); median [interquartile range]:\n",
        "| transport | client | p50 | p99 | calls/s |",
        "|---|---|---:|---:|---:|",
    ]
    for transport in TRANSPORTS:
        for client in CLIENTS:
            ours, sdk = rows[transport, client, "ours"], rows[transport, client, "sdk"]
            ratios = [
                [s / o for s, o in zip(sdk.percentiles(q), ours.percentiles(q), strict=True)]
                for q in (50, 99)
            ]
            rates = [o / s for o, s in zip(ours.rates, sdk.rates, strict=True)]
            lines.append(
                f"| {transport} | {client} | {spread(ratios[0], 'x')} | {spread(ratios[1], 'x')} | "
                f"{spread(rates, 'x')} |"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200, help="calls per row and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--no-write", action="store_true", help="print only; leave results.md alone")
    args = parser.parse_args()
    rows = {(t, c, s): Row(t, c, s) for t in TRANSPORTS for c in CLIENTS for s in SERVERS}
    started = time.perf_counter()
    for number in range(args.rounds):
        print(f"round {number + 1} of {args.rounds}", file=sys.stderr)
        run_round(rows, args.calls, args.concurrency, flip=number % 2 == 1)
    table = report(rows, args.calls, args.rounds, args.concurrency)
    print(table)
    if not args.no_write:
        from run_all import git_commit, machine_load, update_section

        stamp = f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, commit {git_commit()}"
        command = " ".join(["python benchmarks/mcp_roundtrip.py", *sys.argv[1:]])
        update_section(
            TITLE,
            f"## {TITLE}\n\n`{command}`, {time.perf_counter() - started:.0f} s; {stamp}; "
            f"{machine_load()}.\n\n{table}\n",
        )


if __name__ == "__main__":
    if sys.argv[1:2] == ["serve"]:
        _, _, which, transport, *port = sys.argv
        (serve_ours if which == "ours" else serve_sdk)(transport, int(port[0]) if port else 0)
    else:
        main()
