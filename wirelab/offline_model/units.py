"""Units of measurement: what a unit is called, and what it measures.

    >>> unit_named("kilograms"), unit_named("公斤")
    (Unit(symbol='kg', dimension='mass', size=1000.0), Unit(symbol='kg', dimension='mass', size=1000.0))
    >>> dimension_of(["travel", "duration"]), dimension_of(["radius"])
    ('time', 'length')

An LLM knows that "kilograms", "kg" and "公斤" are one unit and that a
`duration` is measured in seconds; this model reads it off one table,
data/units.txt. Two uses:

- a number's unit ("10 km", "5 seconds", "20 degrees Celsius") says what the
  number measures, so it fills the parameter that measures the same thing;
- an enum of unit symbols (`["km", "mi"]`) is filled from the unit's name in
  either language ("miles", "英里");
- a number is given in the unit its parameter names (`in_unit`: "an hour and a half"
  for `max_minutes` is 90).
"""

from __future__ import annotations

from dataclasses import dataclass

from wirelab.offline_model.lexicon import DATA, sections


@dataclass(frozen=True)
class Unit:
    """A unit by its symbol, and the dimension it measures ('length', 'mass', 'time', …)."""

    symbol: str
    dimension: str
    size: float = 0.0  # in the dimension's base unit (a minute is 60 seconds); 0 when not one scale


def _tables() -> tuple[dict[str, Unit], dict[str, str]]:
    """Each unit's names and symbol -> the unit; each word that names a dimension -> it."""
    lines = sections(DATA / "units.txt")
    units: dict[str, Unit] = {}
    for line in lines["units"]:
        head, names = line.split(":", 1)
        symbol, dimension, *size = head.split()
        unit = Unit(symbol, dimension, float(size[0]) if size else 0.0)
        for name in [unit.symbol, *names.split(",")]:
            units.setdefault(name.strip(), unit)
    measures: dict[str, str] = {}
    for line in lines["measures"]:
        dimension, words = line.split(":", 1)
        for word in words.split(","):
            measures.setdefault(word.strip(), dimension)
    return units, measures


_UNITS, _MEASURES = _tables()
UNIT_NAMES = sorted(_UNITS, key=len, reverse=True)  # the longest first, for a pattern of alternatives


def unit_named(name: str) -> Unit | None:
    """The unit a (case-folded) name or symbol stands for, or None."""
    return _UNITS.get(name.casefold().strip())


def dimension_of(words: list[str]) -> str:
    """What a parameter with these (case-folded) words measures: the first dimension one names."""
    for k, word in enumerate(words):
        if k and words[k - 1] == "per":
            continue  # "compounds per year" counts something in a year; it is not a time
        if word in _MEASURES:
            return _MEASURES[word]
        unit = _UNITS.get(word)
        if unit and len(word) > 2:  # a unit named in full ("in seconds"), not a letter
            return unit.dimension
    return ""


def unit_of(words: list[str]) -> Unit | None:
    """The unit a parameter's (case-folded) words name in full: `max_minutes` names minutes."""
    return next((_UNITS[w] for w in words if len(w) > 2 and w in _UNITS), None)


def in_unit(number: float, written: str, want: Unit | None) -> float:
    """`number` of the unit `written`, in the unit `want` (a parameter's, `unit_of`): 1.5 hours
    for `max_minutes` is 90; unchanged when either unit is unknown, or they measure different
    things or nothing on one scale (degrees).

    >>> in_unit(1.5, "hours", unit_of(["max", "minutes"])), in_unit(2, "km", unit_of(["in", "meters"]))
    (90, 2000)
    """
    have = unit_named(written) if written else None
    if have is None or want is None or have == want or have.dimension != want.dimension:
        return number
    if not have.size or not want.size:
        return number
    converted = round(number * have.size / want.size, 9)
    return int(converted) if converted.is_integer() else converted


def same_unit(option: str, written: str) -> bool:
    """Whether an enum option and a written word name one unit: 'mi' and 'miles', 'kg' and '公斤';
    a capital for a unit whose symbol is a word: 'F' and 'Fahrenheit', 'C' and '摄氏度'."""
    a, b = unit_named(option), unit_named(written)
    return a is not None and a == b or b is not None and len(b.symbol) > 3 and option == b.symbol[0].upper()
