"""Fit the offline model's meaning weights on the course's corpus and write them.

    .venv/bin/python scripts/train_offline_model.py           # fit, print, write the weights file
    .venv/bin/python scripts/train_offline_model.py --check   # fail if the file is stale
    .venv/bin/python scripts/train_offline_model.py --folds   # how requests it was not fitted on fare

Reads assets/offline_model_corpus.json (and the tool catalogues it names),
fits a logistic regression on the features of `wirelab.offline_model.meaning`
(see `wirelab.offline_model.training`), and writes
wirelab/offline_model/data/meaning_weights.json stamped with the corpus's hash.
Deterministic: the same corpus gives the same weights. `--folds` fits the weights five times,
each time without a fifth of the requests (`training.FOLDS`), decides that fifth's offers as
`meaning.choose` does, and prints how many it got right and how the others went wrong (the
honest figure for a change of features or corpus, before the eval set and BFCL), then how many
offers of several tools for requests the `chatter` probe reads as wanting one each bar among
them (`meaning.AMONG`) would get right.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from wirelab.offline_model import fit, meaning, training

sys.path.insert(0, str(Path(__file__).parent))
import fit_binding  # noqa: E402  (scripts/ is no package)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the weights file is stale")
    parser.add_argument("--folds", action="store_true", help="decide each fifth, fitted without it")
    args = parser.parse_args()
    bound, figures = fit_binding.train()  # binding first: meaning's features read binding's weights
    if args.folds:
        print(f"binding, requests bound exactly as annotated, held out by fold ({fit_binding.FOLDS}):")
        print("\n".join(f"  {name}: {folds} = {sum(folds)}" for name, folds in figures.items()))
    stale = fit.WEIGHTS.read_text(encoding="utf-8") != bound
    if not args.check and not args.folds:
        fit.WEIGHTS.write_text(bound, encoding="utf-8")
        fit.weights.cache_clear()
    corpus = training.load_corpus()
    probe = training.chatter_probe(corpus)
    x, y = training.examples(corpus)
    if args.folds:
        print(report(held_out(corpus, x, y)))
        return 0
    fitted = training.fit(x, y, probe, training.corpus_hash())
    text = training.as_json(fitted, len(y), training.accuracy(fitted, x, y))
    if args.check:
        names = [fit.WEIGHTS.name] * stale + [meaning.WEIGHTS.name] * (
            not training.same_fit(text, meaning.WEIGHTS.read_text("utf-8"))
        )
        print(f"stale, rerun this script: {', '.join(names)}" if names else "weights up to date")
        return int(bool(names))
    meaning.WEIGHTS.write_text(text, encoding="utf-8")
    print(bound + text, end="")
    print(
        f"{len(y)} meaning rows ({int(y.sum())} wanted); wrote {fit.WEIGHTS} and {meaning.WEIGHTS}",
        file=sys.stderr,
    )
    return 0


VERDICTS = ("right", "called where none was wanted", "called none where one was", "called another tool")
BARS = (0.2, 0.25, 0.3, 0.4, 0.5)  # bars among several tools to compare (`meaning.AMONG`)
Decided = list[tuple[np.ndarray, np.ndarray, bool]]  # each offer's probabilities, labels, wish for a tool


def held_out(corpus: dict[str, Any], x: np.ndarray, y: np.ndarray) -> Decided:
    """Each offer's probabilities from weights fitted without its fold's rows, its labels, and
    whether the `chatter` probe reads its request as wanting a tool."""
    offers = list(training.offers(corpus))
    sizes = [len(tools) for _, tools, _ in offers]
    folds = {item["text"]: k % training.FOLDS for k, item in enumerate(corpus["requests"])}
    fold = np.repeat([folds[text] for text, _, _ in offers], sizes)
    starts = np.cumsum([0, *sizes])
    wants = x[:, meaning.NAMES.index("chatter")] < 0.0
    decided: Decided = []
    for k in range(training.FOLDS):
        fitted = training.fit(x[fold != k], y[fold != k], np.zeros(513))
        p = 1.0 / (1.0 + np.exp(-(x @ [fitted.weights[name] for name in meaning.NAMES] + fitted.bias)))
        spans = zip(offers, starts, starts[1:], strict=False)
        decided += [(p[a:b], y[a:b], wants[a]) for (text, _, _), a, b in spans if folds[text] == k]
    return decided


def verdict(p: np.ndarray, labels: np.ndarray, wants: bool, among: float = meaning.AMONG) -> str:
    """One offer's `VERDICTS`, decided as `meaning.choose` decides: its most probable tool if at
    least `meaning.CHOOSE`, or `among` when several tools are offered to a request that `wants` one."""
    best = int(np.argmax(p))
    chosen = best if p[best] >= (among if len(p) > 1 and wants else meaning.CHOOSE) else None
    wanted = int(np.argmax(labels)) if labels.max() == 1 else None
    if chosen == wanted:
        return VERDICTS[0]
    return VERDICTS[1] if wanted is None else VERDICTS[2] if chosen is None else VERDICTS[3]


def report(decided: Decided) -> str:
    """The held-out verdicts, and how many offers of several tools each of `BARS` gets right."""
    verdicts = Counter(verdict(*offer) for offer in decided)
    several = [offer for offer in decided if len(offer[0]) > 1 and offer[2]]
    bars = ", ".join(
        f"{bar}: {sum(verdict(*offer, bar) == VERDICTS[0] for offer in several)}" for bar in BARS
    )
    return (
        f"held out, {training.FOLDS} folds: {verdicts[VERDICTS[0]]} of {len(decided)} offers right; "
        + ", ".join(f"{verdicts[v]} {v}" for v in VERDICTS[1:])
        + f"\namong several tools, for a request wanting one ({len(several)} offers), right by bar: {bars}"
    )


if __name__ == "__main__":
    sys.exit(main())
