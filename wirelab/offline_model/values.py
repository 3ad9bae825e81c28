"""The value a request holds: what extraction finds and binding fills parameters with.

    Value("number", 5, "5", 12, 13, unit="km", dimension="length", unit_words=1)

Every stage after extraction reads these; they know their kind, their typed value,
the words as written and where they sit, so binding can use position cues.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Value:
    """One typed value found in the text: what it is, what it means, and where it is."""

    kind: str
    value: Any
    text: str
    start: int
    end: int
    unit: str = ""  # for a number, the unit written after it
    dimension: str = ""  # for a number, what its unit measures ("length", "time", …)
    unit_words: int = 0  # for a number, how many tokens its unit takes
    region: str = ""  # for a name, the name with the region written after it: "Riga, Latvia"
    owner: str = ""  # for an example or an option: the parameter whose description or enum names it
    sort: str = ""  # for a name, what it names when that is known: "place", "person" or "org"

    @classmethod
    def at(cls, kind: str, text: str, start: int, end: int, **details: Any) -> Value:
        """The value written at `text[start:end]`, as written."""
        return cls(kind, text[start:end], text[start:end], start, end, **details)

    @classmethod
    def matched(cls, kind: str, match: re.Match[str], value: Any = None) -> Value:
        """The value a pattern matched: `value`, else the words it matched."""
        written = match.group()
        return cls(kind, written if value is None else value, written, match.start(), match.end())
