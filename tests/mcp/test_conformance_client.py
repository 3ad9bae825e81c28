"""The official MCP conformance suite's CLIENT scenarios pass against our client.

For each scenario the suite starts its own test server (authorization servers
too, for `auth/*`) and runs `conformance/client_runner.py`, which drives
`wirelab.mcp.transports.http.client` and `wirelab.mcp.auth.OAuth`. A scenario may fail only
if `conformance/expected-failures.yml` lists it under `client:`, with its reason.
The scenarios run are those each revision requires (`conformance list --client
--requirements R`, at R's wire: 2025-11-25 with `initialize`, 2026-07-28 stateless),
plus the scenarios the course also passes: 2025-03-26's authorization metadata
fallbacks, the client-credentials extension and JSON Schema 2020-12 preservation. Scenarios run one at a time:
`sse-retry` measures the reconnection delay, which a loaded machine would blur.
The suite runs on Node.js 22 (`tests/mcp/conformance_suite.py`).
"""

import os
import subprocess
import sys

import pytest

from tests.mcp.conformance_suite import (
    EXPECTED_FAILURES,
    ROOT,
    installed_version,
    pinned_version,
    require_suite,
    suite_command,
)

pytestmark = pytest.mark.timeout(120)

RUNNER = ROOT / "conformance" / "client_runner.py"
REVISIONS = ("2025-11-25", "2026-07-28")
# not required by a revision, passed all the same; run at the revision the suite picks (2025-11-25)
ALSO_IMPLEMENTED = (
    "auth/2025-03-26-oauth-metadata-backcompat",
    "auth/2025-03-26-oauth-endpoint-fallback",
    "auth/client-credentials-basic",
    "auth/client-credentials-jwt",
    "json-schema-2020-12-preservation",  # added after both releases: the client keeps $schema, $defs
)


def required_client_scenarios(revision: str) -> list[str]:
    """The client scenarios the installed suite says `revision` requires (none if it cannot run)."""
    command = suite_command()
    if command is None:
        return []
    listing = subprocess.run(
        [*command, "list", "--client", "--requirements", revision], capture_output=True, text=True, timeout=60
    ).stdout
    section = listing.split("Client scenarios", 1)[-1].split("Run and reported", 1)[0]
    return [line.strip()[2:] for line in section.splitlines() if line.strip().startswith("- ")]


REQUIRED = {revision: required_client_scenarios(revision) for revision in REVISIONS}
RUNS = [(revision, s) for revision in REVISIONS for s in REQUIRED[revision]] + [
    (None, s) for s in ALSO_IMPLEMENTED if suite_command() is not None
]


def test_the_pinned_suite_is_installed_and_each_revision_requires_the_client_scenarios_counted():
    require_suite()
    assert installed_version() == pinned_version() == "0.2.0-alpha.12", (
        "a new suite: count its client scenarios again and update this test"
    )
    for revision, total, auth in (("2025-11-25", 18, 14), ("2026-07-28", 32, 25)):
        scenarios = REQUIRED[revision]
        assert len(scenarios) == len(set(scenarios)) == total, (revision, scenarios)
        assert len([s for s in scenarios if s.startswith("auth/")]) == auth, (revision, scenarios)
    assert {
        "auth/iss-supported",
        "auth/metadata-issuer-mismatch",
        "auth/authorization-server-migration",
    } < set(REQUIRED["2026-07-28"])


@pytest.mark.parametrize(("revision", "scenario"), RUNS)
def test_the_client_passes_the_scenario(revision, scenario, tmp_path):
    at_revision = ["--spec-version", revision] if revision else []
    done = subprocess.run(
        [
            *require_suite(),
            "client",
            "--command",
            f"{sys.executable} {RUNNER}",
            "--scenario",
            scenario,
            "--expected-failures",
            str(EXPECTED_FAILURES),
            "-o",
            str(tmp_path),
            *at_revision,
        ],
        capture_output=True,
        text=True,
        timeout=110,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    failures = [line for line in done.stdout.splitlines() if "FAILURE" in line or "WARNING" in line]
    assert done.returncode == 0, "\n".join(failures) + done.stdout[-1500:] + done.stderr[-1500:]
