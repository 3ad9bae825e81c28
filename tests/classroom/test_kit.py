"""The classroom kit exists and says what it claims: Binder config, instructor guide, cheat sheet."""

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BINDER = ROOT / "binder"
GUIDE = (ROOT / "docs" / "instructor-guide.md").read_text()


def test_binder_installs_the_course_requirements_and_the_package_itself():
    lines = (BINDER / "requirements.txt").read_text().split("\n")
    assert "-r ../requirements.txt" in lines
    assert "-e ." in (ROOT / "requirements.txt").read_text().split("\n")


def test_binder_python_satisfies_the_package():
    version = (BINDER / "runtime.txt").read_text().strip()
    minimum = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert re.fullmatch(r"python-3\.\d+", version)
    assert int(version.split(".")[1]) >= int(minimum.removeprefix(">=3."))


def test_the_binder_post_build_step_runs_and_checks_the_package():
    post_build = BINDER / "postBuild"
    assert os.access(post_build, os.X_OK)
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(ROOT),
    }
    done = subprocess.run(["bash", str(post_build)], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert "interview questions" in done.stdout


def test_the_instructor_guide_has_notes_for_every_lesson():
    # Lessons 00-18, every lesson in notebooks/.
    lessons = [f"{n:02d}" for n in range(19)]
    assert lessons == re.findall(r"^### (\d\d) ", GUIDE, re.M)
    for part in ("**Goals**", "**Mistakes**", "**Discuss**"):
        assert GUIDE.count(part) == len(lessons), part


def test_the_one_day_timetable_is_about_six_hours_of_teaching():
    one_day = GUIDE.split("### One day")[1].split("### Two days")[0]
    minutes = [int(row.rsplit("|", 2)[1]) for row in one_day.split("\n") if re.match(r"\| \d\d:\d\d", row)]
    assert 330 <= sum(minutes) <= 390


def test_the_cheat_sheet_covers_both_protocol_eras():
    sheet = (ROOT / "docs" / "cheatsheet.md").read_text()
    for fact in (
        "notifications/initialized",
        "Mcp-Session-Id",
        "server/discover",
        "io.modelcontextprotocol/protocolVersion",
        "Mcp-Method",
        '"input_required"',
        "-32700",
        "tool_call_id",
    ):
        assert fact in sheet, fact
