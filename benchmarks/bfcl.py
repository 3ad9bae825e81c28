"""Score the model on BFCL's single-turn categories with BFCL's own checker; update results.md.

    .venv/bin/python benchmarks/bfcl.py                      # every case (a few minutes offline)
    .venv/bin/python benchmarks/bfcl.py --per-category 25    # the first 25 of each: a smoke run
    .venv/bin/python benchmarks/bfcl.py --details bfcl.jsonl # also every case's calls and verdict

Each case goes through the real `openai` client (`wirelab.llm.client()`): the
offline model by default, a provider when OPENAI_API_KEY / OPENAI_BASE_URL /
WIRELAB_MODEL say so (add `--workers 8` for a hosted one). The table is printed
and written into its own section of `benchmarks/results.md` (other sections are
kept), stamped with the commit; `--no-write` only prints (run_all.py uses that).
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path

from run_all import BFCL_TITLE, git_commit, update_section

from wirelab import bfcl, llm

# Issue 11's targets for the offline model.
TARGETS = {
    "simple_python": 0.60,
    "multiple": 0.60,
    "parallel": 0.40,
    "parallel_multiple": 0.40,
    "irrelevance": 0.85,
    "live_simple": 0.45,
    "live_multiple": 0.40,
    "live_irrelevance": 0.80,
}
SHOWN_ERRORS = 3


def held_out(case_id: str) -> bool:
    """Whether a case was held out while the offline model's rules were written: those with an
    odd first number (`simple_python_7`, `live_multiple_31-3-2`). Only the failures of the
    even-numbered half were read, so the two halves' gap shows how far the rules fit the cases
    they were written from rather than requests in general."""
    number = case_id[len(bfcl.category_of(case_id)) :].lstrip("_").split("-")[0]
    return int(number) % 2 == 1


def table(results: list[bfcl.Result]) -> str:
    """Markdown: accuracy (all, read, held out), target and the main error types of each
    category, then overall."""
    rows = [
        "| category | cases | accuracy | read / held out | target | main error types (BFCL's names, cases) |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for category, score in bfcl.scores(results).items():
        errors = ", ".join(f"`{kind}` {n}" for kind, n in score.errors.most_common(SHOWN_ERRORS))
        halves = _halves([r for r in results if r.case.category == category])
        rows.append(
            f"| {category} | {score.total} | {score.accuracy:.1%} | {halves} | "
            f"{TARGETS[category]:.0%} | {errors} |"
        )
    rows.append(f"| **all** | {len(results)} | {bfcl.overall(results):.1%} | {_halves(results)} | | |")
    return "\n".join(rows)


def _halves(results: list[bfcl.Result]) -> str:
    read = [r.valid for r in results if not held_out(r.case.id)]
    held = [r.valid for r in results if held_out(r.case.id)]
    return " / ".join(f"{sum(h) / len(h):.1%}" if h else "–" for h in (read, held))


def section(results: list[bfcl.Result], seconds: float, command: str) -> str:
    """The whole results.md section for this run."""
    stamp = f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, commit {git_commit()}"
    return f"## {BFCL_TITLE}\n\n`{command}`, {seconds:.0f} s; {stamp}.\n\n{body(results)}\n"


def body(results: list[bfcl.Result]) -> str:
    return (
        f"Model: {llm.describe_provider()}.\n\n{table(results)}\n\n"
        "Each case's tools are BFCL's function docs as Chat Completions tools, sent through the "
        "real `openai` client; `bfcl_eval`'s `ast_checker` judges the parsed calls against each "
        "parameter's accepted values. In the irrelevance categories any call is wrong "
        f"(`{bfcl.CALLED_ANYWAY}`). `{bfcl.NO_CALL}` here means no tool call came back; "
        "`wrong_count` a different number of calls than expected; `value_error:*` a right tool "
        "with a wrong value. Targets are issue 11's. *Read / held out*: the rules were written "
        "from the failures of the even-numbered cases only; the odd-numbered half was never read, "
        "so its column is the fairer estimate of how the model does on requests it was not tuned on."
    )


def write_details(results: list[bfcl.Result], path: Path) -> None:
    with path.open("w", encoding="utf-8") as out:
        for r in results:
            row = {"id": r.case.id, "valid": r.valid, "error_type": r.error_type, "error": r.error}
            out.write(json.dumps({**row, "calls": r.calls}, ensure_ascii=False, default=str) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-category", type=int, help="only the first N cases of each category")
    parser.add_argument("--workers", type=int, default=1, help="requests in flight (for a provider)")
    parser.add_argument("--details", type=Path, help="write every case's calls and verdict (JSON lines)")
    parser.add_argument("--no-write", action="store_true", help="print only; leave results.md alone")
    args = parser.parse_args()
    started, results = time.perf_counter(), []
    for category in bfcl.CATEGORIES:
        cases = bfcl.load(category)[: args.per_category]
        print(f"[bfcl] {category}: {len(cases)} cases", file=sys.stderr)
        results += bfcl.run(cases, workers=args.workers)
    seconds = time.perf_counter() - started
    if args.details:
        write_details(results, args.details)
    if args.no_write:
        print(body(results))
        return
    shown = "python benchmarks/bfcl.py"
    if args.per_category:
        shown += f" --per-category {args.per_category}"
    text = section(results, seconds, shown)
    print(text)
    update_section(BFCL_TITLE, text)
    print("[bfcl] updated benchmarks/results.md", file=sys.stderr)


if __name__ == "__main__":
    main()
