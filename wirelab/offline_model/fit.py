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

`typed_value` says whether a value can fill a parameter at all, and in what form (a date as the description
asks, a city with its region, a currency as its ISO code). A value of another kind, a measured quantity for a
name, a number or a name for a string parameter without its label next to it are vetoed: that is type
checking. `features` names what else a pair has for it (`FEATURES`: the parameter's words next to the value,
its unit, "from"/"to" (从/到) before it, the examples its description gives, how close in meaning it is,
...), `score` weighs them, and `binding.assign` lets the best pairs win. An optional parameter takes a value
of a specific kind, or one whose points reach the threshold.
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from wirelab.encoder import encode
from wirelab.offline_model.dates import MONTHS, WEEKDAYS, date_as_asked, time_as_asked, written_date
from wirelab.offline_model.evidence import LINKS, LIST_GLUE, Evidence, noun_kinds
from wirelab.offline_model.extraction import counted as counted_thing
from wirelab.offline_model.lexicon import CLOSED_CLASSES, LISTS, STOPWORDS, concept, lexicon_list
from wirelab.offline_model.names import CALLED, OWNERS, PERSON_TITLES, TELLING, TOLD
from wirelab.offline_model.normalize import identifier_words
from wirelab.offline_model.places import as_asked, city, level_as_shown, state_code
from wirelab.offline_model.slots import ACCEPTS, Slot
from wirelab.offline_model.units import in_unit, unit_named
from wirelab.offline_model.values import Value

SPELLED = {"code", "other", "text", "person", "place"}  # string kinds a labelled value may fill as written
CODE_SHAPE = re.compile(r"[A-Za-z]{2,3}(?:-[A-Za-z]{2})?")  # a language or country code: 'fr', 'GBR', 'en-US'
CODE_WORDS = ("code", "iso", "abbreviation", "e.g. usd", "symbol")  # a description that asks for a code
LABELLED_ONLY = {"number", "name"}  # …only with its label next to it ("the 1998 vintage", "tier B")
SPEAKER = lexicon_list("speaker_parameters")  # parameters for who is asking
SPECIFIC = {"email", "date", "time", "url", "currency", "country", "language", "quoted", "enum", "unit"}
AFTER_FROM = {"from", "从", "由"}
RECIPIENTS = ("person", "code", "other")  # kinds of parameter that may name whom a message is for
AFTER_TO, AFTER_AT = lexicon_list("after_to"), lexicon_list("after_at")
PREPOSITIONS, HEDGES = lexicon_list("prepositions"), lexicon_list("hedges")
YEAR = re.compile(r"\b(1[6-9]\d\d|2\d\d\d)\b")
TOPIC_MARKS = {"about", "on", "regarding", "concerning"}  # "news on Kraken": what the text is about
# words that bound a number ("at most 8", "8个以内", "at least 3"), a parameter's for it (`max_hits`)
BOUNDS = [(tuple(LISTS[s]), lexicon_list(n)) for s, n in (("at_most", "caps"), ("at_least", "floors"))]
NAMING = {concept(w) for w in lexicon_list("naming")}  # a parameter that holds a name: `label`, `nickname`
HEADS = {concept(w) for w in lexicon_list("heads")}  # what counts people: "two seats" for `passengers`
TALLIES = {concept(w) for w in lexicon_list("tallies")}  # a parameter that counts what a request counts


WEIGHTS = Path(__file__).with_name("data") / "binding_weights.json"
CLOCK_PARTS = {"hour", "hours", "minute", "minutes"}
LABELLED = 2.0  # the label cue a number or a name needs to fill a string: its name within two words


@dataclass(frozen=True)
class Feature:
    """One named feature: what it tests and an example."""

    name: str
    test: str
    example: str


