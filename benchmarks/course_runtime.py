"""How long the whole course takes to run: every notebook `./course test` runs, two at a time.

The notebooks are those the README's test command runs under nbval (`NBVAL_PATHS`,
the paths on the `course` script's pytest line, searched as pytest does): every
lesson and solution in English and Chinese (`notebooks/`, `notebooks/zh/`,
`solutions/`, `solutions/zh/`), both flashcard notebooks and the classroom
dashboard. Each is executed on a fresh kernel in its own folder (so a Chinese
notebook runs as the Chinese edition) with nbclient (offline model, as the tests
run it), in memory: nothing is written back. Two notebooks run at once, one per core of the machine the
course targets. It prints each notebook's time and status, the sum, and the
wall time of the whole batch. No pass/fail: a failing notebook is reported
and the rest still run.

With `--test-command` it also times the README's test command, `./course test`
(ruff, then the full pytest + nbval suite; many minutes), which is off by default.

    .venv/bin/python benchmarks/course_runtime.py [--workers 2] [--test-command]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import pathlib
import subprocess
import time

REPO = pathlib.Path(__file__).resolve().parents[1]
# The paths `./course test` gives pytest with --nbval (the `course` script): keep them in step;
# tests/test_benchmarks.py checks that they are the same.
NBVAL_PATHS = (
    "tests",
    "notebooks",
    "solutions",
    "drills/flashcards.ipynb",
    "drills/flashcards.zh.ipynb",
    "classroom/dashboard.ipynb",
)
CELL_TIMEOUT_S = 600


def course_notebooks(root: pathlib.Path = REPO) -> list[pathlib.Path]:
    """Every notebook pytest collects from `NBVAL_PATHS`: folders searched recursively, skipping
    hidden folders such as `.ipynb_checkpoints` (pytest's `norecursedirs`)."""
    found = set()
    for name in NBVAL_PATHS:
        path = root / name
        if path.suffix == ".ipynb":
            found.add(path)
            continue
        for notebook in path.rglob("*.ipynb"):
            if not any(part.startswith(".") for part in notebook.relative_to(path).parts):
                found.add(notebook)
    return sorted(found)


def execute(path: pathlib.Path) -> tuple[float, str]:
    """Seconds to run the notebook on a fresh kernel, and 'ok' or the error's first line."""
    import nbclient
    import nbformat

    os.environ["WIRELAB_OFFLINE"] = "1"  # as the test suite's conftest sets it for every kernel
    os.environ.pop("WIRELAB_MODEL", None)
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT_S,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    )
    started = time.perf_counter()
    try:
        client.execute()
    except Exception as e:  # reported in the table; the other notebooks still run
        return time.perf_counter() - started, f"error: {str(e).strip().splitlines()[-1][:120]}"
    return time.perf_counter() - started, "ok"


def time_test_command() -> tuple[float, int]:
    """Wall seconds and exit code of `./course test`."""
    started = time.perf_counter()
    done = subprocess.run(["./course", "test"], cwd=REPO, capture_output=True)
    return time.perf_counter() - started, done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--test-command", action="store_true", help="also time ./course test (many minutes)")
    args = parser.parse_args()
    paths = course_notebooks()
    started = time.perf_counter()
    with concurrent.futures.ProcessPoolExecutor(args.workers) as pool:
        outcomes = list(pool.map(execute, paths))
    wall = time.perf_counter() - started
    print(f"{len(paths)} notebooks, {args.workers} at a time, each on a fresh kernel.\n")
    print("| notebook | seconds | status |")
    print("|---|---:|---|")
    for path, (seconds, status) in zip(paths, outcomes, strict=True):
        print(f"| {path.relative_to(REPO)} | {seconds:.1f} | {status} |")
    print(
        f"\nSum of notebook times: {sum(s for s, _ in outcomes):.0f} s; wall time with "
        f"{args.workers} workers: {wall:.0f} s."
    )
    if args.test_command:
        seconds, code = time_test_command()
        print(f"\nREADME test command `./course test`: {seconds:.0f} s wall, exit code {code}.")
    else:
        print(
            "\nREADME test command `./course test`: not timed in this run "
            "(opt in with `--test-command`; it runs the whole suite)."
        )


if __name__ == "__main__":
    main()
