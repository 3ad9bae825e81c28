"""Stage 4a, how well a value fits a parameter: its kind, its labels, its unit and its place.

    >>> from wirelab.offline_model.request import Tool
    >>> from wirelab.offline_model.slots import slots_of
    >>> trip = Tool("plan_trip", "Plan a trip.", {"type": "object", "properties": {
    ...     "origin": {"type": "string"}, "days": {"type": "integer"}}})
    >>> evidence = Evidence.of(trip, "a 5 day trip from Oslo")
    >>> origin, days = slots_of(trip.parameters, trip.parameters)
    >>> [(v.text, typed_value(days, v, evidence)) for v in evidence.values if v.kind == "number"]
    [('5', 5)]
    >>> [v.text for v in evidence.values if score(origin, v, evidence)]
    ['Oslo']

`typed_value` says whether a value can fill a parameter at all, and in what form (a date as
the description asks, a city with its region, a currency as its ISO code); `score` says how
well, and `binding.assign` lets the best pairs win. What raises a pair's score:

- **type**: a parameter takes only values of its kind: an integer takes a
  whole number, `format: email` an e-mail, a `currency` parameter a currency,
  an enum one of its options (matched in any case, by its words, a synonym, or
  the unit it names: "miles" is `mi`);
- **name and description**: the parameter's words right before or after the
  value ("radius 5", "the username will be 'ann'", "5 people"); small words
  ("of", "is", "=") do not count as distance, and a word stops counting once
  another value stands between it and this one;
- **unit**: a number's unit says what it measures ("5 seconds" is a time), so
  it fills the parameter that measures the same thing (`duration`);
- **position**: "from X to Y", "X in Y", "从X到Y": an origin-like parameter
  (`from_*`, `source`, `initial_*`) takes the value after "from"/"从", a
  target (`to_*`, `destination`) the value after "to"/"into"/"到";
- **examples and codes**: a value the parameter's description gives as an example
  ("such as kayak, canoe") or a meaning it gives a code ("2 for business class").

A value that needs a label (a number or a name for a string parameter) gets none without it,
and an optional parameter takes a value only when the text clearly gives it.
"""

from __future__ import annotations

import bisect
import re
from typing import Any

from wirelab.offline_model.dates import MONTHS, WEEKDAYS, date_as_asked, time_as_asked, written_date
from wirelab.offline_model.evidence import LINKS, LIST_GLUE, Evidence
from wirelab.offline_model.lexicon import CLOSED_CLASSES, STOPWORDS, concept, lexicon_list
from wirelab.offline_model.names import PERSON_TITLES
from wirelab.offline_model.normalize import identifier_words
from wirelab.offline_model.places import as_asked, city, state_code
from wirelab.offline_model.slots import Slot
from wirelab.offline_model.units import unit_named
from wirelab.offline_model.values import Value

ACCEPTS = {
    "email": ("email",),
    "date": ("date",),
    "time": ("time",),
    "url": ("url",),
    "currency": ("currency",),
    "country": ("country", "name"),
    "language": ("language", "name"),
    "unit": ("unit",),
    "code": ("code", "quoted", "number", "url"),
    "place": ("name", "country", "quoted", "phrase", "code"),
    "person": ("name", "quoted", "email", "code", "phrase"),
    "text": ("quoted",),
    "other": ("quoted", "name", "code", "country", "language", "url", "phrase"),
}
SPELLED = {"code", "other", "text", "person", "place"}  # string kinds a labelled value may fill as written
LABELLED_ONLY = {"number", "name"}  # …only with its label next to it ("the 1998 vintage", "tier B")
SPEAKER = {"user", "sender", "my", "self", "requester", "customer"}  # parameters for who is asking
SPECIFIC = {"email", "date", "time", "url", "currency", "country", "language", "quoted", "enum", "unit"}
AFTER_FROM = {"from", "从", "由"}
AFTER_TO = {"to", "into", "in", "到", "成", "为", "去", "往", "给", "寄给", "发给", "送给", "至"}
AFTER_AT = {"in", "at", "near", "for", "around", "在"}
PREPOSITIONS = {"in", "at", "near", "on", "for", "from", "to", "into", "with", "by", "during", "within"}
YEAR = re.compile(r"\b(1[6-9]\d\d|2\d\d\d)\b")
TOPIC_MARKS = {"about", "on", "regarding", "concerning"}  # "news on Kraken": what the text is about
AT_MOST = ("at most", "up to", "no more than", "最多", "以内")  # words that cap a number
CAPS = lexicon_list("caps")  # the words of a parameter that caps a number
HEDGES = {"around", "about", "approximately", "roughly", "nearly", "almost", "exactly"}
PREPOSITIONS |= {"after", "before", "since", "until", "over", "under", "between", "via", "using"}


