"""Stage 6b, correct a failed call once: apply the fix a tool's error describes.

    >>> weather = Tool("get_weather", "Current weather in a city.", {"type": "object", "properties": {
    ...     "city": {"type": "string"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}})
    >>> sent = Call("", "get_weather", '{"city":"Paris","unit":"kelvin"}')
    >>> correct(sent, {"field": "unit", "allowed": ["celsius", "fahrenheit"]}, weather, "weather in Paris")
    Call(id='', name='get_weather', arguments='{"city":"Paris","unit":"celsius"}')

The error may be structured (`field`, `allowed`, `expected`, `suggestion`) or text, as MCP's
`isError` results are ("unit must be one of: celsius, fahrenheit"; "did you mean a.txt?"). Malformed
arguments are written again from the request, a wrong tool name becomes the intended tool's, the
field the error names (by a key, in quotes, as a word, or by the value sent) gets the allowed value
the request names, else the one closest to what was sent (so does a wrong field named like it:
`source_unit` beside `target_unit`), a value of the wrong type is converted, a field whose format
is stated ("must be formatted YYYY-MM-DD") is read again, and so are missing required properties.
A call that would change nothing is not sent.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

from wirelab.offline_model.binding import bind, bind_one
from wirelab.offline_model.calls import guessed
from wirelab.offline_model.extraction import QUOTED
from wirelab.offline_model.lexicon import LEXICON, alternatives, sections
from wirelab.offline_model.normalize import clean, identifier_words
from wirelab.offline_model.request import Call, Tool, compact

KEYS = sections(LEXICON.with_name("tool_errors.txt"))
FIELD_KEYS, ALLOWED_KEYS, TYPE_KEYS = (
    tuple(" ".join(KEYS[n]).split()) for n in ("field_keys", "allowed_keys", "type_keys")
)
LIST_CUE = re.compile(alternatives(KEYS["list_cues"]), re.I)  # "allowed values" before "allowed"
EXAMPLE = re.compile(r"\be\.g\.|\bfor example\b|\bsuch as\b|例如|比如", re.I)  # a description, then one value
JSON_TYPES = {"integer": int, "number": float, "string": str, "boolean": bool}
TYPE_WORDS = {word.lower(): line.split()[0] for line in KEYS["type_words"] for word in line.split()}
TYPE_CUES = "|".join(rf"\b{re.escape(c)}" if c.isascii() else re.escape(c) for c in KEYS["type_cues"])
TYPE_NAMED = re.compile(rf"(?:{TYPE_CUES})\s*(?:(?:an?|valid|of type)\s+)*['\"]?(\w+)", re.I)


def correct(call: Call, error: dict[str, Any], tool: Tool, request: str) -> Call | None:
    """The failed `call` with the error's fix applied, or None when nothing would change."""
    arguments = call.parsed()
    fixed = dict(bind(tool, request) if arguments is None else arguments)
    properties = tool.parameters.get("properties", {})
    field = _field(error, properties, arguments or {})
    named = field is not None and field == _field(error, properties, {})  # not only its value quoted
    kind = _expected_type(error)  # "must be of type integer" names a type, not an allowed value
    schema, sent = (properties.get(field), fixed.get(field)) if field else (None, None)
    allowed = [] if kind else _allowed(error, schema, sent)
    if field and allowed:
        meant = _meant(tool, field, allowed, request)  # "miles" is mi, "Spanish" is es, 卧室 bedroom
        fixed[field] = meant[field] if field in meant else _closest(sent, allowed)
        fixed |= {k: v for k, v in meant.items() if k != field and k in fixed and fixed[k] not in allowed}
    elif field and (converted := _coerce(sent, kind)) is not None:
        fixed[field] = converted
    elif named:  # "KeyError: 'Oslo'" says the value failed, not what would do: nothing to re-read
        fixed[field] = _described(tool, field, _text(error), request, sent)
    corrected = Call("", tool.name, compact(guessed(tool, request, fixed)))  # required ones read again
    return None if corrected.name == call.name and corrected.parsed() == arguments else corrected


def _expected_type(error: dict[str, Any]) -> str | None:
    """The JSON type the error asks for: in a type key, else named after a cue in its text."""
    said = [error[key] for key in TYPE_KEYS if isinstance(error.get(key), str)]
    said += [match.group(1) for match in TYPE_NAMED.finditer(_text(error))]
    return next((TYPE_WORDS[word.lower()] for word in said if word.lower() in TYPE_WORDS), None)


def _text(error: dict[str, Any]) -> str:
    return clean(f"{error.get('message', '')} {error.get('suggestion', '')}"[:4000])  # “” -> ""


