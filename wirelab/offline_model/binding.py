"""Stage 4, bind values to parameters: fill a tool's arguments from its JSON Schema.

    >>> weather = Tool("get_weather", "Current weather in a city.", {"type": "object", "properties": {
    ...     "city": {"type": "string"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}})
    >>> bind(weather, "weather in Paris in Fahrenheit")
    {'city': 'Paris', 'unit': 'fahrenheit'}

Every (parameter, value) pair gets a score, and the best pairs win, each value
used once (a greedy assignment). What raises a pair's score:

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
- **lists in step**: "base and height of 6 and 10": the names listed in order
  take the values listed in order;
- **order**: on a tie, parameters take values in the order both are written.

Required parameters are always filled (the default, else a best guess); an
optional one only when the text gives it. Nested objects are filled the same
way; arrays take a written list ("eggs, milk and bread"). Free-text
parameters (`query`, `message`, …) take the words after their own name, or
what is left of the request (`free_text`). Several calls from one request are
`calls.bind_all`'s job.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import replace
from typing import Any

from wirelab.offline_model.dates import date_as_asked, time_as_asked, written_date
from wirelab.offline_model.evidence import LINKS, LIST_GLUE, Evidence
from wirelab.offline_model.extraction import list_items
from wirelab.offline_model.free_text import after_colon, labelled_text, remainder
from wirelab.offline_model.lexicon import STOPWORDS, concept
from wirelab.offline_model.normalize import identifier_words
from wirelab.offline_model.options import enum_values, example_values
from wirelab.offline_model.places import as_asked, city
from wirelab.offline_model.request import Tool
from wirelab.offline_model.slots import (
    MAX_DEPTH,
    NO_DEFAULT,
    Schema,
    Slot,
    default_of,
    resolve,
    slot_of,
    slots_of,
)
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
SPECIFIC = {"email", "date", "time", "url", "currency", "country", "language", "quoted", "enum", "unit"}
AFTER_FROM = {"from", "从", "由"}
AFTER_TO = {"to", "into", "in", "到", "成", "为", "去", "往", "给", "寄给", "发给", "送给", "至"}
AFTER_AT = {"in", "at", "near", "for", "around", "在"}
PREPOSITIONS = {"in", "at", "near", "on", "for", "from", "to", "into", "with", "by", "during", "within"}
YEAR = re.compile(r"\b(1[6-9]\d\d|2\d\d\d)\b")
REQUIRED_FIRST = 1.0
TOPIC_MARKS = {"about", "on", "regarding", "concerning"}  # "news on Bitcoin": what the text is about
HEDGES = {"around", "about", "approximately", "roughly", "nearly", "almost", "exactly"}
PREPOSITIONS |= {"after", "before", "since", "until", "over", "under", "between", "via", "using"}


def bind(tool: Tool, text: str, *, guess: bool = True) -> dict[str, Any]:
    """Arguments for `tool` read from `text`; required ones guessed unless `guess=False`."""
    return fill_object(tool.parameters, Evidence.of(tool, text), tool.parameters, guess, 0)


def bind_marked(tool: Tool, text: str) -> dict[str, Any]:
    """Only the arguments the text marks: typed values, names and quotes, not unmarked words.

    What a follow-up changes ("And 75 CHF?", "那重庆呢？") keeps the rest of the call as it was.
    """
    evidence = Evidence.of(tool, text)
    bound = fill_object(tool.parameters, evidence, tool.parameters, False, 0)
    marked = {name for name, k in evidence.chosen.items() if evidence.values[k].kind != "phrase"}
    properties = tool.parameters.get("properties", {})
    unassigned = [n for n in bound if n not in evidence.chosen]  # booleans, lists, objects, free text
    kinds = {n: slot_of(n, resolve(properties.get(n), tool.parameters), False).kind for n in unassigned}
    return {k: v for k, v in bound.items() if k in marked or kinds.get(k) in ("boolean", "array", "object")}


def bind_one(tool: Tool, text: str, name: str) -> Any:
    """One property of `tool` read from `text` (guessed if the text has no value for it)."""
    bound = bind(tool, text, guess=False)
    if name in bound:
        return bound[name]
    schema = resolve(tool.parameters.get("properties", {}).get(name, {}), tool.parameters)
    return _fallback(slot_of(name, schema, True), Evidence.of(tool, text), tool.parameters, 0)


def fill_object(
    schema: Schema, evidence: Evidence, root: Schema, guess: bool, depth: int, role: str = ""
) -> dict[str, Any]:
    """Fill an object schema's properties (see the module docstring). A nested object's
    properties take the role of the property that holds them (`pickup.address` is an origin)."""
    if not isinstance(schema.get("properties"), dict) or depth > MAX_DEPTH:
        return {}
    slots = [s if s.role or not role else replace(s, role=role) for s in slots_of(schema, root)]
    _add_options(slots, evidence)
    values: dict[str, Any] = {}
    for slot, value, index in assign(slots, evidence):
        values[slot.name] = value
        if depth == 0:
            evidence.chosen[slot.name] = index
    for slot in slots:
        if slot.name in values:
            continue
        value = _structured(slot, evidence, root, guess, depth)
        if value is None and slot.kind == "integer" and set(identifier_words(slot.name)) & CLOCK_PARTS:
            value = next((_clock_part(slot, v) for v in evidence.values if v.kind == "time"), None)
        if value is None and slot.kind == "enum":
            value = _flag_option(slot, evidence)
        if value is None:
            value = _state_of_city(slot, evidence)
        if value is None and guess and slot.required:
            value = _fallback(slot, evidence, root, depth)
        if value is not None:
            values[slot.name] = value
    return {slot.name: values[slot.name] for slot in slots if slot.name in values}


def _add_options(slots: list[Slot], evidence: Evidence) -> None:
    """Add to the values every place the text names an option of an enum slot."""
    known = {(v.kind, v.start, repr(v.value), v.owner) for v in evidence.values}
    for slot in slots:
        found = enum_values(slot.schema["enum"], evidence) if slot.kind == "enum" else []
        if not slot.required:  # "attractions" names `find_attractions`, not its option "Tourist Attraction"
            found = [v for v in found if not _names_the_tool(slot, v, evidence)]
        found += example_values(slot.name, slot.examples, evidence) if slot.kind != "enum" else []
        for meaning, code in slot.codes:  # "ironing service" where "2 for ironing service": 2
            found += [replace(v, value=code) for v in example_values(slot.name, (meaning,), evidence)]
        for value in found:
            if (value.kind, value.start, repr(value.value), value.owner) not in known:
                known.add((value.kind, value.start, repr(value.value), value.owner))
                evidence.values.append(value)


def _names_the_tool(slot: Slot, value: Value, evidence: Evidence) -> bool:
    """Whether the words that named an option are all words of the tool's own name, with no
    label of the parameter next to them ("of type MPN" is the option)."""
    words = {concept(w) for w in value.text.casefold().split()}
    before, _ = evidence.near(value, -1, 1)
    labelled = any(_cue_weight(slot, word) == 1.0 for _, word in before)
    return bool(words) and words <= evidence.tool_name and not labelled


def assign(slots: list[Slot], evidence: Evidence) -> list[tuple[Slot, Any, int]]:
    """Greedy assignment of scalar values to slots, best-scoring pairs first."""
    scalar = [s for s in slots if s.kind not in ("array", "object", "boolean")]
    enums = [v for v in evidence.values if v.kind == "enum"]
    fits: list[tuple[int, int, Any]] = []  # (slot rank, value index, typed value)
    for rank, slot in enumerate(scalar):
        for index, value in enumerate(evidence.values):
            if value.kind == "name" and any(e.start < value.end and value.start < e.end for e in enums):
                continue  # a word that names an enum option is that option, not a name
            typed = typed_value(slot, value, evidence)
            if typed is not None and index not in evidence.used:
                fits.append((rank, index, typed))
    # On a tie, the n-th slot takes the n-th value that fits it: "GCD of 96 and 128".
    values_of = {rank: [i for r, i, _ in fits if r == rank] for rank in range(len(scalar))}
    takers_of = {index: [r for r, i, _ in fits if i == index] for _, index, _ in fits}
    paired = _in_step(scalar, evidence)
    pairs = []
    for rank, index, typed in fits:
        points = score(scalar[rank], evidence.values[index], evidence)
        if points is None:
            continue
        points += 3.0 if paired.get(index) == rank else 0.0
        points += REQUIRED_FIRST * scalar[rank].required  # what the call needs before what it may take
        order = abs(takers_of[index].index(rank) - values_of[rank].index(index))
        pairs.append((points - 0.05 * order, rank, index, scalar[rank], typed))
    pairs.sort(key=lambda pair: (-pair[0], pair[1], pair[2]))
    done: set[str] = set()
    chosen = []
    for _, _, index, slot, typed in pairs:
        if slot.name in done or index in evidence.used or _overlaps_used(evidence, evidence.values[index]):
            continue
        done.add(slot.name)
        evidence.used.add(index)
        chosen.append((slot, typed, index))
    return chosen


def _in_step(slots: list[Slot], evidence: Evidence) -> dict[int, int]:
    """Value index -> slot rank for names listed right before values listed ("x and y are 3 and 4")."""
    paired: dict[int, int] = {}
    for group in evidence.groups():
        first = evidence.values[group[0]]
        _, seen = evidence.near(first, -1, len(group) + 2)
        named = [_slot_named(slots, word) for word in reversed(seen) if word not in LINKS | LIST_GLUE]
        named = [rank for rank in named if rank is not None][-len(group) :]
        if len(named) == len(group) and len(set(named)) == len(named):
            paired |= dict(zip(group, named, strict=True))
    return paired


def _slot_named(slots: list[Slot], word: str) -> int | None:
    idea = concept(word)
    return next((rank for rank, slot in enumerate(slots) if idea in slot.name_words), None)


def _overlaps_used(evidence: Evidence, value: Value) -> bool:
    return any(
        evidence.values[k].start < value.end and value.start < evidence.values[k].end for k in evidence.used
    )


def typed_value(slot: Slot, value: Value, evidence: Evidence | None = None) -> Any:
    """The value as this slot would take it, or None when the kinds do not fit. With the
    `evidence`, a date takes the year and the time written with it (see `_date_context`)."""
    kind = slot.kind
    if value.kind == "example":
        return value.value if value.owner == slot.name else None
    if kind == "enum":
        return next((o for o in slot.schema["enum"] if value.kind == "enum" and o == value.value), None)
    if kind in ("integer", "number"):
        if value.kind == "time" and set(identifier_words(slot.name)) & CLOCK_PARTS:
            return _clock_part(slot, value)  # "9:45 AM" for `hours` and `minutes`
        if value.kind != "number":
            return None
        if kind == "integer" and isinstance(value.value, float) and not value.value.is_integer():
            return None
        if kind == "integer":
            return int(value.value)
        if value.unit in ("%", "percent", "per cent") and not _in_percent(slot):
            return round(value.value / 100, 12)  # "a rate of 5%" is 0.05, unless it asks for percent
        return value.value
    if value.kind not in ACCEPTS.get(kind, ()) and not (value.kind in LABELLED_ONLY and kind in SPELLED):
        return None
    if kind == "date" and value.kind == "date":
        year, clock = _date_context(value, evidence) if evidence else (None, "")
        return date_as_asked(value.text, str(slot.schema.get("description", "")), year, clock)
    if kind == "time" and value.kind == "time":
        return time_as_asked(value.value, str(slot.schema.get("description", "")))
    if kind == "place" and value.kind == "code":
        known = city(value.text)  # "in LA", "in NYC": a city's initials, as the gazetteer knows them
        return as_asked(known.name, known.name, str(slot.schema.get("description", ""))) if known else None
    if kind == "place" and value.kind == "name":
        # the name with any region written after it ("Riga, Latvia"), as the description asks
        description = str(slot.schema.get("description", ""))
        return as_asked(value.region or value.text, value.text, description, "city" in slot.name_words)
    if kind in ("country", "language") and value.kind == kind:
        return value.value if _wants_code(slot) else value.text
    if kind == "currency":
        return value.value  # currency parameters take ISO 4217 codes: "euros", "欧元" -> "EUR"
    if value.kind in ("number", "country", "language", "currency", "unit"):
        return value.text  # as written: "Thai" is a cuisine here, not the language code "th"
    return value.value


def _date_context(value: Value, evidence: Evidence) -> tuple[int | None, str]:
    """The year a later date of the text gives ("from May 3rd to May 5th 2024"), and the time
    written right after this date ("June 3 at 4pm")."""
    later = [v for v in evidence.values if v.kind == "date" and v.start > value.start]
    years = [int(y) for v in later for y in YEAR.findall(v.text)]
    clock = next((v.text for v in evidence.values if v.kind == "time" and 0 <= v.start - value.end <= 4), "")
    return (years[0] if years and not YEAR.search(value.text) else None), clock


CLOCK_PARTS = {"hour", "hours", "minute", "minutes"}


def _clock_part(slot: Slot, value: Value) -> int | None:
    """The hour or the minute of a clock time, as the parameter's name asks (12-hour as written)."""
    m = re.fullmatch(r"(\d{1,2})(?::(\d{2}))?.*", value.text.strip())
    if not m:
        return None
    return int(m[1]) if {"hour", "hours"} & set(identifier_words(slot.name)) else int(m[2] or 0)


