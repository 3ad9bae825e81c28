"""Fill a tool's arguments from its JSON Schema and the words of one sub-request.

    >>> weather = Tool("get_weather", "Current weather for a city.", {"type": "object",
    ...     "properties": {"city": {"type": "string"},
    ...                    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
    ...     "required": ["city"]})
    >>> fill_arguments(weather, "weather in Paris in Fahrenheit")
    {'city': 'Paris', 'unit': 'fahrenheit'}

Each property is read by its type and by the words of its name:

- enum: the value named in the text (any case), else the default, else the first;
- integer / number: a number (digits or one…twelve) next to the property's name, else the
  next unused one; the text's number is taken as is, even out of range: the tool validates;
- boolean: the property's word in the text means true, with "not"/"no"/"without" before it false;
- string: an e-mail for `*email*`, an ISO date or "today"/"tomorrow"/… for `*date*`/`*day*`,
  a token like `A-123`, `#42`, `ord_7` for `id`/`*_id`/`order`; then quoted text; then
  capitalised words for places and people (`city`, `origin`, `name`, …, with "from"/"to"
  deciding origin and destination); for `query`/`text`/`topic`/… the sub-request without
  the tool's own words (an optional one only when the text names it: "note: …");
  otherwise the most specific phrase left;
- array: items split on commas and "and", typed by `items`; object: its properties, recursively.

Required properties are always filled (a best guess when the text says nothing);
optional ones only when the text gives evidence. Keys keep the schema's order.
Left out: `$ref` outside `#/$defs`, `patternProperties`, string formats other than
email and date, and any understanding of what the words mean.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from wirelab.offline_model.text import (
    STOPWORDS,
    identifier_words,
    stem,
    stems,
    trim_stopwords,
    words,
)
from wirelab.offline_model.validation import Tool

Schema = dict[str, Any]

EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
ISO_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?Z?)?\b")
DATE_WORDS = re.compile(
    r"\b(?:today|tonight|tomorrow|yesterday|(?:this|next|last) "
    r"(?:week|month|year|monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sunday)|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b",
    re.IGNORECASE,
)
ID_TOKEN = re.compile(r"#\d+\b|\b[A-Za-z]{1,6}[-_]\d+\b|\b\d{3,}\b")
QUOTED = re.compile(r'"([^"]+)"|“([^”]+)”|(?<!\w)\'([^\']+)\'(?!\w)')
NUMBER = re.compile(r"(?<![\w#.-])-?\d+(?:\.\d+)?(?![\w-]|\.\d)")
CAPITALISED = re.compile(r"\b[A-Z][\w'-]*(?:\s+(?:de|da|del|of|la|le|van|von)?\s*[A-Z][\w'-]*)*")
NEGATIONS = {"not", "no", "without", "don't", "dont", "never", "exclude", "excluding", "skip"}
_SPELLED = "zero one two three four five six seven eight nine ten eleven twelve"
NUMBER_WORDS = {word: n for n, word in enumerate(_SPELLED.split())}

KINDS = {  # a property whose name holds one of these words is read as that kind of string
    "email": {"email", "mail"},
    "date": {"date", "day", "when", "deadline", "datetime"},
    "id": {"id", "order", "ticket", "invoice", "sku", "ref", "reference", "tracking"},
    "place": {
        "city",
        "place",
        "location",
        "country",
        "town",
        "destination",
        "origin",
        "address",
        "region",
        "airport",
        "from",
        "to",
        "where",
    },
    "person": {"name", "person", "user", "recipient", "who", "author", "contact", "customer"},
    "text": {
        "query",
        "q",
        "text",
        "topic",
        "question",
        "message",
        "search",
        "prompt",
        "keyword",
        "term",
        "content",
        "body",
        "subject",
        "note",
        "title",
        "comment",
    },
}
ORIGIN_WORDS, DESTINATION_WORDS = (
    {"origin", "from", "source", "departure", "start"},
    {"destination", "to", "target", "arrival", "end"},
)


@dataclass
class Evidence:
    """The text of one sub-request and the values other properties already took from it."""

    text: str
    tool_words: set[str]
    claimed: list[str] = field(default_factory=list)

    def take(self, candidates: list[str]) -> str | None:
        """The first candidate no other property took, now taken."""
        for candidate in candidates:
            if candidate not in self.claimed:
                self.claimed.append(candidate)
                return candidate
        return None

    def remainder(self, clause: bool = True) -> str:
        """The text without the tool's own words and the values already taken.

        With `clause`, only the first comma-separated clause that has words left.
        """
        text = self.text
        for value in self.claimed:
            text = re.sub(rf"(?<![\w-]){re.escape(value)}(?![\w-])", " ", text)
        kept = [w for w in text.split() if stem(w.strip(",.?!:;").lower()) not in self.tool_words]
        phrase = " ".join(kept)
        clauses = [trim_stopwords(c) for c in phrase.split(",")] if clause else [phrase]
        return next((c for c in clauses if c), trim_stopwords(phrase))


def fill_arguments(tool: Tool, request: str, *, guess: bool = True) -> dict[str, Any]:
    """Arguments for `tool` read from `request`; required ones guessed unless `guess=False`."""
    return fill_object(tool.parameters, _evidence(tool, request), tool.parameters, guess)


def fill_property(tool: Tool, request: str, name: str) -> Any:
    """One property of `tool` read from `request`, guessed if the text has no value for it."""
    schema = resolve(tool.parameters.get("properties", {}).get(name, {}), tool.parameters)
    return fill_value(name, schema, _evidence(tool, request), tool.parameters, True)


def _evidence(tool: Tool, request: str) -> Evidence:
    own_words = " ".join(identifier_words(tool.name)) + " " + tool.description
    return Evidence(request, set(stems(own_words)))


def fill_object(schema: Schema, evidence: Evidence, root: Schema, guess: bool) -> dict[str, Any]:
    """Fill an object schema's properties: the specific kinds first, free text last."""
    properties = schema.get("properties", {})
    required = set(schema.get("required", []))
    values: dict[str, Any] = {}
    for name in sorted(properties, key=lambda n: _priority(n, resolve(properties[n], root))):
        value = fill_value(name, resolve(properties[name], root), evidence, root, guess and name in required)
        if value is not None:
            values[name] = value
    return {name: values[name] for name in properties if name in values}


