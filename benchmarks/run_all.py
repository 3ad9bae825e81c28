"""Run every benchmark and write `benchmarks/results.md`, with the machine they ran on.

    .venv/bin/python benchmarks/run_all.py                 # all of them (about fifteen minutes)
    .venv/bin/python benchmarks/run_all.py --quick         # fewer calls and repeats: a smoke run
    .venv/bin/python benchmarks/run_all.py --test-command  # also time `./course test` (long)

Each benchmark is its own script in this folder, run here in a subprocess one
after another (so they do not compete for the cores); what it prints on stdout
goes into results.md under its heading, its progress on stderr goes to the
terminal. A benchmark that fails is reported in results.md and the others still
run. The numbers are measurements of one run on one machine, not pass/fail checks.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import os
import pathlib
import platform
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
        quick_args=("--calls", "50", "--rounds", "1"),
    ),
    Benchmark(
        "Parallel tool calls: lesson 04's executors vs serial",
        "parallel_speedup.py",
        quick_args=("--repeats", "1"),
    ),
    Benchmark("Wire inspector cost in a kernel", "inspector_cost.py", markdown=False),
    Benchmark("Knowledge-base retrieval quality (lesson 12)", "kb_quality.py", markdown=False),
    Benchmark("The whole course: every lesson and solution", "course_runtime.py"),
    Benchmark(BFCL_TITLE, "bfcl.py", args=("--no-write",), quick_args=("--per-category", "25")),
    Benchmark(EVAL_SET_TITLE, "eval_set.py", args=("--no-write",)),
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


def update_section(title: str, section: str) -> None:
    """Put one benchmark's section into results.md, replacing its old one and keeping the others."""
    text = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else "# Benchmark results\n"
    heading = f"## {title}\n"
    if heading in text:
        before, rest = text.split(heading, 1)
        after = rest[rest.find("\n## ") + 1 :] if "\n## " in rest else ""
        text = before + section + ("\n" + after if after else "")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    RESULTS.write_text(text, encoding="utf-8")


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
    return f"## {benchmark.title}\n\n{shown}, {seconds:.0f} s.\n\n{body}\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer calls and repeats")
    parser.add_argument("--test-command", action="store_true", help="also time ./course test")
    args = parser.parse_args()
    header = machine()
    sections = []
    for benchmark in BENCHMARKS:
        extra = benchmark.quick_args if args.quick else ()
        if benchmark.script == "course_runtime.py" and args.test_command:
            extra = (*extra, "--test-command")
        sections.append(run(benchmark, extra))
    command = (
        "python benchmarks/run_all.py"
        + (" --quick" if args.quick else "")
        + (" --test-command" if args.test_command else "")
    )
    RESULTS.write_text(
        f"# Benchmark results\n\nWritten by `{command}`; regenerate with the same "
        f"command. Measured in one run on:\n\n{header}\n\n" + "\n".join(sections)
    )
    print(f"[run_all] wrote {RESULTS.relative_to(REPO)}", file=sys.stderr)


if __name__ == "__main__":
    main()