def read_weights(path: Path, names: tuple[str, ...]) -> dict[str, Any]:
    """A weights file's JSON, checked to hold one weight for each feature named (binding's and meaning's)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if set(data["weights"]) != set(names):
        raise ValueError(f"{path} has weights for {sorted(data['weights'])}, not {list(names)}")
    return data


FEATURES = (
    Feature("example", "the description gives it as an example, or one like it", "'kayak': 'such as kayak'"),
    Feature("example_named", "the example itself, not one like it by meaning", "'canoe', not 'boat'"),
    Feature("label", "the parameter's words next to it: 3 its name right before, less further", "'radius 5'"),
    Feature("same_dimension", "its unit measures what the parameter measures", "'5 seconds' for `duration`"),
    Feature("other_dimension", "its unit measures something else", "'5 km' for `duration`"),
    Feature("converted_from", "a unit a number before it is written in, for an origin", "'30 inches, in cm'"),
    Feature("measured_count", "a measured number for a parameter that measures nothing", "'12 years'"),
    Feature("position", "'from'/'to' (从/到) on its parameter's side, a number before it", "'from Oslo'"),
    Feature("position_opposite", "'from'/'to' on the other side", "'to Oslo' for `origin`"),
    Feature("place_mark", "'in', 'at', 'near', 在 right before a place", "'in Lyon' for `city`"),
    Feature("names_the_parameter", "a name holding a word of the parameter's name", "'Hotel Aurora'"),
    Feature("closed_class", "a member of the class the parameter names", "'teal' for `color`"),
    Feature("a_state", "a US state for `state`", "'Texas' in 'Austin, Texas'"),
    Feature("not_a_state", "a name that is no state for `state`", "'Austin' for `state`"),
    Feature("speaker", "'my name is' before a name, for who asks", "'I'm Ada' for `user_name`"),
    Feature("not_speaker", "'my name is' before a name, for anyone else", "'I'm Ada' for `recipient`"),
    Feature("city_for_code", "a city the gazetteer knows, for a language, currency or code", "'Lagos'"),
    Feature("written_date", "a date written out, for a date", "'May 4th 2027'"),
    Feature("specific", "a value of a specific kind, or a name for a code, person or place", "'ann@x.org'"),
    Feature("same_kind", "the value is of the parameter's kind", "'Liam' for `person`"),
    Feature("other_sort", "a name known as another sort", "'上海' for `person`"),
    Feature("full_name", "a name of several words, for a person", "'Liam Neeson'"),
    Feature("weak_kind", "a country, language or currency for a parameter of no kind", "'Thai'"),
    Feature("year", "a four-digit year for `year`", "'released in 1999'"),
    Feature("unlabelled_code", "digits with no label, for a code", "'5' for `order_id`"),
    Feature("number_word", "a number written as a word", "'two numbers: 40 and 50'"),
    Feature("phrase", "unmarked words, not a typed value or a name", "'some jazz'"),
    Feature("tool_words", "only words of the tool's own text", "'weather' for a weather tool"),
    Feature("ends_in_tool_word", "unmarked words ending in a word of the tool's", "蛋糕含糖量"),
    Feature("called", "a quote right after 'called', 'named', 'titled'", "'a speaker called \"Aria\"'"),
    Feature("tool_name", "a name made of the tool's own name", "'Zigbee' for `pair_zigbee`"),
    Feature("required", "the parameter is required (in the assignment)", "`city` of a weather tool"),
    Feature("in_step", "names listed in step with values (in the assignment)", "'x and y are 3 and 4'"),
    Feature("out_of_order", "how far apart the value's and the slot's places are", "'GCD of 96 and 128'"),
    Feature("meant", "the encoder's cosine of what a value names with an optional parameter", "'Gazelle'"),
    Feature("in_passing", "a name nothing ties to an optional parameter", "'with Ann' for `guide`"),
)
NAMES = tuple(f.name for f in FEATURES)
PLACED = ("in_step", "required", "out_of_order")  # the features of a pair's place in the assignment


@dataclass(frozen=True)
class Weights:
    """One weight per feature, a bias, the points an optional value needs, and more for unmarked words."""

    weights: dict[str, float]
    bias: float
    threshold: float
    phrase_bar: float = 0.0

    def points(self, row: dict[str, float]) -> float:
        """The weighed sum of a row's features."""
        return sum((self.weights[name] * v for name, v in row.items()), self.bias)