def _in_percent(slot: Slot) -> bool:
    said = " ".join(identifier_words(slot.name)) + " " + str(slot.schema.get("description", "")).lower()
    return "percent" in said and "decimal" not in said


def _wants_code(slot: Slot) -> bool:
    description = str(slot.schema.get("description", "")).lower()
    return any(word in description for word in ("code", "iso", "abbreviation", "e.g. usd", "symbol")) or (
        "code" in identifier_words(slot.name)
    )


def score(slot: Slot, value: Value, evidence: Evidence) -> float | None:
    """How well a value fits a slot (None: not at all). See the module docstring."""
    if value.kind == "example":
        return 3.5  # the parameter's own description names this value
    before, seen = evidence.near(value, -1, 3)
    after, said = evidence.near(value, +1, 2)
    before = before if value.kind == "country" else _label_before(slot, before, seen)
    after = _label_before(slot, after, said, ("in",))  # "Oslo with a stopover"; "Ann in the choir"
    if before and _labels_the_number_before(evidence, value):
        before = []  # "12 apples and 30 pears": "apples" labels 12, not 30
    if len(said) > 1 and said[1] in LINKS:
        after = []  # "$10,000 at an interest rate of 5%": "interest rate" labels the next value
    cue = _cue(slot, before, 3.0) if before else 0.0
    cue = max(cue, _cue(slot, after, 2.4) if after else 0.0)
    if value.unit and {concept(w) for w in value.unit.casefold().split()} & slot.name_words:
        cue = max(cue, 2.4)  # "1500 km" for `km_driven`: the unit is the parameter's own word
    if value.kind == "number" and value.unit and slot.kind in SPELLED:
        return None  # a measured quantity ("20 kg") is no name, code or text
    year = value.kind == "number" and "year" in slot.name_words and _a_year(value)
    if slot.kind == "text" and value.kind == "name" and set(seen[:1]) & TOPIC_MARKS:
        cue = max(cue, 2.5)
    if value.kind not in ACCEPTS.get(slot.kind, (value.kind,)) and cue < 2.0 and not year:
        return None  # a number or a name for a string parameter only right next to its label
    points = 1.0 + cue
    if slot.kind == "unit" and value.kind == "unit":
        fit = _unit_fit(slot, value, evidence)
        if fit is None:
            return None
        points += fit
    elif slot.dimension and value.dimension:
        points += 1.5 if slot.dimension == value.dimension else -2.0
    elif value.dimension and slot.kind in ("integer", "number"):
        points -= 0.5  # a count ("number of guests") is more likely "6" than "12 years"
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
    if value.kind == "currency" and slot.role and _follows_a_number(evidence, value):
        points += 1.5 if slot.role == "origin" else -0.5  # "for 500 US dollars": what is converted
    if value.kind == "name" and slot.name_words & {concept(w) for w in value.text.casefold().split()}:
        points += 1.5  # "Hotel Aurora" for `hotel_name`: the value names what the parameter is
    if value.kind == "name" and slot.kind in ("language", "currency", "country", "code") and city(value.text):
        points -= 1.5  # "movies in Mumbai": a city the gazetteer knows is where, not a language
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
    if value.kind == "phrase":
        if slot.kind in ("place", "person") and not (
            set(seen[:2]) & (AFTER_AT | AFTER_FROM | AFTER_TO) or cue
        ):
            return None  # a place or a person is named, or introduced: "to the airport", "for Ann"
        points -= 0.7  # unmarked words: a typed value or a name is the likelier reading
        words = [concept(w) for w in value.text.casefold().split()]
        if all(w in slot.words for w in words):
            return None  # the parameter's own description ("located"), not a value for it
        if all(w in evidence.tool_words for w in words):
            points -= 0.8  # the tool's own words, not a value for it
    if not slot.required and points < 2.0 + 0.5 * (value.kind == "phrase") and value.kind not in SPECIFIC:
        return None
    return points


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
    return any(v.kind == "number" and 0 <= value.start - v.end <= 1 for v in evidence.values)


