"""Stage 1, normalize and segment: turn a message into tokens every later stage reads.

    >>> [(t.text, t.kind) for t in segment("Weather in Zürich, 明天？")]  # doctest: +NORMALIZE_WHITESPACE
    [('Weather', 'word'), ('in', 'word'), ('Zürich', 'word'), (',', 'punct'), ('明天', 'han'),
     ('？', 'punct')]

Three steps, each a well-known technique:

1. Unicode NFKC folds look-alike forms into one: fullwidth `ＡＢＣ１２３` becomes
   `ABC123`, `？` becomes `?`, the ligature `ﬁ` becomes `fi`.
2. Case folding (`str.casefold`) makes `Paris`, `PARIS` and `paris` one word
   (the surface form is kept too: capitals mark proper nouns).
3. Segmentation: Latin words and numbers are found by one linear regular
   expression; Chinese has no spaces, so each run of Han characters is cut into
   words by `jieba`, a dictionary-based segmenter ("北京明天的天气" ->
   "北京" "明天" "的" "天气"), which also tags each word's part of speech
   ("北京" is a place name, `ns`), so later stages can find Chinese names. A word
   jieba keeps whole is cut where English writes two: a number and its unit
   (三十米 -> 三十 米), an action word and its result (翻译成 -> 翻译 成).

Every pass here is linear in the input's length.
"""

from __future__ import annotations

import io
import re
import sys
import threading
import unicodedata
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import ModuleType

from wirelab.encoder import kept
from wirelab.offline_model.lexicon import ACTION_WORDS, SYNONYM_GROUPS, VERBS, ZH_NUMERALS, lexicon_list
from wirelab.offline_model.units import unit_named

MAX_TEXT = 4000  # characters of one message the model reads; the rest is ignored
# jieba's tags (first letter) of words that name no thing: verbs, adverbs, prepositions,
# particles, conjunctions, pronouns, measure words, places of direction, modal particles
FUNCTION_TAGS = frozenset("vdpucrqfy")

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN = re.compile(
    rf"(?P<han>[{HAN}]+)"
    r"|(?P<and>(?i:\bas\s+well\s+as\b))"  # words that join as "and" does: one token, read as "and"
    r"|(?P<number>\d+(?:[.,:/]\d+)*(?:[eE][-+]?\d+)?)"
    rf"|(?P<word>[^\W\d_{HAN}]+(?:['’\-][^\W\d_{HAN}]+)*)"
    r"|(?P<punct>[^\s\w]|_)"
)
_NUMERAL = re.compile(f"[{ZH_NUMERALS}几]+")
RESULTATIVES = lexicon_list("resultatives", VERBS)  # what a Chinese verb's result adds to it (发给)
# words the lexicon holds whole, so never cut: a follow-up cue (换成) or a synonym
WHOLE = lexicon_list("follow_up") | lexicon_list("replaced") | {w for group in SYNONYM_GROUPS for w in group}
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_jieba_lock = threading.Lock()


@dataclass(frozen=True)
class Token:
    """One word, number, Chinese word or punctuation mark, with where it sits in the text."""

    text: str
    norm: str
    kind: str  # "word", "number", "han" or "punct"
    start: int
    end: int
    tag: str = ""  # for Chinese, jieba's part of speech: "ns" a place, "nr" a person, "v" a verb…

    @property
    def capitalised(self) -> bool:
        return self.kind == "word" and self.text[:1].isupper()


def clean(text: str) -> str:
    """NFKC-normalised text, cut to `MAX_TEXT` characters, curly quotes made straight."""
    text = unicodedata.normalize("NFKC", text[: MAX_TEXT * 2])[:MAX_TEXT]
    return text.translate(_QUOTES)


_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "「": '"', "」": '"', "‘": "'", "’": "'"})


def segment(text: str) -> list[Token]:
    """The tokens of `text` (already `clean`ed), Chinese runs cut into words by jieba."""
    return list(_segment(text))


@lru_cache(maxsize=1024)
def _segment(text: str) -> tuple[Token, ...]:
    tokens = []
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup or "punct"
        if kind == "han":
            tokens += _han_words(match.group(), match.start())
        else:
            norm = "and" if kind == "and" else match.group().casefold().removesuffix("'s")
            tokens.append(Token(match.group(), norm, kind.replace("and", "word"), match.start(), match.end()))
    return tuple(tokens)


def _han_words(run: str, offset: int) -> list[Token]:
    tokens, at = [], offset
    for whole, tag in chinese_words(run):
        for word, part in _verb_and_result(whole, tag) or _numeral_and_unit(whole, tag):
            tokens.append(Token(word, word, "han", at, at + len(word), part))
            at += len(word)
    return tokens


