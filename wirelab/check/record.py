"""Keep the outcome of `./course check NN` in the learner's course folder, for the instructor.

`python -m wirelab.check 02` run on `labs/02_…_lab.ipynb` writes `.course-checks/02.json` next
to `labs/` (the course folder; ignored by git). The instructor's dashboard on the hub reads
these files from every learner's copy (`classroom/course_checks.py`). One file per lab, the
latest check replacing the one before:

    {"lab": "02", "notebook": "labs/02_the_six_step_loop_lab.ipynb",
     "checked_at": "2026-12-04T09:15:02+00:00", "passed": 2, "total": 3, "all_passed": false,
     "exercises": [{"check": "check_execute_call", "passed": true, "message": "execute_call runs …"},
                   …],
     "other_errors": []}

`message` is the line the check printed, without its ✓ or ✗. The file is written to a temporary
name and renamed, so a reader never sees half of it. A folder that cannot be written (read-only,
full) costs a one-line note on stderr, never the check itself.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from wirelab.check.runner import LabReport
from wirelab.edition import say

FOLDER = ".course-checks"
LAB_NAME = re.compile(r"^(\d\d)_.*_lab\.ipynb$")


def record_path(lab: Path) -> Path | None:
    """Where the check of `lab` is kept: <course>/.course-checks/NN.json for a lab in <course>/labs/,
    None for any other notebook (a solution, a copy elsewhere: not the learner's lab)."""
    lab = lab.resolve()
    match = LAB_NAME.match(lab.name)
    if match is None or lab.parent.name != "labs":
        return None
    return lab.parent.parent / FOLDER / f"{match[1]}.json"


def outcome(report: LabReport, lab: Path, now: datetime | None = None) -> dict[str, Any]:
    """The record of one check of `lab`, as written to its file."""
    lab = lab.resolve()
    return {
        "lab": lab.name[:2],
        "notebook": f"{lab.parent.name}/{lab.name}",
        "checked_at": (now or datetime.now(UTC)).isoformat(timespec="seconds"),
        "passed": report.passed,
        "total": len(report.checks),
        "all_passed": report.all_passed,
        "exercises": [
            {"check": c.name, "passed": c.passed, "message": c.line.removeprefix("✓ ").removeprefix("✗ ")}
            for c in report.checks
        ],
        "other_errors": list(report.other_errors),
    }


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file in the same folder and a rename."""
    path.parent.mkdir(exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temporary, 0o644)  # the instructor's dashboard reads it (mkstemp makes it 0600)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def record(report: LabReport, lab: Path, now: datetime | None = None) -> Path | None:
    """Keep the outcome of checking `lab`; the file written, or None (not a course lab, or not writable)."""
    path = record_path(lab)
    if path is None:
        return None
    text = json.dumps(outcome(report, lab, now), ensure_ascii=False, indent=2) + "\n"
    try:
        write_atomically(path, text)
    except OSError as e:
        why = f"{path}: {e.strerror or e}"
        note = say(
            f"this result was not saved for the instructor ({why})",
            f"这次结果没有为讲师保存下来（{why}）",
            lab,
        )
        print(f"! {note}", file=sys.stderr)
        return None
    return path