@cache
def weights() -> Weights:
    """The weights in `data/binding_weights.json`, written by `scripts/train_offline_model.py`."""
    data = read_weights(WEIGHTS, NAMES)
    return Weights(dict(data["weights"]), data["bias"], data["threshold"], data["phrase_bar"])


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
        asked = f"{slot.schema.get('description', '')} {slot.schema.get('format', '')}"  # or `date-time`
        return date_as_asked(value.text, asked, year, clock)
    if kind == "time" and value.kind == "time":
        return time_as_asked(value.value, str(slot.schema.get("description", "")))
    if kind == "place":
        return _place_as_taken(slot, value)
    if value.kind in ("country", "language") and kind in (value.kind, "other"):
        return _code_as_shown(slot, value) if wants_code(slot) or kind == value.kind else value.text
    if kind == "currency":
        return value.value  # currency parameters take ISO 4217 codes: "euros", "欧元" -> "EUR"
    typed = value.kind in ("number", "country", "language", "currency", "unit")
    if value.sort == "person" and " " in value.text:
        told, last = value.text.rsplit(" ", 1)
        if concept(last) in slot.name_words:
            return told  # "the web team" for `team`: "web"; the parameter's word names no one
    # as written: "Thai" is a cuisine here, not "th"; 上海市浦东新区 for "e.g. 海淀区": 浦东新区
    return value.text if typed else level_as_shown(value.value, slot.examples)


def _code_as_shown(slot: Slot, value: Value) -> str:
    """A language's or country's code as the description's examples write it ("es" for Spanish beside
    'fr'; "de" for Germany beside 'us'; "de-DE" among 'en-US'), its name where no code is asked."""
    code, shown = str(value.value), [e for e in slot.examples if CODE_SHAPE.fullmatch(e)]
    if tagged := [e for e in shown if e.casefold().startswith(code.casefold() + "-")]:
        return tagged[0]
    if not shown:
        return code if wants_code(slot) else value.text
    return code.lower() if all(e[:2].islower() for e in shown) else code


def _number_as_taken(slot: Slot, value: Value) -> Any:
    """A number for an integer or number slot: a whole number for an integer, a percentage as a
    fraction unless the slot asks for percent, the hour or minute of a time for `hours`."""
    if value.kind == "time" and clock_slot(slot):
        return clock_part(slot, value)  # "9:45 AM" for `hours` and `minutes`
    if value.kind != "number":
        return None
    number = in_unit(value.value, value.unit, slot.unit)  # 1.5 hours for `max_minutes`: 90
    if slot.kind == "integer":
        return None if isinstance(number, float) and not number.is_integer() else int(number)
    said = " ".join(identifier_words(slot.name)) + " " + str(slot.schema.get("description", "")).lower()
    if value.unit in ("%", "percent", "per cent") and ("percent" not in said or "decimal" in said):
        return round(number / 100, 12)  # "a rate of 5%" is 0.05, unless it asks for percent
    return number


def _place_as_taken(slot: Slot, value: Value) -> Any:
    """A place as the description asks: a city for its initials ("LA"), a state's code, a name
    with the region written after it ("Riga, Latvia")."""
    description = str(slot.schema.get("description", ""))
    if value.kind == "code":
        if known := city(value.text):  # "in LA", "in NYC": a city's initials, as the gazetteer knows them
            return as_asked(known.name, known.name, description)
        return value.text if wants_code(slot) else None  # "to JFK" for an airport's code
    if value.kind == "name" and "state" in slot.name_words and wants_code(slot):
        return state_code(value.text) or value.text  # "California" for `state`, "the abbreviation": CA
    if value.kind == "name":
        shown = level_as_shown(value.text, slot.examples)  # 苏州市同里镇 for "e.g. 周庄镇": 同里镇
        return as_asked(value.region or shown, shown, description, "city" in slot.name_words)
    return value.text if value.kind in ("number", "country", "language", "currency", "unit") else value.value


