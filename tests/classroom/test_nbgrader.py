"""Labs 02 and 08 graded by nbgrader: release, three learners fetch and submit, autograde, feedback, CSV.

The learners: one submits the reference solution, two submit a typical wrong answer from
tests/wrong_solutions/NN/ in place of the function it defines. The expected score of a wrong
answer is the lab's total less the point of the check that answer is known to fail.

The instructor's course folder and each learner's folder hold the committed
classroom/nbgrader/nbgrader_config.py, as on a hub; only the exchange's root is set on the
command line, to a temporary folder in place of /srv/nbgrader/exchange.
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
GENERATED = ROOT / "classroom" / "nbgrader" / "source"
WRONG = ROOT / "tests" / "wrong_solutions"
CONFIG = ROOT / "classroom" / "nbgrader" / "nbgrader_config.py"
FIXTURE = ROOT / "classroom" / "fixtures" / "grades.csv"
CHECKS_FIXTURE = ROOT / "classroom" / "fixtures" / "checks.csv"
COURSE_ID = "tools-on-the-wire"  # what the committed config names
# learner -> the wrong answer they submit, per lab (None: the reference solution)
LEARNERS = {
    "ada": {"02": None, "08": None},
    "bo": {"02": "callers_list_changed", "08": "no_flush"},
    "cy": {"02": "unknown_tool_raises", "08": "no_version_check"},
}


def nbgrader(*args: str, cwd: Path, exchange: Path, student: str | None = None) -> str:
    """Run `nbgrader *args` in `cwd` (which holds the course's nbgrader_config.py) with `exchange`
    as the exchange's root, as `student` when given; its output. Fails the test if nbgrader does."""
    config = [f"--Exchange.root={exchange}"]
    if student:
        config.append(f"--CourseDirectory.student_id={student}")
    done = subprocess.run(
        [sys.executable, "-m", "nbgrader", *args, *config],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={
            **os.environ,
            "WIRELAB_OFFLINE": "1",
            "PYTHONPATH": str(ROOT),
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",  # nbgrader runs alembic
        },
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


def answer(notebook: nbformat.NotebookNode, source: nbformat.NotebookNode, wrong: dict | None) -> None:
    """Fill each solution cell as the learner would: the reference answer, or the wrong one."""
    graded = [c for c in source.cells if "nbgrader" in c.metadata]
    reference = {c.metadata["nbgrader"]["grade_id"]: c.source for c in graded}
    for cell in notebook.cells:
        meta = cell.metadata.get("nbgrader", {})
        if not meta.get("solution"):
            continue
        cell.source = reference[meta["grade_id"]]
        if wrong and any(f"def {name}(" in cell.source for name in _defined(wrong["code"])):
            cell.source = wrong["code"].strip()


def _defined(code: str) -> list[str]:
    return [line.split("(")[0].removeprefix("def ") for line in code.splitlines() if line.startswith("def ")]


def wrong_answer(lab: str, name: str | None) -> dict | None:
    return None if name is None else tomllib.loads((WRONG / lab / f"{name}.toml").read_text())


def checks_of(lab: str) -> list[str]:
    (path,) = (GENERATED / f"lab{lab}").glob("*.ipynb")
    nb = nbformat.read(path, as_version=4)
    graded = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")]
    return [c.metadata["nbgrader"]["grade_id"] for c in graded]


@pytest.fixture(scope="module")
def gradebook(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("nbgrader")
    course, exchange = tmp / "course", tmp / "exchange"
    exchange.mkdir()
    course.mkdir()
    shutil.copy(CONFIG, course / "nbgrader_config.py")
    for lab in ("02", "08"):
        shutil.copytree(GENERATED / f"lab{lab}", course / "source" / f"lab{lab}")
        nbgrader("db", "assignment", "add", f"lab{lab}", cwd=course, exchange=exchange)
        nbgrader("generate_assignment", f"lab{lab}", "--force", cwd=course, exchange=exchange)
        nbgrader("release_assignment", f"lab{lab}", "--force", cwd=course, exchange=exchange)
    for student, answers in LEARNERS.items():
        home = tmp / student
        home.mkdir()
        shutil.copy(CONFIG, home / "nbgrader_config.py")
        for lab, wrong in answers.items():
            nbgrader("fetch_assignment", f"lab{lab}", cwd=home, exchange=exchange, student=student)
            (released,) = (home / f"lab{lab}").glob("*.ipynb")
            (source,) = (GENERATED / f"lab{lab}").glob("*.ipynb")
            notebook = nbformat.read(released, as_version=4)
            answer(notebook, nbformat.read(source, as_version=4), wrong_answer(lab, wrong))
            nbformat.write(notebook, released)
            nbgrader("submit", f"lab{lab}", cwd=home, exchange=exchange, student=student)
    for lab in ("02", "08"):
        nbgrader("collect", f"lab{lab}", cwd=course, exchange=exchange)
        nbgrader("autograde", f"lab{lab}", "--create", cwd=course, exchange=exchange)
        nbgrader("generate_feedback", f"lab{lab}", cwd=course, exchange=exchange)
    nbgrader("export", "--to", str(tmp / "grades.csv"), cwd=course, exchange=exchange)
    gradebook_py = ROOT / "classroom" / "gradebook.py"
    subprocess.run(
        [sys.executable, str(gradebook_py), "gradebook.db", str(tmp / "checks.csv")], cwd=course, check=True
    )
    if os.environ.get("CLASSROOM_WRITE_FIXTURE"):  # refresh the dashboard's fixtures from this run
        FIXTURE.parent.mkdir(exist_ok=True)
        shutil.copy(tmp / "grades.csv", FIXTURE)
        shutil.copy(tmp / "checks.csv", CHECKS_FIXTURE)
    with (tmp / "grades.csv").open() as f:
        rows = list(csv.DictReader(f))
    with (tmp / "checks.csv").open() as f:
        checks = list(csv.DictReader(f))
    yield course, rows, checks, exchange
    shutil.rmtree(tmp, ignore_errors=True)


def test_the_nbgrader_assignments_are_in_sync_with_solutions():
    done = subprocess.run([sys.executable, str(ROOT / "classroom" / "make_nbgrader.py"), "--check"])
    assert done.returncode == 0, "run python classroom/make_nbgrader.py"


def test_every_check_of_a_lab_is_an_autograded_cell_worth_points():
    for lab in ("02", "08"):
        (path,) = (GENERATED / f"lab{lab}").glob("*.ipynb")
        nb = nbformat.read(path, as_version=4)
        graded = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")]
        checks = [c for c in nb.cells if "check" in c.metadata.get("tags", [])]
        assert graded == checks and all(c.metadata["nbgrader"]["points"] > 0 for c in graded)
        solutions = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("solution")]
        assert solutions and all("### BEGIN SOLUTION\n" in c.source for c in solutions)


def test_scores_full_for_the_reference_and_less_the_failed_check_for_each_wrong_answer(gradebook):
    _, rows, *_ = gradebook
    scores = {(r["assignment"], r["student_id"]): (float(r["score"]), float(r["max_score"])) for r in rows}
    for student, answers in LEARNERS.items():
        for lab, wrong in answers.items():
            total = float(len(checks_of(lab)))
            expected = total if wrong is None else total - 1
            assert scores[(f"lab{lab}", student)] == (expected, total), (student, lab, wrong)


def test_each_learner_gets_feedback_naming_the_failed_check(gradebook):
    course, *_ = gradebook
    for student, answers in LEARNERS.items():
        for lab, wrong in answers.items():
            (feedback,) = (course / "feedback" / student / f"lab{lab}").glob("*.html")
            html = feedback.read_text()
            if wrong is not None:
                assert wrong_answer(lab, wrong)["check"] in html


def test_each_wrong_answer_loses_exactly_the_point_of_the_check_it_is_known_to_fail(gradebook):
    _, _, checks, _ = gradebook
    for student, answers in LEARNERS.items():
        for lab, wrong in answers.items():
            failed = [
                r["check"]
                for r in checks
                if (r["assignment"], r["student_id"]) == (f"lab{lab}", student)
                and float(r["score"]) < float(r["max_score"])
            ]
            assert failed == ([] if wrong is None else [wrong_answer(lab, wrong)["check"]]), (student, lab)
            graded = [
                r["check"] for r in checks if (r["assignment"], r["student_id"]) == (f"lab{lab}", student)
            ]
            assert graded == checks_of(lab)


def test_the_dashboards_fixtures_are_what_nbgrader_exports(gradebook):
    _, rows, checks, _ = gradebook
    with CHECKS_FIXTURE.open() as f:
        assert list(csv.DictReader(f)) == checks
    keep = ("assignment", "student_id", "score", "max_score")
    with FIXTURE.open() as f:
        fixture = [{k: r[k] for k in keep} for r in csv.DictReader(f)]
    assert fixture == [{k: r[k] for k in keep} for r in rows]


def test_the_committed_nbgrader_config_is_the_one_nbgrader_ran_with(gradebook):
    course, _, _, exchange = gradebook
    assert f'course_id = "{COURSE_ID}"' in CONFIG.read_text()
    assert sorted(p.name for p in exchange.iterdir()) == [COURSE_ID]
    # the config's code stub replaced each solution in the released labs
    stub = 'raise NotImplementedError("write this part (see the hint above)")'
    assert stub in CONFIG.read_text()
    for lab in ("02", "08"):
        (released,) = (course / "release" / f"lab{lab}").glob("*.ipynb")
        cells = nbformat.read(released, as_version=4).cells
        solutions = [
            c for c in cells if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("solution")
        ]
        assert solutions and all(stub in c.source for c in solutions)