def typed_value(slot: Slot, value: Value, evidence: Evidence | None = None) -> Any:
    """The value as this slot would take it, or None when the kinds do not fit. With the
    `evidence`, a date takes the year and the time written with it (see `_date_context`)."""
    kind = slot.kind
    if value.kind == "example":
        return value.value if value.owner == slot.name else None
    if kind == "enum":
        return next((o for o in slot.schema["enum"] if value.kind == "enum" and o == value.value), None)
    if kind in ("integer", "number"):
        return _number_as_taken(slot, value)
    if value.kind not in ACCEPTS.get(kind, ()) and not (value.kind in LABELLED_ONLY and kind in SPELLED):
        return None
    if kind == "date" and value.kind == "date":
        year, clock = _date_context(value, evidence) if evidence else (None, "")
        return date_as_asked(value.text, str(slot.schema.get("description", "")), year, clock)
    if kind == "time" and value.kind == "time":
        return time_as_asked(value.value, str(slot.schema.get("description", "")))
    if kind == "place":
        return _place_as_taken(slot, value)
    if kind in ("country", "language") and value.kind == kind:
        return value.value if wants_code(slot) else value.text
    if kind == "currency":
        return value.value  # currency parameters take ISO 4217 codes: "euros", "欧元" -> "EUR"
    if value.kind in ("number", "country", "language", "currency", "unit"):
        return value.text  # as written: "Thai" is a cuisine here, not the language code "th"
    return value.value


def _number_as_taken(slot: Slot, value: Value) -> Any:
    """A number for an integer or number slot: a whole number for an integer, a percentage as a
    fraction unless the slot asks for percent, the hour or minute of a time for `hours`."""
    if value.kind == "time" and set(identifier_words(slot.name)) & CLOCK_PARTS:
        return clock_part(slot, value)  # "9:45 AM" for `hours` and `minutes`
    if value.kind != "number":
        return None
    if slot.kind == "integer" and isinstance(value.value, float) and not value.value.is_integer():
        return None
    if slot.kind == "integer":
        return int(value.value)
    if value.unit in ("%", "percent", "per cent") and not _in_percent(slot):
        return round(value.value / 100, 12)  # "a rate of 5%" is 0.05, unless it asks for percent
    return value.value


def _place_as_taken(slot: Slot, value: Value) -> Any:
    """A place as the description asks: a city for its initials ("LA"), a state's code, a name
    with the region written after it ("Riga, Latvia")."""
    description = str(slot.schema.get("description", ""))
    if value.kind == "code":
        known = city(value.text)  # "in LA", "in NYC": a city's initials, as the gazetteer knows them
        return as_asked(known.name, known.name, description) if known else None
    if value.kind == "name" and "state" in slot.name_words and wants_code(slot):
        return state_code(value.text) or value.text  # "California" for `state`, "the abbreviation": CA
    if value.kind == "name":
        return as_asked(value.region or value.text, value.text, description, "city" in slot.name_words)
    if value.kind in ("number", "country", "language", "currency", "unit"):
        return value.text
    return value.value