def _date_context(value: Value, evidence: Evidence) -> tuple[int | None, str]:
    """The year a later date of the text gives ("from May 3rd to May 5th 2024"), and the time
    written right after this date ("June 3 at 4pm")."""
    later = [v for v in evidence.values if v.kind == "date" and v.start > value.start]
    years = [int(y) for v in later for y in YEAR.findall(v.text)]
    year = years[0] if years and not YEAR.search(value.text) else None
    clock = clock_with(value, evidence)
    return year, "" if clock is None else str(clock.value)


def clock_with(date: Value, evidence: Evidence) -> Value | None:
    """The time written right after a date: "June 3 at 4pm", 周五下午两点."""
    return next((v for v in evidence.values if v.kind == "time" and 0 <= v.start - date.end <= 4), None)


def clock_slot(slot: Slot) -> bool:
    """Whether the slot's name asks for a part of a clock time (`hours`, `alarm_minute`)."""
    return bool(set(identifier_words(slot.name)) & CLOCK_PARTS)


def clock_part(slot: Slot, value: Value) -> int | None:
    """The hour (24-hour clock) or the minute of a time, as the parameter's name asks: "7:30pm", "7点30分"."""
    m = re.fullmatch(r"(\d{1,2})(?::(\d{2}))?.*", time_as_asked(str(value.value), "").strip())
    hour = {"hour", "hours"} & set(identifier_words(slot.name))
    return None if not m else int(m[1]) if hour else int(m[2] or 0)


def wants_code(slot: Slot) -> bool:
    description = str(slot.schema.get("description", "")).lower()
    return "code" in identifier_words(slot.name) or any(word in description for word in CODE_WORDS)


def score(slot: Slot, value: Value, evidence: Evidence) -> float | None:
    """How well a value fits a slot: the weighed sum of its `features` (None: not at all; see `weigh`)."""
    return None if (row := features(slot, value, evidence)) is None else weigh(slot, value, row)


def weigh(slot: Slot, value: Value, row: dict[str, float]) -> float | None:
    """The weighed sum of a feature row; None for an optional slot, unless the value is of a
    specific kind or its own features (not its place) score at least the threshold."""
    table = weights()
    points = table.points({name: v for name, v in row.items() if name not in PLACED})
    optional = not slot.required and value.kind not in SPECIFIC and value.kind != "example"
    if optional and points < table.threshold + table.phrase_bar * row.get("phrase", 0.0):
        return None
    return sum((table.weights[name] * row.get(name, 0.0) for name in PLACED), points)


