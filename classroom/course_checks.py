"""Read each learner's `./course check` results from their home on the hub, for the dashboard.

`./course check NN` keeps its latest outcome in the learner's course folder, as
`.course-checks/NN.json` (written by `wirelab/check/record.py`). On the hub every learner's
copy is `<homes>/<learner>/course` (classroom/jupyterhub_config.py: HOME is
CLASSROOM_HOMES/<name>, private to its learner; nbgitpuller pulls into ~/course), so the room is

    <homes>/<learner>/course/.course-checks/NN.json

and the learner is the name of their home folder. nbgrader sees a lab once it is submitted;
these files show the room while it is still working, as often as learners check.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

FOLDER = ".course-checks"


@dataclass(frozen=True)
class Exercise:
    check: str  # the check's name, nbgrader's grade id for its cell (check_execute_call)
    passed: bool
    message: str  # the line the check printed, without its ✓ or ✗


@dataclass(frozen=True)
class CourseCheck:
    """One learner's latest `./course check` of one lab."""

    learner: str
    lab: str  # "02"; nbgrader's assignment is f"lab{lab}"
    checked_at: datetime
    exercises: tuple[Exercise, ...]

    @property
    def passed(self) -> int:
        return sum(e.passed for e in self.exercises)


def read_course_checks(homes: Path, course: str = "course") -> tuple[list[CourseCheck], list[str]]:
    """Every learner's latest check of each lab under `homes`, by lab then learner, and a note
    for each file that could not be read (a learner may edit or break their own copy)."""
    checks, unreadable = [], []
    for path in sorted(homes.glob(f"*/{course}/{FOLDER}/[0-9][0-9].json")):
        try:
            checks.append(_parse(path.parents[2].name, json.loads(path.read_text(encoding="utf-8"))))
        except (OSError, ValueError, KeyError, TypeError) as e:
            unreadable.append(f"{path}: {type(e).__name__}: {e}")
    return sorted(checks, key=lambda c: (c.lab, c.learner)), unreadable


def _parse(learner: str, record: dict) -> CourseCheck:
    exercises = tuple(
        Exercise(str(e["check"]), e["passed"] is True, str(e["message"])) for e in record["exercises"]
    )
    return CourseCheck(learner, str(record["lab"]), datetime.fromisoformat(record["checked_at"]), exercises)


def learners_passing(checks: list[CourseCheck], lab: str) -> dict[str, list[str]]:
    """For each exercise of `lab`, in the lab's order, the learners whose latest check passes it."""
    room: dict[str, list[str]] = {}
    for check in checks:
        if check.lab == lab:
            for exercise in check.exercises:
                room.setdefault(exercise.check, [])
                if exercise.passed:
                    room[exercise.check].append(check.learner)
    return room