def _date_context(value: Value, evidence: Evidence) -> tuple[int | None, str]:
    """The year a later date of the text gives ("from May 3rd to May 5th 2024"), and the time
    written right after this date ("June 3 at 4pm")."""
    later = [v for v in evidence.values if v.kind == "date" and v.start > value.start]
    years = [int(y) for v in later for y in YEAR.findall(v.text)]
    clock = next((v.text for v in evidence.values if v.kind == "time" and 0 <= v.start - value.end <= 4), "")
    return (years[0] if years and not YEAR.search(value.text) else None), clock


CLOCK_PARTS = {"hour", "hours", "minute", "minutes"}


def clock_part(slot: Slot, value: Value) -> int | None:
    """The hour or the minute of a clock time, as the parameter's name asks (12-hour as written)."""
    m = re.fullmatch(r"(\d{1,2})(?::(\d{2}))?.*", value.text.strip())
    if not m:
        return None
    return int(m[1]) if {"hour", "hours"} & set(identifier_words(slot.name)) else int(m[2] or 0)


def _in_percent(slot: Slot) -> bool:
    said = " ".join(identifier_words(slot.name)) + " " + str(slot.schema.get("description", "")).lower()
    return "percent" in said and "decimal" not in said


def wants_code(slot: Slot) -> bool:
    description = str(slot.schema.get("description", "")).lower()
    return any(word in description for word in ("code", "iso", "abbreviation", "e.g. usd", "symbol")) or (
        "code" in identifier_words(slot.name)
    )


def score(slot: Slot, value: Value, evidence: Evidence) -> float | None:
    """How well a value fits a slot (None: not at all). See the module docstring. The points are
    added in steps, in this order: labels, unit, position, naming, kinds, unmarked words."""
    if value.kind == "example":  # the parameter's own description names this value, or one like it
        named = value.value in slot.examples or any(value.value == code for _, code in slot.codes)
        return 3.5 if named else 2.0
    cue, seen = _label_cue(slot, value, evidence)
    if _never_fits(slot, value):
        return None
    year = value.kind == "number" and "year" in slot.name_words and _a_year(value)
    if value.kind not in ACCEPTS.get(slot.kind, (value.kind,)) and cue < 2.0 and not year:
        return None  # a number or a name for a string parameter only right next to its label
    points = _measure_fit(1.0 + cue, slot, value, evidence)
    if points is None:
        return None
    points = _position_fit(points, slot, value, evidence, seen)
    points = _kind_fit_points(_name_fit(points, slot, value, seen), slot, value, cue, year)
    points = _phrase_fit(points, slot, value, evidence, seen, cue) if value.kind == "phrase" else points
    if points is None:
        return None
    if value.kind == "quoted" and set(seen[:1]) & {"called", "named", "titled", "entitled"}:
        points += 1.0  # "a speaker called 'Aria 2'": what the thing is named
    if value.kind == "name" and {concept(w) for w in value.text.casefold().split()} <= evidence.tool_name:
        points -= 1.0  # "my Zigbee lamp 'Aria 2'" for `pair_zigbee`: the tool's name
    if not slot.required and points < 2.0 + 0.5 * (value.kind == "phrase") and value.kind not in SPECIFIC:
        return None
    return points


def _label_cue(slot: Slot, value: Value, evidence: Evidence) -> tuple[float, list[str]]:
    """How strongly the words next to the value label it as this slot's, and the words before it."""
    before, seen = evidence.near(value, -1, 3)
    after, said = evidence.near(value, +1, 2)
    country = value.kind == "country" and slot.kind != "other"  # "the console in the UK" labels no UK
    before = before if country else _label_before(slot, before, seen)
    after = _label_before(slot, after, said, ("in",))  # "Oslo with a stopover"; "Ann in the choir"
    if before and _labels_the_number_before(evidence, value):
        before = []  # "12 apples and 30 pears": "apples" labels 12, not 30
    if len(said) > 1 and said[1] in LINKS:
        after = []  # "$10,000 at an interest rate of 5%": "interest rate" labels the next value
    cue = _cue(slot, before, 3.0) if before else 0.0
    cue = max(cue, _cue(slot, after, 2.4) if after else 0.0)
    if value.unit and {concept(w) for w in value.unit.casefold().split()} & slot.name_words:
        cue = max(cue, 2.4)  # "1500 km" for `km_driven`: the unit is the parameter's own word
    if slot.kind == "text" and value.kind == "name" and set(seen[:1]) & TOPIC_MARKS:
        cue = max(cue, 2.5)
    if (
        value.kind == "number"
        and slot.words & CAPS
        and _capped(seen[:3][::-1], evidence.near(value, +1, 2)[1])
    ):
        cue = max(cue, 3.0)  # "at most 8", "最多8个", "8个以内" for `max_hits`
    return cue, seen