def _labels_the_number_before(evidence: Evidence, value: Value) -> bool:
    """Whether the word right before `value` comes right after another number, so labels that
    one: in "12 apples and 30 pears", "apples" is the 12's, not the 30's."""
    k = bisect.bisect_left(evidence.starts, value.start) - 1
    while k >= 0 and evidence.tokens[k].norm in LINKS | LIST_GLUE:
        k -= 1
    if k < 1 or evidence.tokens[k].kind != "word":
        return False
    before = evidence.tokens[k - 1]
    return any(v.kind == "number" and v.start <= before.start < v.end for v in evidence.values)


def _unit_fit(slot: Slot, value: Value, evidence: Evidence) -> float | None:
    """A unit parameter takes a unit of what it measures ("speed_unit": knots, not "hours"); one
    that does not say what it measures takes a unit named on its own ("in Fahrenheit"), not the
    unit of a number another parameter takes ("a load of 30 kg")."""
    unit = unit_named(str(value.value))
    if slot.dimension and unit:
        return 1.5 if unit.dimension == slot.dimension else None
    owned = any(v.kind == "number" and v.unit and 0 <= value.start - v.end <= 1 for v in evidence.values)
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
        (_cue_weight(slot, word) * (top - 0.8 * (distance - 1)) for distance, word in words),
        default=0.0,
    )
    named = {concept(word) for _, word in words} & slot.name_words
    return best + 0.6 * max(len(named) - 1, 0) if best else best  # "gauge pressure": both words


