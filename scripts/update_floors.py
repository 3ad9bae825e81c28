"""Measure the offline model on the CI samples and raise the floors in tests/floors.json.

    .venv/bin/python scripts/update_floors.py            # raise floors to measured - 10 points
    .venv/bin/python scripts/update_floors.py --dry-run  # only print what would change
    .venv/bin/python scripts/update_floors.py --allow-lower

A floor is the measured pass rate minus `MARGIN` (ten points), rounded down to
a whole percent, never below 0. Floors only go up unless `--allow-lower` is
given, so a regression cannot be written into the floors by accident. The
tests that read them: tests/test_bfcl.py (the 100 BFCL cases of
assets/bfcl_ci_sample.json) and tests/test_bilingual_eval.py (the whole eval set).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import subprocess
from pathlib import Path

from wirelab import bfcl, bilingual_eval

ROOT = Path(__file__).resolve().parent.parent
FLOORS = ROOT / "tests" / "floors.json"
SAMPLE = ROOT / "assets" / "bfcl_ci_sample.json"
MARGIN = 0.10


def measured() -> dict[str, dict[str, float]]:
    """Pass rates per category and "all", for the BFCL sample and the eval set."""
    results = bfcl.run(bfcl.load_ids(json.loads(SAMPLE.read_text())["ids"]))
    bfcl_rates = {category: score.accuracy for category, score in bfcl.scores(results).items()}
    outcomes = bilingual_eval.run()
    eval_rates = {category: p / t for category, (p, t) in bilingual_eval.scores(outcomes).items()}
    return {
        "bfcl_sample": {**bfcl_rates, "all": bfcl.overall(results)},
        "eval_set": {**eval_rates, "all": bilingual_eval.pass_rate(outcomes)},
    }


def floor(rate: float) -> float:
    return max(0.0, math.floor(round((rate - MARGIN) * 100, 6)) / 100)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="print the changes, write nothing")
    parser.add_argument("--allow-lower", action="store_true", help="also lower floors that are above")
    args = parser.parse_args()
    floors = json.loads(FLOORS.read_text())
    for suite, rates in measured().items():
        current = floors[suite]["floors"]
        floors[suite]["floors"] = {group: current.get(group, 0.0) for group in rates} | current
        for group, rate in rates.items():
            old, new = floors[suite]["floors"].setdefault(group, 0.0), floor(rate)
            if new > old or (args.allow_lower and new != old):
                print(f"{suite} {group}: measured {rate:.1%}, floor {old:.0%} -> {new:.0%}")
                floors[suite]["floors"][group] = new
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    floors["measured"] = f"{datetime.date.today()}, commit {commit.stdout.strip()}"
    if not args.dry_run:
        FLOORS.write_text(json.dumps(floors, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
