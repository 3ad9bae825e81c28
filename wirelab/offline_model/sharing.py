"""Stage 5c, shared context: what one intent leaves unsaid, the intents around it say.

    >>> weather = Tool("get_weather", "Current weather in a city.", {"type": "object", "properties": {
    ...     "city": {"type": "string"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}})
    >>> tides = Tool("get_tides", "Tide times for a city.", {"type": "object", "properties": {
    ...     "city": {"type": "string"}}, "required": ["city"]})
    >>> from wirelab.offline_model.selection import plan
    >>> items = plan("The weather for Oslo and the tides there", (weather, tides))
    >>> [(item.tool.name, item.arguments) for item in bind_plan(items)]
    [('get_weather', {'city': 'Oslo'}), ('get_tides', {'city': 'Oslo'})]

A careful reader fills a gap in one request from the requests next to it:

- **the same call again** ("…; also, the same for the attic") keeps every argument it does not change;
- **a value another intent gave**: a required parameter an item gives no value for, or only
  unmarked words ("for the same period"), takes the value of a parameter of the same name (or
  sharing a word of it and its type) from the nearest item before it, else after it (not, for
  unmarked words, from another request for the same tool: its value is its own); an optional
  one, from a parameter of its name in the item right beside it, when all its calls give one
  value ("tomorrow's tides and the sea forecast"). When that item made one call per value ("in
  1984 and 1990"), so does this one; two gaps of one kind take those values in turn ("the time
  in Oslo and Lima, and how many hours apart they are");
- **said once**: an intent that names a tool again with nothing of its own, or a call another
  intent already makes with as much, is not called twice;
- **later**: an intent after another that lacks a required value and points at a found thing
  ("find a flat and book it") waits for the result: it is no call of this turn.

What is still missing is guessed from the item's own text (`calls.guessed`), or, when nothing
could say it, reported as `missing` so the model asks.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from wirelab.offline_model.calls import MAX_CALLS, Bound, bind_calls, guessed, repeat
from wirelab.offline_model.lexicon import GENERIC, lexicon_list
from wirelab.offline_model.normalize import clean, identifier_words, segment
from wirelab.offline_model.request import Tool
from wirelab.offline_model.selection import PlanItem
from wirelab.offline_model.slots import NO_DEFAULT, ORIGIN, TARGET, default_of, resolve, schema_type, slots_of

AGAIN = {"again", "another", "twice", "more", "repeat"}
RESULTS = lexicon_list("result_pronouns")  # "book it": a value only an earlier call's result gives
GUESSABLE = ("boolean", "array", "object")  # a flag is false, a list empty, unless the user says
MAX_COMPARED = 64  # calls of one tool compared with each other for repeats


def bind_plan(items: list[PlanItem]) -> list[PlanItem]:
    """Every item's calls with their arguments and what is still missing (see above)."""
    calls = [list(with_calls(item).calls or ()) for item in items]
    own = [{k: v for b in found for k, v in b.arguments.items() if k not in b.unmarked} for found in calls]
    for k in range(1, len(items)):
        if items[k].tool is items[k - 1].tool:  # asked again: keep what it does not change
            last = calls[k - 1][-1].frame if calls[k - 1] else 0
            calls[k] = repeat([b for b in calls[k - 1] if b.frame == last], calls[k])
    says = [any(set(b.arguments) - b.unmarked for b in found) for found in calls]
    waits = [bool(k and _gaps(i.tool, calls[k]) and RESULTS & _words(i)) for k, i in enumerate(items)]
    for k in range(len(items)):
        calls[k] = _carried(items, calls, k)
    bound = []
    for number, (item, found) in enumerate(zip(items, calls, strict=True)):
        named_again = any(s and other.tool is item.tool for other, s in zip(items, says, strict=True))
        if not says[number] and named_again or _restates(items, own, number) or waits[number]:
            continue  # the tool named again with nothing new; or a call on what another finds
        for call in found:
            missing = unsaid(item.tool, call.arguments)
            arguments = guessed(item.tool, item.request, call.arguments)
            bound.append((number, PlanItem(item.request, item.tool, arguments, missing)))
    return _distinct(bound)


