"""Timed coding drills: list them, run a drill's checks (pytest, in a subprocess), summarise.

The drills are listed in `drills/coding/drills.yaml`; each has a `starter.py` the learner
edits, a `solution.py` and its checks `test_<drill>.py`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from wirelab.interview.bank import DRILLS_DIR, DrillError, read_yaml
from wirelab.interview.mock import format_minutes


@dataclass(frozen=True)
class CodingDrill:
    """A timed coding drill: the file the learner edits, its checks and its time box."""

    name: str
    title: str
    minutes: int
    brief: str
    folder: Path

    @property
    def starter(self) -> Path:
        return self.folder / "starter.py"

    @property
    def solution(self) -> Path:
        return self.folder / "solution.py"

    @property
    def checks(self) -> Path:
        return self.folder / f"test_{self.name}.py"


def coding_drills(folder: Path | None = None) -> dict[str, CodingDrill]:
    """The coding drills listed in `drills/coding/drills.yaml`, by name."""
    folder = folder or DRILLS_DIR / "coding"
    listing = read_yaml(folder / "drills.yaml")
    return {
        name: CodingDrill(name, spec["title"], spec["minutes"], spec["brief"].strip(), folder / name)
        for name, spec in listing.items()
    }


def get_drill(name: str) -> CodingDrill:
    drills = coding_drills()
    if name not in drills:
        raise DrillError(f"no coding drill {name!r}; choose one of: {', '.join(drills)}")
    return drills[name]


@dataclass(frozen=True)
class CheckResult:
    """What one run of a drill's checks found."""

    drill: CodingDrill
    passed: int
    total: int
    output: str

    @property
    def ok(self) -> bool:
        return self.total > 0 and self.passed == self.total


def check_drill(drill: CodingDrill, target: Path | None = None, timeout: float = 120) -> CheckResult:
    """Run the drill's checks (pytest, in a subprocess) against `target` (default: the starter).

    Plugin autoloading is off: the checks need none, and it keeps a check to about a second.
    """
    target = (target or drill.starter).resolve()
    if not target.is_file():
        raise DrillError(f"no file to check at {target}")
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.xml"
        command = [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "--tb=short",
            "-p",
            "no:cacheprovider",
            f"--junitxml={report}",
            "--rootdir",
            str(drill.folder),
            str(drill.checks),
        ]
        env = {**os.environ, "WIRELAB_DRILL_FILE": str(target), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
        try:
            run = subprocess.run(
                command, capture_output=True, text=True, env=env, timeout=timeout, cwd=drill.folder
            )
        except subprocess.TimeoutExpired as exc:
            raise DrillError(
                f"checks did not finish in {timeout:g} s: does {target.name} wait forever?"
            ) from exc
        passed, total = _count(report)
    return CheckResult(drill, passed, total, run.stdout + run.stderr)


def _count(report: Path) -> tuple[int, int]:
    if not report.exists():
        return 0, 0
    suite = ET.parse(report).getroot()
    suite = suite if suite.tag == "testsuite" else suite[0]
    total = int(suite.get("tests", 0))
    failed = sum(int(suite.get(key, 0)) for key in ("failures", "errors", "skipped"))
    return total - failed, total


def summary(result: CheckResult, started: float | None, now: float) -> str:
    """One line: pass/fail, checks passed, time taken against the time box."""
    verdict = "PASS" if result.ok else "FAIL"
    box = result.drill.minutes * 60
    if started is None:
        clock = f"time box {result.drill.minutes} min (run `start {result.drill.name}` to time it)"
    else:
        taken = now - started
        over = " - over the box" if taken > box else ""
        clock = f"time {format_minutes(taken)} of {format_minutes(box)}{over}"
    return f"{verdict} {result.drill.name}: {result.passed}/{result.total} checks passed; {clock}"
