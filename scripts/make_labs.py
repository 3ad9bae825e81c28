"""Generate the labs in labs/ from the solved labs in solutions/.

In a solution, each region

    ### BEGIN SOLUTION: a one-line hint
    ...the solution...
    ### END SOLUTION

becomes `raise NotImplementedError("a one-line hint")` at the same indentation,
and every output is cleared. From the first cell with a solution region on, each
code cell is tagged `raises-exception`, so that JupyterLab's Run All goes on past
an unfinished function (a demo cell calling it raises) and every check cell shows
its line; the check cells themselves report instead of raising, and the `summary`
cell at the end raises once. The lab conventions are in `wirelab/check/__init__.py`.
A `# @reference …` marker line (the solution cell the package must agree with, see
tests/notebook_code.py) is dropped: in a lab the cell is the learner's.
A Chinese lab (solutions/zh -> labs/zh) takes each hint's translation from
translations/zh/lab_hints.json (English hint -> Chinese); a hint not there stays English.
`--check` writes nothing and exits 1 if a lab is missing or differs from what would
be generated.

    python scripts/make_labs.py           # write labs/
    python scripts/make_labs.py --check   # verify labs/ is in sync
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
REGION = re.compile(
    r"^(?P<indent>[ \t]*)### BEGIN SOLUTION(?::[ \t]*(?P<hint>[^\n]*))?\n.*?^[ \t]*### END SOLUTION[ \t]*$",
    re.S | re.M,
)

REFERENCE_MARKER = re.compile(r"^# @reference [^\n]*\n", re.M)
HINTS_ZH = ROOT / "translations" / "zh" / "lab_hints.json"


def stub(source: str, hints: dict[str, str] | None = None) -> str:
    """Replace each solution region of a cell's source with a NotImplementedError stub
    (its hint translated by `hints` where it has the hint)."""

    def replace(match: re.Match[str]) -> str:
        hint = (match["hint"] or "write this part").strip()
        hint = (hints or {}).get(hint, hint)
        return f"{match['indent']}raise NotImplementedError({hint!r})"

    result = REGION.sub(replace, REFERENCE_MARKER.sub("", source))
    if "### BEGIN SOLUTION" in result or "### END SOLUTION" in result:
        raise ValueError(f"unbalanced solution markers in:\n{source}")
    return result


def lab_from_solution(
    solution: nbformat.NotebookNode, hints: dict[str, str] | None = None
) -> nbformat.NotebookNode:
    lab = nbformat.from_dict(solution)
    exercises_started = False
    for cell in lab.cells:
        if cell.cell_type == "code":
            exercises_started = exercises_started or "### BEGIN SOLUTION" in cell.source
            cell.source = stub(cell.source, hints)
            cell.outputs, cell.execution_count = [], None
            if exercises_started:
                tags = cell.metadata.setdefault("tags", [])
                if "raises-exception" not in tags:
                    tags.append("raises-exception")
    return lab


def render(nb: nbformat.NotebookNode) -> str:
    return nbformat.writes(nb) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="verify instead of writing")
    args = parser.parse_args()
    stale = []
    # The Chinese edition too: solutions/zh -> labs/zh.
    for solution_path in sorted((ROOT / "solutions").glob("*.ipynb")) + sorted(
        (ROOT / "solutions" / "zh").glob("*.ipynb")
    ):
        lab_path = ROOT / "labs" / solution_path.relative_to(ROOT / "solutions")
        hints = json.loads(HINTS_ZH.read_text(encoding="utf-8")) if solution_path.parent.name == "zh" else {}
        text = render(lab_from_solution(nbformat.read(solution_path, as_version=4), hints))
        if args.check:
            if not lab_path.exists() or lab_path.read_text(encoding="utf-8") != text:
                stale.append(lab_path.relative_to(ROOT))
        else:
            lab_path.parent.mkdir(exist_ok=True)
            lab_path.write_text(text, encoding="utf-8")
    for path in stale:
        print(f"{path} is out of date: run python scripts/make_labs.py", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