def _capped(before: list[str], after: list[str]) -> bool:
    """Whether the words right before a number, or right after it and its measure word, make it
    an upper bound ("at most 8", "最多8个", "8 sounds at most", "8个以内")."""
    spaced, joined = " " + " ".join(before), "".join(before)
    if any(spaced.endswith(" " + bound) if bound.isascii() else joined.endswith(bound) for bound in AT_MOST):
        return True
    later = [join(after[k:]) for k in (0, 1) for join in (" ".join, "".join)]
    return any(words.startswith(bound) for words in later for bound in AT_MOST)


def _never_fits(slot: Slot, value: Value) -> bool:
    """ "Dr. Okafor" is a person, wherever "city" is written before her, and "December" a month;
    a measured quantity ("20 kg") is no name, code or text."""
    if slot.kind == "place" and value.kind == "name" and _not_a_place(value):
        return True
    return value.kind == "number" and bool(value.unit) and slot.kind in SPELLED


def _measure_fit(points: float, slot: Slot, value: Value, evidence: Evidence) -> float | None:
    """A unit for a unit parameter, a quantity for a parameter that measures the same thing."""
    if slot.kind == "unit" and value.kind == "unit":
        fit = _unit_fit(slot, value, evidence)
        return None if fit is None else points + fit
    if slot.dimension and value.dimension:
        return points + (1.5 if slot.dimension == value.dimension else -2.0)
    if value.dimension and slot.kind in ("integer", "number"):
        return points - 0.5  # a count ("number of guests") is more likely "6" than "12 years"
    return points


def _position_fit(points: float, slot: Slot, value: Value, evidence: Evidence, seen: list[str]) -> float:
    """ "from X to Y", "between 12 and 20", "in Oslo", "13 miles": where the value stands."""
    last = set(seen[:2])
    if "between" in seen[:3]:
        last |= {"from"}  # "between 12 and 20": the first is where a range starts
    elif _second_of_a_range(evidence, value):
        last |= {"to"}
    if slot.role == "origin":
        points += 1.5 if last & AFTER_FROM else -0.5 if last & AFTER_TO else 0.0
    elif slot.role == "target":
        points += 1.5 if last & AFTER_TO else -0.5 if last & AFTER_FROM else 0.0
    elif slot.kind == "place" and set(seen[:1]) & AFTER_AT:
        points += 1.0
    if value.kind in ("currency", "enum") and slot.role and _follows_a_number(evidence, value):
        points += 1.5 if slot.role == "origin" else -0.5  # "500 US dollars", "13 miles": what is converted
    return points


def _name_fit(points: float, slot: Slot, value: Value, seen: list[str]) -> float:
    """A name that says what the parameter is: "Hotel Aurora", a colour, a state, the speaker."""
    if value.kind == "name" and slot.name_words & {concept(w) for w in value.text.casefold().split()}:
        points += 1.5  # "Hotel Aurora" for `hotel_name`: the value names what the parameter is
    if any(value.text.casefold() in CLOSED_CLASSES[word] for word in slot.name_words & CLOSED_CLASSES.keys()):
        points += (
            2.5  # "blend teal and orange" for `color1`, `color2`: a colour for a colour; Mars for `planet`
        )
    if value.kind == "name" and "state" in slot.name_words:
        points += 1.5 if state_code(value.text) else -1.0  # "in Austin, Texas" for `state`: Texas
    if value.kind == "name" and slot.kind == "person" and set(seen[:3]) & {"name", "i'm", "am"}:
        points += 1.5 if slot.name_words & SPEAKER else -0.5  # "my name is Ada" for `user_name`
    if value.kind == "name" and slot.kind in ("language", "currency", "country", "code") and city(value.text):
        points -= 1.5  # "films in Lagos": a city the gazetteer knows is where, not a language
    return points


