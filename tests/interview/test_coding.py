"""wirelab.interview checks a coding drill: a clear error for a missing file, and the `check`
command's summary and exit code.

That every drill's checks pass on its solution and fail on its starter is a test of the data in
drills/coding/ (tests/drills/test_drill_solutions.py).
"""

import subprocess
import sys

import pytest

from wirelab import interview


def test_checking_a_file_that_does_not_exist_is_a_clear_error(tmp_path):
    with pytest.raises(interview.DrillError, match="no file to check"):
        interview.check_drill(interview.get_drill("loop"), tmp_path / "mine.py")


def test_the_check_command_prints_a_summary_and_exits_by_the_verdict(tmp_path):
    loop = interview.get_drill("loop")

    def check(path):
        return subprocess.run(
            [sys.executable, "-m", "wirelab.interview", "check", "loop", "--file", str(path)],
            capture_output=True,
            text=True,
            env={"WIRELAB_HOME": str(tmp_path), "PATH": ""},
            cwd=interview.DRILLS_DIR.parent,
        )

    good, bad = check(loop.solution), check(loop.starter)
    assert good.returncode == 0 and "PASS loop: 8/8 checks passed" in good.stdout
    assert bad.returncode == 1 and "FAIL loop: 0/8 checks passed" in bad.stdout
