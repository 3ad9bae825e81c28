"""Score the model on the course's bilingual eval set (assets/bilingual_eval.json); update results.md.

    .venv/bin/python benchmarks/eval_set.py              # prints the table and writes its section
    .venv/bin/python benchmarks/eval_set.py --failures   # also every failed case and why
    .venv/bin/python benchmarks/eval_set.py --no-write   # print only (run_all.py uses this)

Every case goes through the real `openai` client (`wirelab.llm.client()`): the
offline model, or a provider selected by OPENAI_API_KEY / OPENAI_BASE_URL /
WIRELAB_MODEL. Scored by `wirelab.bilingual_eval` (see its docstring for the rules).
"""

from __future__ import annotations

import argparse
import datetime
import sys
import time

from run_all import EVAL_SET_TITLE, git_commit, update_section

from wirelab import bilingual_eval, llm


def body(outcomes: list[bilingual_eval.Outcome]) -> str:
    return (
        f"Model: {llm.describe_provider()}.\n\n{bilingual_eval.table(outcomes)}\n\n"
        "A case passes when the model makes exactly the expected calls (none for chit-chat, thanks, "
        "negation and topics without an action), with every argument among its accepted values; "
        "relative dates are resolved against the date the case's system message gives. "
        "CI holds the model to its calls on each case, kept in `tests/model_snapshot.json`."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--failures", action="store_true", help="list every failed case on stderr")
    parser.add_argument("--no-write", action="store_true", help="print only; leave results.md alone")
    args = parser.parse_args()
    started = time.perf_counter()
    outcomes = bilingual_eval.run()
    seconds = time.perf_counter() - started
    if args.failures:
        for outcome in (o for o in outcomes if not o.ok):
            print(f"{outcome.case.id}: {outcome.reason}; called {outcome.calls}", file=sys.stderr)
    if args.no_write:
        print(body(outcomes))
        return
    stamp = f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, commit {git_commit()}"
    shown = f"`python benchmarks/eval_set.py`, {seconds:.0f} s; {stamp}."
    text = f"## {EVAL_SET_TITLE}\n\n{shown}\n\n{body(outcomes)}\n"
    print(text)
    update_section(EVAL_SET_TITLE, text)
    print("[eval_set] updated benchmarks/results.md", file=sys.stderr)


if __name__ == "__main__":
    main()