def with_calls(item: PlanItem) -> PlanItem:
    """The item with its calls bound (`calls.bind_calls`), which the stages after it read."""
    return item if item.calls is not None else replace(item, calls=tuple(bind_calls(item.tool, item.request)))


def _restates(items: list[PlanItem], own: list[dict[str, Any]], k: int) -> bool:
    """Whether item k asks again for an earlier intent of its tool (not the one right before
    it), with no value that intent's words did not already say: a closing question that lists
    what was asked ("So: the price of the house, and the lawsuits against Mr. Lee?")."""
    said = [str(item).casefold() for v in own[k].values() for item in (v if isinstance(v, list) else [v])]
    return bool(own[k]) and any(
        items[j].tool is items[k].tool and own[j] and all(w in items[j].request.casefold() for w in said)
        for j in range(k - 1)
    )


def _distinct(bound: list[tuple[int, PlanItem]]) -> list[PlanItem]:
    """The calls less any that a call of another intent for the same tool makes, with the
    same or more arguments: a summary that asks again for what was asked ("So what are the
    …?"), or a sentence of context that named the tool before its request. Calls of one
    intent (its frames and lists), and of an intent asked again right after, are meant apart."""
    by_tool: dict[str, list[tuple[int, PlanItem]]] = {}
    for number, item in bound:
        by_tool.setdefault(item.tool.name, []).append((number, item))
    dropped: set[int] = set()
    for same in by_tool.values():
        same = same[:MAX_COMPARED]
        for k, (mine, item) in enumerate(same):
            for j, (theirs, other) in enumerate(same):
                if id(other) in dropped or not _within(item, other):
                    continue
                if abs(mine - theirs) < 2 and (
                    mine == theirs
                    or item.arguments != other.arguments
                    or _asks_again(item if j < k else other)
                ):
                    continue  # an intent right after may ask for more, or again; the same call, not twice
                if j < k or not _within(other, item):
                    dropped.add(id(item))
                    break
    return [item for _, item in bound if id(item) not in dropped]


def _asks_again(item: PlanItem) -> bool:
    """Whether an intent asks for a call once more: "roll another one", "again", "再来一次"."""
    return bool(_words(item) & AGAIN) or "再" in item.request


def _words(item: PlanItem) -> set[str]:
    return {t.norm for t in segment(clean(item.request))}


def _within(item: PlanItem, other: PlanItem) -> bool:
    """Whether every argument of `item` is also an argument of `other`, with the same value."""
    mine, theirs = item.arguments or {}, other.arguments or {}
    return all(k in theirs and theirs[k] == v for k, v in mine.items())


def _carried(items: list[PlanItem], calls: list[list[Bound]], k: int) -> list[Bound]:
    """Item k's calls with its gaps filled from the nearest item that has a kin parameter;
    several gaps that would take the same values take them in turn ("the time in Oslo and
    Lima, and how many hours apart the two are")."""
    tool = items[k].tool
    found = calls[k]
    order = [*range(k - 1, -1, -1), *range(k + 1, len(items))]
    sources: dict[tuple[int, str], list[str]] = {}
    values_of: dict[tuple[int, str], list[Any]] = {}
    left = []
    gaps = _gaps(tool, found)
    options = [n for n in _properties(tool) if n not in gaps and all(n not in b.arguments for b in found)]
    said = {name for bound in found for name in bound.arguments}  # in unmarked words, still its own
    for name in gaps + options:
        for other in order:
            if name in said and items[other].tool is tool:
                continue  # another call of this tool: its value is its own, not this call's
            kin = _kin(tool, name, items[other].tool) if name in gaps else _beside(items, k, other, name)
            shared = name in gaps or len({repr(b.arguments.get(kin or "")) for b in calls[other]}) == 1
            values = _values(calls[other], kin, other < k) if kin and shared else []
            if kin and values:
                sources.setdefault((other, kin), []).append(name)
                values_of[(other, kin)] = values
                break
        else:
            left += [name] if name in gaps else []
    for source, names in sources.items():
        values = values_of[source]
        if len(names) > 1 and len(values) == len(names):
            filled = dict(zip(names, values, strict=True))
            found = [Bound({**b.arguments, **filled}, b.unmarked - set(names), b.frame) for b in found]
            continue
        for name in names:
            found = [Bound({**b.arguments, name: v}, b.unmarked - {name}) for b in found for v in values]
        found = found[:MAX_CALLS]
    return _in_turn(items, calls, k, found, left, order)


