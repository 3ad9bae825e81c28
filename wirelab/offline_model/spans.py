"""Spans of text asked about in logarithmic time, so a request full of values costs linear work.

    >>> spans = Spans([(5, 9), (0, 3)])
    >>> spans.overlaps(2, 4), spans.overlaps(3, 5), spans.holds(6), spans.holds(9)
    (True, False, True, False)

A stage that asked every value "do you overlap this one?" for every value did
quadratic work: 4,000 characters of "-1-1-1…" took seconds. `Spans` sorts the
spans once and keeps, for each prefix, the furthest end reached, so one question
is a binary search. Spans are half-open, `(start, end)`, as `Value` writes them.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from itertools import accumulate
from typing import Any


class Spans:
    """A fixed set of half-open spans `(start, end)`."""

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        ordered = sorted(spans)
        self._starts = [start for start, _ in ordered]
        self._reach = list(accumulate((end for _, end in ordered), max))  # furthest end so far

    @classmethod
    def of(cls, values: Iterable[Any]) -> Spans:
        """The spans of values (anything with a `start` and an `end`, as `Value` has)."""
        return cls((v.start, v.end) for v in values)

    def overlaps(self, start: int, end: int) -> bool:
        """Whether some span `(a, b)` has `a < end` and `start < b`."""
        k = bisect.bisect_left(self._starts, end)  # the spans starting before `end`: [0, k)
        return k > 0 and self._reach[k - 1] > start

    def holds(self, position: int) -> bool:
        """Whether some span `(a, b)` has `a <= position < b`."""
        return self.overlaps(position, position + 1)
