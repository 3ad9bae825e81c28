"""Fixtures shared across test folders: the MCP Inspector CLI and the SDK reference server on HTTP.

`free_port` is shared as a plain function (`from tests.conftest import free_port`): a
session- or module-scoped fixture that starts a server calls it. So are `read_until_closed`
(a raw socket's reply), `status_of` (its status code), `strict_loads` (JSON as a strict
peer reads it) and `started_kernel` (a kernel of the course's own and a ready client).

The servers themselves are in tests/servers.py (the fuzz target, the SDK reference server).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import settings

from tests.servers import __file__ as SERVERS
from wirelab import interview
from wirelab.check.runner import private_kernel

# .ci/run exports CI=true so that a missing npm tool or chromium fails instead of skipping. Hypothesis
# reads CI as well and then loads its "ci" profile, which derandomizes every test (the same examples
# on every run): keep its default profile, so the fuzz tests draw fresh inputs in CI as elsewhere.
# `pytest --hypothesis-profile NAME` still chooses another (it is applied after this file is read).
settings.load_profile("default")

ROOT = Path(__file__).resolve().parents[1]
INSPECTOR = ROOT / "node_modules" / ".bin" / "mcp-inspector"


@pytest.fixture(scope="session")
def mcp_inspector() -> Path:
    """The MCP Inspector's CLI (from `npm ci`); skipped when absent, except on CI where it must be."""
    if not INSPECTOR.exists():
        reason = f"MCP Inspector is not installed at {INSPECTOR}: run `npm ci` in {ROOT}"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return INSPECTOR


BANK = interview.DRILLS_DIR / "questions.yaml"  # the interview question bank, and its topics
TOPICS = json.loads((interview.DRILLS_DIR / "questions.schema.json").read_text())["$defs"]["question"][
    "properties"
]["topic"]["enum"]


@pytest.fixture
def raw_bank():
    """The question bank as YAML data, before `wirelab.interview` validates it."""
    return yaml.safe_load(BANK.read_text())


@contextmanager
def started_kernel() -> Iterator[tuple[Any, Any]]:
    """A python3 kernel on sockets of its own (`private_kernel`) and its blocking client, ready;
    the client stopped and the kernel shut down when the block ends."""
    from jupyter_client import KernelManager

    with private_kernel() as config:
        manager = KernelManager(kernel_name="python3", config=config)
        manager.start_kernel()
        client = manager.blocking_client()
        client.start_channels()
        client.wait_for_ready(timeout=60)
        try:
            yield manager, client
        finally:
            client.stop_channels()
            manager.shutdown_kernel(now=True)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago (the OS picks it)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def read_until_closed(sock: socket.socket, wait: float = 10.0) -> bytes:
    """Everything a server sends on a raw socket until it closes the connection or `wait` seconds pass."""
    sock.settimeout(wait)
    reply = b""
    try:
        while chunk := sock.recv(65536):
            reply += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    return reply


def status_of(reply: bytes) -> int:
    """The status code of a raw HTTP reply: 413 of `HTTP/1.1 413 Payload Too Large`."""
    return int(reply.split(b" ", 2)[1])


def strict_loads(text: str | bytes) -> Any:
    """`text` parsed as a strict peer would: NaN and Infinity are not JSON (a ValueError)."""

    def refuse(constant: str) -> None:
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


def wait_for_port(port: int, process: subprocess.Popen, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the SDK server exited: {process.stderr.read().decode()[-2000:]}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"the SDK server did not listen on port {port} within {timeout} s")


@pytest.fixture(scope="module")
def sdk_server_url():
    """The SDK reference server on Streamable HTTP, in a subprocess; its /mcp URL."""
    port = free_port()
    process = subprocess.Popen([sys.executable, SERVERS, "http", str(port)], stderr=subprocess.PIPE)
    try:
        wait_for_port(port, process)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(10)
        process.stderr.close()