def _kind_fit_points(points: float, slot: Slot, value: Value, cue: float, year: bool) -> float:
    """What the kinds say: a date written out, a specific kind, a year for `year`, digits."""
    if value.kind == "date" and slot.kind == "date" and written_date(value.text):
        points += 0.5  # "next Tuesday, May 4th 2027": the date written out is the one to send
    if value.kind in SPECIFIC or slot.kind in ("code", "person", "place") and value.kind == "name":
        points += 0.5
    points += _kind_fit(slot, value)
    if year:
        points += 2.0  # "released in 1999" for `year`
    if slot.kind == "code" and value.kind == "number" and not cue:
        points -= 0.8
    if value.kind == "number" and not value.text[:1].isdigit() and not value.text.startswith("-"):
        points -= 0.3  # "two numbers: 40 and 50": a number word often counts, digits are the values
    return points


def _phrase_fit(
    points: float, slot: Slot, value: Value, evidence: Evidence, seen: list[str], cue: float
) -> float | None:
    """Unmarked words: a typed value or a name is the likelier reading, and the parameter's or the
    tool's own words are no value for it."""
    if slot.kind in ("place", "person") and not (set(seen[:2]) & (AFTER_AT | AFTER_FROM | AFTER_TO) or cue):
        return None  # a place or a person is named, or introduced: "to the airport", "for Ann"
    points -= 0.7  # unmarked words: a typed value or a name is the likelier reading
    words = [concept(t.norm) for t in evidence.tokens if value.start <= t.start < value.end]
    if all(w in slot.words for w in words):
        return None  # the parameter's own description ("located"), not a value for it
    if all(w in evidence.tool_words for w in words):
        points -= 0.8  # the tool's own words, not a value for it
    elif words[-1] in evidence.tool_words:
        points -= 0.3  # 蛋糕含糖量 for a tool that counts 含糖量: the thing is 蛋糕
    return points


def _not_a_place(value: Value) -> bool:
    """A name titled as a person's ("Dr. Okafor"), a month or a weekday: no place."""
    first = value.text.split(".")[0].split()[0].casefold() if value.text.strip(". ") else ""
    return first in PERSON_TITLES or value.text.casefold() in (*MONTHS, *WEEKDAYS)


def _second_of_a_range(evidence: Evidence, value: Value) -> bool:
    """Whether `value` follows "between X and" ("between 12 and 20": 20 ends the range)."""
    k = bisect.bisect_left(evidence.starts, value.start)
    words = [t.norm for t in evidence.tokens[max(0, k - 6) : k]]
    return len(words) >= 2 and words[-1] == "and" and "between" in words[:-2]


def _a_year(value: Value) -> bool:
    """A whole number written as a year: four digits from 1000 to 2999, no unit."""
    return value.text.isdigit() and len(value.text) == 4 and 1000 <= int(value.text) < 3000 and not value.unit


def _follows_a_number(evidence: Evidence, value: Value) -> bool:
    """Whether a number is written right before the value ("500 US dollars")."""
    return bool(evidence.numbers_just_before(value.start))


def _labels_the_number_before(evidence: Evidence, value: Value) -> bool:
    """Whether the word right before `value` comes right after another number, so labels that
    one: in "12 apples and 30 pears", "apples" is the 12's, not the 30's."""
    k = bisect.bisect_left(evidence.starts, value.start) - 1
    while k >= 0 and evidence.tokens[k].norm in LINKS | LIST_GLUE:
        k -= 1
    if k < 1 or evidence.tokens[k].kind != "word":
        return False
    before = evidence.tokens[k - 1]
    return any(v.kind == "number" for v in evidence.holding(before))