def _cue_weight(slot: Slot, word: str) -> float:
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


def _structured(slot: Slot, evidence: Evidence, root: Schema, guess: bool, depth: int) -> Any:
    """Booleans, arrays, objects and free text: read from the whole sub-request."""
    if slot.kind == "boolean":
        return _boolean(slot, evidence)
    if slot.kind == "array":
        return _array(slot, evidence, root, depth)
    if slot.kind == "object":
        filled = fill_object(slot.schema, evidence, root, guess and slot.required, depth + 1, slot.role)
        return filled or None
    if slot.kind == "text" and (slot.required or _mentioned(slot, evidence)):
        names = set(identifier_words(slot.name))
        said = labelled_text(names, evidence.tool_words, evidence.text) or after_colon(evidence.text)
        return said or left_over(evidence) or None
    return None


def _state_of_city(slot: Slot, evidence: Evidence) -> str | None:
    """A `state` the request does not name, for a US city it does: "Denver" is in CO."""
    if slot.kind not in ("place", "other") or "state" not in identifier_words(slot.name):
        return None
    cities = [city(v.text) for v in evidence.values if v.kind == "name"]
    found = next((c for c in cities if c and c.country == "US"), None)
    return found.state if found else None


def left_over(evidence: Evidence, clause: bool = True) -> str:
    """The sub-request without the tool's words and the values used (`free_text.remainder`)."""
    used = [(evidence.values[k].start, evidence.values[k].end) for k in evidence.used]
    return remainder(evidence.tokens, evidence.text, used, evidence.tool_words, clause)


