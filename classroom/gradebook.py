"""Export each learner's result on each check from nbgrader's gradebook, for the dashboard.

`nbgrader export` writes one total per learner and lab; this writes one row per check
(its grade id is the check's name, e.g. `check_execute_call`), so the instructor sees which
exercise the room is stuck on. Run it in the nbgrader course folder after `autograde`:

    python classroom/gradebook.py gradebook.db checks.csv
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

from nbgrader.api import Gradebook

FIELDS = ("assignment", "student_id", "check", "score", "max_score")


def check_rows(database: Path) -> list[dict[str, str]]:
    rows = []
    with Gradebook(f"sqlite:///{database}") as gradebook:
        for assignment in sorted(gradebook.assignments, key=lambda a: a.name):
            for submission in sorted(
                gradebook.assignment_submissions(assignment.name), key=lambda s: s.student_id
            ):
                for notebook in submission.notebooks:
                    for grade in notebook.grades:
                        rows.append(
                            {
                                "assignment": assignment.name,
                                "student_id": submission.student_id,
                                "check": grade.name,
                                "score": f"{grade.score:g}",
                                "max_score": f"{grade.max_score:g}",
                            }
                        )
    return rows


def main(database: str, output: str) -> int:
    with open(output, "w", newline="") as f:
        writer = csv.DictWriter(f, FIELDS)
        writer.writeheader()
        writer.writerows(check_rows(Path(database)))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
