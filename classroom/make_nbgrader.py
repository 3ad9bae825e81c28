"""Generate nbgrader assignments from the solved labs in solutions/.

For each `solutions/NN_<topic>_lab.ipynb` it writes `classroom/nbgrader/source/labNN/NN_<topic>_lab.ipynb`,
the instructor's "source" version that `nbgrader generate_assignment labNN` turns into the release:

- a code cell with `### BEGIN SOLUTION: hint` regions becomes an nbgrader solution cell; the hint
  moves to a `# Hint:` comment above the region, the markers become nbgrader's plain
  `### BEGIN SOLUTION` / `### END SOLUTION` (nbgrader replaces the region with a stub on release);
- a cell tagged `check` becomes a locked, autograded test cell worth `POINTS` points: it runs the
  check, then asserts its recorded outcome (in a notebook a check reports instead of raising,
  and nbgrader gives the points when the cell raises nothing);
- the `summary` cell is left out (nbgrader's score is the summary); other cells stay as they are.

    python classroom/make_nbgrader.py           # write classroom/nbgrader/source/
    python classroom/make_nbgrader.py --check   # verify it is in sync with solutions/ (exit 1 if not)
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "classroom" / "nbgrader" / "source"
POINTS = 1
BEGIN = re.compile(r"^(?P<indent>[ \t]*)### BEGIN SOLUTION(?::[ \t]*(?P<hint>[^\n]*))?[ \t]*$", re.M)
CHECK_CALL = re.compile(r"^(check_\w+)\(", re.M)


def assignment_name(solution: Path) -> str:
    return f"lab{solution.name[:2]}"


def solution_cell(source: str) -> str:
    """Move each region's hint into a comment above nbgrader's plain BEGIN SOLUTION marker."""

    def replace(match: re.Match[str]) -> str:
        indent, hint = match["indent"], (match["hint"] or "").strip()
        hint_line = f"{indent}# Hint: {hint}\n" if hint else ""
        return f"{hint_line}{indent}### BEGIN SOLUTION"

    return BEGIN.sub(replace, source)


def test_cell(source: str, lab: str) -> tuple[str, str]:
    """The check cell's source with an assertion on its outcome, and its grade id (the check's name)."""
    (name,) = CHECK_CALL.findall(source)
    key = f"wirelab.check.lesson{lab}.{name}"
    graded = (
        f"{source.rstrip()}\n\n"
        "from wirelab.check import OUTCOMES\n\n"
        f'passed, line = OUTCOMES["{key}"]\n'
        "assert passed, line"
    )
    return graded, name


def assignment_from_solution(solution: nbformat.NotebookNode, lab: str) -> nbformat.NotebookNode:
    notebook = nbformat.from_dict(solution)
    cells = []
    for index, cell in enumerate(notebook.cells):
        tags = cell.metadata.get("tags", [])
        if "summary" in tags:
            continue
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
            if "### BEGIN SOLUTION" in cell.source:
                cell.source = solution_cell(cell.source)
                cell.metadata["nbgrader"] = _nbgrader(f"solution_{index:02d}", solution=True)
            elif "check" in tags:
                cell.source, grade_id = test_cell(cell.source, lab)
                cell.metadata["nbgrader"] = _nbgrader(grade_id, grade=True, locked=True, points=POINTS)
        cells.append(cell)
    notebook.cells = cells
    return notebook


def _nbgrader(grade_id: str, grade: bool = False, solution: bool = False, locked: bool = False, **extra):
    return {
        "grade": grade,
        "grade_id": grade_id,
        "locked": locked,
        "schema_version": 3,
        "solution": solution,
        "task": False,
        **extra,
    }


def render(notebook: nbformat.NotebookNode) -> str:
    return nbformat.writes(notebook) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="verify instead of writing")
    args = parser.parse_args()
    stale = []
    for solution_path in sorted((ROOT / "solutions").glob("*_lab.ipynb")):
        target = SOURCE / assignment_name(solution_path) / solution_path.name
        solution = nbformat.read(solution_path, as_version=4)
        text = render(assignment_from_solution(solution, solution_path.name[:2]))
        if args.check:
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                stale.append(target.relative_to(ROOT))
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
    for path in stale:
        print(f"{path} is out of date: run python classroom/make_nbgrader.py", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
