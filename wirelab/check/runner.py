"""Run a lab notebook and collect the outcome of each check cell.

Check cells are the code cells tagged `check`: each prints one ✓ or ✗ line (a
check reports instead of raising in a notebook). The cell tagged `summary` raises
when an exercise is not passing, which is expected and not counted as an error.
A lab runs to the end even when cells fail (nbclient `allow_errors`), so one
unfinished exercise does not hide the result of the others. Used by
`python -m wirelab.check` and by the tests that prove each lab's checks fail
unsolved and pass solved.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from traitlets.config import Config

from wirelab.edition import say

# a check cell calls its check first: check_execute_call(execute_call), as make_nbgrader.py reads it
CHECK_CALL = re.compile(r"^(check_\w+)\(", re.M)


@dataclass(frozen=True)
class CheckOutcome:
    cell: int
    passed: bool
    error_name: str | None
    line: str
    name: str = ""  # the check it calls (check_execute_call): nbgrader's grade id for its cell


@dataclass(frozen=True)
class LabReport:
    checks: list[CheckOutcome]
    other_errors: list[str]
    summary_failed: bool = False

    @property
    def passed(self) -> int:
        return sum(c.passed for c in self.checks)

    @property
    def all_passed(self) -> bool:
        return (
            bool(self.checks)
            and self.passed == len(self.checks)
            and not self.other_errors
            and not self.summary_failed
        )


def find_lab(name: str, root: Path) -> Path:
    """`02` -> labs/02_…_lab.ipynb under `root`; a path is taken as it is."""
    if name.endswith(".ipynb"):
        path = Path(name)
        if not path.exists():
            raise FileNotFoundError(f"no notebook at {path}")
        return path
    matches = sorted((root / "labs").glob(f"{name.zfill(2)}_*_lab.ipynb"))
    if not matches:
        raise FileNotFoundError(f"no lab for lesson {name!r} in {root / 'labs'}")
    return matches[0]


@contextmanager
def private_kernel() -> Iterator[Config]:
    """The config of a kernel whose sockets are files in a temporary folder of its own (ZeroMQ's IPC
    transport), removed when the block ends.

    Over TCP, jupyter_client picks free ports and the kernel binds them a moment later: on a
    busy machine another process can take one in between, and the kernel dies with "Address
    already in use". Files in a folder of our own cannot be taken, nor reached by another user.
    """
    with tempfile.TemporaryDirectory(prefix="kernel-") as folder:
        yield Config({"KernelManager": {"transport": "ipc", "ip": str(Path(folder) / "kernel")}})


def run_lab(path: Path, timeout_s: int = 120, like_run_all: bool = False) -> LabReport:
    """Run the lab and report each check cell. `like_run_all` stops, as JupyterLab's Run All
    does, at a cell that raises unless it is tagged `raises-exception` (CellExecutionError)."""
    nb = nbformat.read(path, as_version=4)
    os.environ.setdefault("WIRELAB_OFFLINE", "1")
    with private_kernel() as config:
        NotebookClient(
            nb,
            config=config,
            timeout=timeout_s,
            kernel_name="python3",
            allow_errors=not like_run_all,
            resources={"metadata": {"path": str(path.parent)}},
        ).execute()
    checks, others, summary_failed = [], [], False
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        error = next((o for o in cell.outputs if o.output_type == "error"), None)
        tags = cell.metadata.get("tags", [])
        if "check" in tags:
            checks.append(_outcome(index, cell, error, path))
        elif "summary" in tags and error is not None and error.ename == "CheckFailed":
            summary_failed = True
        elif error is not None and error.ename != "NotImplementedError":
            others.append(
                say(
                    f"cell {index} raised {error.ename}: {error.evalue}",
                    f"单元格 {index} 抛出了 {error.ename}：{error.evalue}",
                    path,
                )
            )
    return LabReport(checks, others, summary_failed)


def _outcome(
    index: int, cell: nbformat.NotebookNode, error: nbformat.NotebookNode | None, path: Path
) -> CheckOutcome:
    name = next(iter(CHECK_CALL.findall(cell.source)), "")
    if error is not None:
        message = error.evalue if error.ename == "CheckFailed" else f"{error.ename}: {error.evalue}"
        return CheckOutcome(index, False, error.ename, f"✗ {message}", name)
    text = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
    reported = [line for line in text.splitlines() if line.startswith(("✓", "✗"))]
    if not reported:
        silent = say("the check cell printed no ✓ or ✗ line", "检查单元格没有输出 ✓ 或 ✗ 行", path)
        return CheckOutcome(index, False, None, f"✗ {silent}", name)
    return CheckOutcome(index, reported[-1].startswith("✓"), None, reported[-1], name)
