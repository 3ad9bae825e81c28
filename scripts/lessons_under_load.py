"""Run every lesson under nbval while busy-loop processes hold every core.

    python scripts/lessons_under_load.py                 # all of notebooks/, one burner per core
    python scripts/lessons_under_load.py notebooks/11_*.ipynb --burners 4

No lesson may depend on a fast machine: a lesson whose cell waits on a short
timeout passes on an idle laptop and fails on a loaded classroom server. Each
notebook runs in its own pytest (so each gets its own time); the burners are
plain `python -c 'while 1: pass'` processes, started before the first lesson
and killed after the last. Prints one line per lesson and exits 1 if any failed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
NBVAL = ["--nbval", "--nbval-current-env", "--nbval-sanitize-with", "tests/nbval_sanitize.cfg"]


def burn(count: int) -> list[subprocess.Popen]:
    """`count` processes that each keep one core busy until killed."""
    return [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(count)]


def run_lesson(notebook: Path) -> tuple[bool, float, str]:
    """nbval on one notebook: passed, seconds, and the last line of pytest's summary."""
    started = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", *NBVAL, str(notebook)],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
    )
    summary = (run.stdout.strip().splitlines() or ["(no output)"])[-1]
    return run.returncode == 0, time.monotonic() - started, summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--burners", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()
    notebooks = args.notebooks or sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    burners = burn(args.burners)
    failed = 0
    print(f"{len(notebooks)} lessons, {args.burners} busy-loop processes on {os.cpu_count()} cores")
    try:
        for notebook in notebooks:
            passed, seconds, summary = run_lesson(notebook)
            failed += not passed
            verdict = "ok  " if passed else "FAIL"
            print(f"{verdict} {seconds:6.1f} s  {notebook.name}  ({summary})", flush=True)
    finally:
        for process in burners:
            process.kill()
            process.wait()
    print(f"{len(notebooks) - failed} of {len(notebooks)} lessons passed under load")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
