"""A token estimate for `usage` and `max_tokens`: one token per word, number or symbol.

    >>> count_tokens("Paris, 18 °C")  # 'Paris' ',' '18' '°' 'C'
    5

Real models use byte-pair encodings (OpenAI's `tiktoken`), which need a vocabulary download; this course
runs offline, so it counts with one regular expression instead: each run of letters/digits is a token,
and so is each other non-space character. The counts are the same order of magnitude as a real
tokeniser's, good enough to watch usage grow, not to estimate a bill.
"""

from __future__ import annotations

import re

_TOKEN = re.compile(r"\w+|[^\w\s]")


def count_tokens(text: str) -> int:
    """How many tokens `text` holds by this module's estimate."""
    return len(_TOKEN.findall(text))


def truncate_tokens(text: str, limit: int) -> str:
    """The prefix of `text` that holds `limit` tokens: truncate_tokens("a b c", 2) -> "a b"."""
    matches = list(_TOKEN.finditer(text))
    if len(matches) <= limit:
        return text
    return text[: matches[limit - 1].end()] if limit > 0 else ""
