"""Stage 4, bind values to parameters: fill a tool's arguments from its JSON Schema.

    bind(weather, "weather in Paris in Fahrenheit")   # -> {"city": "Paris", "unit": "fahrenheit"}

Every (parameter, value) pair gets a score, and the best pairs win, each value
used once (a greedy assignment). What raises a pair's score:

- **type**: a parameter takes only values of its kind: an integer takes a
  whole number, `format: email` an e-mail, a `currency` parameter a currency,
  an enum one of its options (matched in any case, by its words or a synonym);
- **name and description**: the parameter's words right before or after the
  value ("radius 5", "5 people");
- **position**: "from X to Y", "X in Y", "从X到Y": an origin-like parameter
  (`from_*`, `source`, `origin`) takes the value after "from"/"从", a target
  (`to_*`, `destination`) the value after "to"/"into"/"到";
- **order**: on a tie, parameters take values in the order both are written.

Required parameters are always filled (the default, else a best guess); an
optional one only when the text gives it. Nested objects are filled the same
way; arrays take a written list ("eggs, milk and bread"). Free-text
parameters (`query`, `message`, …) take what is left of the request once the
tool's own words and the values used elsewhere are removed.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Any

from wirelab.offline_model.extraction import Value, extract, list_items, resolve_date
from wirelab.offline_model.lexicon import ACTION_WORDS, GENERIC, STOPWORDS, concept
from wirelab.offline_model.normalize import Token, clean, identifier_words, segment
from wirelab.offline_model.request import Tool

Schema = dict[str, Any]
MAX_DEPTH = 8  # nested objects deeper than this are left to their defaults
MAX_REPEATS = 8  # calls one intent may become

ORIGIN = {"from", "origin", "source", "departure", "start", "base", "original", "src", "sender", "old"}
TARGET = {"to", "destination", "target", "arrival", "end", "into", "dest", "recipient", "new", "quote"}
KIND_WORDS = {
    "email": {"email", "mail"},
    "date": {"date", "day", "when", "deadline", "birthday"},
    "time": {"time", "hour", "clock"},
    "url": {"url", "link", "website", "uri", "site"},
    "currency": {"currency"},
    "country": {"country", "nation"},
    "language": {"language", "lang", "locale"},
    "code": {"id", "code", "sku", "ticker", "symbol", "ticket", "invoice", "tracking", "flight", "isbn"},
    "place": {"city", "place", "location", "town", "destination", "origin", "address", "region", "where"}
    | {"airport", "state", "area", "venue", "from", "to", "near", "station"},
    "person": {"name", "person", "user", "who", "author", "contact", "customer", "username", "player"}
    | {"recipient", "owner", "artist", "team", "company"},
    "text": {"query", "q", "text", "topic", "question", "message", "search", "prompt", "keyword", "keywords"}
    | {"term", "content", "body", "subject", "note", "title", "comment", "description", "input", "sentence"},
}
ACCEPTS = {
    "email": ("email",),
    "date": ("date",),
    "time": ("time",),
    "url": ("url",),
    "currency": ("currency",),
    "country": ("country", "name"),
    "language": ("language", "name"),
    "code": ("code", "quoted", "number"),
    "place": ("name", "country", "quoted"),
    "person": ("name", "quoted", "email"),
    "text": ("quoted",),
    "other": ("quoted", "name", "code", "country", "language"),
}
SPECIFIC = {"email", "date", "time", "url", "currency", "country", "language", "quoted", "enum"}
AFTER_FROM = {"from", "从", "由"}
AFTER_TO = {"to", "into", "in", "到", "成", "为", "去", "往"}
AFTER_AT = {"in", "at", "near", "for", "around", "在"}


@dataclass
class Evidence:
    """One sub-request: its text, tokens and values, and which values are used."""

    text: str
    tokens: list[Token]
    values: list[Value]
    tool_words: set[str]
    used: set[int] = field(default_factory=set)
    starts: list[int] = field(default_factory=list)
    chosen: dict[str, int] = field(default_factory=dict)  # top-level parameter -> value index

    @classmethod
    def of(cls, tool: Tool, text: str) -> Evidence:
        text = clean(text)
        tokens = segment(text)
        own = " ".join(identifier_words(tool.name)) + " " + tool.description[:500]
        own_words = {concept(t.norm) for t in segment(clean(own))}
        return cls(text, tokens, extract(text, tokens), own_words, starts=[t.start for t in tokens])

    def before(self, value: Value, count: int = 5) -> list[str]:
        """Up to `count` words just before the value, nearest last, not across a comma."""
        kept: list[str] = []
        first_after = bisect.bisect_left(self.starts, value.start)
        for token in reversed(self.tokens[max(0, first_after - count * 2) : first_after]):
            if token.kind == "punct" and token.text in ",;:()":
                break
            if token.kind != "punct":
                kept.insert(0, token.norm)
        return kept[-count:]

    def after(self, value: Value, count: int = 3) -> list[str]:
        """Up to `count` words just after the value, nearest first, not across a comma."""
        kept: list[str] = []
        first = bisect.bisect_left(self.starts, value.end)
        for token in self.tokens[first : first + count * 2]:
            if token.kind == "punct" and token.text in ",;:()":
                break
            if token.kind != "punct":
                kept.append(token.norm)
        return kept[:count]


@dataclass(frozen=True)
class Parameter:
    """One property of a schema, with what binding needs to know about it."""

    name: str
    schema: Schema
    required: bool
    kind: str
    words: frozenset[str]  # concepts of its name and description
    name_words: frozenset[str]  # concepts of its name alone


def bind(tool: Tool, text: str, *, guess: bool = True) -> dict[str, Any]:
    """Arguments for `tool` read from `text`; required ones guessed unless `guess=False`."""
    return fill_object(tool.parameters, Evidence.of(tool, text), tool.parameters, guess, 0)


def bind_all(tool: Tool, text: str, *, guess: bool = True) -> list[dict[str, Any]]:
    """One set of arguments per set of values the text gives.

    "weather in Paris and Rome" -> two sets (a list where one parameter takes one value);
    "BMI for 6 feet and 80 kg, and for 5.6 feet and 60 kg" -> two sets (the values left
    over fill the same parameters again, the rest of the first set kept).
    """
    evidence = Evidence.of(tool, text)
    first = fill_object(tool.parameters, evidence, tool.parameters, guess, 0)
    properties = tool.parameters.get("properties", {})
    parameters = [_parameter(n, resolve(s, tool.parameters), n in first) for n, s in properties.items()]
    for name, index in evidence.chosen.items():
        value = evidence.values[index]
        takers = [p for p in parameters if _typed(p, value) is not None]
        takers = [p for p in takers if p.kind == value.kind] or takers  # a country parameter, for a country
        if len(takers) > 1:
            continue  # "sides 4 and 5" fills two parameters, it is not two calls
        siblings = _siblings(evidence, index)
        schema = resolve(properties.get(name, {}), tool.parameters)
        typed = [_typed(_parameter(name, schema, True), evidence.values[k]) for k in siblings]
        typed = [value for value in typed if value is not None]
        if typed:
            return [first] + [{**first, name: value} for value in typed]
    return [first] + _repeats(parameters, evidence, first)


def _repeats(parameters: list[Parameter], evidence: Evidence, first: dict[str, Any]) -> list[dict[str, Any]]:
    """Further calls from the values the first call left over, each of the kind the first one used."""
    kinds = {name: evidence.values[index].kind for name, index in evidence.chosen.items()}
    again = [p for p in parameters if p.name in kinds]
    calls: list[dict[str, Any]] = []
    while len(calls) < MAX_REPEATS:
        evidence.chosen = {}
        extra = {
            parameter.name: value
            for parameter, value, index in _assign(again, evidence)
            if evidence.values[index].kind == kinds[parameter.name] and _is_written(evidence.values[index])
        }
        if not extra:
            return calls
        calls.append({**first, **extra})
    return calls


def _is_written(value: Value) -> bool:
    """A value that repeats reliably: digits (not a number word such as "two"), a quote, a date,
    an e-mail or a code. A name left over is more often context than a second call."""
    if value.kind == "number":
        return value.text[:1].isdigit() or value.text[:1] == "-"
    return value.kind in ("quoted", "date", "email", "code")


LIST_GLUE = {
    ",",
    "and",
    "or",
    "&",
    "in",
    "at",
    "for",
    "of",
    "the",
    "和",
    "与",
    "及",
    "、",
    "或",
    "以及",
    "还有",
}


LIST_JOINERS = {",", "and", "or", "&", "和", "与", "及", "、", "或", "以及", "还有"}


def _siblings(evidence: Evidence, index: int) -> list[int]:
    """Unused values of the same kind listed right after value `index` ("Paris, Rome and Oslo")."""
    values, found = evidence.values, []
    last = values[index]
    for k in range(index + 1, len(values)):
        value = values[k]
        if value.start < last.end:
            continue
        gap = [t.norm for t in evidence.tokens if last.end <= t.start and t.end <= value.start]
        joined = any(word in LIST_JOINERS for word in gap)
        if (
            value.kind != last.kind
            or k in evidence.used
            or not joined
            or any(w not in LIST_GLUE for w in gap)
        ):
            break
        found.append(k)
        last = value
    return found


def bind_one(tool: Tool, text: str, name: str) -> Any:
    """One property of `tool` read from `text` (guessed if the text has no value for it)."""
    bound = bind(tool, text, guess=False)
    if name in bound:
        return bound[name]
    schema = resolve(tool.parameters.get("properties", {}).get(name, {}), tool.parameters)
    return _fallback(_parameter(name, schema, True), Evidence.of(tool, text), tool.parameters, 0)


def resolve(schema: Any, root: Schema, depth: int = 0) -> Schema:
    """Follow a local `$ref` and take the first non-null branch of `anyOf`/`oneOf`."""
    if not isinstance(schema, dict) or depth > MAX_DEPTH:
        return {}
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#"):
        target: Any = root
        for part in ref[2:].split("/") if ref != "#" else []:
            target = target.get(part, {}) if isinstance(target, dict) else {}
        return resolve(target, root, depth + 1)
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list):
            for branch in branches:
                resolved = resolve(branch, root, depth + 1)
                if resolved.get("type") != "null":
                    return {**resolved, **{k: v for k, v in schema.items() if k != key}}
    return schema


def schema_type(schema: Schema) -> str:
    """The schema's type ('string' when unsaid); for a list of types, the first non-null."""
    kind = schema.get("type")
    if kind is None:
        enum = schema.get("enum")
        first = enum[0] if isinstance(enum, list) and enum else ""
        return {bool: "boolean", int: "integer", float: "number"}.get(type(first), "string")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    return kind if isinstance(kind, str) else "string"


