"""Server-to-client requests over Streamable HTTP, answered by the official TypeScript SDK's client.

The twin of tests/mcp/transports/http/test_http_server_requests_sdk.py (the Python SDK): the same server,
`asking_server()` from tests/servers.py, is driven by `ts_client_server_requests.mjs`,
which connects with the SDK's `Client` over `StreamableHTTPClientTransport` (npm
@modelcontextprotocol/sdk, the handshake era, 2025-11-25) and answers elicitation,
sampling and roots with fixed results.

Install the SDK with `npm ci` at the repository root. Without node or the SDK this test
skips, except under CI (CI=true), where a missing one is a failure.
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.servers import asking_server
from wirelab.mcp.transports.http.server import serve_http

pytestmark = pytest.mark.timeout(90)

ROOT = Path(__file__).resolve().parents[4]
SCRIPT = Path(__file__).with_name("ts_client_server_requests.mjs")
TS_SDK = ROOT / "node_modules" / "@modelcontextprotocol" / "sdk" / "package.json"


@pytest.fixture(scope="module")
def node() -> str:
    """The `node` command, with the TypeScript SDK installed; skipped when absent, except on CI."""
    node = shutil.which("node")
    if node is None or not TS_SDK.exists():
        missing = "node is not on PATH" if node is None else f"the TypeScript SDK is missing at {TS_SDK}"
        reason = f"{missing}: install Node 20 and run `npm ci` in {ROOT}"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return node


def test_the_ts_sdk_client_answers_elicitation_sampling_and_roots_over_http(node):
    with serve_http(asking_server()) as running:
        done = subprocess.run(
            [node, str(SCRIPT), running.url], capture_output=True, text=True, timeout=60, cwd=ROOT
        )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["protocolVersion"] == "2025-11-25"
    assert answer["texts"] == ["Hello, Ada!", "model said: a short summary", "file:///work/notes"]
    assert answer["asked"] == [
        ["elicitation/create", "Name?"],
        ["sampling/createMessage", "Summarize: tools on the wire"],
        ["roots/list", None],
    ]