def _field(error: dict[str, Any], properties: dict[str, Any], sent: dict[str, Any]) -> str | None:
    """The property the error is about: named in a field key, else quoted or written in its text,
    else the one whose value it quotes ("Unknown unit 'miles'")."""
    for key in FIELD_KEYS:
        value = str(error[key][-1]) if isinstance(error.get(key), list) and error[key] else error.get(key)
        if isinstance(value, str):
            name = re.split(r"[./\[\]$]+", value.strip("$./"))[-1] or value
            if name in properties:
                return name
    text = _text(error)
    named = [q for q in _quotes(text) if q in properties]
    said = set(_quotes(text)) | {w.strip("'\".,:;?!()") for w in text.split()}  # "No such file: a.TXT."
    named += [name for name, value in sent.items() if isinstance(value, str) and value in said]
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]{0,63}", text))
    named += [p for p in properties if p in words]
    return named[0] if named else None


def _quotes(text: str) -> list[str]:
    return [next(g for g in m.groups() if g is not None) for m in QUOTED.finditer(text)]


def _allowed(error: dict[str, Any], schema: Any, sent: Any) -> list[Any]:
    """Allowed values: a list in an allowed-like key, else the values quoted or listed in the text."""
    for key in ALLOWED_KEYS:
        value = error.get(key)
        if isinstance(value, list) and value:
            return value
        if isinstance(value, str) and key != "expected" and value:
            return _listed(value)
    text = _text(error)
    suggestion = clean(str(error.get("suggestion", "")).strip())
    if quoted := [q for q in _quotes(suggestion) if q != str(sent)]:  # not the value that failed
        return quoted
    cues = list(LIST_CUE.finditer(text))
    listed = _listed(text[cues[-1].end() :]) if cues else []
    enum = schema.get("enum") if isinstance(schema, dict) else None
    if listed:  # the enum's own values first
        return [v for v in listed if isinstance(enum, list) and v in map(str, enum)] or listed
    return [suggestion] if suggestion and len(suggestion.split()) == 1 else []  # "suggestion": "EUR"


def _listed(text: str) -> list[str]:
    """'a, b or c.' -> ['a', 'b', 'c'] (split without a regular expression that could backtrack);
    none from a description that gives an example ('an ISO 4217 code, e.g. EUR')."""
    if EXAMPLE.search(text):
        return []
    text = text.split("\n")[0].strip(" :.?？[]()").removesuffix("之一").strip()
    for separator in (" or ", "|", ";", "、", "，"):
        text = text.replace(separator, ",")
    items = [item for item in (i.strip(" .'\"[]()") for i in text.split(",")) if item]
    lone = len(items) == 1 and " " in items[0]  # "formatted YYYY-MM-DD" describes a value, it is none
    return items if not lone and all(len(item.split()) <= 3 for item in items) else []  # prose, not a list


def _meant(tool: Tool, field: str, allowed: list[Any], request: str) -> dict[str, Any]:
    """The allowed values the request names for `field` and the fields named with the same last
    word (`source_unit` beside `target_unit`: an error often names only the first wrong one),
    read as if the schema had listed them as options."""
    properties = dict(tool.parameters.get("properties", {}))
    last = identifier_words(field)[-1:]
    named = [n for n, p in properties.items() if isinstance(p, dict) and identifier_words(n)[-1:] == last]
    properties |= {name: {**properties[name], "enum": allowed} for name in named}
    strict = Tool(tool.name, tool.description, {**tool.parameters, "properties": properties})
    return {k: v for k, v in bind(strict, request, guess=False).items() if k in named}


def _described(tool: Tool, field: str, said: str, request: str, sent: Any) -> Any:
    """The field read from the request again, the error's words added to its description
    ("start: use HH:MM on a 24-hour clock": 6pm is 18:00); a field not sent is guessed."""
    properties = dict(tool.parameters.get("properties", {}))
    if isinstance(schema := properties.get(field), dict):
        properties[field] = {**schema, "description": f"{schema.get('description', '')} {said}".strip()}
    told = Tool(tool.name, tool.description, {**tool.parameters, "properties": properties})
    if sent is None:
        return bind_one(told, request, field)
    return bind(told, request, guess=False).get(field, sent)


def _closest(sent: Any, allowed: list[Any]) -> Any:
    """The allowed value equal to `sent` ignoring case, else the most similar (the first, the
    error's first suggestion, when nothing was sent)."""
    if sent is None:
        return allowed[0]
    text = str(sent).lower()
    by_lower = {str(option).lower(): option for option in allowed}  # an equal one is the closest
    return by_lower[difflib.get_close_matches(text, list(by_lower), n=1, cutoff=0.0)[0]]


def _coerce(value: Any, expected: str | None) -> Any:
    """`value` as the JSON type `expected`; None when it cannot be converted or already is one."""
    if expected not in JSON_TYPES or value is None:
        return None
    try:
        boolean = str(value).lower() in ("true", "1", "yes")
        converted = boolean if expected == "boolean" else JSON_TYPES[expected](value)
    except (TypeError, ValueError):
        return None
    return None if type(converted) is type(value) and converted == value else converted
