"""Run every benchmark and update `benchmarks/results.md`, with the machine they ran on.

    .venv/bin/python benchmarks/run_all.py                 # all of them (about fifteen minutes)
    .venv/bin/python benchmarks/run_all.py --quick         # fewer calls and repeats: a smoke run
    .venv/bin/python benchmarks/run_all.py --test-command  # also time `./course test` (long)

Each benchmark is its own script in this folder, run here in a subprocess one
after another (so they do not compete for the cores); what it prints on stdout
goes into results.md under its heading, its progress on stderr goes to the
terminal. A benchmark that fails is reported in results.md and the others still
run. The numbers are measurements of one run on one machine, not pass/fail checks.

results.md is updated in place, as `update_section` does for one benchmark: the
opening (command and machine) and the sections of `BENCHMARKS` are replaced where
they stand, and every other section (written by its own command, such as
`benchmarks/reliability.py --write` or `scripts/lessons_under_load.py`, each naming
its command and date) is kept as it is, in its place.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import os
import pathlib
import platform
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent
RESULTS = HERE / "results.md"
PACKAGES = (
    "mcp",
    "starlette",
    "uvicorn",
    "sse-starlette",
    "httpx2",
    "jsonschema",
    "openai",
    "ipykernel",
    "nbclient",
    "ipywidgets",
    "anywidget",
    "hypothesis",
)


BFCL_TITLE = "Function calling on BFCL, scored by BFCL's own checker (issue 11)"
EVAL_SET_TITLE = "Function calling on the course's bilingual eval set (issue 11)"
CLASSROOM_TITLE = "Classroom: learners on one JupyterHub"
COURSE_TITLE = "The whole course: every lesson and solution"


@dataclass(frozen=True)
class Benchmark:
    title: str
    script: str
    args: tuple[str, ...] = ()
    quick_args: tuple[str, ...] = ()
    markdown: bool = True  # False: the output is plain text, shown as a code block


BENCHMARKS = (
    Benchmark(
        "MCP `tools/call` round trips: our server vs the SDK's",
        "mcp_roundtrip.py",
        args=("--no-write",),
        quick_args=("--calls", "50", "--rounds", "1"),
    ),
    Benchmark(
        "Parallel tool calls: lesson 04's executors vs serial",
        "parallel_speedup.py",
        args=("--no-write",),
        quick_args=("--repeats", "1"),
    ),
    Benchmark("Wire inspector cost in a kernel", "inspector_cost.py", markdown=False),
    Benchmark("Knowledge-base retrieval quality (lesson 12)", "kb_quality.py", markdown=False),
    Benchmark(COURSE_TITLE, "course_runtime.py"),
    Benchmark(BFCL_TITLE, "bfcl.py", args=("--no-write",), quick_args=("--per-category", "25")),
    Benchmark(EVAL_SET_TITLE, "eval_set.py", args=("--no-write",)),
    Benchmark(CLASSROOM_TITLE, "classroom.py", args=("--no-write",), quick_args=("--learners", "4")),
)


def cpu_model() -> str:
    try:
        lines = pathlib.Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:
        return platform.processor() or "unknown"
    return next(
        (line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")),
        platform.processor() or "unknown",
    )


def package_versions() -> str:
    versions = []
    for name in PACKAGES:
        try:
            versions.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{name} (not installed)")
    return ", ".join(versions)


def git_commit() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True)
    others = ["--", ".", ":!benchmarks/results.md"]  # benchmarks rewrite results.md: it does not count
    dirty = subprocess.run(["git", "status", "-s", *others], cwd=REPO, capture_output=True, text=True)
    return (done.stdout.strip() or "unknown") + (" with uncommitted changes" if dirty.stdout else "")


def machine_load() -> str:
    """The load on this machine now, for a section measured on its own."""
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return f"{os.cpu_count()} cores, load average {load} at the end (a shared, loaded machine is noisier)"


def machine() -> str:
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return "\n".join(
        [
            f"- Date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC; commit {git_commit()}",
            f"- CPU: {cpu_model()}; {os.cpu_count()} cores, {usable} usable by this process; "
            f"load average at start {load} (a shared machine runs slower and noisier)",
            f"- OS: {platform.platform()}",
            f"- Python: {platform.python_implementation()} {platform.python_version()}",
            f"- Packages: {package_versions()}",
        ]
    )


def spread(values: list[float], unit: str = "", digits: int = 2) -> str:
    """Median with the interquartile range across rounds: `1.23 [1.10–1.40]`."""
    if len(values) < 2:
        return f"{values[0]:,.{digits}f}{unit}"
    q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return f"{median:,.{digits}f}{unit} [{q1:,.{digits}f}–{q3:,.{digits}f}]"


def split_sections(text: str) -> tuple[str, list[tuple[str, str]]]:
    """The text before the first `## ` heading, and each `(title, section)` in order.

    A section runs from its `## ` heading to the next one; a `## ` line inside a fenced
    code block (a benchmark's plain-text output) is not a heading.
    """
    preamble: list[str] = []
    sections: list[tuple[str, list[str]]] = []
    fenced = False
    for line in text.splitlines(keepends=True):
        if line.startswith("```"):
            fenced = not fenced
        if not fenced and line.startswith("## "):
            sections.append((line[3:].strip(), [line]))
        elif sections:
            sections[-1][1].append(line)
        else:
            preamble.append(line)
    return "".join(preamble), [(title, "".join(lines)) for title, lines in sections]


def merge_sections(text: str, sections: dict[str, str], preamble: str | None = None) -> str:
    """`text` with each of `sections` (title -> section, from its `## ` heading) put in.

    A section already there is replaced where it stands; a new one is appended, in the
    order given; every other section is kept as it is. `preamble`, when given, replaces
    the text before the first section.
    """
    before, existing = split_sections(text)
    titles = {title for title, _ in existing}
    blocks = [sections.get(title, block) for title, block in existing]
    blocks += [block for title, block in sections.items() if title not in titles]
    parts = [(before if preamble is None else preamble).strip("\n")]
    parts += [block.strip("\n") for block in blocks]
    return "\n\n".join(part for part in parts if part) + "\n"


def update_section(title: str, section: str) -> None:
    """Put one benchmark's section into results.md, replacing its old one and keeping the others."""
    text = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else "# Benchmark results\n"
    RESULTS.write_text(merge_sections(text, {title: section}), encoding="utf-8")


def run(benchmark: Benchmark, extra: tuple[str, ...]) -> str:
    """The benchmark's section of results.md."""
    command = [sys.executable, str(HERE / benchmark.script), *benchmark.args, *extra]
    print(f"[run_all] {benchmark.script} {' '.join(extra)}", file=sys.stderr)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=REPO, stdout=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - started
    shown = f"`python benchmarks/{benchmark.script}{''.join(' ' + a for a in extra)}`"
    output = done.stdout.strip()
    body = output if benchmark.markdown else f"```\n{output}\n```"
    if done.returncode != 0:
        body += f"\n\n**Failed** with exit code {done.returncode} (its stderr went to the terminal)."
    stamp = f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, commit {git_commit()}"
    return f"## {benchmark.title}\n\n{shown}, {seconds:.0f} s; {stamp}.\n\n{body}\n"


def preamble(command: str, header: str) -> str:
    """The opening of results.md: how it was written and the machine of this run."""
    return (
        f"# Benchmark results\n\nWritten by `{command}`; regenerate with the same command. "
        f"Its sections ({', '.join(b.script for b in BENCHMARKS)}) were measured in one run "
        f"on:\n\n{header}\n\nThe other sections were written by their own commands, which "
        "each one names with its date and commit; run_all.py keeps them as they are.\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer calls and repeats")
    parser.add_argument("--test-command", action="store_true", help="also time ./course test")
    args = parser.parse_args()
    header = machine()
    sections = {}
    for benchmark in BENCHMARKS:
        extra = benchmark.quick_args if args.quick else ()
        if benchmark.script == "course_runtime.py" and args.test_command:
            extra = (*extra, "--test-command")
        sections[benchmark.title] = run(benchmark, extra)
    command = (
        "python benchmarks/run_all.py"
        + (" --quick" if args.quick else "")
        + (" --test-command" if args.test_command else "")
    )
    text = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else ""
    RESULTS.write_text(merge_sections(text, sections, preamble(command, header)), encoding="utf-8")
    print(f"[run_all] wrote {RESULTS.relative_to(REPO)}", file=sys.stderr)


if __name__ == "__main__":
    main()
