"""Describe Python functions as tools a model can call.

A model never runs code: it reads a *description* of each tool (a name, a
sentence, and a JSON Schema of the parameters) and writes a call. This module
builds that description from an ordinary typed, documented function:

    >>> from typing import Literal
    >>> def get_weather(city: str, unit: Literal["celsius", "fahrenheit"] = "celsius") -> dict:
    ...     '''Current weather for a city.
    ...
    ...     Args:
    ...         city: City name, e.g. "Paris".
    ...         unit: Temperature unit.
    ...     '''
    >>> tool(get_weather).spec()["function"]["parameters"]
    {'type': 'object',
     'properties': {'city': {'type': 'string', 'description': 'City name, e.g. "Paris".'},
                    'unit': {'type': 'string', 'enum': ['celsius', 'fahrenheit'],
                             'default': 'celsius', 'description': 'Temperature unit.'}},
     'required': ['city'], 'additionalProperties': False}

Supported hints: str, int, float, bool, None, list[X], tuple[X, ...], dict[str, X],
Literal[...], Enum subclasses, X | None (optional), dataclasses, TypedDicts and
Pydantic models (their own `model_json_schema`). Parameter descriptions come
from a Google-style `Args:` section. Running a tool and checking its arguments
are elsewhere (`wirelab.loop`, lesson 05's validation).
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import re
import types
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal, get_args, get_origin

JSONSchema = dict[str, Any]

_PRIMITIVES: dict[Any, JSONSchema] = {
    str: {"type": "string"},
    int: {"type": "integer"},
    float: {"type": "number"},
    bool: {"type": "boolean"},
    type(None): {"type": "null"},
    Any: {},
}


def type_schema(hint: Any) -> JSONSchema:
    """The JSON Schema of one type hint.

    `list[int]` -> `{"type": "array", "items": {"type": "integer"}}`
    """
    if hint in _PRIMITIVES:
        return dict(_PRIMITIVES[hint])
    origin, args = get_origin(hint), get_args(hint)
    if origin is Literal:
        return {"type": _json_type(args[0]), "enum": list(args)}
    if origin in (typing.Union, types.UnionType):
        options = [type_schema(a) for a in args if a is not type(None)]
        return options[0] if len(options) == 1 else {"anyOf": options}
    if origin in (list, set, frozenset, tuple) or hint in (list, tuple):
        return {"type": "array", "items": type_schema(args[0]) if args else {}}
    if origin is dict or hint is dict:
        return {"type": "object", "additionalProperties": type_schema(args[1]) if args else {}}
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        values = [member.value for member in hint]
        return {"type": _json_type(values[0]), "enum": values}
    return _class_schema(hint)


def _json_type(value: Any) -> str:
    return type_schema(type(value))["type"]


def _class_schema(cls: Any) -> JSONSchema:
    if hasattr(cls, "model_json_schema"):  # a Pydantic model describes itself
        return cls.model_json_schema()
    if dataclasses.is_dataclass(cls):
        fields = {
            f.name: f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
            for f in dataclasses.fields(cls)
        }
        return _object_schema(typing.get_type_hints(cls), fields, _arg_descriptions(cls.__doc__))
    if typing.is_typeddict(cls):
        required = {name: name in cls.__required_keys__ for name in typing.get_type_hints(cls)}
        return _object_schema(typing.get_type_hints(cls), required, _arg_descriptions(cls.__doc__))
    raise TypeError(
        f"cannot describe {cls!r} in JSON Schema: use str, int, float, bool, "
        "list, dict, Literal, Enum, a dataclass, a TypedDict or a Pydantic model"
    )


def _object_schema(
    hints: dict[str, Any],
    required: dict[str, bool],
    descriptions: dict[str, str],
    defaults: dict[str, Any] | None = None,
) -> JSONSchema:
    properties = {}
    for name in required:
        prop = type_schema(hints.get(name, Any))
        if defaults and name in defaults:
            prop["default"] = defaults[name]
        if name in descriptions:
            prop["description"] = descriptions[name]
        properties[name] = prop
    return {
        "type": "object",
        "properties": properties,
        "required": [n for n, r in required.items() if r],
        "additionalProperties": False,
    }


def function_schema(fn: Callable[..., Any]) -> JSONSchema:
    """The JSON Schema of `fn`'s parameters: required unless they have a default."""
    hints = typing.get_type_hints(fn)
    params = inspect.signature(fn).parameters.values()
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
        raise TypeError(f"{fn.__name__}: *args and **kwargs cannot be described to a model")
    required = {p.name: p.default is p.empty for p in params}
    defaults = {p.name: _jsonable(p.default) for p in params if p.default is not p.empty}
    defaults = {name: value for name, value in defaults.items() if value is not None}
    return _object_schema(hints, required, _arg_descriptions(fn.__doc__), defaults)


def _jsonable(value: Any) -> Any:
    return value.value if isinstance(value, enum.Enum) else value


def _arg_descriptions(doc: str | None) -> dict[str, str]:
    """Parameter descriptions from a Google-style docstring's `Args:` section."""
    section = re.search(
        r"^\s*(?:Args|Arguments|Parameters):\s*\n(.*?)(?:\n\s*\n|\Z)",
        inspect.cleandoc(doc or ""),
        re.S | re.M,
    )
    if not section:
        return {}
    entries = re.findall(r"^\s*(\w+)(?:\s*\([^)]*\))?:\s*(.+(?:\n\s{6,}.+)*)", section.group(1), re.M)
    return {name: " ".join(text.split()) for name, text in entries}


def summary(doc: str | None) -> str:
    """The description a model reads: the docstring up to its first section, on one line."""
    text = inspect.cleandoc(doc or "")
    text = re.split(r"\n\s*(?:Args|Arguments|Parameters|Returns|Raises):", text)[0]
    return " ".join(text.split())


@dataclass(frozen=True)
class Tool:
    """A function plus the description a model reads."""

    name: str
    description: str
    parameters: JSONSchema
    function: Callable[..., Any]

    def spec(self) -> dict[str, Any]:
        """The entry for the `tools` list of a Chat Completions request."""
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }

    def __call__(self, **arguments: Any) -> Any:
        return self.function(**arguments)


def tool(
    fn: Callable[..., Any] | None = None, *, name: str | None = None, description: str | None = None
) -> Any:
    """Make a `Tool` of `fn`; usable as `@tool` or `@tool(name=..., description=...)`."""

    def make(f: Callable[..., Any]) -> Tool:
        tool_name = name or f.__name__
        if not re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", tool_name):
            raise ValueError(f"tool name {tool_name!r} must match ^[a-zA-Z0-9_-]{{1,64}}$")
        return Tool(tool_name, description or summary(f.__doc__), function_schema(f), f)

    return make(fn) if fn is not None else make


class ToolRegistry:
    """Tools by name: what the loop sends to the model and looks calls up in."""

    def __init__(self, tools: Iterable[Tool | Callable[..., Any]] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        for t in tools:
            self.add(t)

    def add(self, t: Tool | Callable[..., Any]) -> Tool:
        t = t if isinstance(t, Tool) else tool(t)
        if t.name in self._tools:
            raise ValueError(f"a tool named {t.name!r} is already registered")
        self._tools[t.name] = t
        return t

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def specs(self) -> list[dict[str, Any]]:
        return [t.spec() for t in self._tools.values()]

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def __len__(self) -> int:
        return len(self._tools)

    def __iter__(self):
        return iter(self._tools.values())