def features(slot: Slot, value: Value, evidence: Evidence, every: bool = False) -> dict[str, float] | None:
    """The named features of a (slot, value) pair (`FEATURES`; those that hold), or None when
    the value cannot fill the slot: a veto is type checking, not weighing. `meant` costs an
    encoder pass, so it is measured only where its weight counts, or for the fit (`every`)."""
    if value.kind == "example":  # the parameter's own description names this value, or one like it
        named = value.value in slot.examples or any(value.value == code for _, code in slot.codes)
        return {"example": 1.0, "example_named": float(named)}
    cue, seen = _label_cue(slot, value, evidence)
    if _never_fits(slot, value) or _counts_another(slot, counted_each(evidence, value)):
        return None
    four = value.text.isdigit() and len(value.text) == 4 and 1000 <= int(value.text) < 3000 and not value.unit
    year = value.kind == "number" and "year" in identifier_words(slot.name) and four  # not `years`
    if value.kind not in ACCEPTS.get(slot.kind, (value.kind,)) and cue < LABELLED and not year:
        return None  # a number or a name for a string parameter only right next to its label
    measured = _measure_fit(slot, value, evidence)
    phrase = _phrase_fit(slot, value, evidence, seen, cue) if value.kind == "phrase" else {}
    position = _position_fit(slot, value, evidence, seen)
    ends = slot.kind == "place" and position.get("position_opposite") and not set(seen[:1]) & AFTER_AT
    if measured is None or phrase is None or ends:
        return None  # a place after 'to' (到), not 'in', is where a move ends, never where it starts
    row = {"label": cue} | measured | position
    row |= _name_fit(slot, value, seen) | _kind_fit(slot, value, cue, year) | phrase
    row["called"] = float(value.kind == "quoted" and bool(set(seen[:1]) & CALLED))
    if value.kind == "name":  # "my Zigbee lamp 'Aria 2'" for `pair_zigbee`: the tool's name
        row["tool_name"] = float({concept(w) for w in value.text.casefold().split()} <= evidence.tool_name)
    if not slot.required and value.kind in ("name", "number"):
        row["meant"] = _meant(slot, value, evidence) if every or weights().weights["meant"] else 0.0
        marked = cue or row.get("position") or row.get("place_mark") or row.get("called")
        row["in_passing"] = float(value.kind == "name" and not marked)
    return {name: v for name, v in row.items() if v}


def counted_each(evidence: Evidence, value: Value) -> frozenset[str]:
    """What the tool does one of that a count before it counts ("two cards" for `draw_card`): a
    count of calls, no value for a parameter that counts something else; nothing of "a 3-course …"."""
    if value.kind != "number" or not evidence.each or evidence.text[value.end : value.end + 1] == "-":
        return frozenset()
    seen = evidence.near(value, +1, 3)[1]
    stop = next((k for k, w in enumerate(seen) if w in LINKS | LIST_GLUE | PREPOSITIONS), len(seen))
    return frozenset(c for w in seen[:stop] for c in noun_kinds(w)) & evidence.each


def _counts_another(slot: Slot, things: frozenset[str]) -> bool:
    """Whether `slot` counts something else than the things a count counts, each a call (`calls.asked`):
    "roll two dice" for `sides`, "Number of sides"; not for a bare count (`quantity`), a bound
    (`max_results`) or a count of people ("two tickets" for `passengers`)."""
    if not things or not slot.counts or things & (slot.counts | slot.name_words) or takes_counts(slot):
        return False
    return not (things | slot.counts) <= HEADS


def takes_counts(slot: Slot) -> bool:
    """Whether `slot` is a bare count or a bound (`quantity`, `max_results`): a count of any thing fits it."""
    return bool(slot.name_words & TALLIES) or any(slot.words & named for _, named in BOUNDS)


def _meant(slot: Slot, value: Value, evidence: Evidence) -> float:
    """The encoder's cosine of a name, or of what a count counts (2个头盔), with the parameter's text."""
    thing = counted_thing(evidence.text, value) if value.kind == "number" else value.text
    said = " ".join(identifier_words(slot.name)) + ": " + str(slot.schema.get("description", ""))[:200]
    return max(float(encode([thing, said]).prod(axis=0).sum()), 0.0) if thing.strip() else 0.0