def _parameter(name: str, schema: Schema, required: bool) -> Parameter:
    words = {concept(w) for w in identifier_words(name)}
    description = str(schema.get("description", ""))[:300]
    words |= {concept(t.norm) for t in segment(clean(description)) if t.kind != "punct"}
    words -= {concept(w) for w in STOPWORDS | GENERIC}
    named = {concept(w) for w in identifier_words(name)} - {concept(w) for w in STOPWORDS | GENERIC}
    return Parameter(name, schema, required, _kind(name, schema), frozenset(words), frozenset(named))


def _kind(name: str, schema: Schema) -> str:
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return "enum"
    kind = schema_type(schema)
    if kind in ("integer", "number", "boolean", "array", "object"):
        return kind
    fmt = str(schema.get("format", ""))
    if fmt in ("email", "date", "date-time", "time", "uri", "url"):
        return {"date-time": "date", "uri": "url"}.get(fmt, fmt)
    words = set(identifier_words(name))
    if name == "id" or words and identifier_words(name)[-1] == "id":
        return "code"
    return next((kind for kind, marks in KIND_WORDS.items() if words & marks), "other")


def fill_object(schema: Schema, evidence: Evidence, root: Schema, guess: bool, depth: int) -> dict[str, Any]:
    """Fill an object schema's properties (see the module docstring)."""
    properties = schema.get("properties", {})
    if not isinstance(properties, dict) or depth > MAX_DEPTH:
        return {}
    required = schema.get("required", [])
    required = set(required) if isinstance(required, list) else set()
    parameters = [_parameter(n, resolve(s, root), n in required) for n, s in properties.items()]
    known = {(v.kind, v.start, repr(v.value)) for v in evidence.values}
    for parameter in parameters:
        if parameter.kind == "enum":
            for value in _enum_values(parameter.schema["enum"], evidence):
                if (value.kind, value.start, repr(value.value)) not in known:
                    known.add((value.kind, value.start, repr(value.value)))
                    evidence.values.append(value)
    values: dict[str, Any] = {}
    for parameter, value, index in _assign(parameters, evidence):
        values[parameter.name] = value
        if depth == 0:
            evidence.chosen[parameter.name] = index
    for parameter in parameters:
        if parameter.name in values:
            continue
        value = _structured(parameter, evidence, root, guess, depth)
        if value is None and guess and parameter.required:
            value = _fallback(parameter, evidence, root, depth)
        if value is not None:
            values[parameter.name] = value
    return {name: values[name] for name in properties if name in values}


