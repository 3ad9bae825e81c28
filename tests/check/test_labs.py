"""Labs are generated from solutions, and their checks fail until the learner's code is right."""

import subprocess
import sys
from pathlib import Path

import pytest

from wirelab.check.runner import run_lab

ROOT = Path(__file__).resolve().parents[2]
LABS = sorted((ROOT / "labs").glob("*_lab.ipynb"))
SOLUTIONS = sorted((ROOT / "solutions").glob("*_lab.ipynb"))


def test_every_solution_has_a_generated_lab_in_sync():
    result = subprocess.run(
        [sys.executable, "scripts/make_labs.py", "--check"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert [p.name for p in LABS] == [p.name for p in SOLUTIONS]


@pytest.mark.parametrize("lab", LABS, ids=lambda p: p.stem)
def test_every_check_of_an_unsolved_lab_fails_with_a_message(lab):
    report = run_lab(lab)
    assert report.checks, f"{lab.name} has no cell tagged 'check'"
    assert not report.other_errors, report.other_errors
    for outcome in report.checks:
        assert outcome.error_name == "CheckFailed", f"cell {outcome.cell}: {outcome.line}"
        assert "Hint:" in outcome.line or len(outcome.line) > 20, outcome.line


@pytest.mark.parametrize("solution", SOLUTIONS, ids=lambda p: p.stem)
def test_every_check_of_a_solution_passes(solution):
    report = run_lab(solution)
    assert report.all_passed, [c.line for c in report.checks if not c.passed] + report.other_errors
