"""What binding needs to know about each parameter: its schema, its kind and its words.

    >>> slot = slot_of("travel_time", {"type": "integer", "description": "Minutes on the road."}, True)
    >>> slot.kind, slot.dimension, sorted(slot.name_words)
    ('integer', 'time', ['time', 'travel'])

A `Slot` is one property of a tool's JSON Schema, read once:

- its **kind**: the schema type (`integer`, `array`, …), an `enum`, a `format`
  (`email`, `date`, …), or for a plain string what its name says it holds (a
  `place`, a `person`, a `code`, a `currency`, free `text`, a `unit`, …);
- its **words**: the concepts of its name and description, which binding looks
  for right before or after a value ("radius 5", "5 people");
- its **dimension**, for numbers: what it measures (a `duration` is a time), so
  "5 seconds" fills it and "5 km" does not;
- its **role** in "from X to Y": an `origin` (`from_*`, `source`, `initial_*`)
  or a `target` (`to_*`, `destination`).

`resolve` follows `$ref` and `anyOf`, so every later step sees a plain schema.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from wirelab.offline_model.lexicon import GENERIC, LISTS, STOPWORDS, alternatives, concept, lexicon_list
from wirelab.offline_model.normalize import clean, identifier_words, segment
from wirelab.offline_model.units import Unit, dimension_of, unit_named, unit_of
from wirelab.offline_model.wire.tool_schemas import pointer

Schema = dict[str, Any]
DATE_FORMAT = re.compile(r"\b(?:yyyy\Wmm|mm\Wyyyy)\b|\bISO[ -]?8601\b|\ba date\b|\d{4}-\d\d-\d\d", re.I)
TIME_FORMAT = re.compile(r"\bhh:mm\b", re.I)
EXAMPLES = re.compile(
    rf"(?:\be\.\s?g\.?|{alternatives(LISTS['example_leads'])}|\bexamples?(?: are| include)?:?"
    r"|\boptions?(?: are| include)?:|\boptions (?:are|include)|\bone of:?)"
    r"(?:,?\s+|(?<=[^\x00-\x7f])[:：]\s*|(?<=[^\x00-\x7f]{2})[,，]?\s*)"  # 如 北京, 如：北京, 例如北京
    r"([^.;()。；（）\n]{1,200}?)(?:\.(?=[\s)]|$)|[;。；（）]|\)|\n|$)",
    re.I,
)
QUOTED_EXAMPLE = re.compile(r"'([^']{1,40})'|\"([^\"]{1,40})\"")
QUOTED = r"""(?<!\w)(?:'[^'\n]{1,40}'|"[^"\n]{1,40}")(?!\w)"""  # not an apostrophe: "the user's"
QUOTED_LIST = re.compile(rf":\s*({QUOTED}(?:\s*(?:,\s*(?:or|and)?|/|\bor\b|\band\b)\s*{QUOTED})+)")
LISTED = re.compile(  # ": a, b or c"; or one word each, as the whole description or in brackets
    r":\s*([\w -]+?(?:, [\w -]+?)+,? (?:or|and) [\w -]+?)\s*(?:[.;)]|$)"
    r"|(?:^|\()(\w+(?:, \w+)+,? or \w+)\.?(?:\)|$)"
)
EITHER = re.compile(r"\b([\w-]+) or ([\w-]+)\b")
MAX_EXAMPLES = 12
CACHED_SCHEMA = 4000  # characters of a property's schema, at most, for its slot to be cached (4,096 kept)
EMAIL_ADDRESS = re.compile(r"(?:(?:the|an?|one)\s+)?(?:\w+\s+){0,2}e-?mail address", re.I)
CODED = re.compile(
    r"(?<![\w.])(?P<code>\d{1,3})\s*(?:represents|stands for|means|corresponds to|for|=|:)\s+"
    r"(?:an? |the |to )?"
    r"(?P<meaning>[A-Za-z][\w' -]{0,40}?)(?=,|;|\.|\)| and |$)"
)
DEFAULT = re.compile(
    r"\bdefaults?(?: value)?(?: is| to| of|:| =)\s*(?:'([^'\n]{1,60})'|\"([^\"\n]{1,60})\"|([\w.+-]{1,40}))",
    re.I,
)
COUNTED = re.compile(r"\b(?:(?:number|count|amount|quantity) of|num|max|how many) (?:the )?([a-z]+)", re.I)
MAX_DEPTH = 8  # nested objects deeper than this are left to their defaults

ORIGIN = lexicon_list("origin_words")  # "between 1 and 9": `min_*` is the start
TARGET = lexicon_list("target_words")
CURRENCY_WORDS = {"currency", "currencies", "货币", "币种"}  # a description that names its slot's kind
KIND_WORDS = {line.split()[0]: set(line.split()[1:]) for line in LISTS["parameter_kinds"]}
ACCEPTS = {line.split()[0]: tuple(line.split()[1:]) for line in LISTS["accepted_values"]}  # kinds it takes


