"""Labs are generated from solutions, and their checks fail until the learner's code is right.

Both editions: labs/ and solutions/, and the Chinese labs/zh and solutions/zh (same code cells,
run in a zh folder so the checks read the Chinese corpus and answer in that edition). Test ids
name a Chinese notebook by its folder: `zh/12_capstone_knowledge_base_lab`.
"""

import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from wirelab.check import CHECKS
from wirelab.check.runner import run_lab

ROOT = Path(__file__).resolve().parents[2]
EDITIONS = ("", "zh")  # the English notebooks, then the Chinese ones in a zh/ folder


def notebooks(kind: str) -> list[Path]:
    """The lab notebooks of `kind` ("labs" or "solutions") in both editions."""
    return [path for edition in EDITIONS for path in sorted((ROOT / kind / edition).glob("*_lab.ipynb"))]


def notebook_id(path: Path) -> str:
    """`labs/zh/12_x_lab.ipynb` -> 'zh/12_x_lab'; an English lab keeps its bare name."""
    return (
        path.relative_to(path.parents[1] if path.parent.name == "zh" else path.parent)
        .with_suffix("")
        .as_posix()
    )


LABS = notebooks("labs")
SOLUTIONS = notebooks("solutions")


def checks_of(lab: Path) -> list[str]:
    """The checks the lab's module registers, in order; importing the module registers them."""
    module = f"wirelab.check.lesson{lab.name[:2]}"
    __import__(module)
    return CHECKS[module]


def test_every_solution_has_a_generated_lab_in_sync():
    result = subprocess.run(
        [sys.executable, "scripts/make_labs.py", "--check"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert [notebook_id(p) for p in LABS] == [notebook_id(p) for p in SOLUTIONS]
    english = [notebook_id(p) for p in LABS if p.parent.name != "zh"]
    assert [notebook_id(p) for p in LABS if p.parent.name == "zh"] == [f"zh/{name}" for name in english]


@pytest.mark.parametrize("lab", LABS, ids=notebook_id)
def test_each_lab_checks_every_exercise_of_its_module_and_ends_with_a_summary(lab):
    nb = nbformat.read(lab, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    called = [c.source.split("(")[0].strip() for c in code if "check" in c.metadata.get("tags", [])]
    assert called == checks_of(lab)
    assert "summary" in code[-1].metadata.get("tags", []) and f'summary("{lab.name[:2]}")' in code[-1].source


@pytest.mark.parametrize("lab", LABS, ids=notebook_id)
def test_run_all_on_an_unsolved_lab_shows_every_check_failing_with_a_message(lab):
    report = run_lab(lab, like_run_all=True)  # a cell that raises untagged would stop the run here
    assert report.checks, f"{lab.name} has no cell tagged 'check'"
    assert [c.name for c in report.checks] == checks_of(lab)
    assert not report.other_errors, report.other_errors
    for outcome in report.checks:
        assert outcome.error_name is None, f"cell {outcome.cell} raised instead of reporting: {outcome.line}"
        assert not outcome.passed and outcome.line.startswith("✗"), outcome.line
        assert "Hint:" in outcome.line or len(outcome.line) > 20, outcome.line
    assert report.summary_failed, "the summary cell must raise while exercises are unfinished"


@pytest.mark.parametrize("solution", SOLUTIONS, ids=notebook_id)
def test_every_check_of_a_solution_passes(solution):
    report = run_lab(solution)
    assert report.all_passed, [c.line for c in report.checks if not c.passed] + report.other_errors