def _assign(parameters: list[Parameter], evidence: Evidence) -> list[tuple[Parameter, Any, int]]:
    """Greedy assignment of scalar values to parameters, best-scoring pairs first."""
    scalar = [p for p in parameters if p.kind not in ("array", "object", "boolean")]
    enums = [v for v in evidence.values if v.kind == "enum"]
    fits: list[tuple[int, int, Any]] = []  # (parameter rank, value index, typed value)
    for rank, parameter in enumerate(scalar):
        for index, value in enumerate(evidence.values):
            if value.kind == "name" and any(e.start < value.end and value.start < e.end for e in enums):
                continue  # a word that names an enum option is that option, not a name
            typed = _typed(parameter, value)
            if typed is not None and index not in evidence.used:
                fits.append((rank, index, typed))
    # On a tie, the n-th parameter takes the n-th value that fits it: "GCD of 96 and 128".
    values_of = {rank: [i for r, i, _ in fits if r == rank] for rank in range(len(scalar))}
    takers_of = {index: [r for r, i, _ in fits if i == index] for _, index, _ in fits}
    pairs = []
    for rank, index, typed in fits:
        points = _score(scalar[rank], evidence.values[index], evidence)
        if points is None:
            continue
        order = abs(takers_of[index].index(rank) - values_of[rank].index(index))
        pairs.append((points - 0.01 * order, rank, index, scalar[rank], typed))
    pairs.sort(key=lambda pair: (-pair[0], pair[1], pair[2]))
    done: set[str] = set()
    chosen = []
    for _, _, index, parameter, typed in pairs:
        if parameter.name in done or index in evidence.used:
            continue
        if _overlaps_used(evidence, evidence.values[index]):
            continue
        done.add(parameter.name)
        evidence.used.add(index)
        chosen.append((parameter, typed, index))
    return chosen


