"""`pip install .` into a bare virtual environment gives a package that works on its own.

SLOW, NEEDS THE PACKAGE REGISTRY (or a warm pip cache): the test creates a venv without system
site-packages, builds a wheel from a copy of the package (only pyproject.toml, README.md and wirelab/, so
nothing can come from the checkout) and installs it (non-editable), then outside the repository:

- serves the offline model and sends one chat completion through the real `openai` client;
- starts the example MCP server (`python -m wirelab.mcp.example`) and runs initialize and
  tools/list over its stdio.

It uses pip's cache, so after the first run it takes well under a minute. Deselect it with
`-k "not pip_install"` when offline.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SMOKE = textwrap.dedent(
    """
    import json, subprocess, sys
    import openai, wirelab
    from wirelab.offline_model import MODEL_ID, serve

    assert "site-packages" in wirelab.__file__, wirelab.__file__
    with serve() as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="offline")
        reply = client.chat.completions.create(
            model=MODEL_ID,
            messages=[{"role": "user", "content": "What is the weather in Paris?"}],
            tools=[{"type": "function", "function": {
                "name": "get_weather", "description": "Current weather in a city",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                               "required": ["city"]}}}],
        )
    call = reply.choices[0].message.tool_calls[0]
    print("model:", call.function.name, call.function.arguments)

    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "smoke", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    server = subprocess.run(
        [sys.executable, "-m", "wirelab.mcp.example"],
        input="".join(json.dumps(r) + "\\n" for r in requests),
        capture_output=True, text=True, timeout=60,
    )
    replies = {m["id"]: m for m in map(json.loads, server.stdout.splitlines()) if "id" in m}
    print("server:", replies[1]["result"]["serverInfo"]["name"],
          sorted(t["name"] for t in replies[2]["result"]["tools"]))
    """
)


@pytest.mark.timeout(600)
def test_pip_install_gives_a_working_package(tmp_path):
    source = tmp_path / "src"
    source.mkdir()
    shutil.copy(ROOT / "pyproject.toml", source)
    shutil.copy(ROOT / "README.md", source)
    shutil.copytree(ROOT / "wirelab", source / "wirelab", ignore=shutil.ignore_patterns("__pycache__"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV", "PIP_USER"}}
    # The wheel is built here, with this environment's setuptools (no isolated build env to
    # download); the bare venv then installs it and its dependencies from the registry.
    wheel = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation"]
        + ["--wheel-dir", str(tmp_path / "dist"), str(source)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert wheel.returncode == 0, wheel.stdout + wheel.stderr
    (built,) = (tmp_path / "dist").glob("wirelab-*.whl")
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(built)],
        capture_output=True,
        text=True,
        env=env,
        timeout=540,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    run = subprocess.run(
        [str(python), "-c", SMOKE], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "model: get_weather" in run.stdout and '"Paris"' in run.stdout
    assert "server: " in run.stdout and "search_notes" in run.stdout
