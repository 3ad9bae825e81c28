"""Write the offline model's word classes, wirelab/offline_model/data/words.tsv, from LemmInflect.

    python scripts/make_word_classes.py                  # downloads lemminflect 0.2.3 (wheel only)
    python scripts/make_word_classes.py --wheel PATH     # or reads a wheel you already have

The offline model needs two facts about English words that a dictionary knows and rules do
not: whether a word can name a thing at all (a noun or an adjective: "kayak", "wooden") or is
only a verb or an adverb ("hurried", "quickly"), so that it is never taken for a value; and
the singular of a plural noun ("geese" -> "goose"). LemmInflect (https://github.com/bjascob/
LemmInflect, MIT License) ships that knowledge as a table of English words, each with its parts
of speech and lemmas; this script keeps the two facts and drops the rest, so the model loads
about a tenth of the memory the package takes (its lemma table alone costs a kernel 30 MB), and
the package itself is not a dependency of the course. words.tsv has two sections:

    [action]                    then one word a line: no noun, adjective or proper-noun reading
    [plural]                    then `plural<TAB>singular` a line, where the two differ
"""

from __future__ import annotations

import gzip
from collections import defaultdict
from pathlib import Path

from wheel_data import write_from_wheel

VERSION = "0.2.3"
OUT = Path(__file__).resolve().parent.parent / "wirelab" / "offline_model" / "data" / "words.tsv"
TABLE = "lemminflect/resources/lemma_lu.csv.gz"
THINGS = {"noun", "adj", "propn"}
HEADER = [
    f"# English word classes for the offline model, from LemmInflect {VERSION}'s lemma table",
    "# (Copyright (C) 2019 Brad Jascob, MIT License); written by scripts/make_word_classes.py.",
    "# [action]: words that are only verbs or adverbs; [plural]: nouns and their singular.",
]


def rows(table: str) -> list[str]:
    """The [action] and [plural] sections, from the CSV lines `word,part of speech,lemma/lemma…`."""
    readings: dict[str, set[str]] = defaultdict(set)
    plurals: dict[str, str] = {}
    for line in table.splitlines():
        word, part, lemmas = line.split(",", 2)
        key = word.casefold()
        readings[key].add(part)
        lemma = lemmas.split("/")[0].casefold()
        if part == "noun" and lemma != key:
            plurals.setdefault(key, lemma)
    actions = sorted(word for word, parts in readings.items() if not parts & THINGS)
    return [
        "[action]",
        *actions,
        "[plural]",
        *(f"{word}\t{lemma}" for word, lemma in sorted(plurals.items())),
    ]


def main() -> None:
    write_from_wheel(
        __doc__,
        "lemminflect",
        VERSION,
        OUT,
        HEADER,
        lambda archive: rows(gzip.decompress(archive.read(TABLE)).decode("utf-8")),
    )


if __name__ == "__main__":
    main()
