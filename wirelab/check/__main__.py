"""Check a lab from the command line: run it on a fresh kernel and report each check.

    python -m wirelab.check 02            # the lab of lesson 02, labs/02_*_lab.ipynb
    python -m wirelab.check path/to/lab.ipynb

Exit status 0 when every check cell passes. The lab runs as saved on disk: when JupyterLab
has the lab open and its kernel ran cells that the file does not show, a warning says to
save first (see `wirelab.check.unsaved`), before anything else, and the last line says the
result is of the saved file. A lab of the Chinese edition (labs/zh) is reported in Chinese.
The outcome of a lab in a course's `labs/` folder is kept in the course folder's
`.course-checks/NN.json` for the instructor (`wirelab.check.record`).
"""

from __future__ import annotations

import sys
from pathlib import Path

from wirelab.check.record import record
from wirelab.check.runner import find_lab, run_lab
from wirelab.check.unsaved import find_unsaved_work
from wirelab.edition import say


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        path = find_lab(argv[0], Path.cwd())
    except FileNotFoundError as e:
        print(e, file=sys.stderr)
        return 2
    unsaved = find_unsaved_work(path)
    for warning in unsaved:
        print(f"! {warning}", flush=True)
    report = run_lab(path)
    print(f"{path}:")
    for outcome in report.checks:
        print(f"  {outcome.line}")
    for problem in report.other_errors:
        print(f"  ! {problem}")
    print(summary_line(report.passed, len(report.checks), path, bool(unsaved)))
    record(report, path)
    return 0 if report.all_passed else 1


def summary_line(passed: int, total: int, path: Path, unsaved: bool) -> str:
    """'2 of 3 checks pass', saying that it is the saved file's result when work is unsaved."""
    if unsaved:
        return say(
            f"{passed} of {total} checks pass in the saved file "
            "(not your unsaved changes: save and check again)",
            f"已保存的文件中 {total} 项检查中通过 {passed} 项（未保存的修改不算在内：请保存后再检查）",
            path,
        )
    return say(f"{passed} of {total} checks pass", f"{total} 项检查中通过 {passed} 项", path)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
