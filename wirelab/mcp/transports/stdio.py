"""MCP over stdio: one JSON-RPC message per line of UTF-8, both directions.

The client starts the server as a subprocess and writes to its stdin; the
server answers on stdout. stdout carries nothing but messages: logs go to
stderr. The server stops when stdin ends (EOF), once it has answered what it
already read.

Every line is checked before it reaches a session: a line that is not UTF-8
or not JSON gets -32700 with `id: null`, a JSON value that is not one
JSON-RPC message gets -32600, and a line longer than `MAX_LINE_BYTES` (4 MiB)
gets -32600 and is skipped up to its newline without being kept in memory.
The loop goes on after each of them.

Both protocol eras are served on one connection, each message picking its own
(as on HTTP): a request whose `params._meta` names a protocol version, and
`server/discover`, belong to 2026-07-28 and are answered by
`wirelab.mcp.stateless`; everything else goes to the `initialize` session.

    python -m wirelab.mcp.example          # serve the example server on stdio

Both sides publish what they send and receive on their `.wire` (channel "mcp").
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import BinaryIO

from wirelab import jsonrpc
from wirelab.jsonrpc import INVALID_REQUEST, JsonRpcError, Message
from wirelab.mcp import stateless
from wirelab.mcp.server import Server
from wirelab.mcp.stateless import StatelessServer
from wirelab.wire import Sender, Wire, WireMessage, parse_json

log = logging.getLogger(__name__)

MAX_LINE_BYTES = 4 * 1024 * 1024
CHUNK_BYTES = 64 * 1024
MAX_IN_FLIGHT = 64
EOF_GRACE_SECONDS = 5.0
SERVER_BUSY = -32000  # JSON-RPC leaves -32000 to -32099 to the server


@dataclass(frozen=True)
class OversizedLine:
    """Stands for a line that was longer than the limit and was thrown away."""

    limit: int

    def error(self) -> JsonRpcError:
        return JsonRpcError(
            INVALID_REQUEST,
            f"Invalid Request: line longer than {self.limit} bytes was skipped; send smaller messages",
        )


class LineSplitter:
    """Cut a byte stream into lines, keeping at most `limit` bytes of one line.

    >>> splitter = LineSplitter(limit=8)
    >>> splitter.feed(b'{"a":1}\\n{"b"')
    [b'{"a":1}']
    >>> splitter.feed(b':2}\\n')
    [b'{"b":2}']
    >>> splitter.feed(b"x" * 20 + b"\\n")
    [OversizedLine(limit=8)]
    """

    def __init__(self, limit: int = MAX_LINE_BYTES) -> None:
        self.limit = limit
        self._line = bytearray()
        self._skipping = False  # inside an oversized line, until its newline

    def feed(self, data: bytes) -> list[bytes | OversizedLine]:
        lines: list[bytes | OversizedLine] = []
        while data:
            part, newline, data = data.partition(b"\n")
            if self._skipping:
                self._skipping = not newline
                continue
            self._line += part
            if len(self._line) > self.limit:
                lines.append(OversizedLine(self.limit))
                self._line.clear()
                self._skipping = not newline
            elif newline:
                lines.append(bytes(self._line).rstrip(b"\r"))
                self._line.clear()
        return lines

    def finish(self) -> list[bytes]:
        """At the end of the stream: the last line, if it had no newline (`[]` otherwise)."""
        last, skipping = bytes(self._line).rstrip(b"\r"), self._skipping
        self._line.clear()
        self._skipping = False
        return [last] if last and not skipping else []


def encode(message: Message) -> bytes:
    """One message as one line: JSON escapes newlines inside strings, so none is embedded."""
    return jsonrpc.encode(message) + b"\n"


def receive_line(
    line: bytes | OversizedLine, wire: Wire, sender: Sender
) -> tuple[Message | None, Message | None]:
    """Check one received line: `(message, None)`, or `(None, error response to send)`."""
    if isinstance(line, OversizedLine):
        wire.publish(WireMessage("mcp", sender, "invalid", f"<line over {line.limit} bytes>"))
        return None, jsonrpc.error_response(None, line.error())
    message, error = jsonrpc.receive(line)
    wire.publish(
        WireMessage.jsonrpc("mcp", sender, message if message is not None else _as_seen(line, error))
    )
    return message, error


def _as_seen(line: bytes, error: Message) -> object:
    """What to show of a refused line: its JSON value, or its text when it is not JSON at all."""
    if error["error"]["code"] == jsonrpc.PARSE_ERROR:  # parsing it again could fail again
        return line.decode("utf-8", errors="replace")
    return parse_json(line)


# --- the server side ---------------------------------------------------------


class StdioServer:
    """Serve one `Server` session over a pair of byte streams (stdin and stdout by default).

    At most `max_in_flight` requests run at once: one more is answered at once with
    -32000, so memory stays bounded however fast a client writes. When stdin ends, the
    requests still running get `eof_grace` seconds to answer, then they are cancelled.
    """

    def __init__(
        self,
        server: Server,
        stdin: BinaryIO | None = None,
        stdout: BinaryIO | None = None,
        limit: int = MAX_LINE_BYTES,
        *,
        max_in_flight: int = MAX_IN_FLIGHT,
        eof_grace: float = EOF_GRACE_SECONDS,
    ) -> None:
        self.stdin = stdin or sys.stdin.buffer
        self.stdout = stdout or sys.stdout.buffer
        self.max_in_flight, self.eof_grace = max_in_flight, eof_grace
        self.splitter = LineSplitter(limit)
        self.wire = Wire()
        self.session = server.connect(self.write)
        self.stateless = StatelessServer(server)
        self._tasks: set[asyncio.Task] = set()
        self._requests: set[asyncio.Task] = set()  # the requests among them, for the limit

    def write(self, message: Message) -> None:
        self.wire.publish(WireMessage.jsonrpc("mcp", "server", message))
        self.stdout.write(encode(message))
        self.stdout.flush()

    async def serve(self) -> None:
        """Answer lines until stdin ends, then finish the requests still running (for a while)."""
        try:
            while chunk := await asyncio.to_thread(self.stdin.read1, CHUNK_BYTES):
                for line in self.splitter.feed(chunk):
                    self.receive(line)
            for line in self.splitter.finish():  # a last line without its newline
                self.receive(line)
            await self.finish_running()
        finally:
            self.session.close()

    async def finish_running(self) -> None:
        """Wait `eof_grace` seconds for the requests still running, then cancel them."""
        if not self._tasks:
            return
        _, late = await asyncio.wait(set(self._tasks), timeout=self.eof_grace)
        for task in late:
            task.cancel()
        if late:
            log.warning(
                "stdin ended: cancelled %d request(s) still running after %s s", len(late), self.eof_grace
            )
            await asyncio.gather(*late, return_exceptions=True)

    def receive(self, line: bytes | OversizedLine) -> None:
        """Answer one line in its own task (so a cancel can reach it), in the order read."""
        if line == b"":
            return  # blank lines carry nothing
        message, error = receive_line(line, self.wire, "client")
        is_request = message is not None and jsonrpc.is_request(message)
        if is_request and len(self._requests) >= self.max_in_flight:
            message, error, is_request = None, jsonrpc.error_response(message["id"], self.busy()), False
        task = asyncio.create_task(self.answer(message) if message else self.refuse(error))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        if is_request:
            self._requests.add(task)
            task.add_done_callback(self._requests.discard)

    def busy(self) -> JsonRpcError:
        return JsonRpcError(
            SERVER_BUSY,
            f"Server busy: {self.max_in_flight} requests are already running; "
            "wait for an answer before sending more",
        )

    async def answer(self, message: Message) -> None:
        response = await self.handle_in_its_era(message)
        if response is not None:
            self.write(response)

    async def handle_in_its_era(self, message: Message) -> Message | None:
        """2026-07-28 (a `_meta` version, or `server/discover`): stateless; else the session's."""
        if stateless.is_modern(message, None) or message.get("method") == "server/discover":
            return await self.stateless.handle(message, self.write)
        return await self.session.handle(message)

    async def refuse(self, error: Message) -> None:
        log.warning("answered a bad line: %s", error["error"]["message"])
        self.write(error)


