"""The dashboard reads each learner's `./course check` results: its fixtures are what the check writes.

Two real `python -m wirelab.check 02` runs (what `./course check 02` runs), one on the solved lab
and one on the lab as learners get it, each in a learner's home laid out as on the hub; the
committed homes under classroom/fixtures/homes must have the same shape, the same exercises
and, where a learner's answer is the solved or the unsolved lab, the same messages.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from classroom.course_checks import learners_passing, read_course_checks
from tests.classroom.test_nbgrader import LEARNERS, wrong_answer
from wirelab.check import CHECKS

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "classroom" / "fixtures" / "homes"
LAB = "02_the_six_step_loop_lab.ipynb"


def exercises_of(lab: str) -> list[str]:
    """The names of lab `lab`'s checks, in the lab's order."""
    module = importlib.import_module(f"wirelab.check.lesson{lab}")
    return CHECKS[module.__name__]


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    """Homes of two learners, one who solved lab 02 and one who did not start, after `./course check 02`."""
    homes = tmp_path_factory.mktemp("homes")
    runs = {}
    for learner, notebook in (("solver", ROOT / "solutions" / LAB), ("starter", ROOT / "labs" / LAB)):
        course = homes / learner / "course"
        (course / "labs").mkdir(parents=True)
        shutil.copy(notebook, course / "labs" / LAB)
        runs[learner] = subprocess.Popen(
            [sys.executable, "-m", "wirelab.check", "02"],
            cwd=course,
            env={**os.environ, "PYTHONPATH": str(ROOT), "WIRELAB_OFFLINE": "1"},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    done = {learner: (run.communicate(timeout=240), run.returncode) for learner, run in runs.items()}
    (out, _), returncode = done["solver"]
    assert returncode == 0 and out.endswith("3 of 3 checks pass\n"), done["solver"]
    (out, _), returncode = done["starter"]
    assert returncode == 1 and out.endswith("0 of 3 checks pass\n"), done["starter"]
    records = {
        learner: json.loads((homes / learner / "course" / ".course-checks" / "02.json").read_text())
        for learner in runs
    }
    yield homes, records
    shutil.rmtree(homes, ignore_errors=True)


def fixtures() -> dict[tuple[str, str], dict]:
    return {
        (path.parents[2].name, path.stem): json.loads(path.read_text())
        for path in sorted(FIXTURE.glob("*/course/.course-checks/*.json"))
    }


def shape(value):
    """The keys and value types of a record, lists by their items' shape."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return sorted({json.dumps(shape(item)) for item in value})
    return type(value).__name__


def test_the_fixtures_have_the_shape_that_course_check_writes(real):
    _, records = real
    solved, unsolved = records["solver"], records["starter"]
    assert shape(solved) == shape(unsolved)
    for (learner, lab), record in fixtures().items():
        assert shape(record) == shape(solved), (learner, lab)
        assert record["lab"] == lab and record["notebook"].startswith(f"labs/{lab}_")
        assert datetime.fromisoformat(record["checked_at"]).utcoffset() is not None
        assert record["passed"] == sum(e["passed"] for e in record["exercises"])
        assert record["total"] == len(record["exercises"])
        assert record["all_passed"] == (record["passed"] == record["total"] and not record["other_errors"])


def test_the_fixtures_name_each_labs_exercises_and_say_what_a_real_check_says(real):
    _, records = real
    solved = {e["check"]: e for e in records["solver"]["exercises"]}
    unsolved = {e["check"]: e for e in records["starter"]["exercises"]}
    assert list(solved) == exercises_of("02") == list(unsolved)
    lesson08 = (ROOT / "wirelab" / "check" / "lesson08.py").read_text()
    for (learner, lab), record in fixtures().items():
        names = [e["check"] for e in record["exercises"]]
        assert names == exercises_of(lab), (learner, lab)
        for exercise in record["exercises"]:
            if lab == "08":  # a pass prints the check's own words (English, the first of `say`'s two)
                said = rf'passed\(\s*(say\(\s*)?"{re.escape(exercise["message"])}"'
                assert exercise["passed"] and re.search(said, lesson08), (learner, exercise)
            elif exercise["passed"]:
                assert exercise == solved[exercise["check"]], (learner, exercise)
            elif learner in LEARNERS:  # the wrong answer nbgrader graded, still failing its check
                wrong = wrong_answer(lab, LEARNERS[learner][lab])
                assert exercise["check"] == wrong["check"], (learner, exercise)
                assert re.search(wrong["expect"], exercise["message"]), (learner, exercise)
            else:  # a learner who has not started
                assert exercise == unsolved[exercise["check"]], (learner, exercise)


def test_the_dashboards_reader_reads_homes_laid_out_as_on_the_hub(real):
    homes, _ = real
    checks, unreadable = read_course_checks(homes)
    assert not unreadable
    assert [(c.learner, c.lab, c.passed, len(c.exercises)) for c in checks] == [
        ("solver", "02", 3, 3),
        ("starter", "02", 0, 3),
    ]
    assert learners_passing(checks, "02") == {name: ["solver"] for name in exercises_of("02")}
    assert learners_passing(checks, "08") == {}


def test_a_broken_record_is_noted_and_the_rest_of_the_room_still_read(tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "homes")
    broken = tmp_path / "homes" / "dee" / "course" / ".course-checks" / "02.json"
    broken.write_text('{"lab": "02", "exercises": [')
    (broken.parent / ".08.json.abc123.tmp").write_text("{")  # a check writing right now
    checks, unreadable = read_course_checks(tmp_path / "homes")
    assert len(unreadable) == 1 and unreadable[0].startswith(f"{broken}: JSONDecodeError")
    assert {(c.learner, c.lab) for c in checks} == {k for k in fixtures() if k != ("dee", "02")}