def resolve(schema: Any, root: Schema) -> Schema:
    """Follow a local `$ref` and take the first non-null branch of `anyOf`/`oneOf`."""
    if not isinstance(schema, dict):
        return {}
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: Any = root
        for part in ref[2:].split("/"):
            target = target.get(part, {}) if isinstance(target, dict) else {}
        return resolve(target, root)
    for key in ("anyOf", "oneOf"):
        branches = [b for b in schema.get(key, []) if resolve(b, root).get("type") != "null"]
        if branches:
            return {**resolve(branches[0], root), **{k: v for k, v in schema.items() if k != key}}
    return schema


def schema_type(schema: Schema) -> str:
    """The schema's type ('string' when unsaid); for a list of types, the first non-null."""
    kind = schema.get("type", "string" if "enum" not in schema else _enum_type(schema))
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    return kind


def _enum_type(schema: Schema) -> str:
    first = schema["enum"][0] if schema["enum"] else ""
    return {bool: "boolean", int: "integer", float: "number"}.get(type(first), "string")


def _priority(name: str, schema: Schema) -> int:
    if "enum" in schema or schema_type(schema) in ("integer", "number", "boolean"):
        return 0
    return {"email": 1, "date": 1, "id": 1, "place": 2, "person": 2}.get(string_kind(name, schema), 3)


