"""The Node tools a lesson runs (MCP Inspector's CLI, the reference MCP servers), found in node_modules.

`./course` installs them with `npm ci` when npm is present. Where a tool is missing, a lesson
does not stop on a traceback: `run` prints one paragraph naming the command that installs it
and returns None, so the lesson goes on with what it can.

    done = run("mcp-inspector", "--cli", "python", "server.py", "--method", "tools/list")
    if done is not None:
        print(done.stdout)

What it leaves out: installing anything itself (npm needs the network, and a learner should
see the command before it runs).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from wirelab.edition import say

ROOT = Path(__file__).resolve().parents[1]  # the course folder, where package.json is
PACKAGES = {  # the command in node_modules/.bin -> the npm package that provides it
    "mcp-inspector": "@modelcontextprotocol/inspector",
    "mcp-server-everything": "@modelcontextprotocol/server-everything",
    "mcp-server-filesystem": "@modelcontextprotocol/server-filesystem",
    "mcp-server-memory": "@modelcontextprotocol/server-memory",
    "conformance": "@modelcontextprotocol/conformance",
}


def find(command: str, root: Path = ROOT) -> Path | None:
    """The installed `command` in the course's node_modules/.bin, or None."""
    if command not in PACKAGES:
        raise ValueError(f"{command!r} is not a Node tool of the course: use one of {sorted(PACKAGES)}")
    path = root / "node_modules" / ".bin" / command
    return path if path.exists() else None


def missing(command: str, root: Path = ROOT) -> str:
    """One paragraph: what is missing and the command that installs it."""
    package = PACKAGES[command]
    if shutil.which("npm") is None:
        return say(
            f"{command} ({package}) is not installed, and npm is not found: install Node.js 20 or "
            f"newer (it brings npm), then run `npm ci` in {root} (or `./course` again, which runs "
            "it) and restart the kernel. This part of the lesson is skipped; the rest goes on.",
            f"{command}（{package}）没有安装，也找不到 npm：请安装 Node.js 20 或更新的版本（自带 npm），"
            f"然后在 {root} 中运行 `npm ci`（或再次运行 `./course`，它会执行这一步），再重启内核。"
            "本课的这一部分先跳过，其余部分照常进行。",
        )
    return say(
        f"{command} ({package}) is not installed: run `npm ci` in {root} (or `./course` again, "
        "which runs it), then restart the kernel. This part of the lesson is skipped; the rest goes on.",
        f"{command}（{package}）没有安装：请在 {root} 中运行 `npm ci`（或再次运行 `./course`，"
        "它会执行这一步），然后重启内核。本课的这一部分先跳过，其余部分照常进行。",
    )


def run(
    command: str, *args: str, root: Path = ROOT, **options: object
) -> subprocess.CompletedProcess[str] | None:
    """Run the Node tool `command` with `args` (text output captured); None, with a note, if missing.

    `options` go to `subprocess.run` (timeout, env, cwd…).
    """
    path = find(command, root)
    if path is None:
        print(missing(command, root))
        return None
    return subprocess.run([str(path), *args], capture_output=True, text=True, check=False, **options)
