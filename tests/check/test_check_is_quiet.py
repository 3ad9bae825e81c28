"""`./course check NN` prints the checks and nothing else: no kernel warnings around them."""

import os
import pathlib
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.mark.timeout(300)
def test_checking_a_lab_prints_no_kernel_warning():
    run = subprocess.run(
        [sys.executable, "-m", "wirelab.check", "01"],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert "checks pass" in run.stdout + run.stderr
    assert "WARNING" not in run.stderr, run.stderr
