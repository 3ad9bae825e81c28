"""The model's small bilingual lexicon: the word knowledge every stage shares.

An LLM learns which words mean the same from billions of sentences; this model
is *told*, in a few readable lists, the sections of data/lexicon.txt:

- `SYNONYMS`: groups of English and Chinese words that name one idea
  ("weather", "forecast", "天气"). `concept("forecast") == concept("天气")`.
- `STOPWORDS`: words that carry no topic ("the", "please", "的", "一下").
- `GENERIC`: words that appear in almost every tool ("get", "data", "value"):
  they count for little when ranking tools.
- Small talk, negations, number words, months, and the other short lists a stage
  reads (`lexicon_list`, `lexicon_words`).
- `VERBS`: the sections of data/verbs.txt, the two sides of a switch and the small words
  around a verb, for `flags` and `evidence`.

A word the lexicon does not know still matches itself and its `stem` (Snowball, from
PyStemmer, which the knowledge base's BM25 uses too: 'booking' matches 'book'), so a
tool described with the user's own words is always found.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
LEXICON = DATA / "lexicon.txt"


def sections(path: Path = LEXICON) -> dict[str, list[str]]:
    """`[name]` -> its lines, from a file of sections (lines starting with `#` are comments)."""
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], [])
        elif line and not line.startswith("#"):
            if current is None:
                raise ValueError(f"{path}: a line before the first [section]: {line!r}")
            current.append(line)
    return sections


LISTS = sections()
VERBS = sections(DATA / "verbs.txt")  # switches and the words around verbs
SYNONYM_GROUPS = tuple(tuple(line.split()) for line in LISTS["synonyms"])


def lexicon_words(name: str, lists: dict[str, list[str]] = LISTS) -> list[str]:
    """The words of one section of data/lexicon.txt, or of another file's `lists`, in order (a
    KeyError names a missing section)."""
    return " ".join(lists[name]).split()


def lexicon_list(name: str, lists: dict[str, list[str]] = LISTS) -> frozenset[str]:
    """The words of one section, as a set (see `lexicon_words`)."""
    return frozenset(lexicon_words(name, lists))


def alternatives(words: Iterable[str]) -> str:
    """A pattern for any of `words` (or phrases), the longest first, an English one only whole:
    `alternatives(["or", "以及", ";"])` is `'\\bor\\b|以及|;'`."""
    ordered = sorted(words, key=lambda w: (-len(w), w))
    return "|".join(
        rf"\b{re.escape(w)}\b" if w[:1].isalpha() and w.isascii() else re.escape(w) for w in ordered
    )


def lexicon_numbers(name: str) -> dict[str, int]:
    """A section of "word number" lines, as a mapping ("前天 -2" gives {"前天": -2})."""
    return {word: int(number) for word, number in (line.rsplit(maxsplit=1) for line in LISTS[name])}


CURRENCY_NAMES = {name: line.split()[0] for line in LISTS["currency_names"] for name in line.split()[1:]}
STOPWORDS = lexicon_list("stopwords")
ARTICLES = frozenset({"a", "an", "the"})
GENERIC = lexicon_list("generic")
SMALL_TALK = lexicon_list("small_talk")
NEGATIONS = lexicon_list("negations")
ACTION_WORDS = lexicon_list("action_words")
DENIALS = NEGATIONS - ACTION_WORDS - lexicon_list("excluding")  # not "stop" (an action), nor "without"
TOPIC_VERBS = lexicon_list("topic_verbs")  # verbs that say what a tool is for ("translate_text" translates)
COLORS = lexicon_list("colors")  # the basic colour terms: what a `color` parameter takes
PLANETS = lexicon_list("planets")
QUESTION_WORDS = lexicon_list("question_words")  # "什么菜": which dish is asked
CLOSED_CLASSES = {"color": COLORS, "colour": COLORS, "颜色": COLORS, "planet": PLANETS, "行星": PLANETS}

EN_NUMBERS = {word: n for n, word in enumerate(lexicon_words("numbers"))}
EN_NUMBERS |= {word: 10 * n for n, word in enumerate(lexicon_words("tens"), 2)}
ORDINALS = {word: k // 2 + 1 for k, word in enumerate(lexicon_words("ordinals"))}  # "third", "3rd": 3
ROMAN = re.compile(r"(?=[IVX])X{0,3}(?:IX|IV|V?I{0,3})")  # a numeral of a name: "Leo XIII", "Rocky II"
EN_SCALES = lexicon_numbers("scales")  # "a couple" 2, "a dozen" 12
ZH_DIGITS = {ch: n for n, chars in enumerate(["零〇", "一", "二两俩", *"三四五六七八九"]) for ch in chars}
ZH_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10_000, "亿": 100_000_000}
ZH_NUMERALS = "".join(ZH_DIGITS) + "".join(ZH_UNITS)  # the characters a Chinese numeral is written with
SCALES = EN_SCALES | {ch: ZH_UNITS[ch] for ch in "百千万亿"}  # words that scale a number before them


_stemmer_lock = threading.Lock()


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """An English word's Snowball stem, so that forms of one word meet: 'cities' and 'city' ->
    'citi', 'movies' and 'movie' -> 'movi', 'booking' -> 'book'. Other scripts are kept."""
    if not word.isascii() or not word.isalpha():
        return word
    with _stemmer_lock:
        return _stemmer().stemWord(word)


@lru_cache(maxsize=1)
def _stemmer():  # noqa: ANN202 - PyStemmer's Snowball stemmer (the knowledge base uses it too)
    import Stemmer

    return Stemmer.Stemmer("english")


@lru_cache(maxsize=1)
def _concepts() -> dict[str, str]:
    """Each known word (and its stem) -> the first word of its group, the concept's name."""
    table: dict[str, str] = {}
    for group in SYNONYM_GROUPS:
        for word in group:
            table.setdefault(word, group[0])
            table.setdefault(stem(word), group[0])
    return table