def _label_cue(slot: Slot, value: Value, evidence: Evidence) -> tuple[float, list[str]]:
    """How strongly the words next to the value label it as this slot's, and the words before it."""
    before, seen = evidence.near(value, -1, 3)
    after, said = evidence.near(value, +1, 2)
    country = value.kind == "country" and slot.kind != "other"  # "the console in the UK" labels no UK
    before = before if country else _label_before(slot, before, seen)
    verb = _tool_verb(slot, evidence)  # "Track my X": the tool's verb, which labels no `tracking_no`
    before = [(d, w) for d, w in before if w != verb]
    after = _label_before(slot, after, said, ("in",))  # "Oslo with a stopover"; "Ann in the choir"
    if before and _labels_the_number_before(evidence, value):
        before = []  # "12 apples and 30 pears": "apples" labels 12, not 30
    if len(said) > 1 and said[1] in LINKS or said[:1] and said[0] in LIST_GLUE:
        after = []  # "$10,000 at an interest rate of 5%", "20 and humidity 40": the next value's label
    elif said[:1] and any(said[0].startswith(word) for word in TOLD):
        after = []  # 给老王发个消息: the telling, not a label of the person told
    cue = _cue(slot, before, 3.0) if before else 0.0
    cue = max(cue, _cue(slot, after, 2.4) if after else 0.0)
    unit = {concept(w) for w in value.unit.casefold().split()}
    counted = unit | _counted(evidence, value, after)
    if unit & slot.name_words or unit_named(value.unit) in slot.name_units or counted & slot.counts:
        cue = max(cue, 2.4)  # "1500 km" for `km_driven`; "3 passengers" for `pax`, "Number of passengers"
    elif counted & HEADS and (slot.counts | slot.name_words) & HEADS:
        cue = max(cue, LABELLED)  # a count of people for one of others: "for 3 people" for `number_of_seats`
    elif slot.name_words & TALLIES and value.kind == "number" and counted_thing(evidence.text, value):
        cue = max(cue, LABELLED)  # a count with a measure word for a bare count: 五个橙子 for `quantity`
    if slot.kind == "text" and value.kind == "name" and set(seen[:1]) & TOPIC_MARKS:
        cue = max(cue, 2.5)
    teller = seen[1:2] if seen[:1] and seen[0] in OWNERS else seen[:1]  # "Page the web team that …"
    told = TELLING.get(teller[0]) if teller and value.kind == "name" and slot.kind in RECIPIENTS else None
    if told == [] or told and value.sort == "person":
        cue = max(cue, 3.0)  # "Text Priya …", 告诉老王, 给老王发…: whom a message is for; not 给西安的…
    bounds = [said for said, named in BOUNDS if slot.words & named] if value.kind == "number" else []
    if any(_bounded(seen[:3][::-1], evidence.near(value, +1, 2)[1], said) for said in bounds):
        cue = max(cue, 3.0)  # "at most 8", "最多8个", "8个以内" for `max_hits`; "at least 3" for `min_stars`
    if value.kind != "quoted" and set(seen[:1]) & CALLED and slot.name_words & NAMING:
        cue = max(cue, 3.0)  # "a timer called tea" for `label` (a quoted name has `called`)
    return cue, seen


def _counted(evidence: Evidence, value: Value, after: list[tuple[int, str]]) -> set[str]:
    """What a number counts: its label after it, its words up to four before a link or a preposition
    ("the 5 most recently modified files in /tmp": files), the thing a measure word counts (四张…船票: 票)."""
    if value.kind != "number":
        return set()
    seen, thing = evidence.near(value, +1, 4)[1], counted_thing(evidence.text, value)[-1:]
    stop = next((k for k, w in enumerate(seen) if w in LINKS | LIST_GLUE | PREPOSITIONS), len(seen))
    return {concept(w) for w in [*seen[:stop], *(w for _, w in after), thing] if w not in STOPWORDS}


def _tool_verb(slot: Slot, evidence: Evidence) -> str:
    """The request's first word when it is a word of the tool's name and not one of the slot's
    ("Ship my X" for `ship_crate`'s `shipping_id`, not "Room ..." for `room`), else ""."""
    first = evidence.tokens[0].norm if evidence.tokens else ""
    return first if concept(first) in evidence.tool_name and first not in identifier_words(slot.name) else ""