def _unit_fit(slot: Slot, value: Value, evidence: Evidence) -> float | None:
    """A unit parameter takes a unit of what it measures ("speed_unit": knots, not "hours"); one
    that does not say what it measures takes a unit named on its own ("in Fahrenheit"), not the
    unit of a number another parameter takes ("a load of 30 kg"), unless it is the unit to
    convert from: that is the unit the number is written in."""
    unit = unit_named(str(value.value))
    if slot.dimension and unit:
        return 1.5 if unit.dimension == slot.dimension else None
    owned = any(v.unit for v in evidence.numbers_just_before(value.start))
    if owned and slot.role == "origin":
        return 1.0  # "a shelf 30 inches wide, in centimeters": what is converted is in inches
    return None if owned else 0.0


def _label_before(
    slot: Slot, before: list[tuple[int, str]], seen: list[str], allowed: tuple[str, ...] = ()
) -> list[tuple[int, str]]:
    """The words before a value that may label it. A preposition between them ends the label
    ("dessert in Lyon": "in Lyon" is where, not which dessert), except the ones that
    introduce this parameter's kind of value ("depth of 3", "change to GBP", "in Oslo")."""
    own = LINKS | HEDGES | set(identifier_words(slot.name)) | set(allowed)  # "painted by", "is around 4.2"
    own |= {"by"} if slot.kind == "person" else set()  # "sung by", "acted by"
    own |= AFTER_AT | AFTER_FROM | AFTER_TO if slot.kind in ("place", "date", "time") else set()
    if slot.role or slot.kind in ("unit", "enum", "currency", "language", "country"):
        own |= AFTER_FROM | AFTER_TO
    content = 0
    for word in seen:
        if word in PREPOSITIONS and word not in own:
            return before[:content]
        if word not in STOPWORDS and word not in LINKS:
            content += 1
    return before


def _kind_fit(slot: Slot, value: Value) -> float:
    """How much the kinds alone say: an id for an id, a country for a country, a name for a
    person or a place; a country or a language for a parameter of no kind is a weak fit."""
    if slot.kind == value.kind or (slot.kind, value.kind) in (("code", "code"), ("url", "url")):
        return 1.0
    if slot.kind == "place" and (value.kind == "country" or value.kind == "quoted" and city(value.text)):
        return 1.0  # a country, or a city the gazetteer knows in quotes, is a place
    if slot.kind in ("person", "place") and value.kind == "name":
        if value.sort and value.sort != slot.kind and value.sort != "org":
            return -1.0  # "王芳" is a person, "上海" a place
        return 1.0 + 0.5 * (slot.kind == "person" and " " in value.text)  # "Liam Neeson"
    if slot.kind == "other" and value.kind in ("country", "language", "currency"):
        return -0.5
    return 0.0


def _cue(slot: Slot, words: list[tuple[int, str]], top: float) -> float:
    """About `top` for the slot's name next to the value, less further away or for a word of its
    description only."""
    best = max(
        (cue_weight(slot, word) * (top - 0.8 * (distance - 1)) for distance, word in words),
        default=0.0,
    )
    named = {concept(word) for _, word in words} & slot.name_words
    return best + 0.6 * max(len(named) - 1, 0) if best else best  # "gauge pressure": both words


def cue_weight(slot: Slot, word: str) -> float:
    """1 for a word of the slot's name (or a word it abbreviates), 0.35 for its description."""
    idea = concept(word)
    if idea in slot.name_words or any(
        len(short) >= 3
        and (idea.startswith(short) or word.startswith(short))
        or len(word) >= 4
        and short.startswith(word)  # "user" for `username`
        for short in slot.name_words
    ):
        return 1.0
    return 0.35 if idea in slot.words else 0.0