def _overlaps_used(evidence: Evidence, value: Value) -> bool:
    return any(
        evidence.values[k].start < value.end and value.start < evidence.values[k].end for k in evidence.used
    )


def _typed(parameter: Parameter, value: Value) -> Any:
    """The value as this parameter would take it, or None when the kinds do not fit."""
    kind = parameter.kind
    if kind == "enum":
        return _enum_option(parameter.schema["enum"], value)
    if kind in ("integer", "number"):
        if value.kind != "number":
            return None
        if kind == "integer" and isinstance(value.value, float) and not value.value.is_integer():
            return None
        return int(value.value) if kind == "integer" else value.value
    if value.kind not in ACCEPTS.get(kind, ()):
        return None
    if kind == "date" and value.kind == "date":
        return resolve_date(value.text) or value.value
    if kind == "place" and value.kind == "name" and value.region:
        return value.region  # the name with the region written after it: "Riga, Latvia"
    if kind in ("country", "language") and value.kind == kind:
        return value.value if _wants_code(parameter) else value.text
    if kind == "currency":
        return value.value  # currency parameters take ISO 4217 codes: "euros", "欧元" -> "EUR"
    if value.kind in ("number", "country", "language", "currency"):
        return value.text  # as written: "Thai" is a cuisine here, not the language code "th"
    return value.value


def _wants_code(parameter: Parameter) -> bool:
    description = str(parameter.schema.get("description", "")).lower()
    return any(word in description for word in ("code", "iso", "abbreviation", "e.g. usd", "symbol")) or (
        "code" in identifier_words(parameter.name)
    )


def _enum_option(options: list[Any], value: Value) -> Any:
    """The enum option a value (or its words) names, matched by case, words or synonyms."""
    if value.kind != "enum":
        return None
    return next((o for o in options if o == value.value), None)


