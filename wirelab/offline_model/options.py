"""Enum options and described examples in a request: where the text names one of a
parameter's allowed values, or one of the values its description gives as examples.

    >>> from wirelab.offline_model.request import Tool
    >>> units = Tool("convert_length", "Convert a length.", {"type": "object", "properties": {}})
    >>> [(v.value, v.text) for v in enum_values(["km", "mi"], Evidence.of(units, "5 miles in kilometres"))]
    [('km', 'kilometres'), ('mi', 'miles')]

An option is named by its value ("desc"), its words in any form ("Family Counselor" by "family
counseling"), a synonym, its unit ("mi" by "miles", 公里 for "km"), the language, country or currency
of a code ("ja" by "Japanese"), the one word of it no other option has ("my debit": "debit card"), a
word data/lexicon.txt's option_words gives it ("urgent" for `high`, 降序 for `desc`), else its
abbreviation ("temp" by "temperature", not "off" by "office"); never after a negation (不要加急).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from typing import Any

from wirelab.offline_model.evidence import Evidence
from wirelab.offline_model.lexicon import DENIALS, GENERIC, LISTS, alternatives, concept
from wirelab.offline_model.normalize import identifier_words
from wirelab.offline_model.units import same_unit
from wirelab.offline_model.values import Value

OPTION_WORDS = tuple(frozenset(line.casefold().split()) for line in LISTS["option_words"])


def enum_values(options: list[Any], evidence: Evidence) -> list[Value]:
    """Where each enum option is named in the text: its value, its words (or words of the same
    root: "family counseling" names "Family Counselor"), a synonym, its unit, or the one word
    of it no other option has ("my debit" names "debit card", not "credit card")."""
    found = []
    options = [o for o in options if not isinstance(o, dict | list)]  # no words name an object or array
    norms = [t.norm for t in evidence.tokens]
    concepts = [concept(n) for n in norms]
    spoken_of = {o: [concept(w) for w in identifier_words(str(o))] or [str(o).casefold()] for o in options}
    counts = Counter(w for words in spoken_of.values() for w in set(words))
    for option in options:
        wanted = spoken_of[option]
        raw = str(option).casefold()
        unique = [w for w in wanted if len(wanted) > 1 and counts[w] == 1 and len(w) > 3 and w not in GENERIC]
        cut = len(raw) > 2 and raw.isalpha() and len(wanted) == 1 and all(raw not in w for w in OPTION_WORDS)
        for k in range(len(norms)):
            width = max(len(wanted), 1)
            if norms[k] == raw or _same_words(concepts[k : k + len(wanted)], wanted):
                pass
            elif cut and norms[k].startswith(raw):
                pass  # an abbreviated option: "desc" for "descending", "temp" for "temperature"
            elif _hyphenated(norms[k], wanted):
                width = 1
            elif w := next((n for n in (3, 2, 1) if _unit_said(f"{option}", evidence, k, n)), 0):
                width = w
            elif concepts[k] in unique:
                width = 1
            else:
                continue
            token, last = evidence.tokens[k], evidence.tokens[min(k + width - 1, len(norms) - 1)]
            found.append(Value("enum", option, evidence.text[token.start : last.end], token.start, last.end))
        for value in evidence.values:  # a code option named by its language, country or currency
            if value.kind in ("language", "country", "currency") and str(value.value).casefold() == raw:
                found.append(Value("enum", option, value.text, value.start, value.end))
        found += meant("enum", option, evidence)
    return [v for v in found if not negated(evidence, v.start)]


def meant(kind: str, option: Any, evidence: Evidence, owner: str = "") -> list[Value]:
    """Where the text says a word its line of the lexicon's option_words gives `option` ("urgent": high)."""
    key = str(option).casefold().replace(" ", "_")
    words = {w.replace("_", " ") for line in OPTION_WORDS if key in line for w in line - {key}}
    words |= {key} if not key.isascii() and len(key) > 1 else set()  # as written, split or not: 二等|座
    found = re.finditer(alternatives(words), evidence.text, re.I) if words else ()
    return [Value(kind, option, m[0], m.start(), m.end(), owner=owner) for m in found]


def negated(evidence: Evidence, start: int, negations: frozenset[str] = DENIALS) -> bool:
    """Whether a negation stands among the three words right before `start` ("not the express one")."""
    return bool(negations & {t.norm for t in [t for t in evidence.tokens if t.end <= start][-3:]})


def _unit_said(option: str, evidence: Evidence, k: int, n: int) -> bool:
    """Whether the n tokens from k name the unit `option` is, word by word or as written ("°F")."""
    tokens = evidence.tokens[k : k + n]
    written = evidence.text[tokens[0].start : tokens[-1].end]
    return same_unit(option, " ".join(t.norm for t in tokens)) or same_unit(option, written)


def _same_words(said: list[str], wanted: list[str]) -> bool:
    """Word by word the same concept, or the same root of five letters or more."""
    return len(said) == len(wanted) and all(
        a == b or len(os.path.commonprefix([a, b])) >= 5 for a, b in zip(said, wanted, strict=True)
    )


def _hyphenated(norm: str, wanted: list[str]) -> bool:
    """Whether one hyphenated word names the words `wanted`: "nut-free" names "Nut Free"."""
    return "-" in norm and [concept(part) for part in norm.split("-")] == wanted


def example_values(slot_name: str, examples: tuple[str, ...], evidence: Evidence) -> list[Value]:
    """Where the text names a value the parameter's description gives as an example ("such as
    kayak, canoe": "rent a kayak"), word by word in any form ("two kayaks"); the value is the
    example as the description writes it, for that parameter only."""
    found = []
    concepts = [concept(t.norm) for t in evidence.tokens]
    for example in examples:
        wanted = [concept(w) for w in identifier_words(example)]
        for k in range(len(concepts) if wanted else 0):
            hyphenated = _hyphenated(evidence.tokens[k].norm, wanted)
            width = 1 if hyphenated else len(wanted)
            said = concepts[k : k + width]
            if not hyphenated and said != wanted and not (width > 1 and _same_words(said, wanted)):
                continue
            token, last = evidence.tokens[k], evidence.tokens[k + width - 1]
            if not _inside_a_value(evidence, token.start, last.end):
                written = evidence.text[token.start : last.end]
                found.append(Value("example", example, written, token.start, last.end, owner=slot_name))
        found += meant("example", example, evidence, slot_name)
    return [v for v in found if not negated(evidence, v.start)]


def _inside_a_value(evidence: Evidence, start: int, end: int) -> bool:
    """Whether text[start:end] is part of a longer URL, e-mail, quote, code or date ("https" of a URL)."""
    return any(
        v.start <= start and end <= v.end and (v.start, v.end) != (start, end)
        for v in evidence.values
        if v.kind in ("url", "email", "quoted", "code", "date")
    )