@dataclass(frozen=True)
class Slot:
    """One property of a schema, with what binding needs to know about it."""

    name: str
    schema: Schema
    required: bool
    kind: str
    words: frozenset[str]  # concepts of its name and description
    name_words: frozenset[str]  # concepts of its name alone
    dimension: str = ""  # for a number: what it measures ("time", "length", …)
    role: str = ""  # "origin", "target" or ""
    examples: tuple[str, ...] = ()  # values its description gives as examples ("such as kayak, canoe")
    codes: tuple[tuple[str, Any], ...] = ()  # meanings its description gives codes ("1 for economy")
    unit: Unit | None = None  # for a number: the unit its words name in full (`max_minutes`: min)
    counts: frozenset[str] = frozenset()  # what its description counts (`pax`: "Number of passengers")
    name_units: frozenset[Unit] = frozenset()  # the units its name's words name (`liters`: L, as 升 is)


def slot_of(name: str, schema: Schema, required: bool) -> Slot:
    """The slot for property `name` with its (resolved) schema, read once per content: a request
    read piece by piece asks for the same tool's slots many times."""
    try:
        written = json.dumps(schema)  # not sorted: the order of its properties is content too
    except (TypeError, ValueError):  # a schema built in Python with values JSON cannot write
        written = ""
    if not 0 < len(written) <= CACHED_SCHEMA:
        return _read_slot(name, schema, required)
    return _cached_slot(name, written, required)


@lru_cache(maxsize=4096)
def _cached_slot(name: str, written: str, required: bool) -> Slot:
    return _read_slot(name, json.loads(written), required)


def _read_slot(name: str, schema: Schema, required: bool) -> Slot:
    named = identifier_words(name)
    description = str(schema.get("description", ""))[:300]
    described = [t.norm for t in segment(clean(description)) if t.kind != "punct"]
    ignored = {concept(w) for w in STOPWORDS | GENERIC}
    name_words = frozenset(concept(w) for w in named) - ignored
    if not name_words:  # a parameter named only by a common word ("current", "type") still has a name
        name_words = frozenset(concept(w) for w in named if w not in STOPWORDS)
    examples = examples_of(description, default_of(schema))
    shown = {concept(w) for example in examples for w in identifier_words(example)}
    words = name_words | (frozenset(concept(w) for w in described) - ignored - shown)  # not "e.g. Paris"
    kind = _kind(name, schema)
    measured = _measuring(named)
    dimension = dimension_of(measured + described) if kind in ("integer", "number", "unit") else ""
    origin = ORIGIN | ({"base"} if kind not in ("integer", "number") else set())  # a base currency
    role = "origin" if set(named) & origin else "target" if set(named) & TARGET else ""
    codes = coded_options(description) if kind in ("integer", "number", "code", "other") else ()
    spelled = re.findall(r"[a-z]+", str(schema.get("description", "")).casefold())
    unit = unit_of(measured + spelled) if kind in ("integer", "number") else None
    counts = frozenset(concept(m[1].casefold()) for m in COUNTED.finditer(f"{description} {' '.join(named)}"))
    units = frozenset(filter(None, map(unit_named, named)))
    return Slot(
        name, schema, required, kind, words, name_words, dimension, role, examples, codes, unit, counts, units
    )


def _measuring(named: tuple[str, ...]) -> list[str]:
    """A name's words that may name a unit: not a word that makes it a bound or an end, unless it
    ends a longer name: `min_distance_km` measures km, not minutes; `timeout_min` minutes."""
    ends = ORIGIN | TARGET
    return [w for k, w in enumerate(named) if w not in ends or 0 < k == len(named) - 1]


def coded_options(description: str) -> tuple[tuple[str, Any], ...]:
    """The codes a description gives meanings to: "1 for economy, 2 for business" ->
    (("economy", 1), ("business", 2)); also "1 represents …", "1 = …", "1: …", "… (1)".

    >>> coded_options("Seat class. For example, 1 represents economy, 2 for business class.")
    (('economy', 1), ('business class', 2))
    """
    found = []
    for match in CODED.finditer(description[:600]):
        code, meaning = match["code"], match["meaning"].strip(" .'\"")
        if meaning and len(meaning) <= 40:
            found.append((meaning, int(code) if code.isdigit() else code))
    return tuple(found)[:MAX_EXAMPLES]


def examples_of(description: str, default: Any = None) -> tuple[str, ...]:
    """The example values a description lists after "e.g.", "such as", "like", "for example", "can be",
    "options include", quoted after a label's colon ("Speed: 'slow' or 'fast'"), one word each as the whole
    description or in brackets ("Fan speed (low, medium or high)"), or either side of "or" with the default.

    >>> examples_of("Kind of boat, such as kayak, canoe, dinghy, etc.")
    ('kayak', 'canoe', 'dinghy')
    >>> examples_of("The glaze, e.g. 'matte' or 'gloss'. Default is 'matte'.")
    ('matte', 'gloss')
    >>> examples_of("How much to say. Can be 'brief' or 'full'.")
    ('brief', 'full')
    >>> examples_of("low, medium or high"), examples_of("Name, address and phone of the customer")
    (('low', 'medium', 'high'), ())
    """
    found: list[str] = []
    for match in (m for pattern in (EXAMPLES, QUOTED_LIST, LISTED) for m in pattern.finditer(description)):
        said = next(group for group in match.groups() if group is not None)
        quoted = QUOTED_EXAMPLE.findall(said)
        listed = [a or b for a, b in quoted] or re.split(r"\s*(?:[,，、/或]|\bor\b|\band\b)\s*", said)
        for item in listed:
            item = re.sub(r"\s*(?:\betc\.?|等)$", "", item.strip(" .'\"`()")).strip(" .'\"`")
            if item and len(item) <= 40:
                found.append(item)
    found += next((list(m.groups()) for m in EITHER.finditer(description) if default in m.groups()), [])
    return tuple(dict.fromkeys(found))[:MAX_EXAMPLES]


