"""Run the offline model on the CI samples and rewrite its snapshot, tests/model_snapshot.json.

    .venv/bin/python scripts/update_floors.py                  # refresh; refuses to write a loss
    .venv/bin/python scripts/update_floors.py --dry-run        # only print what changed
    .venv/bin/python scripts/update_floors.py --accept-losses  # also write cases that now fail
    .venv/bin/python scripts/update_floors.py --dry-run --cases  # and which cases, how

The snapshot holds, for each case of the BFCL CI sample and of the bilingual eval set, the
calls the model makes and whether they pass (tests/model_snapshot.py). The tests fail on any
case that differs from it, so after changing the model, run this and commit the snapshot with
the change. It prints how many cases differ, by kind: LOST (passed, now fails), gained, changed
calls, new and gone. Whoever changes the model measures on these sets and never reads them, so
the cases themselves are shown only with `--cases`: the eval set's with their calls, BFCL's by
case id only (its calls and arguments are never shown). A loss is a regression, so the snapshot
is left as it is unless `--accept-losses` says it is meant; the exit status is then 1. A request
that failed (the model raised an error) is no decision, and is never written.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import model_snapshot  # noqa: E402

DETAILED = {"eval_set"}  # suites whose differences show the calls: the course's own cases, not BFCL's


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="print the differences, write nothing")
    parser.add_argument("--accept-losses", action="store_true", help="write cases that now fail too")
    parser.add_argument("--cases", action="store_true", help="print each differing case, not only counts")
    args = parser.parse_args()
    os.environ["WIRELAB_OFFLINE"] = "1"  # the snapshot is the offline model's, whatever the shell says
    os.environ.pop("WIRELAB_MODEL", None)
    try:
        old = model_snapshot.load() if model_snapshot.PATH.exists() else {}
    except ValueError as error:
        print(f"{error}; every case is taken as new.")
        old = {}
    new = model_snapshot.take()
    diffs = {n: model_snapshot.compare(model_snapshot.TITLES[n], old.get(n, {}), new[n]) for n in new}
    for name, diff in diffs.items():
        shown = "\n".join(diff.lines(calls=name in DETAILED)) if args.cases else diff.counts()
        print(shown if diff else f"{diff.title}: {diff.score(diff.new)} pass, no change")
    crashed = sum(entry.crashed != "" for suite in new.values() for entry in suite.values())
    lost = sum(len(diff.lost) for diff in diffs.values())
    where = os.path.relpath(model_snapshot.PATH, ROOT)
    text = model_snapshot.dumps(new)
    if args.dry_run or (old and text == model_snapshot.PATH.read_text(encoding="utf-8")):
        print(f"{where} left as it is.")
        return 0
    if crashed:
        print(f"NOT written: {crashed} request(s) failed, no decision made (--cases marks them).")
        return 1
    if lost and not args.accept_losses:
        print(f"NOT written: {lost} LOST case(s), a regression. Fix the model, or accept them with")
        print("--accept-losses if they are meant.")
        return 1
    model_snapshot.PATH.write_text(text, encoding="utf-8")
    print(f"Wrote {where}: commit it with the model change.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