def _score(parameter: Parameter, value: Value, evidence: Evidence) -> float | None:
    """How well a value fits a parameter (None: not at all). See the module docstring."""
    before, after = evidence.before(value), evidence.after(value)
    points = 1.0 + _cue(parameter, before, after, value)
    cued = points > 1.0
    name_words = set(identifier_words(parameter.name))
    last = before[-1:] + evidence.before(value, 2)[:1]
    if name_words & ORIGIN:
        points += 1.5 if set(last) & AFTER_FROM else -0.5 if set(last) & AFTER_TO else 0.0
    elif name_words & TARGET:
        points += 1.5 if set(last) & AFTER_TO else -0.5 if set(last) & AFTER_FROM else 0.0
    elif parameter.kind == "place" and set(before[-1:]) & AFTER_AT:
        points += 1.0
    if value.kind in SPECIFIC or parameter.kind in ("code", "person", "place") and value.kind == "name":
        points += 0.5
    if parameter.kind == "code" and value.kind == "number" and not cued:
        points -= 0.8
    if value.kind == "number" and not value.text[:1].isdigit() and not value.text.startswith("-"):
        points -= 0.3  # "two numbers: 40 and 50": a number word often counts, digits are the values
    if not parameter.required and points < 2.0 and value.kind not in SPECIFIC:
        return None
    return points


def _cue(parameter: Parameter, before: list[str], after: list[str], value: Value) -> float:
    """About 2 for the parameter's name right before the value, less further away or for a word
    of its description only; stopwords ("of", "the") do not count as distance."""
    best = 0.0
    for distance, word in enumerate(reversed([w for w in before if w not in STOPWORDS]), start=1):
        best = max(best, _cue_weight(parameter, word) * (2.2 - 0.4 * distance))
    for distance, word in enumerate([w for w in after if w not in STOPWORDS], start=1):
        best = max(best, _cue_weight(parameter, word) * (2.0 - 0.4 * distance))
    if value.unit and concept(value.unit) in parameter.words:
        best = max(best, 1.8)
    return best


def _cue_weight(parameter: Parameter, word: str) -> float:
    """1 for a word of the parameter's name (or a word it abbreviates), 0.5 for its description."""
    idea = concept(word)
    if idea in parameter.name_words or any(
        len(short) >= 3 and (idea.startswith(short) or word.startswith(short))
        for short in parameter.name_words
    ):
        return 1.0
    return 0.5 if idea in parameter.words else 0.0


def _structured(parameter: Parameter, evidence: Evidence, root: Schema, guess: bool, depth: int) -> Any:
    """Booleans, arrays, objects and free text: read from the whole sub-request."""
    if parameter.kind == "boolean":
        return _boolean(parameter, evidence)
    if parameter.kind == "array":
        return _array(parameter, evidence, root, depth)
    if parameter.kind == "object":
        filled = fill_object(parameter.schema, evidence, root, guess and parameter.required, depth + 1)
        return filled or None
    if parameter.kind == "text" and (parameter.required or _mentioned(parameter, evidence)):
        return _labelled(parameter, evidence) or remainder(evidence) or None
    return None


def _labelled(parameter: Parameter, evidence: Evidence) -> str | None:
    """The text after the parameter's own name: "a todo with content go to sleep" -> "go to sleep"."""
    names = set(identifier_words(parameter.name)) - evidence.tool_words
    for k, token in enumerate(evidence.tokens):
        if token.norm in names and k + 1 < len(evidence.tokens):
            rest = evidence.text[token.end :].lstrip(" :=-–—")
            for word in ("is ", "of ", "saying ", "that "):
                rest = rest.removeprefix(word)
            clause = rest.split(",")[0].split(";")[0].strip(" .?!\"'")
            return clause or None
    return None


def _boolean(parameter: Parameter, evidence: Evidence) -> bool | None:
    words = {concept(w) for w in identifier_words(parameter.name)} - {
        concept(w) for w in ("include", "is", "has", "use", "enable", "show", "with", "allow", "only")
    }
    norms = [t.norm for t in evidence.tokens]
    for k, norm in enumerate(norms):
        if words and concept(norm) in words:
            return not {"not", "no", "without", "don't", "never", "exclude", "不", "不要", "别"} & set(
                norms[max(0, k - 3) : k]
            )
    return None


