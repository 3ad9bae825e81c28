"""Words, stems and sub-requests: the offline model's whole "understanding" of language.

There is no language model here, only a few transparent rules:

    >>> stems("Booking two flights to Paris")
    ['book', 'two', 'flight', 'paris']
    >>> identifier_words("getWeather_forecast")
    ['get', 'weather', 'forecast']
    >>> split_requests("Weather in Paris and convert 3 EUR to USD?")
    ['Weather in Paris', 'convert 3 EUR to USD']

Left out on purpose: synonyms, spelling correction, word order, negation
(except the few words `arguments.py` looks at). A request that uses other
words than the tool's description is not understood, which is the point of
lesson 03.
"""

from __future__ import annotations

import re

_STOPWORD_LIST = """
a an the and or but if then else of to in on at for from by with without into onto about as
is are was were be been being am do does did done have has had having will would shall should
can could may might must i me my mine we us our you your yours he she it its they them their
this that these those there here what which who whom whose when where why how please kindly
get give tell show let find look use using tool function call return returns just also any
some all each every no not only than too very so up out over again now want need like
"""
STOPWORDS = frozenset(_STOPWORD_LIST.split())

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9']*|\d+(?:\.\d+)?")
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_SPLITTERS = re.compile(
    r"(\s*(?:[?!;]|\.(?:\s|$)|,?\s+and\s+then\s+|,\s*then\s+|,?\s+also\s+|\s+as\s+well\s+as\s+"
    r"|,?\s+and\s+|,?\s+plus\s+)\s*)",
    re.IGNORECASE,
)
_LEADING_CONNECTOR = re.compile(r"^\s*(?:also|then|and|plus)\b[,\s]*", re.IGNORECASE)


def words(text: str) -> list[str]:
    """The words of `text` in order, lower-cased, possessive 's dropped."""
    return [w.lower().removesuffix("'s") for w in _WORD.findall(text)]


def stem(word: str) -> str:
    """A crude suffix stripper: 'cities' -> 'city', 'booking' -> 'book', 'orders' -> 'order'."""
    for suffix, keep, replacement in (
        ("ies", 4, "y"),
        ("ing", 5, ""),
        ("ed", 4, ""),
        ("es", 4, ""),
        ("s", 3, ""),
    ):
        if word.endswith(suffix) and len(word) > keep and not word.endswith(("ss", "is", "us")):
            if suffix == "es" and not word[:-2].endswith(("s", "x", "z", "ch", "sh")):
                continue
            return word[: -len(suffix)] + replacement
    return word


def stems(text: str) -> list[str]:
    """Stems of the content words of `text` (stopwords removed), in order."""
    return [stem(w) for w in words(text) if w not in STOPWORDS]


def identifier_words(name: str) -> list[str]:
    """Words of a snake_case, kebab-case or camelCase identifier, lower-cased."""
    return [part.lower() for piece in re.split(r"[_\-\s.]+", name) for part in _CAMEL.findall(piece)]


def split_requests(text: str) -> list[str]:
    """Split a user message into sub-requests on ' and ', ';', '?', ', then ', ' also ' ...

    Never inside double quotes; empty pieces are dropped; a message with no
    splitter is one sub-request.
    """
    parts, pieces = _SPLITTERS.split(text), [""]
    for k, part in enumerate(parts):
        if k % 2 and pieces[-1].count('"') % 2 == 0:
            pieces.append("")
        else:
            pieces[-1] += part
    pieces = [_LEADING_CONNECTOR.sub("", piece).strip(" ,.") for piece in pieces]
    return [piece for piece in pieces if piece]


def trim_stopwords(text: str) -> str:
    """Drop stopwords and punctuation from both ends: 'for the refund policy?' -> 'refund policy'."""
    tokens = text.split()
    while tokens and _bare(tokens[0]) in STOPWORDS | {""}:
        tokens.pop(0)
    while tokens and _bare(tokens[-1]) in STOPWORDS | {""}:
        tokens.pop()
    return " ".join(tokens).strip(" ,.;:!?\"'")


def _bare(token: str) -> str:
    return token.strip(" ,.;:!?\"'()").lower().removesuffix("'s")
