"""The committed copy of the MCP Apps view SDK is the one npm installs at the pinned version."""

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "node_modules" / "@modelcontextprotocol" / "ext-apps"
COPY = ROOT / "assets" / "apps" / "ext-apps-app-2.0.4.js"


def test_the_committed_bundle_is_the_pinned_packages_app_with_deps():
    if not PACKAGE.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{PACKAGE} is missing: run `npm ci`")
        pytest.skip("npm packages not installed: run `npm ci`")
    pinned = json.loads((ROOT / "package.json").read_text())["devDependencies"][
        "@modelcontextprotocol/ext-apps"
    ]
    assert json.loads((PACKAGE / "package.json").read_text())["version"] == pinned == "2.0.4"
    assert COPY.read_bytes() == (PACKAGE / "dist" / "src" / "app-with-deps.js").read_bytes()