def _array(parameter: Parameter, evidence: Evidence, root: Schema, depth: int) -> list[Any] | None:
    items = resolve(parameter.schema.get("items", {}), root)
    item = _parameter(parameter.name, items, True)
    if item.kind == "enum":
        found = [v for v in _enum_values(items["enum"], evidence)]
        return list(dict.fromkeys(v.value for v in found)) or None
    if item.kind in ("integer", "number"):
        numbers = [_typed(item, v) for k, v in enumerate(evidence.values) if k not in evidence.used]
        numbers = [n for n in numbers if n is not None]
        return numbers or None
    if item.kind == "object":
        filled = fill_object(items, evidence, root, False, depth + 1)
        return [filled] if filled else None
    quoted = [v.value for v in evidence.values if v.kind == "quoted"]
    if len(quoted) >= 2:
        return quoted
    phrase = evidence.text.split(":", 1)[1] if ":" in evidence.text else remainder(evidence, clause=False)
    found = list_items(phrase)
    return found or None


def _mentioned(parameter: Parameter, evidence: Evidence) -> bool:
    return any(
        concept(w) in {concept(t.norm) for t in evidence.tokens} for w in identifier_words(parameter.name)
    )


def _fallback(parameter: Parameter, evidence: Evidence, root: Schema, depth: int) -> Any:
    """A required parameter the text gave no value for: its default, else a best guess."""
    schema = parameter.schema
    if "default" in schema:
        return schema["default"]
    if parameter.kind == "enum":
        return schema["enum"][0]
    if parameter.kind in ("integer", "number"):
        low = schema.get("minimum", 1 if parameter.kind == "integer" else 0)
        return low if isinstance(low, int | float) else 0
    if parameter.kind == "boolean":
        return False
    if parameter.kind == "array":
        return []
    if parameter.kind == "object":
        return fill_object(schema, evidence, root, True, depth + 1)
    free = [
        v for k, v in enumerate(evidence.values) if k not in evidence.used and v.kind in ("name", "quoted")
    ]
    if free:
        evidence.used.add(evidence.values.index(free[0]))
        return free[0].value
    return remainder(evidence) or evidence.text.strip()


def remainder(evidence: Evidence, clause: bool = True) -> str:
    """The sub-request without the tool's words, action words and values used elsewhere.

    With `clause`, only the first comma-separated clause that keeps any words.
    """
    used = [evidence.values[k] for k in evidence.used]
    kept: list[Token] = []
    for token in evidence.tokens:
        if any(v.start <= token.start < v.end for v in used):
            kept.append(Token(",", ",", "punct", token.start, token.end))
        elif concept(token.norm) in evidence.tool_words or token.norm in ACTION_WORDS:
            continue
        else:
            kept.append(token)
    clauses: list[list[Token]] = [[]]
    for token in kept:
        if clause and token.text in (",", ";", "?", "!", "，", "。"):
            clauses.append([])
        else:
            clauses[-1].append(token)
    for part in clauses:
        trimmed = _trim(part)
        if trimmed:
            return _join(trimmed, evidence.text)
    return ""


def _trim(tokens: list[Token]) -> list[Token]:
    start, end = 0, len(tokens)
    while start < end and (tokens[start].norm in STOPWORDS or tokens[start].kind == "punct"):
        start += 1
    while end > start and (tokens[end - 1].norm in STOPWORDS or tokens[end - 1].kind == "punct"):
        end -= 1
    return tokens[start:end]


def _join(tokens: list[Token], text: str) -> str:
    """The tokens as written: the original text between them where they are adjacent."""
    pieces = [tokens[0].text]
    for previous, token in zip(tokens, tokens[1:], strict=False):
        gap = text[previous.end : token.start]
        pieces.append((gap if gap.strip() == "" and len(gap) < 3 else " ") + token.text)
    return "".join(pieces)


def _enum_values(options: list[Any], evidence: Evidence) -> list[Value]:
    """Where each enum option is named in the text: its value, its words, or a synonym of them."""
    found = []
    norms = [t.norm for t in evidence.tokens]
    concepts = [concept(n) for n in norms]
    for option in options:
        spoken = [w for w in identifier_words(str(option))] or [str(option).casefold()]
        wanted = [concept(w) for w in spoken]
        raw = str(option).casefold()
        for k in range(len(norms)):
            if norms[k] == raw or concepts[k : k + len(wanted)] == wanted:
                end_token = evidence.tokens[min(k + max(len(wanted), 1) - 1, len(norms) - 1)]
                token = evidence.tokens[k]
                found.append(
                    Value(
                        "enum", option, evidence.text[token.start : end_token.end], token.start, end_token.end
                    )
                )
    return found