def fill_value(name: str, schema: Schema, evidence: Evidence, root: Schema, required: bool) -> Any:
    """One property's value, or None when the text has none and it is optional."""
    if "enum" in schema:
        return enum_value(schema, evidence, required)
    reader = {
        "integer": number_value,
        "number": number_value,
        "boolean": boolean_value,
        "array": array_value,
        "object": object_value,
    }.get(schema_type(schema), string_value)
    value = reader(name, schema, evidence, root, required)
    if value is None and required:
        return schema.get("default", value)
    return value


def enum_value(schema: Schema, evidence: Evidence, required: bool) -> Any:
    """The enum value the text names (any case), else the default, else the first."""
    options = schema["enum"]
    lowered = evidence.text.lower()
    for option in options:
        spoken = " ".join(identifier_words(str(option))) if isinstance(option, str) else str(option)
        if re.search(rf"(?<!\w){re.escape(spoken.lower())}(?!\w)", lowered) or re.search(
            rf"(?<!\w){re.escape(str(option).lower())}(?!\w)", lowered
        ):
            evidence.claimed.append(spoken) if spoken in evidence.text else None
            return option
    if not required or not options:
        return None
    return schema.get("default", options[0])


def number_value(
    name: str, schema: Schema, evidence: Evidence, root: Schema, required: bool
) -> int | float | None:
    """A number near the property's name, else the next unused one; as written, not clamped."""
    found = _numbers_near(name, evidence) + _numbers(evidence.text)
    taken = evidence.take(found)
    if taken is None:
        if not required:
            return None
        return schema.get("default", schema.get("minimum", 1 if schema_type(schema) == "integer" else 0))
    number = float(NUMBER_WORDS.get(taken.lower(), taken))
    return int(number) if schema_type(schema) == "integer" or number.is_integer() else number


def _numbers(text: str) -> list[str]:
    spelled = [w for w in re.findall(r"[A-Za-z]+", text) if w.lower() in NUMBER_WORDS]
    return NUMBER.findall(text) + spelled


def _numbers_near(name: str, evidence: Evidence) -> list[str]:
    tokens = re.findall(r"[\w.'-]+", evidence.text)
    names = set(stems(" ".join(identifier_words(name))))
    near = []
    for k, token in enumerate(tokens):
        if stem(token.lower()) in names:
            near += [t for t in tokens[max(0, k - 3) : k + 4] if _numbers(t) == [t]]
    return near


def boolean_value(name: str, schema: Schema, evidence: Evidence, root: Schema, required: bool) -> bool | None:
    """True when the property's word is in the text, false after a negation; else the default."""
    generic = {"include", "is", "has", "use", "enable", "show", "with", "allow", "only"}
    names = set(stems(" ".join(identifier_words(name)))) - generic or set(
        stems(" ".join(identifier_words(name)))
    )
    tokens = [w.strip(",.?!:;").lower() for w in evidence.text.split()]
    for k, token in enumerate(tokens):
        if stem(token) in names:
            return not NEGATIONS & set(tokens[max(0, k - 3) : k])
    return schema.get("default", False) if required else None


def string_kind(name: str, schema: Schema) -> str:
    """Which kind of string a property holds: email, date, id, place, person, text or other."""
    fmt = schema.get("format", "")
    if fmt in ("email", "date", "date-time"):
        return "date" if fmt.startswith("date") else "email"
    words = set(identifier_words(name)) | {stem(w) for w in identifier_words(name)}
    if name == "id" or name.lower().endswith("id") and "id" in words:
        return "id"
    return next((kind for kind, marks in KINDS.items() if words & marks), "other")


def string_value(name: str, schema: Schema, evidence: Evidence, root: Schema, required: bool) -> str | None:
    """A string by the property's kind (see the module docstring); a guess only if required."""
    kind = string_kind(name, schema)
    value = evidence.take(_pattern_candidates(kind, evidence.text) + quotes(evidence.text))
    if value is None and kind in ("place", "person", "other"):
        value = evidence.take(_entity_candidates(name, evidence))
    if value is None and kind == "place" and required:
        value = evidence.take(_after_preposition(evidence))
    if value is None and (required or kind == "text" and _mentions(name, evidence.text)):
        value = evidence.take([evidence.remainder()]) or (evidence.text.strip() if required else None)
    return value.lstrip("#") if kind == "id" and value else value