def _boolean(slot: Slot, evidence: Evidence) -> bool | None:
    """A flag the text names ("with wind", "exclude inactive"): true, or false after a negation.

    The words that name it are those of its name that the tool's name does not share: for a
    tool `ship_parcel`, "ship it today" says nothing about `ship_insured`; "insured" would."""
    words = {concept(w) for w in identifier_words(slot.name)} - {
        concept(w) for w in ("include", "is", "has", "use", "enable", "show", "with", "allow", "only")
    }
    words = {w for w in words if w not in STOPWORDS}
    words = words - evidence.tool_name or words
    words |= _asked_whether(slot)
    norms = [t.norm for t in evidence.tokens]
    for k, norm in enumerate(norms):
        if words and concept(norm) in words:
            return not {"not", "no", "without", "don't", "never", "exclude", "不", "不要", "别"} & set(
                norms[max(0, k - 3) : k]
            )
    return None


def _asked_whether(slot: Slot) -> set[str]:
    """The words a flag's description asks about: "是否加急" -> {加急}, "Whether to gift-wrap it" ->
    {gift-wrap}."""
    described = str(slot.schema.get("description", ""))
    m = re.match(r"\s*(?:是否|要不要|whether (?:to |it is |the )?|is it )(\S+)", described, re.I)
    return {concept(m[1].strip("。.,，?？").casefold())} if m else set()


