"""Run a lab notebook and collect the outcome of each check cell.

Check cells are the code cells tagged `check`. A lab runs to the end even when
cells fail (nbclient `allow_errors`), so one unfinished exercise does not hide
the result of the others. Used by `python -m wirelab.check` and by the tests
that prove each lab's checks fail unsolved and pass solved.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from traitlets.config import Config


@dataclass(frozen=True)
class CheckOutcome:
    cell: int
    passed: bool
    error_name: str | None
    line: str


@dataclass(frozen=True)
class LabReport:
    checks: list[CheckOutcome]
    other_errors: list[str]

    @property
    def passed(self) -> int:
        return sum(c.passed for c in self.checks)

    @property
    def all_passed(self) -> bool:
        return bool(self.checks) and self.passed == len(self.checks) and not self.other_errors


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


def run_lab(path: Path, timeout_s: int = 120) -> LabReport:
    nb = nbformat.read(path, as_version=4)
    os.environ.setdefault("WIRELAB_OFFLINE", "1")
    # CurveZMQ keys for the kernel's sockets (its kernelspec declares support), so the
    # kernel neither talks in plain text nor warns that it does.
    NotebookClient(
        nb,
        config=Config({"KernelManager": {"transport_encryption": "auto"}}),
        timeout=timeout_s,
        kernel_name="python3",
        allow_errors=True,
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()
    checks, others = [], []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        error = next((o for o in cell.outputs if o.output_type == "error"), None)
        if "check" in cell.metadata.get("tags", []):
            checks.append(_outcome(index, cell, error))
        elif error is not None and error.ename != "NotImplementedError":
            others.append(f"cell {index} raised {error.ename}: {error.evalue}")
    return LabReport(checks, others)


def _outcome(index: int, cell: nbformat.NotebookNode, error: nbformat.NotebookNode | None) -> CheckOutcome:
    if error is None:
        text = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
        return CheckOutcome(index, True, None, text.strip().splitlines()[-1] if text.strip() else "✓")
    message = error.evalue if error.ename == "CheckFailed" else f"{error.ename}: {error.evalue}"
    return CheckOutcome(index, False, error.ename, f"✗ {message}")
