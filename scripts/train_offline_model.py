"""Fit the offline model's meaning weights on the course's corpus and write them.

    .venv/bin/python scripts/train_offline_model.py           # fit, print, write the weights file
    .venv/bin/python scripts/train_offline_model.py --check   # fail if the file is stale

Reads assets/offline_model_corpus.json (and the tool catalogues it names),
fits a logistic regression on the features of `wirelab.offline_model.meaning`
(see `wirelab.offline_model.training`), and writes
wirelab/offline_model/data/meaning_weights.json stamped with the corpus's hash.
Deterministic: the same corpus gives the same weights.
"""

from __future__ import annotations

import argparse
import sys

from wirelab.offline_model import meaning, training


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the weights file is stale")
    args = parser.parse_args()
    corpus = training.load_corpus()
    probe = training.chatter_probe(corpus)
    x, y = training.examples(corpus)
    fitted = training.fit(x, y, probe, training.corpus_hash())
    text = training.as_json(fitted, len(y), training.accuracy(fitted, x, y))
    if args.check:
        stale = meaning.WEIGHTS.read_text(encoding="utf-8") != text
        print(f"{meaning.WEIGHTS.name}: {'stale, rerun this script' if stale else 'up to date'}")
        return int(stale)
    meaning.WEIGHTS.write_text(text, encoding="utf-8")
    print(text, end="")
    print(f"{len(y)} rows ({int(y.sum())} wanted); wrote {meaning.WEIGHTS}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