def slots_of(schema: Schema, root: Schema) -> list[Slot]:
    """The slots of an object schema's properties, in order."""
    properties = schema.get("properties", {})
    if not isinstance(properties, dict):
        return []
    required = schema.get("required", [])
    required = set(required) if isinstance(required, list) else set()
    return [slot_of(n, resolve(s, root), n in required) for n, s in properties.items()]


def _kind(name: str, schema: Schema) -> str:
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return "enum"
    kind = schema_type(schema)
    if kind in ("integer", "number", "boolean", "array", "object"):
        return kind
    fmt = str(schema.get("format", ""))
    if fmt in ("email", "date", "date-time", "time", "uri", "url"):
        return {"date-time": "date", "uri": "url"}.get(fmt, fmt)
    words = identifier_words(name)
    if words and words[-1] in ("id", "ids"):
        return "code"
    described = str(schema.get("description", ""))
    ends = set(words) <= {"to", "from"}  # which end: the description says what goes there ("Phone number")
    said = {t.norm for t in segment(clean(described[:120]))} if ends else set(words)
    if said & KIND_WORDS["email"]:
        said -= {"address"}  # "Recipient name or email address": the address is the email's, no place
    found = [kind for kind, marks in KIND_WORDS.items() if said & marks]
    if EMAIL_ADDRESS.match(described) and (not found or found[0] in ("place", "person", "text")):
        return "email"  # `reply_to`: "The email address to answer to."
    if found[:1] in ([], ["code"]) and {t.norm for t in segment(clean(described[:120]))} & CURRENCY_WORDS:
        return "currency"  # `base`: "ISO code of the currency you sell"; `to_code`: "Target currency code"
    if found:  # of kinds offered as alternatives ("Recipient email or name"), the one that takes either
        return next((k for k in found if ends and "or" in said and set(found) <= {k, *ACCEPTS[k]}), found[0])
    if DATE_FORMAT.search(described):
        return "date"  # "Check-in day, YYYY-MM-DD": the description says what the name does not
    return "time" if TIME_FORMAT.search(described) else "other"  # "Tee-off, HH:MM": a time


def resolve(schema: Any, root: Schema, depth: int = 0) -> Schema:
    """Follow a local `$ref` (a JSON pointer, `tool_schemas.pointer`) and take the first non-null
    branch of `anyOf`/`oneOf`."""
    if not isinstance(schema, dict) or depth > MAX_DEPTH:
        return {}
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#"):
        return resolve(pointer(root, ref), root, depth + 1)
    for key in ("anyOf", "oneOf"):
        for branch in schema[key] if isinstance(schema.get(key), list) else []:
            resolved = resolve(branch, root, depth + 1)
            if resolved.get("type") != "null":
                return {**resolved, **{k: v for k, v in schema.items() if k != key}}
    return schema


def schema_type(schema: Schema) -> str:
    """The schema's type ('string' when unsaid); for a list of types, the first non-null."""
    if (kind := schema.get("type")) is None:
        enum = schema.get("enum")
        first = enum[0] if isinstance(enum, list) and enum else ""
        return {bool: "boolean", int: "integer", float: "number"}.get(type(first), "string")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    return kind if isinstance(kind, str) else "string"


NO_DEFAULT = object()


def default_of(schema: Schema) -> Any:
    """The schema's `default`, else one its description states ("Default is 'all'", "defaults
    to 10"), typed as the schema says; `NO_DEFAULT` when there is none.

    >>> default_of({"type": "integer", "description": "How many. Default is 10."})
    10
    >>> default_of({"type": "string", "description": "Sort order, defaults to 'asc'."})
    'asc'
    """
    if "default" in schema:
        return schema["default"]
    if not (match := DEFAULT.search(str(schema.get("description", "")))):
        return NO_DEFAULT
    said = next(group for group in match.groups() if group is not None).rstrip(".")  # "Default is asc."
    kind = schema_type(schema)
    if kind == "boolean":
        return {"true": True, "false": False}.get(said.casefold(), NO_DEFAULT)
    if kind in ("integer", "number"):
        try:
            number = float(said)
        except ValueError:
            return NO_DEFAULT
        return int(number) if kind == "integer" and number.is_integer() else number
    if kind in ("array", "object") or said.casefold() in ("none", "null"):
        return NO_DEFAULT
    enum = schema.get("enum")
    return said if not isinstance(enum, list) or said in enum else NO_DEFAULT
