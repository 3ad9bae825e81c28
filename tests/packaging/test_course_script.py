"""`./course`'s install steps say what a learner needs to know, and nothing that reads like a failure.

The script's functions are run on their own (sourced from `course` with a stand-in for pip),
so no real installation happens here.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESOLVER = (
    "ERROR: pip's dependency resolver does not currently take into account all the packages that are "
    "installed. This behaviour is the source of the following dependency conflicts."
)


def functions(*names: str) -> str:
    """The named shell functions of `course`, as text to source."""
    script = (ROOT / "course").read_text()
    return "\n".join(re.search(rf"^{name}\(\) {{.*?^}}$", script, re.S | re.M).group(0) for name in names)


def pip_install_with(tmp_path: Path, stderr_lines: list[str], status: int = 0) -> subprocess.CompletedProcess:
    fake = tmp_path / "pip"
    fake.write_text("#!/bin/sh\ncat >&2 <<'EOF'\n" + "\n".join(stderr_lines) + f"\nEOF\nexit {status}\n")
    fake.chmod(0o755)
    say = "say() { printf '[course] %s\\n' \"$*\" >&2; }"
    script = f"{say}\n{functions('pip_install')}\nPY={fake}\npip_install -r requirements.txt"
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True)


def test_the_resolver_block_about_bfcl_eval_alone_becomes_one_line(tmp_path):
    done = pip_install_with(
        tmp_path, [RESOLVER, "bfcl-eval 2026.3.23 requires numpy==1.26.4, but you have numpy 2.3.0."]
    )
    assert done.returncode == 0
    assert done.stderr.strip().splitlines() == [
        "[course] pip notes that bfcl-eval lacks its declared dependencies: expected, it needs none "
        "of them (requirements-nodeps.txt)"
    ]


def test_any_other_conflict_or_failure_is_shown_as_pip_wrote_it(tmp_path):
    other = pip_install_with(tmp_path, [RESOLVER, "bfcl-eval 1 requires numpy.", "mcp 2 requires anyio>=9."])
    assert "mcp 2 requires anyio>=9." in other.stderr and RESOLVER in other.stderr
    failed = pip_install_with(tmp_path, ["ERROR: No matching distribution found for x"], status=1)
    assert failed.returncode == 1 and "No matching distribution" in failed.stderr


def test_without_npm_the_course_says_which_lesson_needs_node_and_goes_on(tmp_path):
    (tmp_path / "package-lock.json").write_text("{}")
    say = "say() { printf '[course] %s\\n' \"$*\" >&2; }"
    done = subprocess.run(
        ["/bin/bash", "-c", f"{say}\n{functions('npm_setup')}\nnpm_setup; echo went on"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PATH": "/nonexistent"},
    )
    assert "npm not found" in done.stderr and "lesson 16" in done.stderr and done.stdout == "went on\n"
