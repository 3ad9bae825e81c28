"""The official MCP conformance suite (npm @modelcontextprotocol/conformance) passes against
our fixture server (`wirelab.mcp.conformance_server`), except for the scenarios that
`conformance/expected-failures.yml` lists with their reasons.

The suite's CLI exits 0 when every scenario of the active suite passes or is an expected
failure, and 1 on an unexpected failure or on an expected failure that now passes.
Its active suite holds the server scenarios of 2025-11-25 (the fixture server's era).
It runs on Node.js 22 (`tests/mcp/conformance_suite.py` says where that comes from).
"""

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import free_port
from tests.mcp.conformance_suite import EXPECTED_FAILURES, require_suite

pytestmark = pytest.mark.timeout(300)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def conformance() -> list[str]:
    return require_suite()


def listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture(scope="module")
def fixture_url():
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "wirelab.mcp.conformance_server", "--port", str(port)],
        cwd=ROOT,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while not listening(port):
            assert process.poll() is None, process.stderr.read().decode()[-2000:]
            assert time.monotonic() < deadline, f"the fixture server did not listen on {port}"
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(10)
        process.stderr.close()


def test_the_conformance_suite_passes_but_for_the_expected_failures(conformance, fixture_url, tmp_path):
    done = subprocess.run(
        [
            *conformance,
            "server",
            "--url",
            fixture_url,
            "--expected-failures",
            str(EXPECTED_FAILURES),
            "-o",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=280,
        cwd=ROOT,
    )
    summary = done.stdout[done.stdout.find("=== SUMMARY ===") :]
    assert done.returncode == 0, summary + done.stderr[-2000:]