def run_stdio(server: Server) -> None:
    """Serve `server` on this process's stdin and stdout until stdin ends.

    stdout is kept for messages: `print` in a tool goes to stderr instead.
    """
    protocol_out = sys.stdout
    sys.stdout = sys.stderr
    try:
        asyncio.run(StdioServer(server, sys.stdin.buffer, protocol_out.buffer).serve())
    finally:
        sys.stdout = protocol_out


# --- the client side ---------------------------------------------------------


class StdioClientTransport:
    """Start a server subprocess and exchange messages with it over its stdin and stdout.

    `receive()` returns the next valid message, or None once the server's
    stdout ends. Lines that are not messages are logged, published on the
    wire as "invalid" and skipped. The last lines of the server's stderr are
    kept in `stderr_tail` to explain a server that died.
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        limit: int = MAX_LINE_BYTES,
    ) -> None:
        self.command, self.env, self.cwd = list(command), env, cwd
        self.splitter = LineSplitter(limit)
        self.wire = Wire()
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=20)
        self.process: asyncio.subprocess.Process | None = None
        self._ready: collections.deque[Message] = collections.deque()
        self._stderr_task: asyncio.Task | None = None

    async def start(self) -> None:
        env = {**os.environ, **(self.env or {})}
        self.process = await asyncio.create_subprocess_exec(
            *self.command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=env,
            cwd=self.cwd,
        )
        self._stderr_task = asyncio.create_task(self._drain_stderr())

    async def send(self, message: Message) -> None:
        """Write one message; raises `ConnectionError` if the server's stdin is closed."""
        self.wire.publish(WireMessage.jsonrpc("mcp", "client", message))
        stdin = self._process().stdin
        try:
            stdin.write(encode(message))
            await stdin.drain()
        except (BrokenPipeError, ConnectionResetError) as e:
            raise ConnectionError(f"cannot write to the server: {e}") from e

    async def receive(self) -> Message | None:
        while not self._ready:
            chunk = await self._process().stdout.read(CHUNK_BYTES)
            if not chunk:
                return None
            for line in self.splitter.feed(chunk):
                self._keep(line)
        return self._ready.popleft()

    def _keep(self, line: bytes | OversizedLine) -> None:
        if line == b"":
            return
        message, error = receive_line(line, self.wire, "server")
        if error is not None:
            log.warning("the server sent a line that is not a message: %s", error["error"]["message"])
        if message is not None:
            self._ready.append(message)

    async def _drain_stderr(self) -> None:
        async for raw in self._process().stderr:
            text = raw.decode("utf-8", errors="replace").rstrip()
            self.stderr_tail.append(text)
            log.debug("server stderr: %s", text)

    async def exit_code(self, wait: float = 1.0) -> int | None:
        """The server's exit code, waiting up to `wait` seconds for it to exit."""
        with contextlib.suppress(TimeoutError):
            return await asyncio.wait_for(self._process().wait(), wait)
        return None

    async def closed_reason(self) -> str:
        """Why the server's stdout ended: its exit code and last stderr lines."""
        code = await self.exit_code()
        if code is not None and self._stderr_task:  # let the last stderr lines arrive
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._stderr_task), 1.0)
        tail = list(self.stderr_tail)[-3:]
        return f"the server closed its stdout (exit code {code})" + (
            f"; its last stderr lines: {tail}" if tail else ""
        )

    async def close(self, grace: float = 2.0) -> None:
        """Close the server's stdin, give it `grace` seconds to exit, then terminate it."""
        process = self._process()
        if process.stdin and not process.stdin.is_closing():
            process.stdin.close()
        if await self.exit_code(grace) is None:
            process.terminate()
            if await self.exit_code(grace) is None:
                process.kill()
                await process.wait()
        if self._stderr_task:
            await self._stderr_task

    def _process(self) -> asyncio.subprocess.Process:
        if self.process is None:
            raise RuntimeError("the transport is not started: call start() first")
        return self.process