def _bounded(before: list[str], after: list[str], bounds: tuple[str, ...]) -> bool:
    """Whether the words just before a number, or just after it and its measure word, are one of `bounds`."""
    spaced, joined = " " + " ".join(before), "".join(before)
    first = any(spaced.endswith(" " + b) if b.isascii() else joined.endswith(b) for b in bounds)
    later = [join(after[k:]) for k in (0, 1) for join in (" ".join, "".join)]
    return first or any(words.startswith(bound) for words in later for bound in bounds)


def _never_fits(slot: Slot, value: Value) -> bool:
    """ "Dr. Okafor" is a person, wherever "city" is written before her, and "December" a month;
    a measured quantity ("20 kg") is no name, code or text."""
    misplaced = slot.kind == "place" and value.kind == "name" and _not_a_place(value)
    return misplaced or value.kind == "number" and bool(value.unit) and slot.kind in SPELLED


def _measure_fit(slot: Slot, value: Value, evidence: Evidence) -> dict[str, float] | None:
    """A unit for a unit parameter, a quantity for a parameter that measures the same thing."""
    if slot.kind == "unit" and value.kind == "unit":
        return _unit_fit(slot, value, evidence)
    if slot.dimension and value.dimension:
        same = slot.dimension == value.dimension
        return {"same_dimension": float(same), "other_dimension": float(not same)}
    return {"measured_count": float(bool(value.dimension) and slot.kind in ("integer", "number"))}


def _position_fit(slot: Slot, value: Value, evidence: Evidence, seen: list[str]) -> dict[str, float]:
    """ "from X to Y", "between 12 and 20", "in Oslo", "500 US dollars": where the value stands."""
    last = set(seen[:2])
    if "between" in seen[:3]:
        last |= {"from"}  # "between 12 and 20": the first is where a range starts
    elif _second_of_a_range(evidence, value):
        last |= {"to"}
    mark = [w for w in seen[:2] if w != "the"][:1]  # "in the nursery": the article aside, "in" marks it
    if not slot.role:
        return {"place_mark": float(slot.kind == "place" and bool(set(mark) & AFTER_AT))}
    mine, theirs = (AFTER_FROM, AFTER_TO) if slot.role == "origin" else (AFTER_TO, AFTER_FROM)
    opposite = not last & mine and bool(last & theirs)
    row = {"position": float(bool(last & mine)), "position_opposite": float(opposite)}
    if value.kind in ("currency", "enum") and evidence.numbers_just_before(value.start):  # "500 US dollars"
        row["position" if slot.role == "origin" else "position_opposite"] += 1.0  # what is converted
    return row


def _name_fit(slot: Slot, value: Value, seen: list[str]) -> dict[str, float]:
    """A name that says what the parameter is: "Hotel Aurora", a colour, a state, the speaker."""
    name = value.kind == "name"
    words = {concept(w) for w in value.text.casefold().split()}
    closed = slot.name_words & CLOSED_CLASSES.keys()
    coded = name and slot.kind in ("language", "currency", "country", "code") and bool(city(value.text))
    row = {
        "names_the_parameter": float(name and bool(slot.name_words & words)),
        "closed_class": float(any(value.text.casefold() in CLOSED_CLASSES[word] for word in closed)),
        "city_for_code": float(coded),
    }
    if name and "state" in slot.name_words:
        row["a_state" if state_code(value.text) else "not_a_state"] = 1.0
    if name and slot.kind == "person" and set(seen[:3]) & {"name", "i'm", "am"}:
        row["speaker" if slot.name_words & SPEAKER else "not_speaker"] = 1.0
    return row


def _kind_fit(slot: Slot, value: Value, cue: float, year: bool) -> dict[str, float]:
    """What the kinds say: a date written out, a specific kind, a year, a code without its label, digits."""
    written = value.kind == "date" and slot.kind == "date" and bool(written_date(value.text))
    specific = value.kind in SPECIFIC or slot.kind in ("code", "person", "place") and value.kind == "name"
    word = value.kind == "number" and not value.text[:1].isdigit() and value.text[:1] != "-"
    code = slot.kind == "code" and value.kind == "number" and not cue
    row = {"written_date": float(written), "specific": float(specific)} | _kinds(slot, value)
    return row | {"year": float(year), "unlabelled_code": float(code), "number_word": float(word)}


