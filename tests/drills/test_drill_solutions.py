"""Every coding drill's checks pass on its solution and all fail on its untouched starter."""

import subprocess
import sys

import pytest

from wirelab import interview

DRILLS = sorted(interview.coding_drills())


@pytest.mark.parametrize("name", DRILLS)
def test_the_solution_passes_every_check(name):
    drill = interview.get_drill(name)
    result = interview.check_drill(drill, drill.solution)
    assert result.ok, result.output
    assert result.total >= 5


@pytest.mark.parametrize("name", DRILLS)
def test_the_starter_fails_every_check(name):
    result = interview.check_drill(interview.get_drill(name))
    assert result.total > 0 and result.passed == 0, result.output


def test_checking_a_file_that_does_not_exist_is_a_clear_error(tmp_path):
    with pytest.raises(interview.DrillError, match="no file to check"):
        interview.check_drill(interview.get_drill("loop"), tmp_path / "mine.py")


def test_the_check_command_prints_a_summary_and_exits_by_the_verdict(tmp_path):
    loop = interview.get_drill("loop")
    env = {"WIRELAB_HOME": str(tmp_path), "PATH": ""}
    command = [sys.executable, "-m", "wirelab.interview", "check", "loop", "--file"]
    good = subprocess.run(
        [*command, str(loop.solution)],
        capture_output=True,
        text=True,
        env=env,
        cwd=interview.DRILLS_DIR.parent,
    )
    bad = subprocess.run(
        [*command, str(loop.starter)],
        capture_output=True,
        text=True,
        env=env,
        cwd=interview.DRILLS_DIR.parent,
    )
    assert good.returncode == 0 and "PASS loop: 8/8 checks passed" in good.stdout
    assert bad.returncode == 1 and "FAIL loop: 0/8 checks passed" in bad.stdout