def _verb_and_result(word: str, tag: str) -> tuple[tuple[str, str], ...]:
    """An action word that jieba keeps with its result, cut in two as "send to" is written:
    发给 -> 发 给, 翻译成 -> 翻译 成 (nothing when `word` is no such pair, or is a word of the
    lexicon's own: 换成, a follow-up cue and a synonym of convert, stays whole)."""
    if len(word) > 1 and word[-1] in RESULTATIVES and word[:-1] in ACTION_WORDS and word not in WHOLE:
        return ((word[:-1], tag), (word[-1], "v"))
    return ()


def _numeral_and_unit(word: str, tag: str) -> tuple[tuple[str, str], ...]:
    """A number word that jieba keeps with its unit, cut in two as "30 m" is written: 三十米 ->
    三十 米, 几英里 -> 几 英里 (a unit's own name, 千克, and a count with a measure word, 一杯,
    stay whole)."""
    numeral = _NUMERAL.match(word) if tag[:1] in ("m", "n") and unit_named(word) is None else None
    if numeral is None or numeral.end() == len(word) or unit_named(word[numeral.end() :]) is None:
        return ((word, tag),)
    return ((word[: numeral.end()], "m"), (word[numeral.end() :], "q"))


@lru_cache(maxsize=4096)
def chinese_words(run: str) -> tuple[tuple[str, str], ...]:
    """A run of Chinese characters cut into (word, part of speech) by jieba (loaded on first use)."""
    return tuple((pair.word, pair.flag) for pair in _jieba().lcut(run))


@lru_cache(maxsize=1)
def _jieba():  # noqa: ANN202 - jieba's part-of-speech tagger
    """jieba's tagger, with what jieba has not loaded yet (a caller may have, with words of its
    own) read from one `kept` copy of its dictionary: the words' frequencies and their tags
    (jieba itself reads the first from a cache and parses the second from its text each time)."""
    with _jieba_lock:
        import jieba

        jieba.setLogLevel(60)
        if not jieba.dt.initialized or "jieba.posseg" not in sys.modules:
            _read_kept(jieba)
        import jieba.posseg

        return jieba.posseg


def _read_kept(jieba: ModuleType) -> None:
    source = Path(jieba.__file__).with_name("dict.txt")  # named by jieba's version and its CRC-32
    name = f"jieba-{jieba.__version__}-{zlib.crc32(source.read_bytes()):08x}.marshal"
    freq, total, tags = kept(lambda: name, _dictionary)
    if not jieba.dt.initialized:
        jieba.dt.FREQ, jieba.dt.total, jieba.dt.initialized = freq, total, True
    if "jieba.posseg" not in sys.modules:
        jieba.dt.get_dict_file = io.BytesIO  # the tagger posseg makes as it is imported reads no words…
        try:
            import jieba.posseg
        finally:
            del jieba.dt.get_dict_file
        jieba.posseg.dt.word_tag_tab = tags  # …and gets these


def _dictionary() -> tuple[dict[str, int], int, dict[str, str]]:
    """jieba's own frequencies, total and tags, read by a tokenizer of this function's own (not the
    shared one, which a caller may have added words to); each word one string in both tables."""
    import jieba
    import jieba.posseg

    tagger = jieba.posseg.POSTokenizer(jieba.Tokenizer())
    tagger.tokenizer.initialize()
    words = {word: word for word in tagger.tokenizer.FREQ}
    tags = {words.get(word, word): sys.intern(tag) for word, tag in tagger.word_tag_tab.items()}
    return tagger.tokenizer.FREQ, tagger.tokenizer.total, tags


def in_dictionary(word: str) -> bool:
    """Whether jieba's dictionary holds `word`, rather than its model guessing it from the text."""
    return word in _jieba().dt.word_tag_tab


def warm_up() -> None:
    """Load jieba's dictionary now (a few tenths of a second, from its kept copy), not on the first
    Chinese request."""
    chinese_words("天气")


def has_chinese(text: str) -> bool:
    """Whether `text` holds any Han character."""
    return re.search(f"[{HAN}]", text) is not None


@lru_cache(maxsize=4096)  # a tool's parameter names, read for every value binding weighs
def identifier_words(name: str) -> tuple[str, ...]:
    """Words of a snake_case, kebab-case, dotted or camelCase identifier, lower-cased."""
    return tuple(part.lower() for piece in re.split(r"[_\-\s.]+", name) for part in _CAMEL.findall(piece))