@lru_cache(maxsize=65536)
def concept(word: str) -> str:
    """The concept a (case-folded) word names: its group's first word, else its own stem."""
    known = _concepts()
    return known.get(word) or known.get(stem(word)) or stem(word)


def concepts_in(word: str, joined: bool) -> list[str]:
    """The concept of a word; for a `joined` one (a Chinese token: that script writes no spaces) that
    the lexicon does not know, also those of two parts it knows (火车票: 火车票, train, ticket), as
    "train ticket" is written in two words."""
    own = concept(word)
    if own != word or not joined:
        return [own]
    cuts = [(word[:k], word[k:]) for k in range(1, len(word)) if known(word[:k]) and known(word[k:])]
    return [own, *(concept(part) for part in cuts[0])] if cuts else [own]


def known(word: str) -> bool:
    """Whether the lexicon knows `word` (or its stem) as a topic word."""
    return word in _concepts() or stem(word) in _concepts()


WORDS = DATA / "words.tsv"


@lru_cache(maxsize=1)
def _word_classes() -> tuple[frozenset[str], dict[str, str]]:
    """The words that are only verbs or adverbs, and plural nouns with their singular, from
    data/words.tsv (LemmInflect's lemma table, MIT; written by scripts/make_word_classes.py)."""
    table = sections(WORDS)
    return frozenset(table["action"]), dict(line.split("\t") for line in table["plural"])


def singular(word: str) -> str:
    """A noun in the singular, in the case it was written: "Tacos" -> "Taco", "geese" -> "goose".
    A plural the table lacks loses its ending by rule ("Zorbs" -> "Zorb").

    >>> singular("Tacos"), singular("geese"), singular("boxes"), singular("Zorbs"), singular("fish")
    ('Taco', 'goose', 'box', 'Zorb', 'fish')
    """
    lower = word.casefold()
    base = _word_classes()[1].get(lower) or _by_rule(lower)
    return word[: len(base)] if lower.startswith(base) else base


def _by_rule(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ses", "xes", "zes", "ches", "shes")):
        return word[:-2]
    return word[:-1] if len(word) > 3 and word[-1] == "s" and word[-2:] not in ("ss", "us", "is") else word


@lru_cache(maxsize=65536)
def names_a_thing(word: str) -> bool:
    """Whether an English word can be a noun or an adjective, so part of a name for a thing
    ("kayak", "wooden", "blue"), rather than only a verb or an adverb ("hurried", "wander",
    "quickly"). Words the table lacks (names, jargon, Chinese) can.

    >>> names_a_thing("kayak"), names_a_thing("hurried"), names_a_thing("Zanzibar")
    (True, False, True)
    """
    return word.casefold() not in _word_classes()[0]


def chinese_number(text: str) -> int:
    """A Chinese numeral as an integer: '十五' -> 15, '两千三百' -> 2300, '一二三' -> 123; a digit
    right after 百, 千 or 万 counts the next unit down: '一万五' -> 15000, '两百五' -> 250."""
    if not any(ch in ZH_UNITS for ch in text):
        return int("".join(str(ZH_DIGITS[ch]) for ch in text))
    total, section, digit, unit = 0, 0, 0, 1
    for ch in text:
        if ch in ZH_DIGITS:
            digit = ZH_DIGITS[ch]
        elif ch in ("万", "亿"):
            total, unit = (total + section + digit) * ZH_UNITS[ch], ZH_UNITS[ch]
            section, digit = 0, 0
        else:
            section, unit = section + (digit or 1) * ZH_UNITS[ch], ZH_UNITS[ch]
            digit = 0
    short = unit >= 100 and text[-2:-1] in ZH_UNITS
    return total + section + digit * (unit // 10 if short else 1)


def count_of(word: str) -> int | None:
    """A whole number written in digits, as one English number word, or in Chinese numerals:
    '3', 'three', 'forty', '三', '十五' -> 3, 3, 40, 3, 15; None for anything else."""
    word = word.strip().casefold()
    if word.isdigit():
        return int(word)
    if word in EN_NUMBERS:
        return EN_NUMBERS[word]
    return chinese_number(word) if word and all(ch in ZH_NUMERALS for ch in word) else None
