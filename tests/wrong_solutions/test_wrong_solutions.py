"""Plausible wrong answers to every lab are caught, each with a message that names the mistake.

Each `NN/<mistake>.toml` holds a wrong answer a learner might write to lab NN:
`mistake` (one line), `check` (the check function it must fail), `expect` (a regular
expression the failure message must match) and `code` (the learner's wrong cell: it
replaces the solution's definitions of the same names). A test runs the solved lab's
definition cells, then the wrong code, then the check cell, in one namespace, as the
notebook would; a few run end to end in the solution notebook through the lab runner.
"""

from __future__ import annotations

import ast
import linecache
import re
import tomllib
from functools import cache
from pathlib import Path

import nbformat
import pytest

from wirelab.check import CheckFailed
from wirelab.check.runner import run_lab

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
WRONG = sorted(HERE.glob("[0-9][0-9]/*.toml"))
DEFINITIONS = (ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign, ast.FunctionDef, ast.ClassDef)


def load(path: Path) -> dict:
    wrong = tomllib.loads(path.read_text(encoding="utf-8"))
    assert set(wrong) == {"mistake", "check", "expect", "code"}, f"{path.name}: unexpected keys {set(wrong)}"
    return wrong


def solution_of(lab: str) -> Path:
    (path,) = (ROOT / "solutions").glob(f"{lab}_*_lab.ipynb")
    return path


@cache
def cells(lab: str) -> tuple[list[str], dict[str, str]]:
    """The solution's cells to run before a check (set-up and definitions), and each check's cell."""
    nb = nbformat.read(solution_of(lab), as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    setup, checks = [], {}
    for index, cell in enumerate(code):
        tags = cell.metadata.get("tags", [])
        if "check" in tags:
            checks[cell.source.split("(")[0].strip()] = cell.source
        elif "summary" not in tags and (
            index == 0
            or "### BEGIN SOLUTION" in cell.source
            or all(isinstance(node, DEFINITIONS) for node in ast.parse(cell.source).body)
        ):
            setup.append(cell.source)
    return setup, checks


def run_cell(source: str, name: str, namespace: dict) -> None:
    """Run one cell's source as IPython does: its lines kept in linecache, so inspect finds them."""
    filename = f"<lab cell {name}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    exec(compile(source, filename, "exec"), namespace)


def run_check(lab: str, wrong: dict) -> None:
    setup, checks = cells(lab)
    namespace: dict = {"__name__": "__main__"}
    for index, source in enumerate(setup):
        run_cell(source, f"{lab} solution {index}", namespace)
    run_cell(wrong["code"], f"{lab} wrong answer", namespace)
    run_cell(checks[wrong["check"]], f"{lab} check", namespace)


@pytest.mark.parametrize("path", WRONG, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_wrong_answer_fails_its_check_with_a_message_naming_the_mistake(path):
    wrong = load(path)
    with pytest.raises(CheckFailed) as failed:
        run_check(path.parent.name, wrong)
    assert re.search(wrong["expect"], str(failed.value)), (
        f"{wrong['mistake']}\nwas caught, but the message does not name it:\n{failed.value}"
    )


def test_every_lab_has_at_least_three_wrong_answers_each_for_a_check_it_has():
    labs = sorted(p.name[:2] for p in (ROOT / "solutions").glob("*_lab.ipynb"))
    for lab in labs:
        answers = [load(p) for p in WRONG if p.parent.name == lab]
        assert len(answers) >= 3, f"lab {lab} has {len(answers)} wrong answers"
        assert {a["check"] for a in answers} <= set(cells(lab)[1]), lab


def test_the_solution_itself_passes_the_same_harness():
    for lab in sorted({p.parent.name for p in WRONG}):
        for check in cells(lab)[1]:
            run_check(lab, {"code": "", "check": check})


# Wrong answers run as the learner would: the wrong cell after the solution's, the whole
# notebook executed by the lab runner (later exercises that use the wrong function may fail too)
END_TO_END = ["04/with_block_waits_for_the_hung_call", "07/null_and_list_ids_accepted", "02/no_empty_guards"]


@pytest.mark.parametrize("name", END_TO_END)
def test_a_wrong_answer_injected_into_the_solution_notebook_fails_only_its_check(name, tmp_path):
    path = HERE / f"{name}.toml"
    wrong, lab = load(path), path.parent.name
    nb = nbformat.read(solution_of(lab), as_version=4)
    defined = {n.name for n in ast.parse(wrong["code"]).body if isinstance(n, ast.FunctionDef)}
    last = max(i for i, c in enumerate(nb.cells) if any(f"def {d}(" in c.source for d in defined))
    nb.cells.insert(last + 1, nbformat.v4.new_code_cell(wrong["code"]))
    copy = tmp_path / solution_of(lab).name
    nbformat.write(nb, copy)
    report = run_lab(copy)
    (target,) = [c for c in report.checks if nb.cells[c.cell].source.startswith(wrong["check"])]
    assert not target.passed and re.search(wrong["expect"], target.line), target.line
    before = [c for c in report.checks if c.cell < target.cell]
    assert all(c.passed for c in before), [c.line for c in before]
    assert all(c.error_name is None for c in report.checks), "a check cell raised instead of reporting"
    assert report.summary_failed and not report.other_errors