def _pattern_candidates(kind: str, text: str) -> list[str]:
    if kind == "email":
        return EMAIL.findall(text)
    if kind == "date":
        return ISO_DATE.findall(text) + DATE_WORDS.findall(text)
    return ID_TOKEN.findall(text) if kind == "id" else []


def quotes(text: str) -> list[str]:
    """Quoted passages in order: "double", “curly” or 'single'."""
    return [next(g for g in match.groups() if g) for match in QUOTED.finditer(text)]


def _entity_candidates(name: str, evidence: Evidence) -> list[str]:
    """Capitalised phrases, those after 'from' first for an origin and after 'to' for a target."""
    words = set(identifier_words(name))
    preposition = "from" if words & ORIGIN_WORDS else "to" if words & DESTINATION_WORDS else None
    found = [
        (m.group(), evidence.text[: m.start()].split()[-1:])
        for m in CAPITALISED.finditer(evidence.text)
        if _is_entity(m.group(), evidence)
    ]
    preferred = [phrase for phrase, before in found if [w.lower() for w in before] == [preposition]]
    return preferred + [phrase for phrase, _ in found]


def _is_entity(phrase: str, evidence: Evidence) -> bool:
    first = words(phrase)[:1]
    return bool(first) and first[0] not in STOPWORDS and stem(first[0]) not in evidence.tool_words


def _after_preposition(evidence: Evidence) -> list[str]:
    """Lower-case places: 'weather in paris' -> ['paris'] (the word after in/at/to/from/for)."""
    found = re.findall(r"\b(?:in|at|to|from|for|near)\s+([a-z][\w'-]*)", evidence.text)
    return [w for w in found if w not in STOPWORDS and stem(w) not in evidence.tool_words]


def array_value(
    name: str, schema: Schema, evidence: Evidence, root: Schema, required: bool
) -> list[Any] | None:
    """Items from the text: numbers, enum values, quotes, capitalised names or a split phrase."""
    items = resolve(schema.get("items", {}), root)
    kind = schema_type(items)
    if "enum" in items:
        found = [
            o
            for o in items["enum"]
            if re.search(rf"(?<!\w){re.escape(str(o))}(?!\w)", evidence.text, re.IGNORECASE)
        ]
    elif kind in ("integer", "number"):
        found = [number_value(name, items, evidence, root, False) for _ in _numbers(evidence.text)]
    elif required or _mentions(name, evidence.text):
        found = _string_items(name, items, evidence)
    else:
        found = []
    found = [item for item in found if item is not None]
    return found or ([] if required else None)


def _string_items(name: str, items: Schema, evidence: Evidence) -> list[str]:
    if quotes(evidence.text):
        return quotes(evidence.text)
    if string_kind(name, items) in ("place", "person"):
        return [p for p in _entity_candidates(name, evidence) if p not in evidence.claimed]
    phrase = evidence.remainder(clause=False)
    pieces = re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+|\s+or\s+", phrase.split(":")[-1])
    return [trim_stopwords(piece) for piece in pieces if trim_stopwords(piece)]


def _mentions(name: str, text: str) -> bool:
    return bool(set(stems(" ".join(identifier_words(name)))) & set(stems(text)))


def object_value(
    name: str, schema: Schema, evidence: Evidence, root: Schema, required: bool
) -> dict[str, Any] | None:
    """A nested object: its own properties, filled the same way."""
    value = fill_object(schema, evidence, root, guess=required)
    return value if value or required else None


def has_evidence_for(tool: Tool, request: str, name: str) -> bool:
    """Whether `request` itself names a value for property `name` of `tool`."""
    return name in fill_arguments(tool, request, guess=False)