def _phrase_fit(
    slot: Slot, value: Value, evidence: Evidence, seen: list[str], cue: float
) -> dict[str, float] | None:
    """Unmarked words: a typed value or a name is the likelier reading, and the parameter's or the
    tool's own words are no value for it."""
    if slot.kind in ("place", "person") and not (set(seen[:2]) & (AFTER_AT | AFTER_FROM | AFTER_TO) or cue):
        return None  # a place or a person is named, or introduced: "to the airport", "for Ann"
    words = [concept(t.norm) for t in evidence.tokens if value.start <= t.start < value.end]
    if all(w in slot.words for w in words):
        return None  # the parameter's own description ("located"), not a value for it
    own = all(w in evidence.tool_words for w in words)  # the tool's own words, not a value for it
    last = not own and words[-1] in evidence.tool_words  # 蛋糕含糖量 for a tool that counts 含糖量
    return {"phrase": 1.0, "tool_words": float(own), "ends_in_tool_word": float(last)}


def _not_a_place(value: Value) -> bool:
    """A name titled as a person's ("Dr. Okafor"), a month or a weekday: no place."""
    first = value.text.split(".")[0].split()[0].casefold() if value.text.strip(". ") else ""
    return first in PERSON_TITLES or value.text.casefold() in (*MONTHS, *WEEKDAYS)


def _second_of_a_range(evidence: Evidence, value: Value) -> bool:
    """Whether `value` follows "between X and" ("between 12 and 20": 20 ends the range)."""
    k = bisect.bisect_left(evidence.starts, value.start)
    words = [t.norm for t in evidence.tokens[max(0, k - 6) : k]]
    return len(words) >= 2 and words[-1] == "and" and "between" in words[:-2]


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


def _unit_fit(slot: Slot, value: Value, evidence: Evidence) -> dict[str, float] | None:
    """A unit parameter takes a unit of what it measures ("speed_unit": knots, not "hours"); one
    that does not say what it measures takes a unit named on its own ("in Fahrenheit"), not the
    unit of a number another parameter takes ("a load of 30 kg"), unless it is the unit to
    convert from, the unit the number is written in ("a shelf 30 inches wide, in cm": inches)."""
    unit = unit_named(str(value.value))
    if slot.dimension and unit:
        return {"same_dimension": 1.0} if unit.dimension == slot.dimension else None
    if any(v.unit for v in evidence.numbers_just_before(value.start)):  # a number's own unit
        return {"converted_from": 1.0} if slot.role == "origin" else None
    return {}


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


def _kinds(slot: Slot, value: Value) -> dict[str, float]:
    """How much the kinds alone say: an id for an id, a country for a country, a name for a
    person or a place; a country or a language for a parameter of no kind is a weak fit."""
    if slot.kind == value.kind:
        return {"same_kind": 1.0}
    if slot.kind == "place" and (value.kind == "country" or value.kind == "quoted" and city(value.text)):
        return {"same_kind": 1.0}  # a country, or a city the gazetteer knows in quotes, is a place
    if slot.kind in ("person", "place") and value.kind == "name":
        if value.sort and value.sort != slot.kind and value.sort != "org":
            return {"other_sort": 1.0}  # "王芳" is a person, "上海" a place
        return {"same_kind": 1.0, "full_name": float(slot.kind == "person" and " " in value.text)}
    return {"weak_kind": float(slot.kind == "other" and value.kind in ("country", "language", "currency"))}


def _cue(slot: Slot, words: list[tuple[int, str]], top: float) -> float:
    """About `top` for the slot's name next to the value, less further away or for a word of its
    description only."""
    best = max((cue_weight(slot, w) * (top - 0.8 * (d - 1)) for d, w in words), default=0.0)  # d: distance
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