FLAG_WORDS = {"true": True, "false": False, "yes": True, "no": False}


def _flag_option(slot: Slot, evidence: Evidence) -> Any:
    """An enum that is a flag in words (`["True", "False", "dontcare"]`), set as a boolean would
    be: "with free parking" picks "True" for `free_parking`, "no free parking" picks "False"."""
    flags = {FLAG_WORDS[str(o).casefold()]: o for o in slot.schema["enum"] if str(o).casefold() in FLAG_WORDS}
    if len(flags) < 2:
        return None
    said = _boolean(slot, evidence)
    return None if said is None else flags.get(said)


def _array(slot: Slot, evidence: Evidence, root: Schema, depth: int) -> list[Any] | None:
    items = resolve(slot.schema.get("items", {}), root)
    item = slot_of(slot.name, {**items, "description": slot.schema.get("description", "")}, True)
    if item.kind == "enum":
        found = enum_values(items["enum"], evidence)
        return list(dict.fromkeys(v.value for v in found)) or None
    if item.kind in ("integer", "number"):
        return _numbers_listed(item, evidence)
    if item.kind == "object":
        filled = fill_object(items, evidence, root, False, depth + 1)
        return [filled] if filled else None
    named = list(dict.fromkeys(v.value for v in example_values(slot.name, item.examples, evidence)))
    if named:
        return named  # "a nut-free cake", where the description says "e.g. nut-free, dairy-free"
    quoted = [v.value for v in evidence.values if v.kind == "quoted"]
    if len(quoted) >= 2:
        return quoted
    if not slot.required and not _mentioned(slot, evidence):
        return None  # a list the call may take, from words that do not name it: left out
    phrase = evidence.text.split(":", 1)[1] if ":" in evidence.text else left_over(evidence, clause=False)
    found = list_items(phrase)
    return found or None


def _numbers_listed(item: Slot, evidence: Evidence) -> list[Any] | None:
    """The first list of numbers not used yet ("scores 85, 90, 88"), its numbers then used;
    without a written list, every number not used."""
    real = item.kind == "number"  # a list of `number` items is written as reals: [12.0, 15.0]
    for group in evidence.groups():
        if not set(group) & evidence.used:
            numbers = [typed_value(item, evidence.values[k]) for k in group]
            if None not in numbers and len(numbers) > 1:
                evidence.used |= set(group)
                return [float(n) for n in numbers] if real else numbers
    numbers = [typed_value(item, v) for k, v in enumerate(evidence.values) if k not in evidence.used]
    found = [float(n) if real else n for n in numbers if n is not None]
    return found or None


def _mentioned(slot: Slot, evidence: Evidence) -> bool:
    said = {concept(t.norm) for t in evidence.tokens}
    return any(concept(w) in said for w in identifier_words(slot.name))


def _fallback(slot: Slot, evidence: Evidence, root: Schema, depth: int) -> Any:
    """A required slot the text gave no value for: its default, else a best guess."""
    schema = slot.schema
    default = default_of(schema)
    if default is not NO_DEFAULT:
        return default
    if slot.kind == "enum":
        return schema["enum"][0]
    if slot.kind in ("integer", "number"):
        low = schema.get("minimum", 1 if slot.kind == "integer" else 0)
        return low if isinstance(low, int | float) else 0
    if slot.kind == "boolean":
        return False
    if slot.kind == "array":
        return []
    if slot.kind == "object":
        return fill_object(schema, evidence, root, True, depth + 1)
    free = [
        v for k, v in enumerate(evidence.values) if k not in evidence.used and v.kind in ("name", "quoted")
    ]
    if free:
        evidence.used.add(evidence.values.index(free[0]))
        return free[0].value
    return left_over(evidence) or evidence.text.strip()
