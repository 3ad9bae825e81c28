"""The official MCP conformance suite's CLIENT scenarios pass against our client.

For each scenario the suite starts its own test server (authorization servers
too, for `auth/*`) and runs `conformance/client_runner.py`, which drives
`wirelab.mcp.http_client` and `wirelab.mcp.auth.OAuth`. A scenario may fail only
if `conformance/expected-failures.yml` lists it under `client:`, with its reason.
Scenarios run one at a time: `sse-retry` measures the reconnection delay, which
a loaded machine would blur. Install the suite with `npm ci`; without it these
tests skip, except under CI (CI=true).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(120)

ROOT = Path(__file__).resolve().parents[2]
CONFORMANCE = ROOT / "node_modules" / ".bin" / "conformance"
EXPECTED_FAILURES = ROOT / "conformance" / "expected-failures.yml"
RUNNER = ROOT / "conformance" / "client_runner.py"


def client_scenarios() -> list[str]:
    """The client scenarios the installed suite lists (none if it is not installed)."""
    if not CONFORMANCE.exists():
        return []
    listing = subprocess.run([str(CONFORMANCE), "list"], capture_output=True, text=True, timeout=60).stdout
    section = listing.split("Client scenarios", 1)[-1]
    return [line.strip()[2:] for line in section.splitlines() if line.strip().startswith("- ")]


SCENARIOS = client_scenarios()


def test_the_pinned_suite_is_installed_and_lists_exactly_23_client_scenarios_19_of_them_auth():
    if not CONFORMANCE.exists():
        reason = f"the conformance suite is not installed at {CONFORMANCE}: run `npm ci` in {ROOT}"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    suite = ROOT / "node_modules" / "@modelcontextprotocol" / "conformance" / "package.json"
    installed = json.loads(suite.read_text())["version"]
    pinned = json.loads((ROOT / "package.json").read_text())["devDependencies"][
        "@modelcontextprotocol/conformance"
    ]
    assert installed == pinned == "0.1.13", (
        "a new suite: count its client scenarios again and update this test"
    )
    auth = [s for s in SCENARIOS if s.startswith("auth/")]
    assert len(SCENARIOS) == len(set(SCENARIOS)) == 23
    assert len(auth) == 19
    assert set(SCENARIOS) - set(auth) == {
        "initialize",
        "tools_call",
        "sse-retry",
        "elicitation-sep1034-client-defaults",
    }


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_client_passes_the_scenario(scenario, tmp_path):
    done = subprocess.run(
        [
            str(CONFORMANCE),
            "client",
            "--command",
            f"{sys.executable} {RUNNER}",
            "--scenario",
            scenario,
            "--expected-failures",
            str(EXPECTED_FAILURES),
            "-o",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=110,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    failures = [line for line in done.stdout.splitlines() if "FAILURE" in line or "WARNING" in line]
    assert done.returncode == 0, "\n".join(failures) + done.stdout[-1500:] + done.stderr[-1500:]