def _beside(items: list[PlanItem], k: int, other: int, name: str) -> str | None:
    """An optional parameter no call of item k gives takes the value of the parameter of its
    very name in the item right before or after ("Tomorrow's tides and the sea forecast at
    Brest": the forecast is for tomorrow too)."""
    return name if abs(other - k) == 1 and name in _properties(items[other].tool) else None


def _in_turn(
    items: list[PlanItem],
    calls: list[list[Bound]],
    k: int,
    found: list[Bound],
    left: list[str],
    order: list[int],
) -> list[Bound]:
    """Gaps of one kind (`city_1`, `city_2`) filled in turn with the values another intent gave
    one parameter of that kind in its several calls."""
    kinds = {slot.name: slot.kind for slot in slots_of(items[k].tool.parameters, items[k].tool.parameters)}
    for kind in dict.fromkeys(kinds[name] for name in left if name in kinds):
        names = [name for name in left if kinds.get(name) == kind]
        if len(names) < 2:
            continue
        for other in order:
            donor = items[other].tool
            theirs = [s.name for s in slots_of(donor.parameters, donor.parameters) if s.kind == kind]
            given = (_values(calls[other], n, True) for n in theirs)
            if values := next((v for v in given if len(v) == len(names)), []):
                filled = dict(zip(names, values, strict=True))
                found = [Bound({**b.arguments, **filled}, b.unmarked - set(names), b.frame) for b in found]
                break
    return found


def _gaps(tool: Tool, found: list[Bound]) -> list[str]:
    """Required parameters no call of the item fills, or fills only with unmarked words."""
    required = tool.parameters.get("required", [])
    required = required if isinstance(required, list) else []
    return [name for name in required if all(name not in b.arguments or name in b.unmarked for b in found)]


def _values(found: list[Bound], name: str, before: bool) -> list[Any]:
    """The distinct values the calls give `name` with marked words, in order, from the frame
    nearest the item they go to (the last frame of an item before it)."""
    nearest = (found[-1].frame if before else found[0].frame) if found else 0
    values: list[Any] = []
    for bound in (b for b in found if b.frame == nearest and name in b.arguments and name not in b.unmarked):
        if bound.arguments[name] not in values:  # distinct, and in order: a value may be a list or a dict
            values.append(bound.arguments[name])
    return values


def _kin(tool: Tool, name: str, other: Tool) -> str | None:
    """The parameter of `other` that holds what `name` holds: the same name, else one that
    shares a word of it (not a generic one, nor one of direction like "from") and its type,
    options or none ("company" ~ "company_name"; an `event_type` names no `event_name`)."""
    mine, theirs = _properties(tool), _properties(other)
    if name in theirs:
        return name
    words = set(identifier_words(name)) - GENERIC - ORIGIN - TARGET  # `from_unit` is no `from_currency`
    schema = resolve(mine.get(name), tool.parameters)
    kind = (schema_type(schema), "enum" in schema)
    for candidate, theirs_schema in theirs.items():
        resolved = resolve(theirs_schema, other.parameters)
        if words & set(identifier_words(candidate)) and (schema_type(resolved), "enum" in resolved) == kind:
            return candidate
    return None


def _properties(tool: Tool) -> dict[str, Any]:
    properties = tool.parameters.get("properties", {})
    return properties if isinstance(properties, dict) else {}


def unsaid(tool: Tool, given: dict[str, Any]) -> tuple[str, ...]:
    """Required parameters with no value in the request and none the schema gives: a string,
    a number or an option only the user can say (a flag can be false, a list empty)."""
    required = tool.parameters.get("required", [])
    named = [n for n in (required if isinstance(required, list) else []) if n not in given]
    schemas = [(n, resolve(_properties(tool).get(n), tool.parameters)) for n in named]
    return tuple(n for n, s in schemas if default_of(s) is NO_DEFAULT and schema_type(s) not in GUESSABLE)
