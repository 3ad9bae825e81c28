"""Lessons that run a Node tool go on without it: one paragraph naming the command, no traceback."""

from __future__ import annotations

import pytest

from wirelab import node_tools


def test_a_missing_tool_prints_one_paragraph_naming_npm_ci_and_returns_none(tmp_path, capsys):
    assert node_tools.run("mcp-inspector", "--cli", root=tmp_path) is None
    note = capsys.readouterr().out.strip()
    assert "npm ci" in note and "@modelcontextprotocol/inspector" in note and "\n" not in note


def test_without_npm_the_note_says_to_install_node_first(tmp_path, monkeypatch):
    monkeypatch.setattr(node_tools.shutil, "which", lambda name: None)
    assert "install Node.js 20" in node_tools.missing("mcp-inspector", tmp_path)


def test_the_note_is_in_chinese_in_the_chinese_edition(tmp_path, monkeypatch):
    monkeypatch.setenv("WIRELAB_LANG", "zh")
    assert "没有安装" in node_tools.missing("mcp-inspector", tmp_path)


def test_an_installed_tool_runs_and_its_output_is_returned(tmp_path):
    tool = tmp_path / "node_modules" / ".bin" / "mcp-inspector"
    tool.parent.mkdir(parents=True)
    tool.write_text('#!/bin/sh\necho "$@"\n')
    tool.chmod(0o755)
    done = node_tools.run("mcp-inspector", "--cli", "x", root=tmp_path)
    assert done is not None and done.stdout == "--cli x\n" and done.returncode == 0


def test_an_unknown_tool_is_a_clear_error():
    with pytest.raises(ValueError, match="not a Node tool of the course"):
        node_tools.find("left-pad")
